// Package diag is marionette's one diagnostic type: an error or warning with
// a stable code and its arguments, Puppet's message, an optional detail, the
// source range it is about, and the error that caused it. Every layer
// reports through it (the scanner, parser and validator, evaluation errors,
// warnings of a compile, Hiera and ENC problems), and one renderer words it
// as Puppet does, for the CLI, the server's error bodies and the conformance
// suite alike.
//
// A Diagnostic is an error (errors.Is and errors.As see its Cause), so code
// that only needs to fail returns it as one; code that collects several
// (a file's parse or validation errors, a compile's warnings) keeps a List.
// Code that must tell one problem from another matches its Code and Args,
// never its message.
package diag

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/source"
)

// Severity is how bad a diagnostic is, with Puppet's log level names.
type Severity uint8

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
	Notice
	Info
	Debug
)

var severityNames = [...]string{"err", "warning", "notice", "info", "debug"}

// String returns Puppet's name of the level ("err", "warning", ...).
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// Label is how Puppet's command line prefixes a message of this level:
// "Error", "Warning", "Notice", "Info", "Debug".
func (s Severity) Label() string {
	switch s {
	case Error:
		return "Error"
	case Warning:
		return "Warning"
	case Notice:
		return "Notice"
	case Info:
		return "Info"
	case Debug:
		return "Debug"
	}
	return s.String()
}

// ParseSeverity maps a Puppet log level name (as the logging functions and
// Hiera name them: "err", "error", "warning", "notice", "info", "debug",
// "alert", "crit", "emerg") to a Severity.
func ParseSeverity(level string) (Severity, bool) {
	switch strings.ToLower(level) {
	case "err", "error", "alert", "crit", "emerg":
		return Error, true
	case "warning", "warn":
		return Warning, true
	case "notice":
		return Notice, true
	case "info":
		return Info, true
	case "debug":
		return Debug, true
	}
	return 0, false
}

// Range is the part of a source file a diagnostic is about, from Start up
// to End (exclusive). Start is where Puppet places the problem (for an
// operator expression that is its operator), so it need not be where the
// text of the construct begins. Start.Line == 0 means no position is known;
// Start.Column == 0 means Puppet names only the file and line (as it does
// for errors about a resource declaration).
type Range struct {
	Start, End source.Position
}

// At returns the range that starts (and ends) at p.
func At(p source.Position) Range { return Range{Start: p, End: p} }

// Span returns the range of f from start to end; end before start (or
// invalid) makes it the point at start.
func Span(f *source.File, start, end source.Pos) Range {
	r := At(f.Position(start))
	if end > start {
		r.End = f.Position(end)
	}
	return r
}

// IsValid reports whether the range names a line.
func (r Range) IsValid() bool { return r.Start.Line > 0 }

// Diagnostic is one error or warning.
type Diagnostic struct {
	Severity Severity
	// Code says which problem this is (see codes.go); "" for one that has
	// none yet.
	Code Code
	// Args are the code's arguments by name (e.g. "name" of
	// UNKNOWN_VARIABLE), for code that acts on the problem without reading
	// its message.
	Args Args
	// Message is Puppet's message without the trailing location, e.g.
	// "Evaluation Error: Unknown variable: 'x'." or "Could not find class
	// ::nosuch for n".
	Message string
	// Detail says more than Puppet does, e.g. "did you mean 'apache'?";
	// it is shown only on request (RenderOptions.Verbose), so that the
	// first line stays Puppet's.
	Detail string
	// Range is where in the source the problem is; the zero Range for
	// none.
	Range Range
	// Cause is the error this diagnostic reports, if any; errors.Is and
	// errors.As look through it.
	Cause error
	// Nesting says what the error of an enclosing expression does with
	// this one.
	Nesting Nesting
}

// Nesting is how an error raised inside an expression shows in the error
// Puppet reports for the expression around it.
type Nesting uint8

const (
	// Nested errors are wrapped: the enclosing error's message ends with
	// this one's, location included, and adds its own location
	// ("Evaluation Error: Error while evaluating a Function Call, MSG
	// (file: F, line: 2) (file: F, line: 5, column: 3)").
	Nested Nesting = iota
	// Verbatim errors are reported as they are: an evaluation error
	// (already about the innermost expression), a Puppet::ParseError that
	// names its own place, a file that does not parse.
	Verbatim
	// AtDeclaration errors are about a resource declaration: the enclosing
	// resource statement's error takes this one's location (file and line)
	// as its own instead of adding one.
	AtDeclaration
)

// Line returns r without its column: Puppet names only the file and line of
// a resource declaration.
func (r Range) Line() Range {
	r.Start.Column, r.End.Column = 0, 0
	return r
}

// Arg returns the argument called name, or nil.
func (d *Diagnostic) Arg(name string) any { return d.Args[name] }

// Matches reports whether d has the given code and, for each name and value
// pair in args, that argument: d.Matches(UnknownFunction, "name", "merge").
func (d *Diagnostic) Matches(code Code, args ...any) bool {
	if d == nil || d.Code != code {
		return false
	}
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		if d.Args[name] != args[i+1] {
			return false
		}
	}
	return true
}

// Errorf returns an error diagnostic at r.
func Errorf(r Range, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Message: fmt.Sprintf(format, args...), Range: r}
}

// Warningf returns a warning diagnostic at r.
func Warningf(r Range, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Warning, Message: fmt.Sprintf(format, args...), Range: r}
}

// Wrap returns an error diagnostic at r whose message is err's and whose
// cause is err.
func Wrap(r Range, err error) *Diagnostic {
	return &Diagnostic{Severity: Error, Message: err.Error(), Range: r, Cause: err}
}

// Error returns the message followed by Puppet's location suffix:
// "MSG (file: F, line: L, column: C)".
func (d *Diagnostic) Error() string { return d.Message + Location(d.Range) }

// Unwrap returns the cause.
func (d *Diagnostic) Unwrap() error { return d.Cause }

// Location formats a range as Puppet appends it to a message:
// " (file: F, line: L, column: C)", leaving out what is unknown, and ""
// when nothing is known.
func Location(r Range) string {
	p := r.Start
	if p.Line <= 0 {
		if p.Filename != "" {
			return " (file: " + p.Filename + ")"
		}
		return ""
	}
	var b strings.Builder
	b.WriteString(" (")
	if p.Filename != "" {
		b.WriteString("file: ")
		b.WriteString(p.Filename)
		b.WriteString(", ")
	}
	b.WriteString("line: ")
	b.WriteString(strconv.Itoa(p.Line))
	if p.Column > 0 {
		b.WriteString(", column: ")
		b.WriteString(strconv.Itoa(p.Column))
	}
	b.WriteString(")")
	return b.String()
}

// List is a list of diagnostics; as an error it stands for its errors.
type List []*Diagnostic

// Add appends d.
func (l *List) Add(d *Diagnostic) { *l = append(*l, d) }

// Sort orders the list by file, line, column, then message, keeping the
// order of equal entries.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Range.Start, l[j].Range.Start
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return l[i].Message < l[j].Message
	})
}

// HasErrors reports whether any entry is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the list as an error when it holds an error, else nil.
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

// Error describes the first error and how many more there are.
func (l List) Error() string {
	var first *Diagnostic
	n := 0
	for _, d := range l {
		if d.Severity == Error {
			if first == nil {
				first = d
			}
			n++
		}
	}
	switch {
	case first == nil:
		return "no errors"
	case n == 1:
		return first.Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", first.Error(), n-1)
}

// Unwrap returns the entries, so errors.Is and errors.As look at each.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, d := range l {
		errs[i] = d
	}
	return errs
}

// Render writes d as Puppet's command line prints it:
// "Error: MSG (file: F, line: L, column: C) on node N". node is "" for a
// problem that is not about a node's compile (a settings or facts file).
func Render(w io.Writer, d *Diagnostic, node string) error {
	return RenderOptions{}.Render(w, d, node)
}

// RenderError writes a failed compile's error as Puppet's command line
// prints it: when err holds a List of several errors (a file's validation
// errors), each of them on its own line and Puppet's summary, then err
// itself, "Error: MSG on node N" (node "" leaves out " on node N").
func RenderError(w io.Writer, err error, node string) error {
	return RenderOptions{}.RenderError(w, err, node)
}

// ValidationSummary is Puppet's message after the n errors it found
// validating one file.
func ValidationSummary(n int) string {
	return fmt.Sprintf("Language validation logged %d errors. Giving up", n)
}

// errors returns the entries that are errors.
func (l List) errors() List {
	var out List
	for _, d := range l {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// As returns err as a Diagnostic: itself if it is one (or wraps one), else
// an error diagnostic without a range whose cause is err.
func As(err error) *Diagnostic {
	var d *Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return &Diagnostic{Severity: Error, Message: err.Error(), Cause: err}
}

// New returns an error diagnostic with code at r.
func New(code Code, r Range, msg string) *Diagnostic {
	return &Diagnostic{Severity: Error, Code: code, Message: msg, Range: r}
}

// Coded returns the first diagnostic with a code in err's tree (err itself,
// then what it wraps, depth first), or nil: the problem an error that wraps
// others is about.
func Coded(err error) *Diagnostic {
	if d, ok := err.(*Diagnostic); ok && d.Code != "" {
		return d
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return Coded(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if d := Coded(e); d != nil {
				return d
			}
		}
	}
	return nil
}
