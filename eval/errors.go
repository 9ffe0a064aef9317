package eval

import (
	"fmt"
	"github.com/marionette-dev/marionette/value"

	"github.com/marionette-dev/marionette/syntax"
)

// Error is an evaluation error at a position in a manifest. Its text follows
// Puppet's: "Evaluation Error: MSG (file: F, line: L, column: C)".
type Error struct {
	Pos syntax.Position
	Msg string
}

func (e *Error) Error() string {
	if !e.Pos.IsValid() {
		return "Evaluation Error: " + e.Msg
	}
	if e.Pos.Filename == "" {
		return fmt.Sprintf("Evaluation Error: %s (line: %d, column: %d)", e.Msg, e.Pos.Line, e.Pos.Column)
	}
	return fmt.Sprintf("Evaluation Error: %s (file: %s, line: %d, column: %d)", e.Msg, e.Pos.Filename, e.Pos.Line, e.Pos.Column)
}

// errorAt builds an Error for node n evaluated in scope sc.
func errorAt(sc *Scope, n syntax.Node, format string, args ...any) *Error {
	return &Error{Pos: position(sc, n), Msg: fmt.Sprintf(format, args...)}
}

func position(sc *Scope, n syntax.Node) syntax.Position {
	if sc == nil || sc.File == nil || n == nil {
		return syntax.Position{}
	}
	return sc.File.Position(syntax.Pos(sc.File.ErrorOffset(n) + 1))
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
