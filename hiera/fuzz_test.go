package hiera

import "testing"

// Bad input must produce errors, never panics.
func FuzzFromYAML(f *testing.F) {
	for _, s := range []string{"a: 1", "- [x, {y: ~}]", "a: &x [*x]", "<<: {a: 1}", "!!int x", "1:30", "? [a]\n: b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = FromYAML([]byte(s), "fuzz.yaml")
	})
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
		for _, layer := range []Layer{GlobalLayer, EnvironmentLayer, ModuleLayer} {
			_, _ = ParseConfig("/fuzz/hiera.yaml", []byte(s), layer)
		}
	})
}

func FuzzSplitKey(f *testing.F) {
	for _, s := range []string{"a.b", `a."b.c"`, "a.'x'.1", "a..b", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := splitKey(s)
		if err == nil && len(segs) == 0 {
			t.Fatalf("splitKey(%q) gave no segments", s)
		}
	})
}
