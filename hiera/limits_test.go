package hiera

import "testing"

// The YAML node limit (see dataformat.MaxYAMLNodes) can be lowered or raised
// per session; a shared cache keeps files read under different limits apart.
func TestYAMLNodeLimitOption(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n",
		"data/common.yaml": "k: 1\nl0: &l0 [lol, lol, lol]\nl1: &l1 [*l0, *l0, *l0]\nl2: &l2 [*l1, *l1, *l1]\n",
	})
	cache := NewCache()
	for _, tc := range []struct {
		maxNodes int
		wantErr  bool
	}{{10, true}, {0, false}, {10, true}} {
		s := NewSession(Options{Cache: cache, EnvironmentDir: dir, MaxYAMLNodes: tc.maxNodes}, nil)
		_, err := s.Lookup(Request{Keys: []string{"k"}})
		if (err != nil) != tc.wantErr {
			t.Errorf("MaxYAMLNodes %d: err = %v, want an error: %v", tc.maxNodes, err, tc.wantErr)
		}
	}
}
