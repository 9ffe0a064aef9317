package ruby

import (
	"math"
	"strings"
	"unicode/utf8"
)

// jsonStyle holds the layout options of JSON.generate (all empty) and
// JSON.pretty_generate (two-space indent, newlines, a space after colons).
type jsonStyle struct {
	indent, space, spaceBefore, objectNL, arrayNL string
}

var prettyJSON = jsonStyle{indent: "  ", space: " ", objectNL: "\n", arrayNL: "\n"}

// jsonMethod implements JSON.generate, JSON.pretty_generate and JSON.dump.
func (in *interp) jsonMethod(line int, name string, args []any) (any, bool, error) {
	var st jsonStyle
	switch name {
	case "pretty_generate":
		st = prettyJSON
	case "generate", "dump", "fast_generate":
	default:
		return nil, false, nil
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, false, nil
	}
	if len(args) == 2 && name != "dump" {
		opts, ok := args[1].(*rhash)
		if !ok {
			return nil, false, nil
		}
		for i, k := range opts.keys {
			s := toS(opts.vals[i])
			switch toS(k) {
			case "indent":
				st.indent = s
			case "space":
				st.space = s
			case "space_before":
				st.spaceBefore = s
			case "object_nl":
				st.objectNL = s
			case "array_nl":
				st.arrayNL = s
			default:
				return nil, true, in.unsupported(line, "JSON option %s", toS(k))
			}
		}
	}
	var b strings.Builder
	if err := in.writeJSON(line, &b, args[0], st, 0); err != nil {
		return nil, true, err
	}
	return newStr(b.String()), true, nil
}

// writeJSON writes v as the json gem does; depth is the nesting level.
func (in *interp) writeJSON(line int, b *strings.Builder, v any, st jsonStyle, depth int) error {
	if depth > MaxNesting {
		return in.errorf(line, "JSON::NestingError", "nesting of %d is too deep", depth)
	}
	if b.Len() > in.maxString {
		return in.stringTooLarge(line)
	}
	in.steps++
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool, int64:
		b.WriteString(toS(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return in.errorf(line, "JSON::GeneratorError", "%s not allowed in JSON", toS(v))
		}
		b.WriteString(toS(v))
	case *rarray:
		b.WriteString("[" + st.arrayNL)
		for i, e := range v.a {
			if i > 0 {
				b.WriteString("," + st.arrayNL)
			}
			b.WriteString(strings.Repeat(st.indent, depth+1))
			if err := in.writeJSON(line, b, e, st, depth+1); err != nil {
				return err
			}
		}
		b.WriteString(st.arrayNL + strings.Repeat(st.indent, depth) + "]")
	case *rhash:
		b.WriteString("{")
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(st.objectNL + strings.Repeat(st.indent, depth+1))
			ks, err := in.callToS(line, k)
			if err != nil {
				return err
			}
			writeJSONString(b, ks)
			b.WriteString(st.spaceBefore + ":" + st.space)
			if err := in.writeJSON(line, b, v.vals[i], st, depth+1); err != nil {
				return err
			}
		}
		b.WriteString(st.objectNL + strings.Repeat(st.indent, depth) + "}")
	default:
		s, err := in.callToS(line, v)
		if err != nil {
			return err
		}
		writeJSONString(b, s)
	}
	return nil
}

// writeJSONString quotes a string as the json gem does: only quotes,
// backslashes and control characters are escaped; other text stays UTF-8.
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			b.WriteString(`\u00` + string(hex[c>>4]) + string(hex[c&15]))
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		i++
	}
	b.WriteByte('"')
}
