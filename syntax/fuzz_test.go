package syntax

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/diag"
)

// FuzzParse checks that no input makes the parser panic or hang, that every
// node's span lies within the source, and that the tree can be dumped. It
// is seeded with the golden inputs.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"testdata/parse", "testdata/errors"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			for _, file := range parseArchive(string(data)).files {
				if strings.HasSuffix(file.name, ".pp") || strings.HasSuffix(file.name, ".epp") {
					f.Add(file.data, strings.HasSuffix(file.name, ".epp"))
				}
			}
		}
	}
	for _, s := range []string{"notify { \"a\xffb\": }\n", "\x00\x01\xfe\xff\x89PNG\r\n\x1a\n", "$b = \"\xc3(\"\n", "x: <%= 1 %>\xff\n"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, epp bool) {
		var tree Node
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if epp {
			var prog *EPPProgram
			prog, err = ParseEPP("fuzz.epp", []byte(src))
			tree = prog
		} else {
			var prog *Program
			prog, err = ParseFile("fuzz.pp", []byte(src))
			tree = prog
		}
		runtime.ReadMemStats(&after)
		// The parser is linear in its input.
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20+4096*uint64(len(src)) {
			t.Fatalf("parsing %d bytes allocated %d MiB", len(src), n>>20)
		}
		if !utf8.ValidString(src) {
			if err == nil || err.Error() != InvalidUTF8Message {
				t.Fatalf("invalid UTF-8 gave %v", err)
			}
			return
		}
		if tree == nil || isNilNode(tree) {
			t.Fatal("no tree returned")
		}
		if err != nil {
			list, ok := err.(diag.List)
			if !ok || len(list) == 0 {
				t.Fatalf("error is %T %v, want a non-empty diag.List", err, err)
			}
			for _, e := range list {
				if e.Range.Start.Line < 1 || e.Range.Start.Column < 1 || e.Message == "" || e.Code == "" {
					t.Fatalf("bad error %+v", e)
				}
			}
		}
		checkPositions(t, "fuzz:"+src, src, tree)
		if err := Dump(io.Discard, tree); err != nil {
			t.Fatal(err)
		}
	})
}
