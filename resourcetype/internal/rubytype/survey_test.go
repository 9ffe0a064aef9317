package rubytype

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/ruby"
)

// corpusTypeFile is one lib/puppet/type/*.rb of a corpus, read into memory.
type corpusTypeFile struct {
	path string
	src  []byte
}

// corpusTypeFiles reads the lib/puppet/type/*.rb files of Debian's module
// packages, of the Forge corpus and of the site repositories, and Puppet's
// own types (with type.rb); the test is skipped with one line when none of
// them is present.
func corpusTypeFiles(tb testing.TB) []corpusTypeFile {
	tb.Helper()
	var paths []string
	// Module directories (Debian's are links) hold their types at one
	// depth; a site repository's modules lie at any depth.
	for _, c := range []corpus.Corpus{corpus.DebianModules(), corpus.Forge()} {
		dir, err := c.Dir()
		if err != nil {
			tb.Logf("%v", err)
			continue
		}
		if c.Env == corpus.Forge().Env {
			dir = filepath.Join(dir, "modules")
		}
		found, _ := filepath.Glob(filepath.Join(dir, "*", "lib", "puppet", "type", "*.rb"))
		paths = append(paths, found...)
	}
	if dir, err := corpus.Sites().Dir(); err != nil {
		tb.Logf("%v", err)
	} else {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") &&
				strings.HasSuffix(filepath.Dir(p), filepath.Join("lib", "puppet", "type")) {
				paths = append(paths, p)
			}
			return nil
		})
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

// TestSurveyCorpusTypeFiles lexes and reads every type file of the
// corpora and lists the ones the lexer rejects and the ones whose blocks
// the reader cannot match. Every one of them is read today; a failure is
// a regression.
func TestSurveyCorpusTypeFiles(t *testing.T) {
	files := corpusTypeFiles(t)
	var lexFailed, readFailed []string
	for _, f := range files {
		if _, err := ruby.Tokens(string(f.src)); err != nil {
			lexFailed = append(lexFailed, f.path+": "+err.Error())
			continue
		}
		if _, err := Read(f.src); err != nil {
			readFailed = append(readFailed, f.path+": "+err.Error())
		}
	}
	t.Logf("%d type files: %d lexed, %d read", len(files), len(files)-len(lexFailed), len(files)-len(lexFailed)-len(readFailed))
	if len(lexFailed) > 0 {
		t.Errorf("type files ruby.Tokens rejects:\n%s", strings.Join(lexFailed, "\n"))
	}
	if len(readFailed) > 0 {
		t.Errorf("type files whose blocks the reader cannot match:\n%s", strings.Join(readFailed, "\n"))
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
