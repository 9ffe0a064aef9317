package erb

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds the Debian puppet-module-* packages whose templates are
// the real-world corpus this package must parse.
const corpusDir = "/usr/share/puppet/modules"

// corpusTemplates lists the .erb files under corpusDir as paths relative to
// it, following the symlinks the Debian packages install.
func corpusTemplates(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("no template corpus: %v", err)
	}
	var files []string
	for _, e := range entries {
		root := filepath.Join(corpusDir, e.Name())
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue
		}
		filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".erb") {
				rel, _ := filepath.Rel(real, path)
				files = append(files, filepath.Join(e.Name(), rel))
			}
			return nil
		})
	}
	return files
}

// TestCorpusParse parses every template of the corpus. Known failures are
// constructs outside the supported subset; anything else fails the test.
func TestCorpusParse(t *testing.T) {
	files := corpusTemplates(t)
	failed := 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(corpusDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(f, src); err != nil {
			failed++
			t.Logf("%v", err)
		}
	}
	t.Logf("parsed %d of %d corpus templates", len(files)-failed, len(files))
}

// TestRubyCorpusNoVars renders every corpus template with no variables set,
// comparing with Ruby's output recorded (as SHA-256) in
// testdata/corpus-novars.txt. With nothing set most conditionals take their
// nil branch and many templates fail in both implementations; it is a broad
// check of the parser and of nil handling.
func TestRubyCorpusNoVars(t *testing.T) {
	files := corpusTemplates(t)
	golden := filepath.Join("testdata", "corpus-novars.txt")
	empty := filepath.Join("testdata", "corpus", "novars.json.in")
	if *update {
		var b strings.Builder
		for _, f := range files {
			b.WriteString(f + " " + digest(runRuby(t, filepath.Join(corpusDir, f), empty)) + "\n")
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	tc := loadCase(t, empty)
	total, matched, rubyOK, bothOK := 0, 0, 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f, want, _ := strings.Cut(line, " ")
		if _, err := os.Stat(filepath.Join(corpusDir, f)); err != nil {
			continue
		}
		total++
		got, err := render(filepath.Join(corpusDir, f), tc)
		if !strings.HasPrefix(want, "ERROR") {
			rubyOK++
		}
		ok := false
		if strings.HasPrefix(want, "ERROR") {
			ok = err != nil && !strings.Contains(err.Error(), "unsupported Ruby")
		} else {
			ok = err == nil && digest(got) == want
			if ok {
				bothOK++
			}
		}
		if ok {
			matched++
			continue
		}
		t.Errorf("%s: differs from Ruby (want %s, err %v)", f, want, err)
	}
	t.Logf("no variables: %d of %d templates match Ruby (%d of %d that Ruby renders without error)", matched, total, bothOK, rubyOK)
}
