package dataformat

import "testing"

// fuzzAllocBound is what decoding an input of n bytes may allocate: the
// decoders are linear in their input, aliases included (they share values).
func fuzzAllocBound(n int) uint64 { return 64<<20 + 4096*uint64(n) }

// checkAlloc fails when f allocates past fuzzAllocBound(n).
func checkAlloc(t *testing.T, n int, f func()) {
	if got := allocated(f); got > fuzzAllocBound(n) {
		t.Fatalf("decoding %d bytes allocated %d MiB", n, got>>20)
	}
}

// Bad input must produce errors, never panics, hangs or unbounded memory.
func FuzzFromYAML(f *testing.F) {
	for _, s := range []string{"a: 1", "- [x, {y: ~}]", "a: &x [*x]", "<<: {a: 1}", "!!int x", "1:30", "? [a]\n: b", aliasBomb(9, 9), mergeBomb(12, 3)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAlloc(t, len(s), func() { _, _ = FromYAML([]byte(s), "fuzz.yaml") })
	})
}

func FuzzFactsFromYAML(f *testing.F) {
	for _, s := range []string{puppetFacts, "a: :b", "x: !ruby/sym y", "--- !ruby/object:Puppet::Node::Facts\nvalues: &v {a: [*v]}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAlloc(t, len(s), func() { _, _ = FactsFromYAML([]byte(s), "facts.yaml") })
	})
}

func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x", null, true]}`, `[[[[]]]]`, `{"a":`, `1e400`, `"\ud800"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAlloc(t, len(s), func() { _, _ = FromJSON([]byte(s), "fuzz.json") })
	})
}
