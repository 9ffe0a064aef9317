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
		parts[i] = rubyToS(a)
	}
	return nil, errors.New(strings.Join(parts, " "))
}

// rubyToS renders a value handed to a 3.x function the way Ruby's to_s does.
func rubyToS(v value.Value) string {
	switch v := v.(type) {
	case value.String:
		return string(v)
	case value.Array, *value.Hash:
		var b strings.Builder
		writeRubyInspect(&b, v)
		return b.String()
	case *value.Regexp:
		return "(?-mix:" + v.Source + ")"
	}
	if value.IsUndef(v) {
		return ""
	}
	return value.ToString(v)
}

// writeRubyInspect writes Ruby's inspect form of a value nested in an array
// or hash handed to a 3.x function.
func writeRubyInspect(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.String:
		writeRubyString(b, string(v))
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRubyInspect(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			writeRubyInspect(b, k)
			b.WriteString("=>")
			writeRubyInspect(b, e)
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
		b.WriteString(value.ToString(v))
	}
}

// writeRubyString writes s double-quoted with Ruby's String#inspect escapes.
func writeRubyString(b *strings.Builder, s string) {
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
		case '\x1b':
			b.WriteString(`\e`)
		case '#':
			// Ruby escapes # only where it would start an interpolation.
			if i+1 < len(s) && strings.IndexByte("{$@", s[i+1]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte('#')
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\x`)
				const hex = "0123456789ABCDEF"
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
