package resourcetype

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestProberAgreesWithStat: a probe answers as os.Stat of the joined path
// does, for files, directories, symlinks (followed, dangling) and module
// directories that are themselves symlinks or relative paths.
func TestProberAgreesWithStat(t *testing.T) {
	dir := t.TempDir()
	mods := filepath.Join(dir, "modules")
	for _, f := range []string{"a/lib/puppet/type/t.rb", "a/lib/puppet/provider/t/p.rb", "elsewhere/lib/puppet/type/u.rb"} {
		p := filepath.Join(mods, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"modules/b":                      "modules/elsewhere",
		"modules/a/lib/puppet/type/l.rb": "modules/a/lib/puppet/type/t.rb",
		"modules/a/lib/puppet/type/d.rb": "nowhere",
	}
	for link, target := range links {
		if err := os.Symlink(filepath.Join(dir, target), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var p prober
	for _, mod := range []string{filepath.Join(mods, "a"), filepath.Join(mods, "b"), "modules/a", filepath.Join(mods, "nosuch")} {
		for _, rel := range []string{"lib/puppet/type/t.rb", "lib/puppet/type/u.rb", "lib/puppet/type/l.rb", "lib/puppet/type/d.rb",
			"lib/puppet/type/missing.rb", "lib/puppet/provider/t", "lib/puppet/provider/x", "lib/puppet/type/t.rb/x"} {
			_, err := os.Stat(filepath.Join(mod, rel))
			if got := p.exists(mod, rel); got != (err == nil) {
				t.Errorf("exists(%s, %s) = %v, os.Stat says %v", mod, rel, got, err)
			}
			sub, name := filepath.Split(rel)
			if got := p.existsIn(mod, filepath.Clean(sub), name); got != (err == nil) {
				t.Errorf("existsIn(%s, %s, %s) = %v, os.Stat says %v", mod, sub, name, got, err)
			}
		}
	}
}

// TestLazySetProbesListedNamesOnly: looking types up in a long module path
// probes only the modules whose lib/puppet/type (or provider) directory
// lists the name, not every module for every type.
func TestLazySetProbesListedNamesOnly(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for i := range 40 {
		mod := filepath.Join(dir, fmt.Sprintf("m%02d", i))
		sub := "manifests"
		if i%10 == 0 {
			sub = "lib/puppet/type"
		}
		if err := os.MkdirAll(filepath.Join(mod, filepath.FromSlash(sub)), 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, mod)
	}
	src := "Puppet::Type.newtype(:mything) do\n  newparam(:name, :namevar => true)\nend\n"
	if err := os.WriteFile(filepath.Join(dirs[20], "lib", "puppet", "type", "mything.rb"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewLazySet(dirs)
	for _, name := range []string{"Concat", "Anchor", "Nosuchtype", "Mything"} {
		if _, ok := s.Lookup(name); ok != (name == "Mything") {
			t.Errorf("Lookup(%s) found %v", name, ok)
		}
	}
	// Only mything.rb, in the one module that lists it, is probed.
	if n := s.probe.probes.Load(); n != 1 {
		t.Errorf("%d files probed, want 1", n)
	}
}
