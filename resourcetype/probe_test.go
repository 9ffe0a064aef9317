package resourcetype

import (
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
		}
	}
}
