package validate

import (
	"os"
	"testing"

	"github.com/marionette-dev/marionette/syntax"
)

// TestWalkMatchesInspect holds the validator's own walk to syntax.Inspect:
// the same nodes in the same order, each with the same ancestors, over the
// corpus, so that a node kind added to the tree is not left unvalidated.
func TestWalkMatchesInspect(t *testing.T) {
	n := 0
	for _, vd := range readVerdicts(t) {
		if !vd.ok {
			continue
		}
		src, err := os.ReadFile(vd.path)
		if err != nil {
			t.Skipf("corpus not installed: %v", err)
		}
		prog, err := syntax.ParseFile(vd.path, src)
		if err != nil {
			t.Fatal(err)
		}
		var want []syntax.Node
		depth, wantDepth := 0, []int{}
		syntax.Inspect(prog, func(n syntax.Node) bool {
			if n == nil {
				depth--
				return false
			}
			want = append(want, n)
			wantDepth = append(wantDepth, depth)
			depth++
			return true
		})
		v := &validator{file: prog.File}
		var got []syntax.Node
		var gotDepth []int
		v.visit = func(n syntax.Node) {
			got = append(got, n)
			gotDepth = append(gotDepth, len(v.path))
		}
		v.walk(prog)
		if len(got) != len(want) {
			t.Fatalf("%s: walk visits %d nodes, Inspect %d", vd.path, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] || gotDepth[i] != wantDepth[i] {
				t.Fatalf("%s: node %d is %T at depth %d, Inspect has %T at depth %d", vd.path, i, got[i], gotDepth[i], want[i], wantDepth[i])
			}
		}
		n++
	}
	if n == 0 {
		t.Skip("no corpus")
	}
}
