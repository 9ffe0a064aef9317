// Package hocon reads HOCON (Human-Optimized Config Object Notation)
// documents into Puppet data, as Puppet code sees them through stdlib's
// parsehocon: the hocon gem's ConfigFactory.parse_string, resolved, then
// unwrapped. It covers the document format (comments, implicit root braces,
// = and :, unquoted and triple-quoted strings, path keys, object merging,
// value concatenation, +=) and substitutions (${path}, ${?path}, references
// to a key's own earlier value, and environment variables as the last
// resort). include is refused: marionette does not read other files for it.
package hocon

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// ErrorKind tells what went wrong, as the hocon gem's error classes do.
type ErrorKind int

const (
	// ParseErr is a document that is not HOCON (ConfigParseError).
	ParseErr ErrorKind = iota
	// UnresolvedErr is a substitution with no value (UnresolvedSubstitutionError).
	UnresolvedErr
	// WrongTypeErr is a concatenation of values that do not combine
	// (ConfigWrongTypeError).
	WrongTypeErr
	// UnsupportedErr is HOCON this package does not read (include).
	UnsupportedErr
)

// Error is a document's error: "String: LINE: message", as the gem words it
// for a parsed string.
type Error struct {
	Kind ErrorKind
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("String: %d: %s", e.Line, e.Msg) }

// MaxDepth bounds the nesting of objects and arrays, and of substitutions
// resolving through one another.
const MaxDepth = 1000

// Parse reads a HOCON document into a Hash.
func Parse(src string) (value.Value, error) {
	p := &parser{src: src, line: 1}
	root, err := p.document()
	if err != nil {
		return nil, err
	}
	r := &resolver{root: root, active: map[*subst]bool{}}
	v, ok, err := r.resolve(root, 0)
	if err != nil {
		return nil, err
	}
	if !ok {
		return value.NewHash(), nil
	}
	return v, nil
}

// The document's tree before substitutions are resolved.
type (
	node   any
	object struct {
		keys []string
		vals map[string]node
	}
	array  []node
	scalar struct {
		v    value.Value
		text string // as written, for concatenation
	}
	subst struct {
		path     []string
		optional bool
		line     int
	}
	// concat is values written one after another on a line; ws[i] is the
	// whitespace before parts[i+1].
	concat struct {
		parts []node
		ws    []string
		line  int
	}
)

func newObject() *object { return &object{vals: map[string]node{}} }

// set assigns v to key k: objects merge (the new one's keys first, then
// the old one's others), anything else replaces; the key keeps its place.
func (o *object) set(k string, v node) {
	old, ok := o.vals[k]
	if !ok {
		o.keys = append(o.keys, k)
		o.vals[k] = v
		return
	}
	no, newObj := v.(*object)
	oo, oldObj := old.(*object)
	if newObj && oldObj {
		o.vals[k] = merge(no, oo)
		return
	}
	o.vals[k] = v
}

// merge is a with b as its fallback.
func merge(a, b *object) *object {
	out := newObject()
	for _, k := range a.keys {
		out.keys = append(out.keys, k)
		out.vals[k] = a.vals[k]
	}
	for _, k := range b.keys {
		if av, ok := out.vals[k]; ok {
			ao, aObj := av.(*object)
			bo, bObj := b.vals[k].(*object)
			if aObj && bObj {
				out.vals[k] = merge(ao, bo)
			}
			continue
		}
		out.keys = append(out.keys, k)
		out.vals[k] = b.vals[k]
	}
	return out
}

type parser struct {
	src   string
	pos   int
	line  int
	depth int
}

func (p *parser) errorf(format string, args ...any) error {
	return &Error{Kind: ParseErr, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) has(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

// skipSpace skips blanks and comments on the line, not newlines.
func (p *parser) skipSpace() {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			p.pos++
		case c == '#' || p.has("//"):
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
		case p.has("\uFEFF") || p.has("\u00a0"):
			_, n := utf8.DecodeRuneInString(p.src[p.pos:])
			p.pos += n
		default:
			return
		}
	}
}

// skipLines skips blanks, comments and newlines; it reports whether it
// crossed a newline.
func (p *parser) skipLines() bool {
	crossed := false
	for {
		p.skipSpace()
		if p.peek() != '\n' {
			return crossed
		}
		p.pos++
		p.line++
		crossed = true
	}
}

func (p *parser) document() (*object, error) {
	p.skipLines()
	switch p.peek() {
	case '[':
		return nil, &Error{Kind: WrongTypeErr, Line: p.line, Msg: " has type LIST rather than object at file root"}
	case '{':
		p.pos++
		o, err := p.fields(true, nil)
		if err != nil {
			return nil, err
		}
		p.skipLines()
		if !p.eof() {
			return nil, p.errorf("Document has trailing tokens after first object or array: '%c'", p.peek())
		}
		return o, nil
	}
	return p.fields(false, nil)
}

// fields reads an object's fields up to its closing brace (braced) or the
// end of the document; prefix is the object's path, for self-references.
func (p *parser) fields(braced bool, prefix []string) (*object, error) {
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("nested more than %d deep", MaxDepth)
	}
	defer func() { p.depth-- }()
	o := newObject()
	for {
		p.skipLines()
		switch {
		case p.eof():
			if braced {
				return nil, p.errorf("unbalanced close brace '}' with no open brace")
			}
			return o, nil
		case p.peek() == '}':
			if !braced {
				return nil, p.errorf("unbalanced close brace '}' with no open brace (if you intended '}' to be part of a key or string value, try enclosing the key or value in double quotes")
			}
			p.pos++
			return o, nil
		case p.peek() == ',':
			return nil, p.errorf("expecting a close brace or a field name here, got ','")
		}
		if err := p.field(o, prefix); err != nil {
			return nil, err
		}
		// A field ends at a comma or a newline (or the closing brace).
		crossed := p.skipLines()
		switch {
		case p.peek() == ',':
			p.pos++
		case p.eof() || p.peek() == '}' || crossed:
		default:
			return nil, p.errorf("Expecting close brace } or a comma, got '%c'", p.peek())
		}
	}
}

func (p *parser) field(o *object, prefix []string) error {
	start := p.line
	if isInclude().MatchString(p.src[p.pos:]) {
		return &Error{Kind: UnsupportedErr, Line: start, Msg: "include is not supported by marionette's HOCON reader"}
	}
	key, err := p.key()
	if err != nil {
		return err
	}
	full := append(append([]string{}, prefix...), key...)
	var v node
	switch {
	case p.peek() == '{':
		p.pos++
		obj, err := p.fields(true, full)
		if err != nil {
			return err
		}
		v = obj
	case p.has("+="):
		p.pos += 2
		p.skipSpace()
		x, err := p.value(full)
		if err != nil {
			return err
		}
		v = &concat{parts: []node{&subst{path: full, optional: true, line: start}, array{x}}, ws: []string{""}, line: start}
	case p.peek() == '=' || p.peek() == ':':
		p.pos++
		p.skipLines()
		x, err := p.value(full)
		if err != nil {
			return err
		}
		v = x
	default:
		return p.errorf("Key '%s' may not be followed by token: '%c'", strings.Join(key, "."), p.peek())
	}
	// A value that refers to its own key sees the key's earlier value.
	v = selfRefs(v, full, lookupPath(o, full[len(prefix):]))
	setPath(o, key, v)
	return nil
}

// key reads a path expression up to =, :, { or +=.
func (p *parser) key() ([]string, error) {
	var segs []string
	var cur strings.Builder
	started := false
	for {
		p.skipSpaceInKey(&cur, started)
		switch c := p.peek(); {
		case p.eof() || c == '\n':
			return nil, p.errorf("Key '%s' may not be followed by token: end of line", cur.String())
		case c == '=' || c == ':' || c == '{' || p.has("+="):
			if !started {
				return nil, p.errorf("expecting a close brace or a field name here, got '%c'", c)
			}
			segs = append(segs, strings.TrimRight(cur.String(), " \t"))
			return segs, nil
		case c == '"':
			s, err := p.quoted()
			if err != nil {
				return nil, err
			}
			cur.WriteString(s)
			started = true
		case c == '.':
			p.pos++
			segs = append(segs, strings.TrimRight(cur.String(), " \t"))
			cur.Reset()
		default:
			t := p.unquoted(true)
			if t == "" {
				return nil, p.errorf("expecting a close brace or a field name here, got '%c'", c)
			}
			cur.WriteString(t)
			started = true
		}
	}
}

// skipSpaceInKey keeps whitespace inside a key ("a b = 1") but not before it.
func (p *parser) skipSpaceInKey(cur *strings.Builder, started bool) {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		if started {
			cur.WriteByte(p.peek())
		}
		p.pos++
	}
}

// forbidden are the characters an unquoted string cannot hold.
const forbidden = "$\"{}[]:=,+#`^?!@*&\\"

// unquoted reads an unquoted string; in a key it stops at a dot.
func (p *parser) unquoted(inKey bool) string {
	start := p.pos
	for !p.eof() {
		c := p.peek()
		if strings.IndexByte(forbidden, c) >= 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || p.has("//") || (inKey && c == '.') {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *parser) quoted() (string, error) {
	if p.has(`"""`) {
		p.pos += 3
		end := strings.Index(p.src[p.pos:], `"""`)
		if end < 0 {
			return "", p.errorf("End of input but triple-quoted string was still open")
		}
		// Quotes right before the closing ones belong to the string.
		for p.pos+end+3 < len(p.src) && p.src[p.pos+end+3] == '"' {
			end++
		}
		s := p.src[p.pos : p.pos+end]
		p.line += strings.Count(s, "\n")
		p.pos += end + 3
		return s, nil
	}
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.errorf("End of input but string quote was still open")
		}
		c := p.peek()
		p.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if p.eof() {
				return "", p.errorf("End of input but backslash in string had nothing after it")
			}
			e := p.peek()
			p.pos++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.pos+4 > len(p.src) {
					return "", p.errorf("Expected 4 hex digits after \\u")
				}
				n, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
				if err != nil {
					return "", p.errorf("Malformed hex digits after \\u escape in string: '%s'", p.src[p.pos:p.pos+4])
				}
				b.WriteRune(rune(n))
				p.pos += 4
			default:
				return "", p.errorf("backslash followed by '%c', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)", e)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// value reads the values written one after another up to the end of the
// field (a newline, comma, closing brace or bracket); path is the field's.
func (p *parser) value(path []string) (node, error) {
	line := p.line
	var parts []node
	var ws []string
	for {
		before := p.pos
		p.skipSpace()
		space := p.src[before:p.pos]
		if c := p.peek(); p.eof() || c == '\n' || c == ',' || c == '}' || c == ']' {
			break
		}
		v, err := p.simple(path)
		if err != nil {
			return nil, err
		}
		if len(parts) > 0 {
			ws = append(ws, space)
		}
		parts = append(parts, v)
	}
	switch len(parts) {
	case 0:
		got := "end of file"
		if !p.eof() {
			got = fmt.Sprintf("'%c'", p.peek())
		}
		return nil, p.errorf("Expecting a value but got wrong token: %s (if you intended %s to be part of a key or string value, try enclosing the key or value in double quotes", got, got)
	case 1:
		return parts[0], nil
	}
	return &concat{parts: parts, ws: ws, line: line}, nil
}

// isInclude matches an include statement at the start of a field;
// numberRE a number. Compiled on first use, not at process start.
var (
	isInclude = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^include[ \t]+("|(file|url|classpath|required)\()`)
	})
	numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`) })
)

// simple reads one value: object, array, string, substitution, or an
// unquoted word (number, boolean, null or string).
func (p *parser) simple(path []string) (node, error) {
	switch c := p.peek(); {
	case c == '{':
		p.pos++
		return p.fields(true, path)
	case c == '[':
		p.pos++
		return p.array(path)
	case c == '"':
		s, err := p.quoted()
		if err != nil {
			// The gem reports a broken string as a bad token where a
			// value was expected.
			var e *Error
			if errors.As(err, &e) {
				tok := "'-1' (" + e.Msg + ")"
				e.Msg = "Expecting a value but got wrong token: " + tok + " (if you intended " + tok + " to be part of a key or string value, try enclosing the key or value in double quotes"
			}
			return nil, err
		}
		return &scalar{v: value.String(s), text: s}, nil
	case p.has("${"):
		return p.substitution()
	}
	t := p.unquoted(false)
	if t == "" {
		c := p.peek()
		if c == '\\' {
			return nil, p.errorf("Expecting close brace } or a comma, got '\\' (Reserved character '\\' is not allowed outside quotes) (if you intended '\\' (Reserved character '\\' is not allowed outside quotes) to be part of a key or string value, try enclosing the key or value in double quotes")
		}
		return nil, p.errorf("Expecting close brace } or a comma, got '%c' (if you intended '%c' to be part of a key or string value, try enclosing the key or value in double quotes", c, c)
	}
	switch t {
	case "true":
		return &scalar{v: value.True, text: t}, nil
	case "false":
		return &scalar{v: value.False, text: t}, nil
	case "null":
		return &scalar{v: value.Undef, text: t}, nil
	}
	if numberRE().MatchString(t) {
		// The gem gives a whole number as an Integer, even one written
		// 1.0 or 1e3.
		f, err := strconv.ParseFloat(t, 64)
		if err == nil {
			if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
				if n, err := strconv.ParseInt(t, 10, 64); err == nil {
					return &scalar{v: value.Integer(n), text: t}, nil
				}
				if !strings.ContainsAny(t, ".eE") {
					return nil, p.errorf("the number %s is larger than a Puppet Integer", t)
				}
				return &scalar{v: value.Integer(int64(f)), text: t}, nil
			}
			return &scalar{v: value.Float(f), text: t}, nil
		}
	}
	return &scalar{v: value.String(t), text: t}, nil
}

func (p *parser) array(path []string) (node, error) {
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("nested more than %d deep", MaxDepth)
	}
	defer func() { p.depth-- }()
	var out array
	for {
		p.skipLines()
		if p.peek() == ']' {
			p.pos++
			return out, nil
		}
		if p.eof() {
			return nil, p.errorf("List should have ended with ] or had a comma, instead had token: end of file")
		}
		v, err := p.value(path)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		crossed := p.skipLines()
		switch {
		case p.peek() == ',':
			p.pos++
		case p.peek() == ']' || crossed:
		case p.eof():
			return nil, p.errorf("List should have ended with ] or had a comma, instead had token: end of file (if you want end of file to be part of a string value, then double-quote it)")
		default:
			return nil, p.errorf("List should have ended with ] or had a comma, instead had token: '%c'", p.peek())
		}
	}
}

func (p *parser) substitution() (node, error) {
	line := p.line
	p.pos += 2
	s := &subst{line: line}
	if p.peek() == '?' {
		s.optional = true
		p.pos++
	}
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 || strings.ContainsRune(p.src[p.pos:p.pos+end], '\n') {
		return nil, p.errorf("Substitution ${ was not closed with a }")
	}
	inner := strings.TrimSpace(p.src[p.pos : p.pos+end])
	p.pos += end + 1
	sub := &parser{src: inner + "=", line: line}
	path, err := sub.key()
	if err != nil || inner == "" {
		return nil, p.errorf("Invalid substitution path: '%s'", inner)
	}
	s.path = path
	return s, nil
}

// setPath assigns v at the path below o, making the objects on the way.
func setPath(o *object, path []string, v node) {
	if len(path) == 1 {
		o.set(path[0], v)
		return
	}
	// a.b.c = v is a { b { c = v } }: merged with what a holds.
	n := newObject()
	setPath(n, path[1:], v)
	o.set(path[0], n)
}

// lookupPath is the value at path below o, nil when there is none.
func lookupPath(o *object, path []string) node {
	var cur node = o
	for _, k := range path {
		obj, ok := cur.(*object)
		if !ok {
			return nil
		}
		if cur, ok = obj.vals[k]; !ok {
			return nil
		}
	}
	return cur
}

// selfRefs replaces, in v, the substitutions of path itself by prev (its
// earlier value; nil is none: an optional one drops out, a required one is
// left to fail).
func selfRefs(v node, path []string, prev node) node {
	switch x := v.(type) {
	case *subst:
		if samePath(x.path, path) {
			if prev == nil {
				if x.optional {
					return missing{}
				}
				return x
			}
			return prev
		}
	case *concat:
		out := &concat{ws: x.ws, line: x.line}
		for _, part := range x.parts {
			out.parts = append(out.parts, selfRefs(part, path, prev))
		}
		return out
	}
	return v
}

// missing is an optional substitution that has no value.
type missing struct{}

func samePath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

type resolver struct {
	root   *object
	active map[*subst]bool
}

// resolve turns n into Puppet data; ok is false for a value that is not
// there (an optional substitution with no value).
func (r *resolver) resolve(n node, depth int) (value.Value, bool, error) {
	if depth > MaxDepth {
		return nil, false, &Error{Kind: UnresolvedErr, Line: 1, Msg: fmt.Sprintf("substitutions nested more than %d deep", MaxDepth)}
	}
	switch x := n.(type) {
	case *object:
		b := value.NewHashBuilder(len(x.keys))
		for _, k := range x.keys {
			v, ok, err := r.resolve(x.vals[k], depth+1)
			if err != nil {
				return nil, false, err
			}
			if ok {
				b.Set(value.String(k), v)
			}
		}
		return b.Build(), true, nil
	case array:
		out := make(value.Array, 0, len(x))
		for _, e := range x {
			v, ok, err := r.resolve(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if ok {
				out = append(out, v)
			}
		}
		return out, true, nil
	case *scalar:
		return x.v, true, nil
	case missing:
		return nil, false, nil
	case *subst:
		return r.substitute(x, depth)
	case *concat:
		return r.concatenate(x, depth)
	}
	return nil, false, fmt.Errorf("hocon: internal error: node %T", n)
}

func (r *resolver) substitute(s *subst, depth int) (value.Value, bool, error) {
	if r.active[s] {
		return nil, false, &Error{Kind: UnresolvedErr, Line: s.line, Msg: fmt.Sprintf("Could not resolve substitution to a value: ${%s} was part of a cycle of substitutions", strings.Join(s.path, "."))}
	}
	target := lookupPath(r.root, s.path)
	if target == nil {
		if env, ok := os.LookupEnv(strings.Join(s.path, ".")); ok {
			return value.String(env), true, nil
		}
		if s.optional {
			return nil, false, nil
		}
		return nil, false, &Error{Kind: UnresolvedErr, Line: s.line, Msg: fmt.Sprintf("Could not resolve substitution to a value: ${%s}", strings.Join(s.path, "."))}
	}
	r.active[s] = true
	defer delete(r.active, s)
	v, ok, err := r.resolve(target, depth+1)
	if err == nil && !ok && !s.optional {
		err = &Error{Kind: UnresolvedErr, Line: s.line, Msg: fmt.Sprintf("Could not resolve substitution to a value: ${%s}", strings.Join(s.path, "."))}
	}
	return v, ok, err
}

// concatenate joins values written one after another: strings (with the
// whitespace between them), arrays (appended) or objects (merged, later
// ones winning).
func (r *resolver) concatenate(c *concat, depth int) (value.Value, bool, error) {
	var vals []value.Value
	var ws []string
	var texts []string
	for i, part := range c.parts {
		v, ok, err := r.resolve(part, depth+1)
		if err != nil {
			return nil, false, err
		}
		if i > 0 {
			ws = append(ws, c.ws[i-1])
		}
		if !ok {
			// An optional substitution with no value counts as "" in a
			// string and as nothing otherwise.
			vals = append(vals, nil)
			texts = append(texts, "")
			continue
		}
		vals = append(vals, v)
		if s, isScalar := part.(*scalar); isScalar {
			texts = append(texts, s.text)
		} else {
			texts = append(texts, "")
		}
	}
	kind := ""
	for _, v := range vals {
		k := "string"
		switch v.(type) {
		case nil:
			continue
		case value.Array:
			k = "list"
		case *value.Hash:
			k = "object"
		}
		if kind != "" && kind != k && (kind != "string" || k != "string") {
			return nil, false, &Error{Kind: WrongTypeErr, Line: c.line, Msg: "Cannot concatenate object or list with a non-object-or-list"}
		}
		kind = k
	}
	switch kind {
	case "":
		return nil, false, nil
	case "list":
		out := value.Array{}
		for _, v := range vals {
			if a, ok := v.(value.Array); ok {
				out = append(out, a...)
			}
		}
		return out, true, nil
	case "object":
		var out *value.Hash
		for _, v := range vals {
			h, ok := v.(*value.Hash)
			if !ok {
				continue
			}
			if out == nil {
				out = h
				continue
			}
			out = mergeHash(h, out)
		}
		return out, true, nil
	}
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(ws[i-1])
		}
		switch {
		case v == nil:
		case texts[i] != "":
			b.WriteString(texts[i])
		default:
			b.WriteString(value.ToString(v))
		}
	}
	return value.String(b.String()), true, nil
}

// mergeHash is a with b as its fallback, hashes merged deeply.
func mergeHash(a, b *value.Hash) *value.Hash {
	out := value.NewHashBuilder(a.Len() + b.Len())
	for i, k := range a.Keys() {
		av := a.Values()[i]
		if bv, ok := b.Get(k); ok {
			ah, aok := av.(*value.Hash)
			bh, bok := bv.(*value.Hash)
			if aok && bok {
				av = mergeHash(ah, bh)
			}
		}
		out.Set(k, av)
	}
	for i, k := range b.Keys() {
		if _, ok := a.Get(k); !ok {
			out.Set(k, b.Values()[i])
		}
	}
	return out.Build()
}
