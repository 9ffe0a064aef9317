package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/source"
)

// TestAnnotate: the lines under Puppet's one-line message: the source line
// with a caret at the range's start column (tabs kept, characters counted,
// not bytes), '~' to its end on that line, and with Verbose the code and
// the detail.
func TestAnnotate(t *testing.T) {
	file := source.NewFile("m.pp", []byte("include apahce\n\t$x = 1 +\n# é $y\r\nnotice($z)\n"))
	sources := func(name string) *source.File {
		if name == "m.pp" {
			return file
		}
		return nil
	}
	span := func(line, col, endLine, endCol int) Range {
		return Range{Start: pos("m.pp", line, col), End: pos("m.pp", endLine, endCol)}
	}
	tests := []struct {
		name string
		opts RenderOptions
		d    *Diagnostic
		want string
	}{
		{"no source: nothing", RenderOptions{}, New(UnknownClass, span(1, 9, 1, 15), "x"), ""},
		{"point", RenderOptions{Source: sources}, New(SyntaxError, At(pos("m.pp", 4, 8)), "x"),
			" 4 | notice($z)\n   |        ^\n"},
		{"range on the line", RenderOptions{Source: sources}, New(UnknownClass, span(1, 9, 1, 15), "x"),
			" 1 | include apahce\n   |         ^~~~~~\n"},
		{"tab kept before the caret", RenderOptions{Source: sources}, New(SyntaxError, span(2, 8, 2, 9), "x"),
			" 2 | \t$x = 1 +\n   | \t      ^\n"},
		{"range past the line ends with it", RenderOptions{Source: sources}, New(SyntaxError, span(2, 8, 3, 1), "x"),
			" 2 | \t$x = 1 +\n   | \t      ^~\n"},
		{"multibyte characters count once, CR dropped", RenderOptions{Source: sources}, New(UnknownVariable, span(3, 5, 3, 7), "x"),
			" 3 | # é $y\n   |     ^~\n"},
		{"declaration: no column, no caret", RenderOptions{Source: sources}, New(DuplicateResource, span(4, 1, 4, 10).Line(), "x"), ""},
		{"other file", RenderOptions{Source: sources}, New(SyntaxError, At(pos("n.pp", 1, 1)), "x"), ""},
		{"verbose: code and detail", RenderOptions{Source: sources, Verbose: true},
			&Diagnostic{Code: UnknownClass, Detail: "did you mean 'apache'?", Range: span(1, 9, 1, 15)},
			" 1 | include apahce\n   |         ^~~~~~\n   = UNKNOWN_CLASS: did you mean 'apache'?\n"},
		{"verbose without source", RenderOptions{Verbose: true}, &Diagnostic{Code: UnknownClass, Detail: "did you mean 'apache'?"},
			" = UNKNOWN_CLASS: did you mean 'apache'?\n"},
		{"verbose, no code", RenderOptions{Verbose: true}, &Diagnostic{Message: "x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.opts.Annotate(&b, tt.d); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestRenderKeepsPuppetsLine: whatever the options, the first line is
// Puppet's, and without options it is all there is.
func TestRenderKeepsPuppetsLine(t *testing.T) {
	file := source.NewFile("m.pp", []byte("include apahce\n"))
	d := New(UnknownClass, Range{Start: pos("m.pp", 1, 1), End: pos("m.pp", 1, 15)}, "Could not find class ::apahce for n")
	d.Detail = "did you mean 'apache'?"
	const first = "Error: Could not find class ::apahce for n (file: m.pp, line: 1, column: 1) on node n\n"
	var plain strings.Builder
	if err := Render(&plain, d, "n"); err != nil || plain.String() != first {
		t.Errorf("Render = %q, %v", plain.String(), err)
	}
	var verbose strings.Builder
	opts := RenderOptions{Verbose: true, Source: func(string) *source.File { return file }}
	if err := opts.Render(&verbose, d, "n"); err != nil {
		t.Fatal(err)
	}
	want := first + " 1 | include apahce\n   | ^~~~~~~~~~~~~~\n   = UNKNOWN_CLASS: did you mean 'apache'?\n"
	if verbose.String() != want {
		t.Errorf("verbose Render =\n%s\nwant\n%s", verbose.String(), want)
	}
}

func TestDidYouMean(t *testing.T) {
	candidates := []string{"apache", "apache::vhost", "mysql", "length", "stdlib::merge", "merge"}
	tests := []struct{ name, want string }{
		{"apahce", "did you mean 'apache'?"}, // swapped neighbours
		{"apach", "did you mean 'apache'?"},  // one missing
		{"lenght", "did you mean 'length'?"},
		{"apache::vhots", "did you mean 'apache::vhost'?"},
		{"mysqll", "did you mean 'mysql'?"},
		{"mergee", "did you mean 'merge'?"},
		{"apache", ""}, // the name itself is no suggestion
		{"nginx", ""},
		{"ab", ""}, // too short to guess
		{"", ""},
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.name, candidates); got != tt.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCodes: code that tells problems apart matches codes and arguments,
// through the errors that wrap them.
func TestCodes(t *testing.T) {
	inner := New(UnknownFunction, Range{}, "Unknown function: 'lenght'.")
	inner.Args = Args{"name": "lenght"}
	wrapper := &Diagnostic{Message: "Evaluation Error: ...", Cause: fmt.Errorf("in a call: %w", inner)}
	tests := []struct {
		name string
		err  error
		code Code
		args []any
		want bool
	}{
		{"itself", inner, UnknownFunction, nil, true},
		{"argument", inner, UnknownFunction, []any{"name", "lenght"}, true},
		{"other argument", inner, UnknownFunction, []any{"name", "length"}, false},
		{"other code", inner, UnknownVariable, nil, false},
		{"through a wrapper", wrapper, UnknownFunction, []any{"name", "lenght"}, true},
		{"plain error", errors.New("x"), UnknownFunction, nil, false},
		{"a list's first coded entry", List{Warningf(Range{}, "w"), inner}, UnknownFunction, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Coded(tt.err).Matches(tt.code, tt.args...); got != tt.want {
				t.Errorf("Coded(%v).Matches(%s, %v) = %v, want %v", tt.err, tt.code, tt.args, got, tt.want)
			}
		})
	}
}

func TestSpan(t *testing.T) {
	file := source.NewFile("m.pp", []byte("$a = 1\n$b = $a +\n  2\n"))
	r := Span(file, source.PosOf(10), source.PosOf(18))
	if r.Start.Line != 2 || r.Start.Column != 4 || r.End.Line != 3 || r.End.Column != 2 {
		t.Errorf("Span = %v..%v", r.Start, r.End)
	}
	if p := Span(file, source.PosOf(3), source.NoPos); p.End != p.Start {
		t.Errorf("Span without an end = %v..%v, want a point", p.Start, p.End)
	}
}

// TestRenderErrorOptions: a compile's error with the options: the lone
// error annotated with the code and detail of the problem it wraps; a
// file's several errors each annotated, the summary not.
func TestRenderErrorOptions(t *testing.T) {
	file := source.NewFile("m.pp", []byte("include apahce\n$1 = 2\n"))
	opts := RenderOptions{Verbose: true, Source: func(string) *source.File { return file }}
	inner := New(UnknownClass, Range{}, "Could not find class ::apahce for n")
	inner.Detail = "did you mean 'apache'?"
	outer := &Diagnostic{Message: "Evaluation Error: Error while evaluating a Function Call, " + inner.Message,
		Range: Range{Start: pos("m.pp", 1, 1), End: pos("m.pp", 1, 15)}, Cause: inner}
	var b strings.Builder
	if err := opts.RenderError(&b, outer, "n"); err != nil {
		t.Fatal(err)
	}
	want := "Error: Evaluation Error: Error while evaluating a Function Call, Could not find class ::apahce for n (file: m.pp, line: 1, column: 1) on node n\n" +
		" 1 | include apahce\n   | ^~~~~~~~~~~~~~\n   = UNKNOWN_CLASS: did you mean 'apache'?\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	list := List{
		New(IllegalNumericAssignment, Range{Start: pos("m.pp", 2, 1), End: pos("m.pp", 2, 3)}, "first"),
		New(UnknownClass, Range{Start: pos("m.pp", 1, 9), End: pos("m.pp", 1, 15)}, "second"),
	}
	b.Reset()
	if err := (RenderOptions{Source: opts.Source}).RenderError(&b, list, ""); err != nil {
		t.Fatal(err)
	}
	want = "Error: first (file: m.pp, line: 2, column: 1)\n 2 | $1 = 2\n   | ^~\n" +
		"Error: second (file: m.pp, line: 1, column: 9)\n 1 | include apahce\n   |         ^~~~~~\n" +
		"Error: Language validation logged 2 errors. Giving up\n" +
		"Error: first (file: m.pp, line: 2, column: 1) (and 1 more errors)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := RenderError(&b, outer, "n"); err != nil || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("without options: %q, %v", b.String(), err)
	}
}
