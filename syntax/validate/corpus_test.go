package validate

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/syntax"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// The corpus is the manifests of the Debian puppet-module-* packages
// (scripts/corpus-list), with real Puppet's verdict on each one in
// testdata/corpus/puppet-verdicts.txt (scripts/puppet-validate), named
// relative to /usr/share. .ci/run installs the packages and sets
// MARIONETTE_CORPUS=1: then a missing corpus is a failure, not a skip.
const (
	corpusRoot   = "/usr/share"
	verdictsFile = "../../testdata/corpus/puppet-verdicts.txt"
	modulesDir   = "/usr/share/puppet/modules.available"
)

type verdict struct {
	path  string // absolute
	ok    bool   // Puppet accepts the file
	error string // Puppet's errors, "LINE:COLUMN: message | ...", when not ok
}

// readVerdicts reads Puppet's verdicts: "PATH ok" or "PATH error MESSAGES".
func readVerdicts(t *testing.T) []verdict {
	f, err := os.Open(verdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list []verdict
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, rest, _ := strings.Cut(line, " ")
		word, msg, _ := strings.Cut(rest, " ")
		if word != "ok" && word != "error" {
			t.Fatalf("%s:%d: bad verdict %q", verdictsFile, n, line)
		}
		list = append(list, verdict{path: filepath.Join(corpusRoot, path), ok: word == "ok", error: msg})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 {
		t.Fatalf("%s lists no files", verdictsFile)
	}
	return list
}

// TestCorpus parses and validates every corpus manifest: each must be
// accepted if and only if Puppet accepts it.
func TestCorpus(t *testing.T) {
	verdicts := readVerdicts(t)
	var present []verdict
	missing := 0
	for _, v := range verdicts {
		if _, err := os.Stat(v.path); err != nil {
			missing++
			continue
		}
		present = append(present, v)
	}
	if missing > 0 {
		switch {
		case corpus.Required():
			t.Fatalf("%s=1 but %d of the %d corpus files are missing (%s)", corpus.RequiredEnv, missing, len(verdicts), corpus.DebianModules().HowTo)
		case len(present) == 0:
			_, err := corpus.DebianModules().Dir()
			corpus.Absent(t, err)
		}
		t.Logf("%d corpus files are missing; testing the %d present", missing, len(present))
	}

	disagree := 0
	for _, v := range present {
		src, err := os.ReadFile(v.path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = ParseFile(v.path, src)
		switch {
		case v.ok && err != nil:
			disagree++
			t.Errorf("Puppet accepts this file, we reject it: %v", err)
		case !v.ok && err == nil:
			disagree++
			t.Errorf("%s: Puppet rejects this file (%s), we accept it", v.path, v.error)
		case !v.ok:
			t.Logf("both reject %s: Puppet: %s; we: %v", v.path, v.error, err)
		}
	}
	t.Logf("%d corpus files, %d rejected by Puppet, %d verdicts differ", len(present), countRejected(present), disagree)

	// Manifests installed but absent from the verdicts mean the packages
	// changed since the verdicts were made: they are not tested.
	known := make(map[string]bool, len(verdicts))
	for _, v := range verdicts {
		known[v.path] = true
	}
	unknown := 0
	filepath.WalkDir(modulesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".pp") && !known[path] {
			unknown++
		}
		return nil
	})
	if unknown > 0 {
		t.Logf("%d installed manifests have no verdict; regenerate testdata/corpus with scripts/puppet-validate", unknown)
	}
}

func countRejected(list []verdict) int {
	n := 0
	for _, v := range list {
		if !v.ok {
			n++
		}
	}
	return n
}

// TestCorpusEPP parses and validates the EPP templates of the corpus
// packages, all of which `puppet epp validate` accepts.
func TestCorpusEPP(t *testing.T) {
	var paths []string
	filepath.WalkDir(modulesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".epp") {
			paths = append(paths, path)
		}
		return nil
	})
	if len(paths) == 0 {
		if corpus.Required() {
			t.Fatalf("%s=1 but no EPP template is installed (%s)", corpus.RequiredEnv, corpus.DebianModules().HowTo)
		}
		_, err := corpus.DebianModules().Dir()
		corpus.Absent(t, err)
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.ParseEPP(path, src)
		if err == nil {
			errs, _ := EPP(prog)
			err = errs.Err()
		}
		if err != nil {
			t.Errorf("Puppet accepts this template, we reject it: %v", err)
		}
	}
	t.Logf("%d EPP templates", len(paths))
}
