package compiler

import "github.com/marionette-dev/marionette/syntax"

// validateProgram runs the validation pass over a parsed file.
// TODO(lead): wire syntax/validate once it lands.
func validateProgram(prog *syntax.Program) error { return nil }
