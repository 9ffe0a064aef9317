package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/source"
)

func pos(file string, line, col int) source.Position {
	return source.Position{Filename: file, Line: line, Column: col}
}

func TestDiagnosticError(t *testing.T) {
	tests := []struct {
		name string
		d    *Diagnostic
		want string
	}{
		{"no position", Errorf(Range{}, "boom"), "boom"},
		{"file only", Errorf(Range{Start: pos("f.pp", 0, 0)}, "boom"), "boom (file: f.pp)"},
		{"full", Errorf(At(pos("f.pp", 3, 7)), "boom"), "boom (file: f.pp, line: 3, column: 7)"},
		{"declaration: no column", Errorf(At(pos("f.pp", 3, 7)).Line(), "boom"), "boom (file: f.pp, line: 3)"},
		{"no file", Errorf(At(pos("", 3, 7)), "boom"), "boom (line: 3, column: 7)"},
		{"warning", Warningf(At(pos("f.pp", 1, 1)), "old"), "old (file: f.pp, line: 1, column: 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCausesAreVisible(t *testing.T) {
	sentinel := errors.New("sentinel")
	inner := &Diagnostic{Message: "inner", Cause: sentinel}
	outer := &Diagnostic{Message: "outer: " + inner.Error(), Cause: fmt.Errorf("wrapped: %w", inner)}
	if !errors.Is(outer, sentinel) {
		t.Error("errors.Is does not see the cause through two diagnostics")
	}
	if got := As(outer); got != outer {
		t.Errorf("As = %v, want the diagnostic itself", got)
	}
	if got := As(sentinel); got.Cause != sentinel || got.Severity != Error || got.Message != "sentinel" {
		t.Errorf("As(plain) = %+v", got)
	}
	l := List{Warningf(Range{}, "w"), inner}
	if !errors.Is(l, sentinel) {
		t.Error("errors.Is does not see into a List")
	}
}

// parseError stands for the compiler's error for a file that does not
// validate: it wraps the file's List.
type parseError struct {
	file string
	l    List
}

func (e *parseError) Error() string {
	return ValidationSummary(len(e.l)) + Location(Range{Start: pos(e.file, 0, 0)})
}
func (e *parseError) Unwrap() error { return e.l }

func TestRenderError(t *testing.T) {
	two := List{Errorf(At(pos("s.pp", 1, 2)), "first"), Errorf(At(pos("s.pp", 4, 1)), "second")}
	tests := []struct {
		name string
		err  error
		node string
		want []string
	}{
		{"plain", errors.New("Could not find node"), "n1", []string{"Error: Could not find node on node n1"}},
		{"located", Errorf(At(pos("s.pp", 2, 3)), "Evaluation Error: x"), "n1",
			[]string{"Error: Evaluation Error: x (file: s.pp, line: 2, column: 3) on node n1"}},
		{"no node", errors.New("bad facts"), "", []string{"Error: bad facts"}},
		{"several validation errors", fmt.Errorf("Could not parse for environment production: %w", &parseError{"s.pp", two}), "n1", []string{
			"Error: first (file: s.pp, line: 1, column: 2)",
			"Error: second (file: s.pp, line: 4, column: 1)",
			"Error: Language validation logged 2 errors. Giving up",
			"Error: Could not parse for environment production: Language validation logged 2 errors. Giving up (file: s.pp) on node n1",
		}},
		{"one validation error", &parseError{"s.pp", two[:1]}, "n1", []string{
			"Error: Language validation logged 1 errors. Giving up (file: s.pp) on node n1",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := RenderError(&b, tt.err, tt.node); err != nil {
				t.Fatal(err)
			}
			if got, want := b.String(), strings.Join(tt.want, "\n")+"\n"; got != want {
				t.Errorf("got\n%swant\n%s", got, want)
			}
		})
	}
}

func TestRender(t *testing.T) {
	var b strings.Builder
	_ = Render(&b, Warningf(At(pos("m.pp", 2, 0)), "old"), "n1")
	_ = Render(&b, &Diagnostic{Severity: Notice, Message: "hello"}, "")
	want := "Warning: old (file: m.pp, line: 2) on node n1\nNotice: hello\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
}
