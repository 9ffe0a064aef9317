package resourcetype

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

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

func inspectString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case 0x1b:
			b.WriteString(`\e`)
		case '#':
			// "#{", "#$" and "#@" would interpolate, so Ruby escapes them.
			if i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '$' || s[i+1] == '@') {
				b.WriteByte('\\')
			}
			b.WriteByte('#')
		default:
			switch {
			case r == unicode.ReplacementChar:
				fmt.Fprintf(b, `\x%02X`, s[i])
			case unicode.IsPrint(r):
				b.WriteRune(r)
			case r < 0x10000:
				fmt.Fprintf(b, `\u%04X`, r)
			default:
				fmt.Fprintf(b, `\u{%X}`, r)
			}
		}
	}
	b.WriteByte('"')
}
