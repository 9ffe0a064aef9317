package validate

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/marionette-dev/marionette/syntax"
)

// FuzzParseFile checks that validating whatever the parser accepts does not
// panic. The seeds are the snippets of testdata/invalid.
func FuzzParseFile(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(invalidDir, "*.pp"))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("class a($x = 1) {\n  if $x { function f() {} }\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ParseFile("fuzz.pp", src)
		if prog, err := syntax.ParseEPP("fuzz.epp", src); err == nil {
			EPP(prog)
		}
		runtime.ReadMemStats(&after)
		// Parsing and validating are linear in the input.
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20+8192*uint64(len(src)) {
			t.Fatalf("validating %d bytes allocated %d MiB", len(src), n>>20)
		}
	})
}
