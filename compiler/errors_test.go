package compiler

import (
	"errors"
	"fmt"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
)

// TestErrorNesting checks how an error raised inside a resource statement
// shows in the statement's error, in Puppet's wording, for each kind.
func TestErrorNesting(t *testing.T) {
	decl := syntax.Position{Filename: "s.pp", Line: 5, Column: 3}
	prev := syntax.Position{Filename: "s.pp", Line: 4, Column: 1}
	const what = "Error while evaluating a Resource Statement, "
	tests := []struct {
		name string
		err  error
		want string // evalError at no node: the inner error's own location decides
		def  string // defineError at decl
	}{
		{"plain", errors.New("boom"),
			"Evaluation Error: Error while evaluating a Resource Statement, boom",
			"Evaluation Error: Error while evaluating a Resource Statement, boom (file: s.pp, line: 5)"},
		{"nested keeps its location inside", duplicateError(catalog.Ref{Type: "Class", Title: "Base"}, prev, decl),
			"Evaluation Error: Error while evaluating a Resource Statement, Duplicate declaration: Class[Base] is already declared at (file: s.pp, line: 4); cannot redeclare (file: s.pp, line: 5)",
			"Evaluation Error: Error while evaluating a Resource Statement, Duplicate declaration: Class[Base] is already declared at (file: s.pp, line: 4); cannot redeclare (file: s.pp, line: 5) (file: s.pp, line: 5)"},
		{"at declaration: the statement takes its place", declError(errors.New("bad param"), decl),
			"Evaluation Error: Error while evaluating a Resource Statement, bad param (file: s.pp, line: 5)",
			"Evaluation Error: Error while evaluating a Resource Statement, bad param (file: s.pp, line: 5)"},
		{"evaluation error is verbatim", eval.Errorf(decl, "Unknown variable"),
			"Evaluation Error: Unknown variable (file: s.pp, line: 5, column: 3)",
			"Evaluation Error: Error while evaluating a Resource Statement, Evaluation Error: Unknown variable (file: s.pp, line: 5, column: 3) (file: s.pp, line: 5)"},
		{"located is verbatim", locatedf(prev, "Only subclasses can override parameters"),
			"Only subclasses can override parameters (file: s.pp, line: 4)",
			"Evaluation Error: Error while evaluating a Resource Statement, Only subclasses can override parameters (file: s.pp, line: 4) (file: s.pp, line: 5)"},
		{"parse error of a module file is verbatim", &environment.ParseError{File: "m.pp", Diagnostics: environment.NewParseError("m.pp", errors.New("Syntax error")).Diagnostics},
			"Syntax error",
			"Evaluation Error: Error while evaluating a Resource Statement, Syntax error (file: s.pp, line: 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := evalError(nil, nil, what, tt.err).Error(); got != tt.want {
				t.Errorf("evalError:\n got %q\nwant %q", got, tt.want)
			}
			if got := defineError(tt.err, decl).Error(); got != tt.def {
				t.Errorf("defineError:\n got %q\nwant %q", got, tt.def)
			}
			if !errors.Is(evalError(nil, nil, what, tt.err), tt.err) || !errors.Is(defineError(tt.err, decl), tt.err) {
				t.Error("the wrapped error is not its cause")
			}
		})
	}
}

// TestErrorCausesSurviveWrapping: control flow and duplicate markers are
// found through the diagnostics around them.
func TestErrorCausesSurviveWrapping(t *testing.T) {
	dup := duplicateError(catalog.Ref{Type: "File", Title: "/x"}, syntax.Position{}, syntax.Position{})
	if !errors.Is(evalError(nil, nil, "x, ", dup), errDuplicate) {
		t.Error("duplicate marker lost")
	}
	brk := fmt.Errorf("in lambda: %w", eval.ErrBreak)
	if !errors.Is(evalError(nil, nil, "x, ", declError(brk, syntax.Position{})), eval.ErrBreak) {
		t.Error("ErrBreak lost")
	}
}
