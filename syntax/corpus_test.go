package syntax

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus is the manifests of the Debian puppet-module-* packages, with
// Puppet's own verdict on each file recorded in
// testdata/corpus/puppet-verdicts.txt (paths relative to /usr/share).
const (
	corpusRoot   = "/usr/share"
	verdictsFile = "../testdata/corpus/puppet-verdicts.txt"
	modulesDir   = "/usr/share/puppet/modules.available"
)

type corpusFile struct {
	path string
	ok   bool // Puppet accepts it
}

// corpusFiles lists the corpus manifests present on this machine.
func corpusFiles(t testing.TB) []corpusFile {
	f, err := os.Open(verdictsFile)
	if err != nil {
		t.Skipf("no verdicts file: %v", err)
	}
	defer f.Close()
	var files []corpusFile
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		path := filepath.Join(corpusRoot, fields[0])
		if _, err := os.Stat(path); err != nil {
			continue
		}
		files = append(files, corpusFile{path: path, ok: fields[1] == "ok"})
	}
	if len(files) == 0 {
		t.Skip("the corpus is not installed")
	}
	return files
}

func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	failed := 0
	for _, cf := range files {
		src, err := os.ReadFile(cf.path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ParseFile(cf.path, src)
		switch {
		case cf.ok && err != nil:
			failed++
			t.Errorf("Puppet accepts this file but we do not: %v", err)
		case !cf.ok && err == nil:
			failed++
			t.Errorf("%s: Puppet rejects this file but we accept it", cf.path)
		}
	}
	t.Logf("%d corpus files, %d disagree with Puppet", len(files), failed)
}

func TestCorpusEPP(t *testing.T) {
	var paths []string
	filepath.WalkDir(modulesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".epp") {
			paths = append(paths, path)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skip("no EPP templates installed")
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseEPP(path, src); err != nil {
			t.Errorf("%v", err)
		}
	}
	t.Logf("%d EPP templates", len(paths))
}
