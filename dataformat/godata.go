package dataformat

import "github.com/marionette-dev/marionette/value"

// GoData converts a Puppet value to plain Go data for code that knows no
// Puppet types (resource type schemas, storeconfigs filters): string,
// int64, float64, bool, nil for undef, []any for arrays. A hash, like any
// value without such a form, becomes its string: a Go map would lose the
// order of its keys, and no such caller compares hashes.
func GoData(v value.Value) any {
	switch v := v.(type) {
	case value.String:
		return string(v)
	case value.Integer:
		return int64(v)
	case value.Float:
		return float64(v)
	case value.Boolean:
		return bool(v)
	case value.Array:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = GoData(e)
		}
		return out
	}
	if value.IsUndef(v) {
		return nil
	}
	return value.ToString(v)
}
