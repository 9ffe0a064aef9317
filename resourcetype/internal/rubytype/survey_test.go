package rubytype

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// corpusTypeFile is one lib/puppet/type/*.rb of a corpus, read into memory.
type corpusTypeFile struct {
	path string
	src  []byte
}

// corpusTypeFiles reads the type files of Debian's module packages, of
// the Forge corpus and of Puppet's own types (with type.rb); the test is
// skipped with one line when none of them is present.
func corpusTypeFiles(tb testing.TB) []corpusTypeFile {
	tb.Helper()
	var dirs []string
	for _, c := range []corpus.Corpus{corpus.DebianModules(), corpus.Forge()} {
		dir, err := c.Dir()
		if err != nil {
			tb.Logf("%v", err)
			continue
		}
		if c.Env == corpus.Forge().Env {
			dir = filepath.Join(dir, "modules")
		}
		dirs = append(dirs, dir)
	}
	var paths []string
	for _, d := range dirs {
		found, _ := filepath.Glob(filepath.Join(d, "*", "lib", "puppet", "type", "*.rb"))
		paths = append(paths, found...)
	}
	builtin, _ := filepath.Glob("/usr/lib/ruby/vendor_ruby/puppet/type/*.rb")
	paths = append(paths, builtin...)
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/type.rb"); err == nil {
		paths = append(paths, "/usr/lib/ruby/vendor_ruby/puppet/type.rb")
	}
	if len(paths) == 0 {
		corpus.Absent(tb, &corpus.AbsentError{Corpus: corpus.Forge(), Dir: "(no type files in any corpus)"})
	}
	sort.Strings(paths)
	files := make([]corpusTypeFile, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, corpusTypeFile{path: p, src: src})
	}
	return files
}

// TestSurveyCorpusTypeFiles reads every type file of the corpora and
// lists the ones the reader cannot follow (lexing or block matching).
// Every one of them is read today; a failure is a regression.
func TestSurveyCorpusTypeFiles(t *testing.T) {
	files := corpusTypeFiles(t)
	var failed []string
	for _, f := range files {
		if _, err := Read(f.src); err != nil {
			failed = append(failed, f.path+": "+err.Error())
		}
	}
	t.Logf("%d type files, %d read, %d failed", len(files), len(files)-len(failed), len(failed))
	if len(failed) > 0 {
		t.Errorf("type files the reader could not follow:\n%s", strings.Join(failed, "\n"))
	}
}

// BenchmarkReadCorpusTypeFiles reads all the corpus's type files once per
// iteration.
func BenchmarkReadCorpusTypeFiles(b *testing.B) {
	files := corpusTypeFiles(b)
	size := 0
	for _, f := range files {
		size += len(f.src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			_, _ = Read(f.src)
		}
	}
}
