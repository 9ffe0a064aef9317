package eval

import (
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Strictness is Puppet's strict setting: what evaluation does with code
// Puppet deems questionable (an unknown variable, a string used as a
// number). The zero value is Puppet 7's default.
type Strictness uint8

// The values of the strict setting.
const (
	StrictWarning Strictness = iota // log a warning (Puppet 7's default)
	StrictOff                       // say nothing
	StrictError                     // fail the evaluation (Puppet 8's default)
)

// ParseStrictness reads a strict setting's value (off, warning, error).
func ParseStrictness(s string) (Strictness, bool) {
	switch s {
	case "warning":
		return StrictWarning, true
	case "off":
		return StrictOff, true
	case "error":
		return StrictError, true
	}
	return StrictWarning, false
}

// strictIssue reports a questionable form (code, with its arguments) as
// the strict setting says: an error, a warning through Warn, or nothing.
func (ev *Evaluator) strictIssue(sc *Scope, at syntax.Node, code diag.Code, issueArgs diag.Args, format string, args ...any) error {
	switch ev.Strict {
	case StrictError:
		return IssueAt(sc, at, code, issueArgs, format, args...)
	case StrictWarning:
		if ev.Warn != nil {
			w := diag.Warningf(Range(sc, at), format, args...)
			w.Code, w.Args = code, issueArgs
			ev.Warn(w)
		}
	}
	return nil
}

// unknownVariable is the outcome of reading a variable that is not set
// (name as written, without "$"): undef, with a warning under strict =
// warning, or an error under strict_variables or strict = error.
func (ev *Evaluator) unknownVariable(sc *Scope, at syntax.Node, name string) (value.Value, error) {
	if ev.StrictVariables {
		return nil, IssueAt(sc, at, diag.UnknownVariable, diag.Args{"name": name}, "Unknown variable: '%s'.", name)
	}
	if err := ev.strictIssue(sc, at, diag.UnknownVariable, diag.Args{"name": name}, "Unknown variable: '%s'.", name); err != nil {
		return nil, err
	}
	return value.Undef, nil
}

// UnknownVariable lets a Host report a qualified variable it does not
// know ($a::b of a class without b) as the settings say.
func (ev *Evaluator) UnknownVariable(sc *Scope, at syntax.Node, name string) (value.Value, error) {
	return ev.unknownVariable(sc, at, name)
}

// coerced reports a string an arithmetic operator used as a number.
func (ev *Evaluator) coerced(sc *Scope, at syntax.Node, s value.String, n value.Value) error {
	if ev.Strict == StrictOff {
		return nil
	}
	return ev.strictIssue(sc, at, diag.NumericCoercion, diag.Args{"value": string(s)}, "The string '%s' was automatically coerced to the numerical value %s", string(s), value.ToString(n))
}
