package resourcetype

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// Inspect renders a value the way Ruby 3.1's inspect does, which is how
// Puppet prints uniqueness keys in "Cannot alias" messages: strings in
// double quotes, nil, [a, b] and {"k"=>v}.
func Inspect(v any) string {
	var b strings.Builder
	inspectTo(&b, v)
	return b.String()
}

func inspectTo(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("nil")
	case string:
		inspectString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(inspectFloat(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			inspectTo(b, e)
		}
		b.WriteByte(']')
	case Key:
		inspectTo(b, []any(x))
	case map[string]any:
		// Go maps have no order; sorting keeps the output stable.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			inspectString(b, k)
			b.WriteString("=>")
			inspectTo(b, x[k])
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, x)
	}
}

func inspectFloat(f float64) string {
	return value.FormatFloat(f)
}

func inspectString(b *strings.Builder, s string) { b.WriteString(value.RubyQuote(s)) }
