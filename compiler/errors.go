package compiler

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/syntax"
)

// evalError wraps err as Puppet's "Evaluation Error: <what>, <msg> (file:
// F, line: L, column: C)" (what ends with ", ") unless Puppet reports err as
// it is.
func evalError(sc *eval.Scope, at syntax.Node, what string, err error) error {
	// Reported as they are, as Puppet does: an evaluation error, a
	// Puppet::ParseError that names its place, a module file that does not
	// load (not an error of the expression that needed it), and Hiera's
	// lookup errors; and a parameter default that reads a parameter without
	// a value, which the class or define it belongs to reports.
	d, isDiag := err.(*diag.Diagnostic)
	if isDiag && d.Nesting == diag.Verbatim {
		return err
	}
	var pe *environment.ParseError
	if errors.As(err, &pe) {
		return err
	}
	switch err.(type) {
	case *hiera.NotFound, *hiera.IssueError, *eval.ParamAccessError:
		return err
	}
	if isDiag && d.Nesting == diag.AtDeclaration {
		return evaluationError(d.Range, what+d.Message, err)
	}
	return evaluationError(eval.Range(sc, at), what+err.Error(), err)
}

// evaluationError is Puppet's "Evaluation Error: MSG" at r, caused by err;
// it is the problem err is (its code, arguments and detail).
func evaluationError(r diag.Range, msg string, err error) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Message: "Evaluation Error: " + msg, Range: r, Cause: err, Nesting: diag.Verbatim}
	if issue := diag.Coded(err); issue != nil {
		d.Code, d.Args, d.Detail = issue.Code, issue.Args, issue.Detail
	}
	return d
}

// defineError is how Puppet reports an error raised while evaluating an
// instance of a defined type: as an error of the resource statement that
// declared it, at its declaration (file and line), around the error itself.
func defineError(err error, decl syntax.Position) error {
	const what = "Error while evaluating a Resource Statement, "
	r := diag.At(decl).Line()
	if d, ok := err.(*diag.Diagnostic); ok && d.Nesting == diag.AtDeclaration && d.Range == r {
		return evaluationError(r, what+d.Message, err)
	}
	return evaluationError(r, what+err.Error(), err)
}

// declError places err at a resource declaration: file and line, no
// column, as Puppet reports errors about a resource.
func declError(err error, decl syntax.Position) *diag.Diagnostic {
	d := &diag.Diagnostic{Severity: diag.Error, Message: err.Error(), Range: diag.At(decl).Line(), Cause: err, Nesting: diag.AtDeclaration}
	if issue := diag.Coded(err); issue != nil {
		d.Code, d.Args, d.Detail = issue.Code, issue.Args, issue.Detail
	}
	return d
}

// issueAt is Puppet's evaluation error with code about n, placed at its
// start (as Puppet places errors about a resource's title or attributes)
// and ranging to its end.
func (c *Compilation) issueAt(sc *eval.Scope, n syntax.Node, code diag.Code, args diag.Args, format string, fmtArgs ...any) *diag.Diagnostic {
	d := eval.Errorf(syntax.Position{}, format, fmtArgs...)
	d.Code, d.Args = code, args
	if n != nil && sc != nil && sc.File != nil {
		d.Range = diag.Span(sc.File, n.Pos(), n.End())
	}
	return d
}

// lineErrorf is an error about the declaration at p (file and line).
func lineErrorf(p syntax.Position, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(diag.At(p).Line(), format, args...)
}

// locatedf is an error Puppet raises as a Puppet::ParseError that names
// its file and line; its evaluator passes such errors on verbatim instead of
// wrapping them as an error of the expression being evaluated.
func locatedf(p syntax.Position, format string, args ...any) *diag.Diagnostic {
	d := lineErrorf(p, format, args...)
	d.Nesting = diag.Verbatim
	return d
}

// at formats a second position inside a message, as Puppet names where
// something was declared before: " (file: F, line: L)".
func declaredAt(p syntax.Position) string { return diag.Location(diag.At(p).Line()) }

// errDuplicate is the cause of every duplicate declaration error.
var errDuplicate = errors.New("duplicate declaration")

// duplicateError is Puppet's error for a resource (or class) declared
// twice: at the second declaration, naming the first when it is known.
func duplicateError(ref fmt.Stringer, prev, decl syntax.Position) *diag.Diagnostic {
	d := lineErrorf(decl, "Duplicate declaration: %s is already declared; cannot redeclare", ref)
	if prev.Filename != "" || prev.Line != 0 {
		d.Message = "Duplicate declaration: " + ref.String() + " is already declared at" + declaredAt(prev) + "; cannot redeclare"
	}
	d.Code, d.Args = diag.DuplicateResource, diag.Args{"resource": ref.String(), "previous": prev}
	d.Cause = errDuplicate
	return d
}
