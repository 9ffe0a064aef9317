package compiler

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// edit rewrites a file of the tree with a modification time in the future,
// so that an edit within the file system's timestamp granularity still
// shows (as a later edit would).
func edit(t *testing.T, dir, name, content string, tick *time.Time) {
	t.Helper()
	writeTree(t, dir, map[string]string{name: content})
	*tick = tick.Add(time.Second)
	if err := os.Chtimes(filepath.Join(dir, name), *tick, *tick); err != nil {
		t.Fatal(err)
	}
}

// servedEnv is one environment as a compile server serves it: loaded by an
// environment.Loader whose environment_timeout is 0, so that every Get
// checks the files and reloads what changed.
type servedEnv struct{ loader *environment.Loader }

func newServedEnv(t testing.TB, manifest, modules string) servedEnv {
	t.Helper()
	s, err := puppetconf.Load(puppetconf.Options{Root: true, Flags: map[string]string{puppetconf.EnvironmentTimeout: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	return servedEnv{environment.New(s, environment.Options{Manifest: manifest, ModulePath: []string{modules}})}
}

// Get returns the environment, up to date with the disk.
func (e servedEnv) Get() (*Environment, error) {
	return e.loader.Get(context.Background(), "production")
}

// notifyTitles compiles node n01 and lists its Notify titles, or the error.
func notifyTitles(t *testing.T, env *Environment) string {
	t.Helper()
	cat, err := compileCatalog(env, &Request{Node: "n01", Facts: value.EmptyHash})
	if err != nil {
		return "error: " + err.Error()
	}
	var titles []string
	for _, r := range cat.Resources {
		if r.Type == "Notify" {
			titles = append(titles, r.Title)
		}
	}
	sort.Strings(titles)
	return strings.Join(titles, ",")
}

func TestReloadFollowsEdits(t *testing.T) {
	dir := t.TempDir()
	tick := time.Now()
	writeTree(t, dir, map[string]string{
		"manifests/site.pp":            "include a\nif $facts['extra'] { include b }\n",
		"modules/a/manifests/init.pp":  "class a { notify { 'a1': } }\n",
		"modules/c/manifests/init.pp":  "class c { notify { 'c1': } }\n",
		"modules/c/manifests/other.pp": "class c::other { notify { 'o1': } }\n",
	})
	cache := newServedEnv(t, filepath.Join(dir, "manifests"), filepath.Join(dir, "modules"))
	get := func() *Environment {
		t.Helper()
		env, err := cache.Get()
		if err != nil {
			t.Fatal(err)
		}
		return env
	}
	env1 := get()
	if got := notifyTitles(t, env1); got != "a1" {
		t.Fatalf("first compile: %s", got)
	}
	if get() != env1 {
		t.Fatal("unchanged files: Get loaded a new environment")
	}

	// A module file the environment loaded changes.
	edit(t, dir, "modules/a/manifests/init.pp", "class a { notify { 'a2': } include c }\n", &tick)
	env2 := get()
	if env2 == env1 {
		t.Fatal("edited module file: Get returned the stale environment")
	}
	if got := notifyTitles(t, env2); got != "a2,c1" {
		t.Fatalf("after editing a: %s", got)
	}
	if env2.Manifests[0] != env1.Manifests[0] {
		t.Error("site.pp did not change but was parsed again")
	}
	if got := notifyTitles(t, env1); got != "a1" {
		t.Errorf("a compile with the old environment sees the new code: %s", got)
	}

	// Files the environment never loaded do not make it stale.
	edit(t, dir, "modules/c/manifests/other.pp", "class c::other { notify { 'o2': } }\n", &tick)
	if get() != env2 {
		t.Error("a file no compile loaded changed: Get loaded a new environment")
	}

	// A new file in the main manifest directory.
	edit(t, dir, "manifests/zz.pp", "notify { 'zz': }\n", &tick)
	env3 := get()
	if got := notifyTitles(t, env3); got != "a2,c1,zz" {
		t.Fatalf("after adding manifests/zz.pp: %s", got)
	}

	// A class that was missing appears; a file that failed to parse is fixed.
	edit(t, dir, "manifests/zz.pp", "include d\n", &tick)
	env4 := get()
	if got := notifyTitles(t, env4); !strings.Contains(got, "Could not find class ::d") {
		t.Fatalf("missing class d: %s", got)
	}
	if get() != env4 {
		t.Error("nothing changed: Get loaded a new environment")
	}
	edit(t, dir, "modules/d/manifests/init.pp", "class d { notify { 'd1': }\n", &tick)
	env5 := get()
	if env5 == env4 {
		t.Fatal("the missing class's file appeared: Get returned the stale environment")
	}
	if got := notifyTitles(t, env5); !strings.Contains(got, "Syntax error") {
		t.Fatalf("broken d: %s", got)
	}
	edit(t, dir, "modules/d/manifests/init.pp", "class d { notify { 'd1': } }\n", &tick)
	if got := notifyTitles(t, get()); got != "a2,c1,d1" {
		t.Fatalf("after fixing d: %s", got)
	}
}

// TestReloadConcurrent: compiles and Gets run while a file keeps
// changing; every compile sees one version or the other (for go test -race).
func TestReloadConcurrent(t *testing.T) {
	dir := t.TempDir()
	tick := time.Now()
	writeTree(t, dir, map[string]string{
		"manifests/site.pp":           "include a\n",
		"modules/a/manifests/init.pp": "class a { notify { 'v0': } }\n",
	})
	cache := newServedEnv(t, filepath.Join(dir, "manifests"), filepath.Join(dir, "modules"))
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	stop := make(chan struct{})
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				env, err := cache.Get()
				if err != nil {
					errs <- err.Error()
					return
				}
				if got := notifyTitles(t, env); !strings.HasPrefix(got, "v") || strings.Contains(got, ",") {
					errs <- got
					return
				}
			}
		}()
	}
	// Each edit replaces the file at once, as editors and deploy tools do,
	// so a compile never reads half a file.
	path := filepath.Join(dir, "modules/a/manifests/init.pp")
	for i := 1; i <= 20; i++ {
		tmp := path + ".new"
		if err := os.WriteFile(tmp, []byte("class a { notify { 'v"+strings.Repeat("1", i)+"': } }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tick = tick.Add(time.Second)
		if err := os.Chtimes(tmp, tick, tick); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	env, _ := cache.Get()
	if got := notifyTitles(t, env); got != "v"+strings.Repeat("1", 20) {
		t.Errorf("after the last edit: %s", got)
	}
}

// TestModuleShadowing: only the first module of a name on the module path
// is searched; a class only its namesake further along defines is not
// found (checked with Puppet 7.23 on the same tree).
func TestModuleShadowing(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"m1/a/manifests/init.pp": "class a { notify { 'a from m1': } }\n",
		"m2/a/manifests/init.pp": "class a { notify { 'a from m2': } }\n",
		"m2/a/manifests/b.pp":    "class a::b { notify { 'b from m2': } }\n",
		"site.pp":                "include a\n",
	})
	path := []string{filepath.Join(dir, "m1"), filepath.Join(dir, "m2")}
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if got := notifyTitles(t, env); got != "a from m1" {
		t.Errorf("include a: %s", got)
	}
	writeTree(t, dir, map[string]string{"site.pp": "include a::b\n"})
	if env, err = environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: path}); err != nil {
		t.Fatal(err)
	}
	if got := notifyTitles(t, env); !strings.Contains(got, "Could not find class ::a::b") {
		t.Errorf("include a::b: %s", got)
	}
}

// TestModuleIndex: modules and their Ruby functions are indexed when the
// environment loads (first on the module path wins, symlinks followed), a
// compile then answers from the index, and Changed still sees a module
// appear or disappear.
func TestModuleIndex(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"m1/a/manifests/init.pp":                     "class a {}\n",
		"m2/a/manifests/init.pp":                     "class a {}\n",
		"m2/b/lib/puppet/functions/b/f.rb":           "# f\n",
		"m2/b/lib/puppet/parser/functions/g.rb":      "# g\n",
		"elsewhere/linked/manifests/init.pp":         "class linked {}\n",
		"elsewhere/linked/lib/puppet/functions/h.rb": "# h\n",
	})
	if err := os.Symlink(filepath.Join(dir, "elsewhere", "linked"), filepath.Join(dir, "m2", "linked")); err != nil {
		t.Fatal(err)
	}
	// No module: a plain file, a link to one and a dangling link.
	writeTree(t, dir, map[string]string{"m2/README": "x\n"})
	if err := os.Symlink(filepath.Join(dir, "m2", "README"), filepath.Join(dir, "m2", "filelink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "m2", "dangling")); err != nil {
		t.Fatal(err)
	}
	path := []string{filepath.Join(dir, "m1"), filepath.Join(dir, "m2")}
	env, err := environment.Load(environment.Config{Name: "production", ModulePath: path})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ module, want string }{
		{"a", filepath.Join(dir, "m1", "a")},
		{"b", filepath.Join(dir, "m2", "b")},
		{"linked", filepath.Join(dir, "m2", "linked")},
		{"nosuch", ""},
		{"..", ""},
		{"README", ""},
		{"filelink", ""},
		{"dangling", ""},
	} {
		if got, _ := env.ModuleDir(tc.module); got != tc.want {
			t.Errorf("ModuleDir(%q) = %q, want %q", tc.module, got, tc.want)
		}
	}
	for _, tc := range []struct{ fn, want string }{
		{"b::f", filepath.Join(dir, "m2", "b", "lib", "puppet", "functions", "b", "f.rb")},
		{"g", filepath.Join(dir, "m2", "b", "lib", "puppet", "parser", "functions", "g.rb")},
		{"h", filepath.Join(dir, "m2", "linked", "lib", "puppet", "functions", "h.rb")},
		{"nosuch", ""},
	} {
		if got := env.RubyFunctionFile(tc.fn); got != tc.want {
			t.Errorf("RubyFunctionFile(%q) = %q, want %q", tc.fn, got, tc.want)
		}
	}
	if env.Changed() {
		t.Fatal("Changed with nothing changed")
	}
	// Compiles answer from the index: a module removed from disk is still
	// the environment's until it is reloaded, and Changed notices.
	if err := os.RemoveAll(filepath.Join(dir, "m1", "a")); err != nil {
		t.Fatal(err)
	}
	if got, _ := env.ModuleDir("a"); got != filepath.Join(dir, "m1", "a") {
		t.Errorf("ModuleDir(a) after removal = %q: the index was not used", got)
	}
	if !env.Changed() {
		t.Error("Changed missed a module moving to another directory of the path")
	}
	env, err = environment.Load(environment.Config{Name: "production", ModulePath: path})
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{"m2/c/manifests/init.pp": "class c {}\n"})
	if !env.Changed() {
		t.Error("Changed missed a module appearing")
	}

	// A Ruby function file appearing in a module, in a directory that
	// exists or one that does not yet.
	// (The existing directory is made older than the file system's
	// timestamp granularity, as it would be in real use.)
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "m2/b/lib/puppet/functions/b"), hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"m2/b/lib/puppet/functions/b/new.rb", "m2/c/lib/puppet/parser/functions/n.rb"} {
		if env, err = environment.Load(environment.Config{Name: "production", ModulePath: path}); err != nil {
			t.Fatal(err)
		}
		if env.Changed() {
			t.Fatal("Changed with nothing changed")
		}
		writeTree(t, dir, map[string]string{file: "# new\n"})
		if !env.Changed() {
			t.Errorf("Changed missed %s appearing", file)
		}
	}
}
