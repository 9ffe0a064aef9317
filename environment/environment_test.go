package environment

import (
	"path/filepath"
	"sync"
	"testing"
)

// TestLookupLoadsLazilyOnce: a fresh environment has parsed no module
// file; lookups load the files they need once, however many goroutines
// ask at once, answer repeats from what they found (misses too), and a
// file loaded later answers a name that missed before.
func TestLookupLoadsLazilyOnce(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                      "include m\n",
		"modules/m/manifests/init.pp":  "class m {}\n",
		"modules/m/manifests/a.pp":     "class m::a {}\n",
		"modules/m/manifests/b/c.pp":   "class m::b::c {}\nfunction m::b::c::f() { 1 }\n",
		"modules/m/functions/other.pp": "function m::other() { 2 }\n",
	})
	env, err := Load(Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(env.defs) != 0 || len(env.loaded) != 0 {
		t.Fatalf("before any lookup: %d definitions, %d files", len(env.defs), len(env.loaded))
	}
	for _, tc := range []struct {
		name       string
		kind       Kind
		asked      string
		found      bool
		wantLoaded int // files registered or found missing so far
		wantHanded int // files handed to the loaded callback by this step
	}{
		{"class in init.pp", KindClass, "m", true, 1, 1},
		{"again, written otherwise", KindClass, "::M", true, 1, 0},
		{"class in its own file", KindClass, "m::a", true, 2, 1},
		{"function whose file is missing", KindFunction, "m::b::c::f", false, 3, 0},
		{"the miss again", KindFunction, "m::b::c::f", false, 3, 0},
		{"nested class, defining that function too", KindClass, "m::b::c", true, 4, 1},
		{"the function now", KindFunction, "m::b::c::f", true, 4, 0},
		{"function in functions/", KindFunction, "m::other", true, 5, 1},
	} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		handed := 0
		for range 8 {
			wg.Go(func() {
				d, err := env.Lookup(tc.kind, tc.asked, func(*SourceFile) { mu.Lock(); handed++; mu.Unlock() })
				if err != nil || (d != nil) != tc.found {
					t.Errorf("%s: %v, %v", tc.name, d, err)
				}
			})
		}
		wg.Wait()
		if len(env.loaded) != tc.wantLoaded || handed != tc.wantHanded {
			t.Errorf("%s: %d files loaded (want %d), %d handed to the callback", tc.name, len(env.loaded), tc.wantLoaded, handed)
		}
	}
}

// TestRubyFunction3File: a module's 3.x Ruby function file is found in
// module path order, a name no module has is "", and asking again for
// either allocates nothing (a compile asks at every call of a function
// it has no Puppet definition for).
func TestRubyFunction3File(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp": "",
		"a/m/lib/puppet/parser/functions/shared.rb": "module Puppet::Parser::Functions; newfunction(:shared) { |a| 1 }; end\n",
		"b/n/lib/puppet/parser/functions/shared.rb": "module Puppet::Parser::Functions; newfunction(:shared) { |a| 2 }; end\n",
		"b/n/lib/puppet/parser/functions/only.rb":   "module Puppet::Parser::Functions; newfunction(:only) { |a| 3 }; end\n",
	})
	env, err := Load(Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"shared", filepath.Join(dir, "a/m/lib/puppet/parser/functions/shared.rb")},
		{"only", filepath.Join(dir, "b/n/lib/puppet/parser/functions/only.rb")},
		{"missing", ""},
		{"m::namespaced", ""},
	} {
		if got := env.RubyFunction3File(tc.name); got != tc.want {
			t.Errorf("RubyFunction3File(%s) = %q, want %q", tc.name, got, tc.want)
		}
		if n := testing.AllocsPerRun(50, func() { env.RubyFunction3File(tc.name) }); n != 0 {
			t.Errorf("RubyFunction3File(%s) again: %v allocations, want 0", tc.name, n)
		}
	}
}
