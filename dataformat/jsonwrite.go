package dataformat

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// JSONStyle is the layout of generated JSON: the options of the json gem's
// generator. The zero value is JSON.generate's compact layout.
type JSONStyle struct {
	Indent, Space, SpaceBefore, ObjectNL, ArrayNL string
}

// PrettyJSON is JSON.pretty_generate's layout.
func PrettyJSON() JSONStyle {
	return JSONStyle{Indent: "  ", Space: " ", ObjectNL: "\n", ArrayNL: "\n"}
}

// JSONGenerator writes JSON text laid out as the json gem's generator lays
// it out, for a walk over any kind of data (Puppet values, Ruby objects):
// the walk calls OpenArray, Element before each element, CloseArray (and
// likewise for objects), and String or Literal for scalars.
type JSONGenerator struct {
	Style JSONStyle
	b     strings.Builder
	depth int
}

// Depth is the number of arrays and objects open.
func (g *JSONGenerator) Depth() int { return g.depth }

// Len is the length of the text written so far.
func (g *JSONGenerator) Len() int { return g.b.Len() }

// Text is the text written so far.
func (g *JSONGenerator) Text() string { return g.b.String() }

func (g *JSONGenerator) indent(depth int) {
	for range depth {
		g.b.WriteString(g.Style.Indent)
	}
}

// OpenArray starts an array. The gem writes array_nl after "[" even when
// the array is empty.
func (g *JSONGenerator) OpenArray() {
	g.b.WriteByte('[')
	g.b.WriteString(g.Style.ArrayNL)
	g.depth++
}

// Element starts the i-th element (from 0) of the array open.
func (g *JSONGenerator) Element(i int) {
	if i > 0 {
		g.b.WriteByte(',')
		g.b.WriteString(g.Style.ArrayNL)
	}
	g.indent(g.depth)
}

// CloseArray ends the array open; the indent before "]" comes only with
// array_nl, as in the gem.
func (g *JSONGenerator) CloseArray() {
	g.depth--
	if g.Style.ArrayNL != "" {
		g.b.WriteString(g.Style.ArrayNL)
		g.indent(g.depth)
	}
	g.b.WriteByte(']')
}

// OpenObject starts an object; object_nl comes only before each key.
func (g *JSONGenerator) OpenObject() {
	g.b.WriteByte('{')
	g.depth++
}

// Key starts the i-th entry (from 0) of the object open, writing its key.
func (g *JSONGenerator) Key(i int, key string) {
	if i > 0 {
		g.b.WriteByte(',')
	}
	g.b.WriteString(g.Style.ObjectNL)
	g.indent(g.depth)
	g.String(key)
	g.b.WriteString(g.Style.SpaceBefore)
	g.b.WriteByte(':')
	g.b.WriteString(g.Style.Space)
}

// CloseObject ends the object open.
func (g *JSONGenerator) CloseObject() {
	g.depth--
	if g.Style.ObjectNL != "" {
		g.b.WriteString(g.Style.ObjectNL)
		g.indent(g.depth)
	}
	g.b.WriteByte('}')
}

// Literal writes text as it is: null, true, false, a number.
func (g *JSONGenerator) Literal(text string) { g.b.WriteString(text) }

// String writes s quoted as the gem quotes it: only quotes, backslashes
// and control characters are escaped; other text, bytes that are not UTF-8
// included, stays as it is.
func (g *JSONGenerator) String(s string) {
	const hex = "0123456789abcdef"
	b := &g.b
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		start = i + 1
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// WriteJSON generates the JSON text of a Puppet value in style, as Puppet
// hands the value to Ruby's JSON generator (stdlib's to_json and
// to_json_pretty): undef is null, a value without a data form is its
// string, hash keys are strings, text that is not UTF-8 becomes U+FFFD.
// NaN and infinities are an error, in Ruby's words.
func WriteJSON(v value.Value, style JSONStyle) (string, error) {
	g := JSONGenerator{Style: style}
	if err := writeValueJSON(&g, v); err != nil {
		return "", err
	}
	return g.Text(), nil
}

func writeValueJSON(g *JSONGenerator, v value.Value) error {
	switch v := v.(type) {
	case value.String:
		g.String(validUTF8(string(v)))
	case value.Integer:
		g.Literal(strconv.FormatInt(int64(v), 10))
	case value.Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return errors.New(value.FormatFloat(f) + " not allowed in JSON")
		}
		g.Literal(value.FormatFloat(f))
	case value.Boolean:
		g.Literal(strconv.FormatBool(bool(v)))
	case value.Array:
		g.OpenArray()
		for i, e := range v {
			g.Element(i)
			if err := writeValueJSON(g, e); err != nil {
				return err
			}
		}
		g.CloseArray()
	case *value.Hash:
		g.OpenObject()
		for i := range v.Len() {
			k, e := v.At(i)
			g.Key(i, validUTF8(value.RubyString(k)))
			if err := writeValueJSON(g, e); err != nil {
				return err
			}
		}
		g.CloseObject()
	default:
		if value.IsUndef(v) {
			g.Literal("null")
			return nil
		}
		g.String(validUTF8(value.RubyString(v)))
	}
	return nil
}

// validUTF8 replaces each byte of s that is not part of UTF-8 by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}
