package ruby

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/dataformat"
)

// jsonMethod implements JSON.generate, JSON.pretty_generate and JSON.dump.
func (in *interp) jsonMethod(line int, name string, args []any) (any, bool, error) {
	var st dataformat.JSONStyle
	switch name {
	case "parse":
		v, err := in.jsonParse(line, args)
		return v, true, err
	case "pretty_generate":
		st = dataformat.PrettyJSON()
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
				st.Indent = s
			case "space":
				st.Space = s
			case "space_before":
				st.SpaceBefore = s
			case "object_nl":
				st.ObjectNL = s
			case "array_nl":
				st.ArrayNL = s
			default:
				return nil, true, in.unsupported(line, "JSON option %s", toS(k))
			}
		}
	}
	g := dataformat.JSONGenerator{Style: st}
	if err := in.writeJSON(line, &g, args[0]); err != nil {
		return nil, true, err
	}
	return newStr(g.Text()), true, nil
}

// writeJSON writes v as the json gem does, through g, which lays it out.
func (in *interp) writeJSON(line int, g *dataformat.JSONGenerator, v any) error {
	if g.Depth() > MaxNesting {
		return in.errorf(line, "JSON::NestingError", "nesting of %d is too deep", g.Depth())
	}
	if g.Len() > in.maxString {
		return in.stringTooLarge(line)
	}
	in.steps++
	switch v := v.(type) {
	case nil:
		g.Literal("null")
	case bool, int64:
		g.Literal(toS(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return in.errorf(line, "JSON::GeneratorError", "%s not allowed in JSON", toS(v))
		}
		g.Literal(toS(v))
	case *rarray:
		g.OpenArray()
		for i, e := range v.a {
			g.Element(i)
			if err := in.writeJSON(line, g, e); err != nil {
				return err
			}
		}
		g.CloseArray()
	case *rhash:
		g.OpenObject()
		for i, k := range v.keys {
			ks, err := in.callToS(line, k)
			if err != nil {
				return err
			}
			g.Key(i, ks)
			if err := in.writeJSON(line, g, v.vals[i]); err != nil {
				return err
			}
		}
		g.CloseObject()
	default:
		s, err := in.callToS(line, v)
		if err != nil {
			return err
		}
		g.String(s)
	}
	return nil
}

// jsonMaxNesting is the json gem's default max_nesting.
const jsonMaxNesting = 100

// jsonParser is JSON.parse: it reads JSON text into Ruby values, keeping
// object key order, Integers for numbers without fraction or exponent.
type jsonParser struct {
	in      *interp
	line    int
	s       string
	pos     int
	symKeys bool // symbolize_names: true
}

// jsonParse implements JSON.parse(text[, opts]).
func (in *interp) jsonParse(line int, args []any) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, in.errorf(line, "ArgumentError", "wrong number of arguments (given %d, expected 1..2)", len(args))
	}
	s, ok := args[0].(*rstr)
	if !ok {
		return nil, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[0]))
	}
	p := &jsonParser{in: in, line: line, s: s.s}
	if len(args) == 2 && args[1] != nil {
		opts, ok := args[1].(*rhash)
		if !ok {
			return nil, in.unsupported(line, "JSON.parse options %s", className(args[1]))
		}
		for i, k := range opts.keys {
			switch toS(k) {
			case "symbolize_names":
				p.symKeys = truthy(opts.vals[i])
			default:
				return nil, in.unsupported(line, "JSON.parse option %s", toS(k))
			}
		}
	}
	p.space()
	v, err := p.value(1)
	if err != nil {
		return nil, p.parserError(err)
	}
	p.space()
	if p.pos < len(p.s) {
		return nil, p.parserError(p.fail())
	}
	return v, nil
}

// jsonSyntax is a syntax error at a byte offset; inArray is set when an
// array's parser found it (the json gem's messages differ by the C line
// that raised them, 451 in arrays, 859 elsewhere).
type jsonSyntax struct {
	pos     int
	inArray bool
}

func (*jsonSyntax) Error() string { return "JSON syntax error" }

// fail is a syntax error at the current position.
func (p *jsonParser) fail() error { return &jsonSyntax{pos: p.pos} }

// parserError is the json gem's ParserError for a syntax error, quoting
// the text from where it stopped.
func (p *jsonParser) parserError(err error) error {
	e, ok := err.(*jsonSyntax)
	if !ok {
		return err
	}
	at := 859
	if e.inArray {
		at = 451
	}
	return p.in.errorf(p.line, "JSON::ParserError", "%d: unexpected token at '%s'", at, p.s[e.pos:])
}

func (p *jsonParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if p.pos >= len(p.s) {
		return nil, p.fail()
	}
	switch c := p.s[p.pos]; {
	case c == '{' || c == '[':
		if depth > jsonMaxNesting {
			return nil, p.in.errorf(p.line, "JSON::NestingError", "nesting of %d is too deep", depth)
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return newStr(s), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for word, v := range map[string]any{"true": true, "false": false, "null": nil} {
		if strings.HasPrefix(p.s[p.pos:], word) {
			p.pos += len(word)
			return v, nil
		}
	}
	return nil, p.fail()
}

// object reads an object; a syntax error in it, or in an object nested
// directly in it, is reported at its start, as the json gem does.
func (p *jsonParser) object(depth int) (any, error) {
	start := p.pos
	v, err := p.objectBody(depth)
	if e, ok := err.(*jsonSyntax); ok && !e.inArray {
		return nil, &jsonSyntax{pos: start}
	}
	return v, err
}

func (p *jsonParser) objectBody(depth int) (any, error) {
	h := newHash()
	p.pos++
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return h, nil
	}
	for {
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return nil, p.fail()
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.fail()
		}
		p.pos++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.symKeys {
			h.set(symbol(k), v)
		} else {
			h.set(newStr(k), v)
		}
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			return h, nil
		}
		return nil, p.fail()
	}
}

// array reads an array; its syntax errors are reported where found.
func (p *jsonParser) array(depth int) (any, error) {
	v, err := p.arrayBody(depth)
	if e, ok := err.(*jsonSyntax); ok {
		e.inArray = true
	}
	return v, err
}

func (p *jsonParser) arrayBody(depth int) (any, error) {
	a := &rarray{}
	p.pos++
	p.space()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return a, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if len(a.a) >= MaxArraySize {
			return nil, p.in.arrayTooLarge(p.line)
		}
		a.a = append(a.a, v)
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			return a, nil
		}
		return nil, p.fail()
	}
}

// str reads a string literal, escapes decoded as encoding/json does.
func (p *jsonParser) str() (string, error) {
	start := p.pos
	for i := p.pos + 1; i < len(p.s); i++ {
		switch p.s[i] {
		case '\\':
			i++
		case '"':
			var s string
			if err := json.Unmarshal([]byte(p.s[start:i+1]), &s); err != nil {
				return "", p.fail()
			}
			p.pos = i + 1
			return s, nil
		}
	}
	return "", p.fail()
}

// number reads a number: an Integer unless it has a fraction or exponent.
func (p *jsonParser) number() (any, error) {
	start := p.pos
	isFloat := false
	if p.s[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' || c == 'e' || c == 'E' || (c == '+' || c == '-') && isFloat:
			isFloat = true
		default:
			goto done
		}
		p.pos++
	}
done:
	text := p.s[start:p.pos]
	if digits := strings.TrimPrefix(text, "-"); len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' {
		p.pos = start
		return nil, p.fail() // no leading zeros
	}
	if !isFloat {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			if text == "-" {
				p.pos = start
				return nil, p.fail()
			}
			return nil, p.in.unsupported(p.line, "JSON integer %s beyond 64 bits", text)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) {
		p.pos = start
		return nil, p.fail()
	}
	return f, nil
}
