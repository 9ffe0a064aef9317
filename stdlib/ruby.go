package stdlib

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// stdlib's messages and results often show values the way Ruby prints
// them (to_s, inspect, class names). These helpers reproduce Ruby 3.1's
// notation for the values Puppet hands to functions.

// rubyString is Ruby's to_s: strings raw, nil empty, arrays and hashes in
// inspect form.
func rubyString(v value.Value) string {
	switch v := v.(type) {
	case value.String:
		return string(v)
	case value.Array, *value.Hash:
		return rubyInspect(v)
	}
	if value.IsUndef(v) {
		return ""
	}
	return rubyScalar(v)
}

// rubyInspect is Ruby's inspect: strings double-quoted, nil as "nil",
// hashes as {"k"=>v}.
func rubyInspect(v value.Value) string {
	var b strings.Builder
	writeInspect(&b, v)
	return b.String()
}

func writeInspect(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.String:
		writeQuoted(b, string(v))
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, k)
			b.WriteString("=>")
			writeInspect(b, e)
		}
		b.WriteByte('}')
	default:
		if value.IsUndef(v) {
			b.WriteString("nil")
			return
		}
		if value.IsDefault(v) {
			b.WriteString(":default")
			return
		}
		b.WriteString(rubyScalar(v))
	}
}

// rubyScalar is to_s of the remaining values: numbers, booleans, types.
func rubyScalar(v value.Value) string {
	switch v := v.(type) {
	case value.Integer:
		return strconv.FormatInt(int64(v), 10)
	case value.Float:
		return rubyFloat(float64(v))
	case value.Boolean:
		if v {
			return "true"
		}
		return "false"
	case *value.Regexp:
		return "(?-mix:" + v.Source + ")"
	case *value.Sensitive:
		return "Sensitive [value redacted]"
	}
	if value.IsDefault(v) {
		return "default"
	}
	return value.ToString(v)
}

// writeQuoted writes s as Ruby's String#inspect does.
func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, "\\x%02X", s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '#' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '$' || s[i+1] == '@'):
			b.WriteString("\\#")
		case r == '\n':
			b.WriteString("\\n")
		case r == '\t':
			b.WriteString("\\t")
		case r == '\r':
			b.WriteString("\\r")
		case r == '\f':
			b.WriteString("\\f")
		case r == '\v':
			b.WriteString("\\v")
		case r == '\a':
			b.WriteString("\\a")
		case r == '\b':
			b.WriteString("\\b")
		case r == 0x1b:
			b.WriteString("\\e")
		case r < 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(b, "\\x%02X", r)
		case r >= 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	b.WriteByte('"')
}

// rubyFloat is Ruby's Float#to_s: the shortest round-tripping digits, in
// fixed notation for exponents -4..15 and as d.ddde+XX otherwise.
func rubyFloat(f float64) string {
	return value.FormatFloat(f)
}

// rubyClass is the Ruby class name of the object Puppet uses for v.
func rubyClass(v value.Value) string {
	switch v := v.(type) {
	case value.String:
		return "String"
	case value.Integer:
		return "Integer"
	case value.Float:
		return "Float"
	case value.Boolean:
		if v {
			return "TrueClass"
		}
		return "FalseClass"
	case value.Array:
		return "Array"
	case *value.Hash:
		return "Hash"
	case *value.Regexp:
		return "Regexp"
	case *value.Sensitive:
		return "Puppet::Pops::Types::PSensitiveType::Sensitive"
	case value.Type:
		return "Puppet::Pops::Types::P" + v.TypeName() + "Type"
	}
	if value.IsUndef(v) {
		return "NilClass"
	}
	if value.IsDefault(v) {
		return "Symbol"
	}
	return "Object"
}
