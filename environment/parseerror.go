package environment

import (
	"errors"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// ParseError is a manifest that does not parse or validate, including the
// rules for module files. Puppet reports one in the main manifest as "Could
// not parse for environment ..." and one in a module file as it is, not as
// an error of the expression that needed the file. With several validation
// errors its message is Puppet's summary; Diagnostics lists them all.
type ParseError struct {
	File        string
	Diagnostics diag.List
}

// NewParseError returns the ParseError of file path for the parser's or
// validator's diag.List, or any other error.
func NewParseError(path string, err error) *ParseError {
	var list diag.List
	if errors.As(err, &list) {
		return &ParseError{File: path, Diagnostics: list}
	}
	return &ParseError{File: path, Diagnostics: diag.List{diag.As(err)}}
}

func (e *ParseError) Error() string {
	if n := len(e.Diagnostics); n > 1 {
		return diag.ValidationSummary(n) + diag.Location(diag.Range{Start: syntax.Position{Filename: e.File}})
	}
	if len(e.Diagnostics) == 0 {
		return "could not parse " + e.File
	}
	return e.Diagnostics[0].Error()
}

// Unwrap returns the file's errors, so a renderer finds them as a
// diag.List and errors.As finds each.
func (e *ParseError) Unwrap() error { return e.Diagnostics }
