package hiera

import (
	"runtime"
	"testing"
)

// fuzzAllocBound is what decoding an input of n bytes may allocate: the
// decoders are linear in their input, aliases included (they share values).
func fuzzAllocBound(n int) uint64 { return 64<<20 + 4096*uint64(n) }

// checkAlloc fails when f allocates past fuzzAllocBound(n).
func checkAlloc(t *testing.T, n int, f func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > fuzzAllocBound(n) {
		t.Fatalf("decoding %d bytes allocated %d MiB", n, got>>20)
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n",
		":backends: yaml\n:hierarchy: common\n",
		"version: 4\nhierarchy:\n  - name: a\n    backend: yaml\n",
		"version: 5\ndefaults: {data_hash: yaml_data}\nhierarchy:\n  - {name: m, mapped_paths: [a, b, c]}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAlloc(t, len(s), func() {
			for _, layer := range []Layer{GlobalLayer, EnvironmentLayer, ModuleLayer} {
				_, _ = ParseConfig("/fuzz/hiera.yaml", []byte(s), layer)
			}
		})
	})
}

func FuzzSplitKey(f *testing.F) {
	for _, s := range []string{"a.b", `a."b.c"`, "a.'x'.1", "a..b", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var segs []any
		var err error
		checkAlloc(t, len(s), func() { segs, err = splitKey(s) })
		if err == nil && len(segs) == 0 {
			t.Fatalf("splitKey(%q) gave no segments", s)
		}
	})
}
