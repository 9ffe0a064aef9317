package stdlib

import (
	"errors"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hocon"
	"github.com/marionette-dev/marionette/value"
)

// parseHOCON is parsehocon(hocon_string, default): the document as a hash,
// resolved; a document that does not parse gives the default when one is
// given (undef included), other errors (an unresolved substitution, values
// that do not concatenate) fail the call either way, as with the hocon gem.
func parseHOCON(name string) functions.Func {
	impl := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		v, err := hocon.Parse(string(args[0].(value.String)))
		if err != nil {
			var e *hocon.Error
			parseErr := errors.As(err, &e) && e.Kind == hocon.ParseErr
			if len(args) > 1 && parseErr {
				return args[1], nil
			}
			if parseErr {
				// The Ruby hocon gem's exception, which stdlib lets through.
				return nil, rubyErrorf("Hocon::ConfigError::ConfigParseError", "%s", err.Error())
			}
			return nil, err
		}
		return v, nil
	}
	return functions.Dispatch(name, functions.Signature{
		Params:   []functions.Param{functions.P("hocon_string", value.StringAny), functions.P("default", value.AnyType)},
		Required: 1, Impl: impl,
	})
}
