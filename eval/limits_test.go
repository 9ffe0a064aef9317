package eval

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// TestEvalNestingLimit: each tree is within syntax.MaxExpressionDepth, but
// calls nest trees in trees (a recursive function whose call sits deep in
// an expression); evaluation must stop at MaxEvalNesting with an error, not
// at the end of the Go stack. The evaluator starts as deep as a chain of
// such calls would have taken it.
func TestEvalNestingLimit(t *testing.T) {
	cases := []struct {
		name    string
		terms   int
		already int
		fails   bool
	}{
		{"shallow", 10, 0, false},
		{"deep tree alone", syntax.MaxExpressionDepth - 10, 0, false},
		{"deep tree under deep calls", syntax.MaxExpressionDepth - 10, MaxEvalNesting - 100, true},
		{"past the limit by one", 0, MaxEvalNesting, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, err := syntax.ParseFile("test.pp", []byte("1"+strings.Repeat(" + 1", c.terms)+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			top := NewScope(TopScope, "", nil, prog.File)
			ev := &Evaluator{Host: testHost{}, nesting: c.already}
			_, err = ev.Statements(prog.Body, top)
			if c.fails {
				if err == nil || !strings.Contains(err.Error(), "MaxEvalNesting (30000)") {
					t.Fatalf("err = %v, want the MaxEvalNesting error", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if ev.nesting != c.already {
				t.Errorf("nesting = %d after evaluation, want %d", ev.nesting, c.already)
			}
		})
	}
}

// Values nested at run time stop at value.MaxValueDepth where they are
// built (array and hash literals, << and +), before a recursive walk of
// them (type inference, formatting) could exhaust the stack.
func TestBuildingDeepValues(t *testing.T) {
	tests := []struct {
		name, build string
		fails       bool
	}{
		{"array literal", "[$m]", true},
		{"hash literal", "{a => $m}", true},
		{"append", "[] << $m", true},
		{"concatenation", "[1] + [$m]", true},
		{"flat concatenation", "$m + [1]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			ev := &Evaluator{Host: testHost{}}
			prog, perr := syntax.ParseFile("test.pp", []byte("$m = []\n$m2 = "+tt.build+"\n"))
			if perr != nil {
				t.Fatal(perr)
			}
			top := NewScope(TopScope, "", nil, prog.File)
			top.Set("m", value.Array{})
			// Evaluate the build step again and again, as a reduce would.
			for range value.MaxValueDepth + 10 {
				if _, err = ev.Statements(prog.Body[1:], top); err != nil {
					break
				}
				m2, _ := top.Lookup("m2")
				top = NewScope(TopScope, "", nil, prog.File)
				top.Set("m", m2)
			}
			if !tt.fails {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "MaxValueDepth (10000)") {
				t.Fatalf("err = %v, want the MaxValueDepth error", err)
			}
		})
	}
}
