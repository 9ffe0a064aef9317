package compiler

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
)

// validateProgram runs the validation pass over a parsed file; warnings
// (legacy constructs marionette accepts) are returned separately.
func validateProgram(prog *syntax.Program) (warnings []string, err error) {
	errs, warns := validate.Program(prog)
	for _, w := range warns {
		warnings = append(warnings, puppetMessage(w))
	}
	if len(errs) > 0 {
		return warnings, errs
	}
	return warnings, nil
}

// puppetMessage formats a syntax error the way Puppet words positions:
// "MSG (file: F, line: L, column: C)".
func puppetMessage(e *syntax.Error) string {
	if !e.Pos.IsValid() {
		return e.Msg
	}
	return fmt.Sprintf("%s (file: %s, line: %d, column: %d)", e.Msg, e.Pos.Filename, e.Pos.Line, e.Pos.Column)
}

// firstError returns the first error of a parser or validator ErrorList in
// Puppet's wording.
func firstError(err error) string {
	var list syntax.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return puppetMessage(list[0])
	}
	var one *syntax.Error
	if errors.As(err, &one) {
		return puppetMessage(one)
	}
	return err.Error()
}
