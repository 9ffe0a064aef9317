package functions

import (
	"errors"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

func addLogging(t Table) {
	for _, level := range []Level{Debug, Info, Notice, Warning, Err, Alert, Emerg, Crit} {
		t[string(level)] = logAt(level)
	}
	t["fail"] = legacy(fail)
}

// logAt builds a logging function: the arguments are converted as string
// interpolation would and joined with spaces.
func logAt(level Level) Func {
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		if c.lambda() != nil {
			return nil, errors.New("'" + string(level) + "' does not expect a block")
		}
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = value.ToString(a)
		}
		c.Log(level, strings.Join(parts, " "))
		return value.Undef, nil
	}
}

// fail raises an error whose text is the arguments joined with spaces.
// fail is a Puppet 3.x function, so its arguments are rendered with Ruby's
// to_s: an undef argument is empty, nested values show as Ruby literals
// ([1, "a"], {"a"=>"b"}). The compiler prefixes "Evaluation Error: Error
// while evaluating a Function Call, " and appends the call's position.
func fail(c *Ctx, args []value.Value) (value.Value, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = value.RubyString(a)
	}
	return nil, errors.New(strings.Join(parts, " "))
}
