package environment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetconf"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func settings(t *testing.T, flags map[string]string) *puppetconf.Settings {
	t.Helper()
	s, err := puppetconf.Load(puppetconf.Options{Root: true, Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tree is a code directory with two environments and a directory next to
// the environmentpath that no environment name may reach.
func tree(t *testing.T) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"code/environments/production/manifests/site.pp":           "notify { 'prod': }\n",
		"code/environments/production/modules/m/manifests/init.pp": "class m {}\n",
		"code/environments/dev/environment.conf":                   "manifest = main.pp\nmodulepath = site:$basemodulepath\n",
		"code/environments/dev/main.pp":                            "notify { 'dev': }\n",
		"code/environments/dev/site/s/manifests/init.pp":           "class s {}\n",
		"code/environments/bad/environment.conf":                   "manifest = x.pp\njunk\n",
		"code/environments/broken/manifests/site.pp":               "notify {\n",
		"code/hiera.yaml":                                 "version: 5\n",
		"elsewhere/manifests/site.pp":                     "notify { 'escaped': }\n",
		"code/environments/x/elsewhere/manifests/site.pp": "",
	})
	return dir
}

func TestGetDirectoryEnvironments(t *testing.T) {
	dir := tree(t)
	envPath := filepath.Join(dir, "code", "environments")
	s := settings(t, map[string]string{puppetconf.EnvironmentPath: envPath})
	var loaded []string
	l := New(s, Options{OnLoad: func(e *Environment) { loaded = append(loaded, e.Name) }})
	ctx := context.Background()
	prod, err := l.Get(ctx, "production")
	if err != nil {
		t.Fatal(err)
	}
	if prod.Name != "production" || len(prod.Manifests) != 1 ||
		prod.ModulePath[0] != filepath.Join(envPath, "production", "modules") {
		t.Errorf("production: %s %v %d", prod.Name, prod.ModulePath, len(prod.Manifests))
	}
	if h := prod.Hiera; h.EnvironmentDir != filepath.Join(envPath, "production") || h.Codedir != filepath.Join(dir, "code") || h.GlobalConfig != "" {
		t.Errorf("hiera options %+v", h)
	}
	dev, err := l.Get(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if dev.ModulePath[0] != filepath.Join(envPath, "dev", "site") || !strings.HasSuffix(dev.Manifests[0].File.Name, "dev/main.pp") {
		t.Errorf("dev: %v", dev.ModulePath)
	}
	again, _ := l.Get(ctx, "production")
	if again != prod {
		t.Error("unchanged environment loaded again")
	}
	if strings.Join(loaded, ",") != "production,dev" {
		t.Errorf("OnLoad: %v", loaded)
	}
	// A module appearing is seen (environment_timeout 0).
	writeTree(t, envPath, map[string]string{"production/modules/n/manifests/init.pp": "class n {}\n"})
	if again, _ := l.Get(ctx, "production"); again == prod {
		t.Error("new module: stale environment served")
	}
}

// TestEnvironmentNames: Puppet finds only names of word characters; any
// other name is not found, whatever is on disk (regression: a name with
// "../" must never load a directory outside the environmentpath).
func TestEnvironmentNames(t *testing.T) {
	dir := tree(t)
	envPath := filepath.Join(dir, "code", "environments")
	l := New(settings(t, map[string]string{puppetconf.EnvironmentPath: envPath}), Options{})
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"production", true},
		{"dev", true},
		{"../../elsewhere", false},
		{"../environments/dev", false},
		{"x/../dev", false},
		{"/abs", false},
		{"a-b", false},
		{"a.b", false},
		{"", false},
		{"nosuch", false},
	} {
		_, err := l.Get(context.Background(), tc.name)
		if tc.ok != (err == nil) {
			t.Errorf("Get(%q): %v", tc.name, err)
		}
		var nf *NotFoundError
		if err != nil && !errors.As(err, &nf) {
			t.Errorf("Get(%q): %T %v", tc.name, err, err)
		}
	}
	_, err := l.Get(context.Background(), "../../elsewhere")
	want := "Could not find a directory environment named '../../elsewhere' anywhere in the path: " + envPath + ". Does the directory exist?"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

func TestGetErrors(t *testing.T) {
	dir := tree(t)
	l := New(settings(t, map[string]string{puppetconf.EnvironmentPath: filepath.Join(dir, "code", "environments")}), Options{})
	for name, want := range map[string]string{
		"bad":    "Could not match line junk",
		"broken": "Could not parse for environment broken: ",
	} {
		if _, err := l.Get(context.Background(), name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Get(ctx, "production"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestNonDirectoryMode(t *testing.T) {
	dir := tree(t)
	site := filepath.Join(dir, "elsewhere", "manifests", "site.pp")
	hieraFile := filepath.Join(dir, "code", "hiera.yaml")
	l := New(settings(t, map[string]string{puppetconf.Environment: "qa", puppetconf.HieraConfig: hieraFile}),
		Options{Manifest: site, ModulePath: []string{filepath.Join(dir, "m1"), "", filepath.Join(dir, "m2")}})
	if l.Directories() {
		t.Fatal("--manifest: directory environments")
	}
	env, err := l.Get(context.Background(), "qa")
	if err != nil {
		t.Fatal(err)
	}
	if env.Name != "qa" || len(env.ModulePath) != 2 || env.Hiera.GlobalConfig != hieraFile || env.Hiera.EnvironmentDir != "" {
		t.Errorf("%s %v %+v", env.Name, env.ModulePath, env.Hiera)
	}
	_, err = l.Get(context.Background(), "other")
	if err == nil || !strings.Contains(err.Error(), "(no environmentpath)") {
		t.Errorf("other environment: %v", err)
	}
}

func TestSnapshotAndTimeout(t *testing.T) {
	dir := tree(t)
	envPath := filepath.Join(dir, "code", "environments")
	ctx := context.Background()
	l := New(settings(t, map[string]string{puppetconf.EnvironmentPath: envPath, puppetconf.EnvironmentTimeout: "1m"}), Options{})
	now := time.Now()
	l.now = func() time.Time { return now }
	first, _ := l.Get(ctx, "production")
	writeTree(t, envPath, map[string]string{"production/modules/n/manifests/init.pp": "class n {}\n"})
	if e, _ := l.Get(ctx, "production"); e != first {
		t.Error("within environment_timeout: environment reloaded")
	}
	now = now.Add(2 * time.Minute)
	if e, _ := l.Get(ctx, "production"); e == first {
		t.Error("after environment_timeout: change not seen")
	}

	snap := New(settings(t, map[string]string{puppetconf.EnvironmentPath: envPath}), Options{Snapshot: true})
	first, _ = snap.Get(ctx, "production")
	writeTree(t, envPath, map[string]string{"production/modules/o/manifests/init.pp": "class o {}\n"})
	if e, _ := snap.Get(ctx, "production"); e != first {
		t.Error("snapshot: environment reloaded")
	}
}

// TestConcurrentGet: concurrent Gets of one environment share one load.
func TestConcurrentGet(t *testing.T) {
	dir := tree(t)
	var mu sync.Mutex
	loads := 0
	l := New(settings(t, map[string]string{puppetconf.EnvironmentPath: filepath.Join(dir, "code", "environments")}),
		Options{Snapshot: true, OnLoad: func(*Environment) { mu.Lock(); loads++; mu.Unlock() }})
	var wg sync.WaitGroup
	envs := make([]*Environment, 8)
	for i := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			envs[i], _ = l.Get(context.Background(), "dev")
		}()
	}
	wg.Wait()
	for _, e := range envs {
		if e == nil || e != envs[0] {
			t.Fatal("concurrent Gets returned different environments")
		}
	}
	if loads != 1 {
		t.Errorf("%d loads", loads)
	}
}
