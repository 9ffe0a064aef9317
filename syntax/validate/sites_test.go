package validate

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/syntax"
)

// sitesVerdictsFile holds real Puppet's verdict (`puppet parser validate`,
// scripts/puppet-validate) on every .pp file of the site repositories
// corpus, named relative to its root, and `puppet epp validate`'s on every
// .epp file.
const sitesVerdictsFile = "../../testdata/corpus/sites-verdicts.txt"

// readSitesVerdicts reads the verdicts, resolved against the sites corpus.
func readSitesVerdicts(t *testing.T, root string) []verdict {
	t.Helper()
	f, err := os.Open(sitesVerdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list []verdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, rest, _ := strings.Cut(line, " ")
		word, msg, _ := strings.Cut(rest, " ")
		if word != "ok" && word != "error" {
			t.Fatalf("%s:%d: bad verdict %q", sitesVerdictsFile, n, line)
		}
		list = append(list, verdict{path: filepath.Join(root, path), ok: word == "ok", error: msg})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// TestSitesCorpus: every manifest and EPP template of the site
// repositories is accepted by marionette exactly when Puppet accepts it,
// and every file of the corpus has a verdict.
func TestSitesCorpus(t *testing.T) {
	root := corpus.Sites().Require(t)
	verdicts := readSitesVerdicts(t, root)
	known := make(map[string]bool, len(verdicts))
	disagree := 0
	for _, v := range verdicts {
		known[v.path] = true
		src, err := os.ReadFile(v.path)
		if err != nil {
			t.Errorf("%v (the corpus changed: regenerate %s)", err, sitesVerdictsFile)
			continue
		}
		if strings.HasSuffix(v.path, ".epp") {
			var prog *syntax.EPPProgram
			if prog, err = syntax.ParseEPP(v.path, src); err == nil {
				errs, _ := EPP(prog)
				err = errs.Err()
			}
		} else {
			_, _, err = ParseFile(v.path, src)
		}
		switch {
		case v.ok && err != nil:
			disagree++
			t.Errorf("Puppet accepts this file, we reject it: %v", err)
		case !v.ok && err == nil:
			disagree++
			t.Errorf("%s: Puppet rejects this file (%s), we accept it", v.path, v.error)
		}
	}
	unknown := 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".pp") || strings.HasSuffix(path, ".epp")) && !known[path] {
			unknown++
			t.Errorf("%s has no verdict: regenerate %s", path, sitesVerdictsFile)
		}
		return nil
	})
	t.Logf("%d site files, %d rejected by Puppet, %d verdicts differ, %d without a verdict", len(verdicts), countRejected(verdicts), disagree, unknown)
}

// TestSitesERB: every ERB template of the site repositories parses (the
// Ruby in its tags lexes and parses as Ruby, or is Ruby the subset names as
// unsupported; what a template's code does is the conformance cases' to
// check).
func TestSitesERB(t *testing.T) {
	root := corpus.Sites().Require(t)
	total, unsupported := 0, 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".erb") {
			return nil
		}
		total++
		src, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		if _, err := erb.Parse(path, src); err != nil {
			if strings.Contains(err.Error(), "unsupported Ruby") {
				unsupported++
				t.Logf("%v", err)
				return nil
			}
			t.Errorf("%v", err)
		}
		return nil
	})
	t.Logf("%d ERB templates, %d with Ruby beyond the subset", total, unsupported)
}
