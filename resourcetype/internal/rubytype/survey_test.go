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
// own types (with type.rb). An absent corpus is left out (a failure where
// corpora are required); the test is skipped with one line when there are
// no type files at all.
func corpusTypeFiles(tb testing.TB) []corpusTypeFile {
	tb.Helper()
	var paths []string
	var absent error
	for _, c := range []corpus.Corpus{corpus.DebianModules(), corpus.Forge(), corpus.Sites()} {
		dir, err := c.Dir()
		if err != nil {
			if corpus.Required() {
				corpus.Absent(tb, err)
			}
			absent = err
			continue
		}
		if c.Env == corpus.Sites().Env {
			paths = append(paths, siteTypeFiles(dir)...)
			continue
		}
		if c.Env == corpus.Forge().Env {
			dir = filepath.Join(dir, "modules")
		}
		// Module directories (Debian's are links) hold their types at one depth.
		found, _ := filepath.Glob(filepath.Join(dir, "*", "lib", "puppet", "type", "*.rb"))
		paths = append(paths, found...)
	}
	builtin, _ := filepath.Glob("/usr/lib/ruby/vendor_ruby/puppet/type/*.rb")
	paths = append(paths, builtin...)
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/type.rb"); err == nil {
		paths = append(paths, "/usr/lib/ruby/vendor_ruby/puppet/type.rb")
	}
	if len(paths) == 0 && absent != nil {
		corpus.Absent(tb, absent)
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

// siteTypeFiles lists the type files of the site repositories below dir,
// whose modules lie at any depth.
func siteTypeFiles(dir string) []string {
	var paths []string
	typeDir := filepath.Join("lib", "puppet", "type")
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") && strings.HasSuffix(filepath.Dir(p), typeDir) {
			paths = append(paths, p)
		}
		return nil
	})
	return paths
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
