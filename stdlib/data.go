package stdlib

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

func addData(t functions.Table) {
	t["to_json"] = arity("to_json", 1, 1, toJSON)
	t["to_json_pretty"] = arity("to_json_pretty", 1, 3, toJSONPretty)
	t["to_yaml"] = arity("to_yaml", 1, 2, toYAML)
	t["parsejson"] = legacy(parseJSONFunc)
	t["parseyaml"] = legacy(parseYAMLFunc)
	t["loadjson"] = legacy(loadFile("loadjson", parseJSON))
	t["loadyaml"] = legacy(loadFile("loadyaml", func(b []byte) (value.Value, error) { return hiera.FromYAML(b, "") }))
}

// ---- JSON, as Ruby's JSON.generate and JSON.pretty_generate write it.

type jsonStyle struct {
	indent, space, spaceBefore, objectNL, arrayNL string
}

var (
	compactJSON = jsonStyle{}
	prettyJSON  = jsonStyle{indent: "  ", space: " ", objectNL: "\n", arrayNL: "\n"}
)

func writeJSON(b *strings.Builder, v value.Value, st jsonStyle, depth int) error {
	indent := func(d int) { b.WriteString(strings.Repeat(st.indent, d)) }
	switch v := v.(type) {
	case value.String:
		writeJSONString(b, string(v))
	case value.Integer:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case value.Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return errorf("%s not allowed in JSON", value.FormatFloat(f))
		}
		b.WriteString(value.FormatFloat(f))
	case value.Boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case value.Array:
		// Ruby's generator writes array_nl after "[" even for an empty
		// array, and object_nl only before each key.
		b.WriteByte('[')
		b.WriteString(st.arrayNL)
		for i, e := range v {
			if i > 0 {
				b.WriteString("," + st.arrayNL)
			}
			indent(depth + 1)
			if err := writeJSON(b, e, st, depth+1); err != nil {
				return err
			}
		}
		if st.arrayNL != "" {
			b.WriteString(st.arrayNL)
			indent(depth)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(st.objectNL)
			indent(depth + 1)
			writeJSONString(b, value.RubyString(k))
			b.WriteString(st.spaceBefore + ":" + st.space)
			if err := writeJSON(b, e, st, depth+1); err != nil {
				return err
			}
		}
		if st.objectNL != "" {
			b.WriteString(st.objectNL)
			indent(depth)
		}
		b.WriteByte('}')
	default:
		if value.IsUndef(v) {
			b.WriteString("null")
			return nil
		}
		// Other objects are written as their string form.
		writeJSONString(b, value.RubyString(v))
	}
	return nil
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
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
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func toJSON(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var b strings.Builder
	if err := writeJSON(&b, args[0], compactJSON, 0); err != nil {
		return nil, err
	}
	return value.String(b.String()), nil
}

func toJSONPretty(c *functions.Ctx, args []value.Value) (value.Value, error) {
	data := args[0]
	switch data.(type) {
	case value.Array, *value.Hash:
	default:
		return nil, errorf("'to_json_pretty' parameter 'data' expects a value of type Hash or Array, got %s", describeType(data))
	}
	skipUndef := false
	if len(args) > 1 && !value.IsUndef(args[1]) {
		b, ok := args[1].(value.Boolean)
		if !ok {
			return nil, errorf("'to_json_pretty' parameter 'skip_undef' expects a value of type Undef or Boolean, got %s", describeType(args[1]))
		}
		skipUndef = bool(b)
	}
	st := prettyJSON
	if len(args) > 2 && !value.IsUndef(args[2]) {
		opts, ok := args[2].(*value.Hash)
		if !ok {
			return nil, errorf("'to_json_pretty' parameter 'opts' expects a Struct value, got %s", describeType(args[2]))
		}
		for _, o := range []struct {
			key string
			dst *string
		}{{"indent", &st.indent}, {"space", &st.space}, {"space_before", &st.spaceBefore}, {"object_nl", &st.objectNL}, {"array_nl", &st.arrayNL}} {
			if v, ok := opts.GetString(o.key); ok {
				if s, ok := v.(value.String); ok {
					*o.dst = string(s)
				}
			}
		}
	}
	if skipUndef {
		data = withoutUndef(data)
	}
	var b strings.Builder
	if err := writeJSON(&b, data, st, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return value.String(b.String()), nil
}

// withoutUndef drops the undef elements (or entries) of the top-level
// array (or hash).
func withoutUndef(v value.Value) value.Value {
	switch v := v.(type) {
	case value.Array:
		out := value.Array{}
		for _, e := range v {
			if !value.IsUndef(e) {
				out = append(out, e)
			}
		}
		return out
	case *value.Hash:
		out := value.NewHashBuilder(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			if !value.IsUndef(e) {
				out.Set(k, e)
			}
		}
		return out.Build()
	}
	return v
}

// parseJSON reads a JSON document into Puppet values, keeping the order of
// object keys.
func parseJSON(data []byte) (value.Value, error) {
	v, err := hiera.FromJSON(data, "json")
	if err != nil {
		// Ruby's parser reports the text where parsing failed (the number
		// is a line of its grammar, fixed for this message).
		return nil, errorf("859: unexpected token at '%s'", strings.TrimSpace(string(data)))
	}
	return v, nil
}

// parseWithDefault is the shared shape of parsejson and parseyaml: a
// falsy result gives the default, and a parse error does too when a
// default is given.
func parseWithDefault(args []value.Value, parse func([]byte) (value.Value, error)) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "Wrong number of arguments. 1 or 2 arguments should be provided."); err != nil {
		return nil, err
	}
	dflt := arg(args, 1)
	s, ok := args[0].(value.String)
	if !ok {
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return nil, errorf("no implicit conversion of %s into String", value.RubyClass(args[0]))
	}
	v, err := parse([]byte(s))
	if err != nil {
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return nil, err
	}
	if !value.Truthy(v) {
		return dflt, nil
	}
	return v, nil
}

func parseJSONFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return parseWithDefault(args, parseJSON)
}

func parseYAMLFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return parseWithDefault(args, func(b []byte) (value.Value, error) {
		v, err := hiera.FromYAML(b, "<unknown>")
		var ye *hiera.YAMLError
		if errors.As(err, &ye) {
			return nil, errorf("(<unknown>): %s", ye.Msg)
		}
		return v, err
	})
}

// loadFile builds loadjson and loadyaml for local files; URLs are not
// fetched (a compile must not depend on the network), so they behave as
// missing files.
func loadFile(name string, parse func([]byte) (value.Value, error)) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.Arity3(name, args, 1, true); err != nil {
			return nil, err
		}
		path := value.RubyString(args[0])
		dflt := arg(args, 1)
		data, err := os.ReadFile(path)
		if err != nil {
			warn(c, "Can't load '%s' File does not exist!", path)
			return dflt, nil
		}
		v, err := parse(data)
		if err != nil {
			if value.Truthy(dflt) {
				return dflt, nil
			}
			return nil, err
		}
		if !value.Truthy(v) {
			return dflt, nil
		}
		return v, nil
	}
}

// ---- YAML, as Ruby's Psych writes it (Object#to_yaml).

func toYAML(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 2 {
		if _, ok := args[1].(*value.Hash); !ok {
			return nil, errorf("'to_yaml' parameter 'options' expects a Hash value, got %s", describeType(args[1]))
		}
	}
	var b strings.Builder
	b.WriteString("---")
	writeYAML(&b, args[0], 0, yamlTop)
	return value.String(b.String()), nil
}

// yamlPosition says where a node is written, which decides how a
// collection starts.
type yamlPosition int

const (
	yamlTop   yamlPosition = iota // after "---"
	yamlInSeq                     // after "- "
	yamlInMap                     // after "key:"
)

func writeYAML(b *strings.Builder, v value.Value, indent int, pos yamlPosition) {
	pad := strings.Repeat(" ", indent)
	switch v := v.(type) {
	case value.Array:
		if len(v) == 0 {
			b.WriteString(" []\n")
			return
		}
		for i, e := range v {
			if i == 0 && pos == yamlInSeq {
				b.WriteString(" -")
			} else {
				if i == 0 {
					b.WriteByte('\n')
				}
				b.WriteString(pad + "-")
			}
			writeYAML(b, e, indent+2, yamlInSeq)
		}
	case *value.Hash:
		if v.Len() == 0 {
			b.WriteString(" {}\n")
			return
		}
		for i := range v.Len() {
			k, e := v.At(i)
			if i == 0 && pos == yamlInSeq {
				b.WriteByte(' ')
			} else {
				if i == 0 {
					b.WriteByte('\n')
				}
				b.WriteString(pad)
			}
			b.WriteString(yamlKey(k))
			b.WriteByte(':')
			// Psych does not indent a sequence under a mapping key.
			childIndent := indent + 2
			if _, isSeq := e.(value.Array); isSeq {
				childIndent = indent
			}
			writeYAML(b, e, childIndent, yamlInMap)
		}
	default:
		if text := yamlScalar(v, indent); text != "" {
			b.WriteByte(' ')
			// A scalar at the top continues on lines indented by two, as
			// one in a sequence or mapping continues two further in.
			b.WriteString(yamlFold(text, yamlColumn(b), max(indent, 2)))
		}
		b.WriteByte('\n')
	}
}

// yamlWidth is libyaml's preferred line width: past it, a scalar breaks at
// the next space it may break at.
const yamlWidth = 80

// yamlColumn is the column the builder's text ends at, in characters.
func yamlColumn(b *strings.Builder) int {
	s := b.String()
	return utf8.RuneCountInString(s[strings.LastIndexByte(s, '\n')+1:])
}

// yamlFold breaks a plain, single-quoted or double-quoted scalar written
// at column col as libyaml does: at a single space once the line is past
// yamlWidth (not at a quoted scalar's first or last character, nor, but in
// double quotes, before another space), continuing on a new line indented
// by indent. In double quotes a break before a space is escaped with \.
func yamlFold(text string, col, indent int) string {
	if col+utf8.RuneCountInString(text) <= yamlWidth || text == "" {
		return text
	}
	style := text[0]
	body := text
	switch style {
	case '"', '\'':
		body = text[1 : len(text)-1]
	case '|', '>', '!', '[', '{':
		return text
	default:
		style = 0
	}
	var out strings.Builder
	column := col
	if style != 0 {
		out.WriteByte(style)
		column++
	}
	spaces := false
	last := len(body) - 1
	for i, r := range body {
		if r != ' ' {
			out.WriteRune(r)
			column++
			spaces = false
			continue
		}
		nextSpace := i < last && body[i+1] == ' '
		breakable := !spaces && column > yamlWidth
		if style != 0 {
			breakable = breakable && i != 0 && i != last
		}
		if style != '"' {
			breakable = breakable && !nextSpace
		}
		if breakable {
			out.WriteByte('\n')
			out.WriteString(strings.Repeat(" ", indent))
			column = indent
			if style == '"' && nextSpace {
				out.WriteByte('\\')
				column++
			}
		} else {
			out.WriteByte(' ')
			column++
		}
		spaces = true
	}
	if style != 0 {
		out.WriteByte(style)
	}
	return out.String()
}

func yamlKey(k value.Value) string {
	switch k.(type) {
	case value.Array, *value.Hash:
		// Complex keys are rare in Puppet data; flow style keeps them valid.
		return "? " + value.RubyInspect(k)
	}
	return yamlScalar(k, 0)
}

func yamlScalar(v value.Value, indent int) string {
	switch v := v.(type) {
	case value.String:
		return yamlString(string(v), indent)
	case value.Integer:
		return strconv.FormatInt(int64(v), 10)
	case value.Float:
		f := float64(v)
		switch {
		case math.IsNaN(f):
			return ".nan"
		case math.IsInf(f, 1):
			return ".inf"
		case math.IsInf(f, -1):
			return "-.inf"
		}
		return value.FormatFloat(f)
	case value.Boolean:
		return strconv.FormatBool(bool(v))
	}
	if value.IsUndef(v) {
		return ""
	}
	return yamlString(value.RubyString(v), indent)
}

var (
	// yamlNonString are the plain scalars Psych's scalar scanner reads as
	// something other than a string (booleans, null, numbers with _ and ,
	// separators, sexagesimals, dates); Psych single-quotes them.
	yamlNonString = regexp.MustCompile(`^(?i:yes|true|on|no|false|off|null)$` +
		`|^[-+]?(0|[1-9][0-9_,]*)$|^[-+]?0b[01_,]+$|^[-+]?0[0-7_,]+$|^[-+]?0x[0-9a-fA-F_,]+$` +
		`|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+$` +
		`|^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*$` +
		`|^\d{4}-\d{1,2}-\d{1,2}` +
		`|^0[0-7]*[89]`)
)

// yamlString writes a string in the style Psych picks: a literal block for
// multi-line text, double quotes for "y", "n" and strings starting with a
// non-word character (unless they contain a double quote), single quotes
// for strings that would read back as another type, and otherwise plain
// unless libyaml's emitter finds plain (or single-quoted) style unsafe.
func yamlString(s string, indent int) string {
	switch {
	case s == "":
		return "''"
	case s == "<<":
		return "!!str '<<'"
	case yamlSpecial(s):
		return yamlDoubleQuoted(s)
	case yamlMultiLine(s):
		return yamlLiteral(s, indent)
	case s == "y" || s == "n":
		return yamlDoubleQuoted(s)
	case !yamlWordStart(s) && !strings.Contains(s, `"`):
		return yamlDoubleQuoted(s)
	case yamlNonString.MatchString(s):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case strings.Contains(s, "\n"):
		return yamlDoubleQuoted(s)
	case !yamlPlainOK(s):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// yamlMultiLine is Psych's test for a literal block: a line break that is
// not just the end of the string.
func yamlMultiLine(s string) bool {
	i := strings.IndexByte(s, '\n')
	return i >= 0 && strings.TrimRight(s[i:], "\n") != ""
}

func yamlWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r)
}

// yamlSpecial reports characters libyaml will only write double-quoted.
func yamlSpecial(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r == 0xfeff {
			return true
		}
	}
	return false
}

// yamlPlainOK is libyaml's check for a plain scalar that starts with a
// word character.
func yamlPlainOK(s string) bool {
	return !strings.Contains(s, ": ") && !strings.HasSuffix(s, ":") && !strings.Contains(s, " #") &&
		!strings.HasSuffix(s, " ") && !strings.HasPrefix(s, "---") && !strings.HasPrefix(s, "...")
}

func yamlDoubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0x1b:
			b.WriteString(`\e`)
		case 0:
			b.WriteString(`\0`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlLiteral writes multi-line text as a literal block: "|" with "-"
// when there is no final newline and "+" when there are several.
func yamlLiteral(s string, indent int) string {
	chomp := ""
	body := s
	switch {
	case !strings.HasSuffix(s, "\n"):
		chomp = "-"
	case strings.HasSuffix(s, "\n\n"):
		chomp = "+"
		body = strings.TrimSuffix(s, "\n")
	default:
		body = strings.TrimSuffix(s, "\n")
	}
	if chomp == "+" {
		body = s[:len(s)-1]
	}
	head := "|" + chomp
	if strings.HasPrefix(s, " ") {
		head = "|2" + chomp
	}
	pad := strings.Repeat(" ", max(indent, 2))
	var b strings.Builder
	b.WriteString(head)
	for _, line := range strings.Split(body, "\n") {
		b.WriteByte('\n')
		if line != "" {
			b.WriteString(pad + line)
		}
	}
	return b.String()
}
