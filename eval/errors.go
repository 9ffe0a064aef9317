package eval

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Errorf returns Puppet's evaluation error at pos, "Evaluation Error: MSG
// (file: F, line: L, column: C)". It is already about the innermost
// expression, so the expressions around it pass it on as it is.
func Errorf(pos syntax.Position, format string, args ...any) *diag.Diagnostic {
	return &diag.Diagnostic{
		Severity: diag.Error,
		Message:  "Evaluation Error: " + fmt.Sprintf(format, args...),
		Range:    diag.At(pos),
		Nesting:  diag.Verbatim,
	}
}

// IsVerbatim reports whether err is, or wraps, an error that the
// expressions around it report as it is (an evaluation error, a
// Puppet::ParseError naming its place).
func IsVerbatim(err error) bool {
	var d *diag.Diagnostic
	for err != nil {
		if !errors.As(err, &d) {
			return false
		}
		if d.Nesting == diag.Verbatim {
			return true
		}
		err = d.Cause
	}
	return false
}

// IssueAt returns Puppet's evaluation error with a code and its arguments
// about node n evaluated in scope sc.
func IssueAt(sc *Scope, n syntax.Node, code diag.Code, args diag.Args, format string, fmtArgs ...any) *diag.Diagnostic {
	d := errorAt(sc, n, format, fmtArgs...)
	d.Code, d.Args = code, args
	return d
}

// errorAt builds an evaluation error for node n evaluated in scope sc.
func errorAt(sc *Scope, n syntax.Node, format string, args ...any) *diag.Diagnostic {
	d := Errorf(syntax.Position{}, format, args...)
	d.Range = Range(sc, n)
	return d
}

// Range returns the range of n in the file of scope sc: from where Puppet
// places it (syntax.ErrorPos: an operator, a method call's '(' or '.') to
// the end of n.
func Range(sc *Scope, n syntax.Node) diag.Range {
	if sc == nil || sc.File == nil || n == nil {
		return diag.Range{}
	}
	return diag.Span(sc.File, syntax.ErrorPos(n), n.End())
}

// position is where Puppet places n, without Range's end: return, next
// and break take it at every call.
func position(sc *Scope, n syntax.Node) syntax.Position {
	if sc == nil || sc.File == nil || n == nil {
		return syntax.Position{}
	}
	return sc.File.Position(syntax.ErrorPos(n))
}

// Control-flow signals travel as errors, never as panics: a function body or
// lambda that sees one of these stops and hands it to its caller, which
// turns it into a value (return) or an iteration step (next, break).

// returnSignal is raised by return(); it carries the returned value.
type returnSignal struct {
	Result value.Value
	Pos    syntax.Position
}

// nextSignal is raised by next(); it ends one lambda call with a value.
type nextSignal struct {
	Result value.Value
	Pos    syntax.Position
}

// breakSignal is raised by break(); it stops an iteration.
type breakSignal struct {
	Pos syntax.Position
}

func (*returnSignal) Error() string { return "return() used outside a function or lambda" }
func (*nextSignal) Error() string   { return "next() used outside an iteration" }
func (*breakSignal) Error() string  { return "break() used outside an iteration" }
