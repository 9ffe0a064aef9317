package environment

import (
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
)

// validateProgram runs the validation pass over a parsed file; warnings
// (legacy constructs marionette accepts) are returned separately.
func validateProgram(prog *syntax.Program) (warnings diag.List, err error) {
	errs, warnings := validate.Program(prog)
	return warnings, errs.Err()
}

// lineWarningf is a warning about the statement at p (file and line).
func lineWarningf(p syntax.Position, format string, args ...any) *diag.Diagnostic {
	return diag.Warningf(diag.At(p).Line(), format, args...)
}
