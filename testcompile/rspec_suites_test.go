package testcompile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// rspecSuites are the Forge modules whose own rspec-puppet suites
// (spec/classes and spec/defines) TestRspecSuites runs, as
// scripts/rspec-suites-corpus lays them out.
var rspecSuites = []string{"apache", "apt", "concat", "docker", "mysql", "ntp", "postgresql", "tomcat"}

// TestRspecSuites runs each module's suite of the optional corpus
// MARIONETTE_RSPEC_SUITES (scripts/rspec-suites-corpus DIR: the source
// repositories at the Forge corpus's releases, with their spec/) with
// Puppet and with marionette through scripts/rspec-compare, the Forge
// corpus as the module path, and checks that every example has the same
// verdict on both sides, except those listed with their causes in
// testdata/rspec/<module>-differ.txt. Puppet's side takes minutes (apache's
// the better part of an hour), so the corpus is used only when named; one
// subtest a module (-run TestRspecSuites/concat).
func TestRspecSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Forge modules' suites twice (minutes to an hour); not in -short")
	}
	dir := os.Getenv("MARIONETTE_RSPEC_SUITES")
	if dir == "" {
		t.Skip("MARIONETTE_RSPEC_SUITES is not set (an optional corpus: scripts/rspec-suites-corpus DIR, then MARIONETTE_RSPEC_SUITES=DIR)")
	}
	if _, err := corpus.RspecPuppet(); err != nil {
		corpus.Absent(t, err)
	}
	forge := corpus.Forge().Require(t)
	root, err := corpus.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := buildMarionette(t, root)
	for _, m := range rspecSuites {
		t.Run(m, func(t *testing.T) {
			module := filepath.Join(dir, m)
			if _, err := os.Stat(filepath.Join(module, "spec", "spec_helper.rb")); err != nil {
				t.Skipf("%s is not in %s (scripts/rspec-suites-corpus %s %s)", m, dir, dir, m)
			}
			compareSuite(t, root, bin, filepath.Join(root, "testdata", "rspec", m+"-differ.txt"),
				module, "--modulepath", filepath.Join(forge, "modules"))
		})
	}
}
