package dataformat

import (
	"encoding/json"
	"strconv"

	"github.com/marionette-dev/marionette/value"
)

// fastJSON decodes a JSON document into values in one pass over text,
// without encoding/json's tokens (an interface value per token): strings
// without escapes are slices of text, which is one string for the whole
// document. It gives the values FromJSON's token walk gives for the same
// document; on anything it does not decode (an error, nesting past
// MaxJSONDepth, a number out of range) ok is false and the caller decodes
// with the token walk, which words the error. compact reports that the
// document has no whitespace outside strings.
type fastJSON struct {
	text    string
	pos     int
	spaced  bool // whitespace was skipped
	invalid bool
}

func decodeFastJSON(text string) (v value.Value, compact, ok bool) {
	d := &fastJSON{text: text}
	v = d.value(0)
	d.space()
	if d.invalid || d.pos != len(text) {
		return nil, false, false
	}
	return v, !d.spaced, true
}

func (d *fastJSON) space() {
	for d.pos < len(d.text) {
		switch d.text[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
			d.spaced = true
		default:
			return
		}
	}
}

func (d *fastJSON) fail() value.Value {
	d.invalid = true
	return nil
}

func (d *fastJSON) value(depth int) value.Value {
	d.space()
	if d.pos >= len(d.text) {
		return d.fail()
	}
	switch c := d.text[d.pos]; {
	case c == '{':
		if depth++; depth > MaxJSONDepth {
			return d.fail()
		}
		d.pos++
		b := value.NewHashBuilder(4)
		d.space()
		if d.pos < len(d.text) && d.text[d.pos] == '}' {
			d.pos++
			return b.Build()
		}
		for {
			d.space()
			if d.pos >= len(d.text) || d.text[d.pos] != '"' {
				return d.fail()
			}
			k, ok := d.str()
			if !ok {
				return d.fail()
			}
			d.space()
			if d.pos >= len(d.text) || d.text[d.pos] != ':' {
				return d.fail()
			}
			d.pos++
			v := d.value(depth)
			if d.invalid {
				return nil
			}
			b.Set(value.String(k), v)
			d.space()
			if d.pos >= len(d.text) {
				return d.fail()
			}
			switch d.text[d.pos] {
			case ',':
				d.pos++
			case '}':
				d.pos++
				return b.Build()
			default:
				return d.fail()
			}
		}
	case c == '[':
		if depth++; depth > MaxJSONDepth {
			return d.fail()
		}
		d.pos++
		arr := value.Array{}
		d.space()
		if d.pos < len(d.text) && d.text[d.pos] == ']' {
			d.pos++
			return arr
		}
		for {
			v := d.value(depth)
			if d.invalid {
				return nil
			}
			arr = append(arr, v)
			d.space()
			if d.pos >= len(d.text) {
				return d.fail()
			}
			switch d.text[d.pos] {
			case ',':
				d.pos++
			case ']':
				d.pos++
				return arr
			default:
				return d.fail()
			}
		}
	case c == '"':
		s, ok := d.str()
		if !ok {
			return d.fail()
		}
		return value.String(s)
	case c == 't':
		return d.literal("true", value.Boolean(true))
	case c == 'f':
		return d.literal("false", value.Boolean(false))
	case c == 'n':
		return d.literal("null", value.Undef)
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return d.fail()
}

func (d *fastJSON) literal(word string, v value.Value) value.Value {
	if len(d.text)-d.pos < len(word) || d.text[d.pos:d.pos+len(word)] != word {
		return d.fail()
	}
	d.pos += len(word)
	return v
}

// str reads the string at pos (at its opening quote). A string of plain
// ASCII without escapes is a slice of text; any other goes through
// encoding/json, so that escapes and invalid UTF-8 decode as there.
func (d *fastJSON) str() (string, bool) {
	start := d.pos + 1
	plain := true
	for i := start; i < len(d.text); i++ {
		switch c := d.text[i]; {
		case c == '"':
			d.pos = i + 1
			if plain {
				return d.text[start:i], true
			}
			var s string
			if err := json.Unmarshal([]byte(d.text[start-1:i+1]), &s); err != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			i++ // the escaped character cannot end the string
		case c < 0x20:
			return "", false
		case c >= 0x80:
			plain = false
		}
	}
	return "", false
}

// number reads a JSON number: an Integer when it has no fraction or
// exponent and fits 64 bits, else a Float, as json.Number's Int64, then
// Float64, decide.
func (d *fastJSON) number() value.Value {
	start := d.pos
	i := d.pos
	if d.text[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d.text) && d.text[i] >= '0' && d.text[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(d.text) && d.text[i] == '0' {
		i++
	} else if digits() == 0 {
		return d.fail()
	}
	integral := true
	if i < len(d.text) && d.text[i] == '.' {
		i++
		integral = false
		if digits() == 0 {
			return d.fail()
		}
	}
	if i < len(d.text) && (d.text[i] == 'e' || d.text[i] == 'E') {
		i++
		integral = false
		if i < len(d.text) && (d.text[i] == '+' || d.text[i] == '-') {
			i++
		}
		if digits() == 0 {
			return d.fail()
		}
	}
	d.pos = i
	lit := d.text[start:i]
	if integral {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return value.Integer(n)
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return d.fail() // out of range: the token walk words the error
	}
	return value.Float(f)
}
