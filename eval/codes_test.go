package eval

import (
	"strconv"
	"testing"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// TestEvaluationErrorCodes: evaluation errors carry Puppet's issue code and
// its arguments, and a range from where Puppet places the expression (for
// an operator expression, the operator) to the expression's end.
func TestEvaluationErrorCodes(t *testing.T) {
	tests := []struct {
		src        string
		code       diag.Code
		args       diag.Args
		start, end string // line:column
	}{
		{"$x = 1 / 0", diag.DivByZero, nil, "1:10", "1:11"},
		{"$x = 1 +\n  'a'", diag.NotNumeric, diag.Args{"value": "a"}, "2:3", "2:6"},
		{"$x = 5 % 1.5", diag.OperatorNotApplicableWhen, diag.Args{"operator": "%"}, "1:6", "1:7"},
		{"$x = {} << 1", diag.OperatorNotApplicable, diag.Args{"operator": "<<"}, "1:6", "1:8"},
		{"$x = 1 < 'a'", diag.ComparisonNotPossible, diag.Args{"operator": "<"}, "1:8", "1:13"},
		{"$x = 3 ? { 1 => a }", diag.UnmatchedSelector, diag.Args{"param_value": "3"}, "1:6", "1:20"},
		{"$x = 1\n$x = 2", diag.IllegalReassignment, diag.Args{"name": "x"}, "2:4", "2:7"},
		{"$trusted = 1", diag.IllegalReservedAssignment, diag.Args{"name": "trusted"}, "1:10", "1:13"},
		{"[$a, $b] = [1]", diag.IllegalMultiAssignmentSize, diag.Args{"expected": 2, "actual": 1}, "1:10", "1:15"},
		{"$x = $nosuch + 1", "", nil, "", ""}, // strict off: undef, then +
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := evalSource(t, tt.src)
			if tt.code == "" {
				if c := diag.Coded(err); c != nil && c.Code == diag.UnknownVariable {
					t.Errorf("unknown variable is an error without strict: %v", err)
				}
				return
			}
			d := diag.Coded(err)
			if d == nil || d.Code != tt.code {
				t.Fatalf("error %v, want code %s", err, tt.code)
			}
			for name, want := range tt.args {
				if got := d.Arg(name); got != want {
					t.Errorf("argument %s = %v, want %v", name, got, want)
				}
			}
			at := func(p int, q int) string { return strconv.Itoa(p) + ":" + strconv.Itoa(q) }
			if got := at(d.Range.Start.Line, d.Range.Start.Column); got != tt.start {
				t.Errorf("starts at %s, want %s (%v)", got, tt.start, err)
			}
			if got := at(d.Range.End.Line, d.Range.End.Column); got != tt.end {
				t.Errorf("ends at %s, want %s", got, tt.end)
			}
		})
	}
}

// TestStrictIssueCodes: under strict = warning an unknown variable is a
// warning with the code it would have as an error.
func TestStrictIssueCodes(t *testing.T) {
	prog, err := syntax.ParseFile("test.pp", []byte("$x = $nosuch"))
	if err != nil {
		t.Fatal(err)
	}
	var warnings diag.List
	ev := &Evaluator{Host: testHost{}, Strict: StrictWarning, Warn: warnings.Add}
	ev.Statements(prog.Body, NewScope(TopScope, "", nil, prog.File))
	if len(warnings) != 1 || !warnings[0].Matches(diag.UnknownVariable, "name", "nosuch") {
		t.Errorf("warnings %v", warnings)
	}
}
