package functions

import "github.com/marionette-dev/marionette/value"

// Puppet 3.x functions (fail, sprintf, shellquote, md5, ...) receive their
// arguments converted: a top-level undef becomes '', and every Regexp, also
// inside arrays and hashes, becomes its "/source/" string.

// legacy wraps the implementation of a 3.x function.
func legacy(impl Func) Func {
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		converted := make([]value.Value, len(args))
		for i, a := range args {
			if value.IsUndef(a) {
				converted[i] = value.String("")
			} else {
				converted[i] = legacyValue(a)
			}
		}
		return impl(c, converted)
	}
}

func legacyValue(v value.Value) value.Value {
	switch v := v.(type) {
	case *value.Regexp:
		return value.String(value.Literal(v))
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = legacyValue(e)
		}
		return out
	case *value.Hash:
		b := value.NewHashBuilder(v.Len())
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			b.Set(legacyValue(k), legacyValue(e))
		}
		return b.Build()
	}
	return v
}
