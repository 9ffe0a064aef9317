package dataformat

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/value"
)

// fromYAMLSlow is FromYAML through yaml.v3 alone. It handles everything the
// fast path declines and is the only source of syntax errors, so messages do
// not depend on which path ran.
func fromYAMLSlow(data []byte, file string) (value.Value, error) {
	return (&yamlConverter{file: file}).decodeSlow(data)
}

// decodeSlow is fromYAMLSlow through c.
func (c *yamlConverter) decodeSlow(data []byte) (value.Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return value.Undef, nil
		}
		return nil, yamlLibError(c.file, err)
	}
	return c.convert(&doc)
}

// parseFastYAML builds the node tree yaml.v3 would build for a document in a
// conservative subset of block YAML, the shape of nearly all hiera data, facts
// and ENC output, several times faster than yaml.v3. ok=false means the input
// is outside the subset (or invalid); the caller must then use yaml.v3, which
// also produces the error messages. It never reports errors itself.
//
// The subset: an optional leading `---` line and trailing `...` line; blank
// and comment lines; block mappings whose keys are plain or single-line quoted
// scalars; block sequences, including compact `- key: v` and `- - v` entries
// and sequences at their parent key's indentation; single-line plain, single-
// and double-quoted scalars; `key:` with nothing nested (null); flow
// collections that end on their line, also as `--- {}`. Tabs, CR, control
// characters, anchors, aliases, tags, directives, complex keys, block
// scalars, multi-line scalars and multiple documents all decline.
//
// The nodes carry what FromYAMLNode reads: Kind, Style, Value, Line, Column,
// Content, and Tag for collections, quoted scalars and the `<<` merge key.
// Other plain scalars get no Tag: the converter resolves them by Psych's rules
// itself, never by yaml.v3's tag.
func parseFastYAML(data []byte) (doc *yaml.Node, ok bool) {
	ascii, valid := fastYAMLChars(data)
	if !valid {
		return nil, false
	}
	// Scalar values are substrings of this one copy, which saves an
	// allocation per scalar (the values keep the copy alive).
	p := &fastParser{src: string(data), line: 1, ascii: ascii}
	if n := 2*bytes.Count(data, []byte{'\n'}) + 2; n < fastNodeChunk {
		p.nodes = make([]yaml.Node, 0, n)
	}
	doc = &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1}
	p.skipToContent()
	if p.ind < 0 && p.marker == '-' {
		doc.Line = p.line
		p.pos += 3
		if p.skipSpaces() > 0 && p.pos < len(p.src) && (p.src[p.pos] == '{' || p.src[p.pos] == '[') {
			// `--- {}`, a common way to write an empty data file.
			root, ok := p.flow()
			if !ok || !p.endLine() {
				return nil, false
			}
			p.skipToContent()
			return p.finishDocument(doc, root)
		}
		if !p.endLine() {
			return nil, false
		}
		p.skipToContent()
	}
	if p.ind < 0 {
		if p.marker != 0 {
			return nil, false
		}
		// Empty document: converts to undef like yaml.v3's io.EOF or null.
		return doc, true
	}
	root, ok := p.node(p.ind)
	if !ok {
		return nil, false
	}
	return p.finishDocument(doc, root)
}

// finishDocument checks that nothing but a document end marker and comments
// follow the root node.
func (p *fastParser) finishDocument(doc, root *yaml.Node) (*yaml.Node, bool) {
	if p.ind >= 0 {
		return nil, false
	}
	switch p.marker {
	case '-': // a second document
		return nil, false
	case '.': // document end, then only comments may follow
		p.pos += 3
		if !p.endLine() {
			return nil, false
		}
		p.skipToContent()
		if p.ind >= 0 || p.marker != 0 {
			return nil, false
		}
	}
	doc.Content = []*yaml.Node{root}
	return doc, true
}

// fastYAMLChars reports whether data is valid UTF-8 with only characters the
// parser handles the way yaml.v3 does: printable ASCII, LF and non-ASCII
// characters yaml.v3 accepts and treats as ordinary text (not NEL, LS, PS or
// a byte order mark). ascii reports that no non-ASCII character was seen.
func fastYAMLChars(data []byte) (ascii, ok bool) {
	ascii = true
	for i := 0; i < len(data); {
		c := data[i]
		if c >= 0x20 && c < 0x7f || c == '\n' {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false, false
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return false, false
		}
		ascii = false
		i += size
	}
	return ascii, true
}

const (
	// fastMaxDepth bounds nesting far below yaml.v3's own limit of 10000.
	fastMaxDepth = 500
	// fastMaxKey stays below libyaml's 1024-character limit on simple keys.
	fastMaxKey    = 1000
	fastNodeChunk = 256
	fastPtrChunk  = 512
)

type fastParser struct {
	src       string
	pos       int
	line      int // 1-based line of pos
	lineStart int // offset of the first byte of that line
	ascii     bool
	// ind is the indentation of the content line pos is on after
	// skipToContent; -1 at the end of input or a column-0 document marker,
	// which marker then names ('-' or '.').
	ind    int
	marker byte
	depth  int

	// Nodes and Content slices are carved out of shared chunks; stack holds
	// the children of the collections being parsed.
	nodes []yaml.Node
	ptrs  []*yaml.Node
	stack []*yaml.Node
}

func (p *fastParser) newNode(kind yaml.Kind, tag string, line, column int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, fastNodeChunk)
	}
	p.nodes = p.nodes[:len(p.nodes)+1]
	n := &p.nodes[len(p.nodes)-1]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line, column
	return n
}

// children pops the stack down to base and returns the popped nodes.
func (p *fastParser) children(base int) []*yaml.Node {
	k := len(p.stack) - base
	if k == 0 {
		return nil
	}
	if cap(p.ptrs)-len(p.ptrs) < k {
		p.ptrs = make([]*yaml.Node, 0, max(k, fastPtrChunk))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, p.stack[base:]...)
	p.stack = p.stack[:base]
	// Full slice expression: appending to one Content must not overwrite
	// the next.
	return p.ptrs[start:len(p.ptrs):len(p.ptrs)]
}

// column is yaml.v3's 1-based column of offset i on the current line, which
// counts characters, not bytes.
func (p *fastParser) column(i int) int {
	if p.ascii {
		return i - p.lineStart + 1
	}
	return utf8.RuneCountInString(p.src[p.lineStart:i]) + 1
}

// blankz reports a space, line break or end of input at i.
func (p *fastParser) blankz(i int) bool {
	return i >= len(p.src) || p.src[i] == ' ' || p.src[i] == '\n'
}

// dashEntry reports a block sequence entry indicator at pos.
func (p *fastParser) dashEntry() bool {
	return p.src[p.pos] == '-' && p.blankz(p.pos+1)
}

func (p *fastParser) newline(next int) {
	p.pos, p.lineStart = next, next
	p.line++
}

// skipToContent moves from the start of a line to the first character of the
// next line holding a token, skipping blank and comment lines, and sets ind.
func (p *fastParser) skipToContent() {
	p.ind, p.marker = -1, 0
	for p.pos < len(p.src) {
		i := p.pos
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		if i == len(p.src) {
			p.pos = i
			return
		}
		switch p.src[i] {
		case '\n':
			p.newline(i + 1)
			continue
		case '#':
			j := strings.IndexByte(p.src[i:], '\n')
			if j < 0 {
				p.pos = len(p.src)
				return
			}
			p.newline(i + j + 1)
			continue
		}
		p.pos = i
		if i == p.lineStart && i+3 <= len(p.src) && p.blankz(i+3) &&
			(p.src[i:i+3] == "---" || p.src[i:i+3] == "...") {
			p.marker = p.src[i]
			return
		}
		p.ind = i - p.lineStart
		return
	}
}

// endLine accepts the rest of the line after a token: spaces, then a comment
// (which needs a space before it) or the line break. It stops at the next line.
func (p *fastParser) endLine() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i < len(p.src) && p.src[i] == '#' && i > p.lineStart && p.src[i-1] == ' ' {
		j := strings.IndexByte(p.src[i:], '\n')
		if j < 0 {
			p.pos = len(p.src)
			return true
		}
		i += j
	}
	if i == len(p.src) {
		p.pos = i
		return true
	}
	if p.src[i] != '\n' {
		return false
	}
	p.newline(i + 1)
	return true
}

// skipSpaces skips spaces on the line and returns how many there were.
func (p *fastParser) skipSpaces() int {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	n := i - p.pos
	p.pos = i
	return n
}

// atLineEnd reports that nothing but a comment is left on the line; callers
// have just skipped at least one space or are at a line break, so a '#' here
// starts a comment.
func (p *fastParser) atLineEnd() bool {
	return p.pos == len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '#'
}

// node parses the block node starting at pos, at column col. On return the
// parser is on the next content line (see skipToContent).
func (p *fastParser) node(col int) (*yaml.Node, bool) {
	if p.depth++; p.depth > fastMaxDepth {
		return nil, false
	}
	n, ok := p.nodeAt(col)
	p.depth--
	return n, ok
}

func (p *fastParser) nodeAt(col int) (*yaml.Node, bool) {
	switch p.src[p.pos] {
	case '-':
		if p.dashEntry() {
			return p.sequence(col)
		}
	case '[', '{':
		n, ok := p.flow()
		if !ok || !p.endLine() {
			return nil, false
		}
		p.skipToContent()
		return n, true
	}
	start := p.pos
	n, ok := p.scalar()
	if !ok {
		return nil, false
	}
	if p.colon(start) {
		return p.mapping(col, n)
	}
	if !p.endLine() {
		return nil, false
	}
	p.skipToContent()
	return n, true
}

// colon consumes the `:` ending a mapping key that began at start, if there
// is one. yaml.v3 rejects keys longer than 1024 characters.
func (p *fastParser) colon(start int) bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i >= len(p.src) || p.src[i] != ':' || !p.blankz(i+1) || i-start > fastMaxKey {
		return false
	}
	p.pos = i + 1
	return true
}

// mapping parses a block mapping at column col whose first key has been read
// up to and including its colon.
func (p *fastParser) mapping(col int, key *yaml.Node) (*yaml.Node, bool) {
	m := p.newNode(yaml.MappingNode, "!!map", key.Line, key.Column)
	base := len(p.stack)
	for {
		p.stack = append(p.stack, key)
		v, ok := p.mappingValue(col)
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, v)
		if p.ind < col {
			break
		}
		if p.ind > col {
			// A continuation line or a misplaced node: not ours.
			return nil, false
		}
		start := p.pos
		if key, ok = p.scalar(); !ok || !p.colon(start) {
			return nil, false
		}
	}
	m.Content = p.children(base)
	return m, true
}

// mappingValue parses what follows a key's colon in a mapping at column col.
func (p *fastParser) mappingValue(col int) (*yaml.Node, bool) {
	line, column := p.line, p.column(p.pos)
	p.skipSpaces()
	if !p.atLineEnd() {
		var n *yaml.Node
		var ok bool
		if c := p.src[p.pos]; c == '[' || c == '{' {
			n, ok = p.flow()
		} else if c == '\'' {
			n, ok = p.singleQuotedLines(col)
		} else {
			n, ok = p.scalar()
		}
		if !ok || !p.endLine() {
			return nil, false
		}
		p.skipToContent()
		return n, true
	}
	if !p.endLine() {
		return nil, false
	}
	p.skipToContent()
	switch {
	case p.ind > col:
		return p.node(p.ind)
	case p.ind == col && p.dashEntry():
		// A sequence may sit at its key's indentation.
		return p.sequence(col)
	}
	return p.newNode(yaml.ScalarNode, "!!null", line, column), true
}

// sequence parses a block sequence whose first `-` is at pos, at column col.
func (p *fastParser) sequence(col int) (*yaml.Node, bool) {
	s := p.newNode(yaml.SequenceNode, "!!seq", p.line, col+1)
	base := len(p.stack)
	for {
		line := p.line
		p.pos++
		column := col + 2 // just after the dash: yaml.v3's null entry position
		spaces := p.skipSpaces()
		var item *yaml.Node
		var ok bool
		if p.atLineEnd() {
			if !p.endLine() {
				return nil, false
			}
			p.skipToContent()
			if p.ind > col {
				item, ok = p.node(p.ind)
			} else {
				item, ok = p.newNode(yaml.ScalarNode, "!!null", line, column), true
			}
		} else {
			item, ok = p.node(col + 1 + spaces)
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
		if p.ind == col && p.dashEntry() {
			continue
		}
		if p.ind > col {
			return nil, false
		}
		break
	}
	s.Content = p.children(base)
	return s, true
}

// scalar reads a single-line plain or quoted scalar at pos, leaving pos just
// after it (before any trailing spaces).
func (p *fastParser) scalar() (*yaml.Node, bool) {
	switch p.src[p.pos] {
	case '"':
		return p.doubleQuoted()
	case '\'':
		return p.singleQuoted()
	}
	if !p.plainStart() {
		return nil, false
	}
	start := p.pos
	i, end := start, start
	for i < len(p.src) {
		c := p.src[i]
		if c == '\n' || c == ':' && p.blankz(i+1) {
			break
		}
		if c == ' ' {
			// Spaces belong to the scalar only when more of it follows;
			// " #" starts a comment.
			for i < len(p.src) && p.src[i] == ' ' {
				i++
			}
			if i == len(p.src) || p.src[i] == '\n' || p.src[i] == '#' {
				break
			}
			continue
		}
		i++
		end = i
	}
	p.pos = end
	return p.plainNode(p.src[start:end], start), true
}

func (p *fastParser) plainNode(v string, start int) *yaml.Node {
	tag := ""
	if v == "<<" {
		tag = "!!merge" // as yaml.v3 tags a plain `<<`
	}
	n := p.newNode(yaml.ScalarNode, tag, p.line, p.column(start))
	n.Value = v
	return n
}

// plainStart reports whether a plain scalar may start at pos in block
// context; indicators start other tokens (or are errors).
func (p *fastParser) plainStart() bool {
	switch p.src[p.pos] {
	case '-', '?', ':':
		return !p.blankz(p.pos + 1)
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// singleQuoted reads a single-quoted scalar that ends on its line.
func (p *fastParser) singleQuoted() (*yaml.Node, bool) { return p.singleQuotedLines(-1) }

// singleQuotedLines reads a single-quoted scalar; with col >= 0 it may
// continue on lines indented more than col (a mapping value at column col:
// Facter's multi-line sshfp facts), folded as YAML folds flow scalars: the
// spaces around each line break go, a break followed by content becomes a
// space, and each empty line after it a line break.
func (p *fastParser) singleQuotedLines(col int) (*yaml.Node, bool) {
	start, line, column := p.pos, p.line, p.column(p.pos)
	i := start + 1
	var buf []byte // nil until an escaped quote or a line break makes a copy necessary
	lit := i
	for {
		j := strings.IndexAny(p.src[i:], "'\n")
		if j < 0 {
			return nil, false
		}
		i += j
		if p.src[i] == '\n' {
			if col < 0 {
				return nil, false
			}
			buf = append(buf, strings.TrimRight(p.src[lit:i], " ")...)
			breaks := 0
			for {
				p.newline(i + 1)
				i = p.pos
				for i < len(p.src) && p.src[i] == ' ' {
					i++
				}
				if i == len(p.src) {
					return nil, false
				}
				if p.src[i] != '\n' {
					break
				}
				breaks++
			}
			if i-p.lineStart <= col {
				return nil, false
			}
			if breaks == 0 {
				buf = append(buf, ' ')
			}
			for ; breaks > 0; breaks-- {
				buf = append(buf, '\n')
			}
			lit = i
			continue
		}
		if i+1 < len(p.src) && p.src[i+1] == '\'' {
			buf = append(buf, p.src[lit:i+1]...)
			i += 2
			lit = i
			continue
		}
		break
	}
	var v string
	if buf == nil {
		v = p.src[lit:i]
	} else {
		v = string(append(buf, p.src[lit:i]...))
	}
	p.pos = i + 1
	n := p.newNode(yaml.ScalarNode, "!!str", line, column)
	n.Style, n.Value = yaml.SingleQuotedStyle, v
	return n, true
}

// fastEscapes maps the single-character escapes of double-quoted scalars
// that yaml.v3 accepts to their replacements.
var fastEscapes = [256]string{
	'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", 'n': "\n", 'v': "\v",
	'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '\'': "'",
	'\\': "\\", 'N': "\u0085", '_': "\u00a0", 'L': "\u2028",
	'P': "\u2029",
}

// doubleQuoted reads a double-quoted scalar that ends on its line. Escapes
// that yaml.v3 would reject decline.
func (p *fastParser) doubleQuoted() (*yaml.Node, bool) {
	start := p.pos
	i := start + 1
	var buf []byte
	lit := i
	for {
		j := strings.IndexAny(p.src[i:], "\"\\\n")
		if j < 0 || p.src[i+j] == '\n' {
			return nil, false
		}
		i += j
		if p.src[i] == '"' {
			break
		}
		// A backslash escape.
		if i+1 >= len(p.src) {
			return nil, false
		}
		buf = append(buf, p.src[lit:i]...)
		e := p.src[i+1]
		i += 2
		if s := fastEscapes[e]; s != "" {
			buf = append(buf, s...)
		} else {
			digits := 0
			switch e {
			case 'x':
				digits = 2
			case 'u':
				digits = 4
			case 'U':
				digits = 8
			default:
				return nil, false
			}
			r, ok := parseHexRune(p.src[i:min(i+digits, len(p.src))], digits)
			if !ok {
				return nil, false
			}
			buf = utf8.AppendRune(buf, r)
			i += digits
		}
		lit = i
	}
	var v string
	if buf == nil {
		v = p.src[lit:i]
	} else {
		v = string(append(buf, p.src[lit:i]...))
	}
	p.pos = i + 1
	n := p.newNode(yaml.ScalarNode, "!!str", p.line, p.column(start))
	n.Style, n.Value = yaml.DoubleQuotedStyle, v
	return n, true
}

// parseHexRune reads exactly digits hex digits naming a character yaml.v3
// accepts in an escape (not a surrogate, at most U+10FFFF).
func parseHexRune(s string, digits int) (rune, bool) {
	if len(s) != digits {
		return 0, false
	}
	var r uint32 // eight digits overflow a rune
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | uint32(c)
	}
	if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
		return 0, false
	}
	return rune(r), true
}

// flow reads a flow collection that ends on its line: `[a, 'b', [c]]`,
// `{k: v, "q": [x]}`. Entries are scalars or nested flow collections; keys
// are scalars followed by ": ". Single-pair mappings (`[a: b]`), keys without
// values and multi-line collections decline.
func (p *fastParser) flow() (*yaml.Node, bool) {
	if p.depth++; p.depth > fastMaxDepth {
		return nil, false
	}
	n, ok := p.flowCollection()
	p.depth--
	return n, ok
}

func (p *fastParser) flowCollection() (*yaml.Node, bool) {
	line, column := p.line, p.column(p.pos)
	kind, tag, end := yaml.SequenceNode, "!!seq", byte(']')
	if p.src[p.pos] == '{' {
		kind, tag, end = yaml.MappingNode, "!!map", '}'
	}
	p.pos++
	base := len(p.stack)
	for {
		p.skipSpaces()
		if p.pos == len(p.src) {
			return nil, false
		}
		if p.src[p.pos] == end {
			// Empty, or after a trailing comma, which yaml.v3 allows.
			break
		}
		if kind == yaml.MappingNode {
			start := p.pos
			key, ok := p.flowScalar()
			if !ok {
				return nil, false
			}
			p.skipSpaces()
			if p.pos+1 >= len(p.src) || p.src[p.pos] != ':' || p.src[p.pos+1] != ' ' || p.pos-start > fastMaxKey {
				return nil, false
			}
			p.pos++
			p.skipSpaces()
			if p.pos == len(p.src) {
				return nil, false
			}
			p.stack = append(p.stack, key)
		}
		var item *yaml.Node
		var ok bool
		if c := p.src[p.pos]; c == '[' || c == '{' {
			item, ok = p.flow()
		} else {
			item, ok = p.flowScalar()
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
		p.skipSpaces()
		if p.pos == len(p.src) {
			return nil, false
		}
		if p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.src[p.pos] != end {
			return nil, false
		}
		break
	}
	p.pos++ // the closing bracket
	n := p.newNode(kind, tag, line, column)
	n.Style = yaml.FlowStyle
	n.Content = p.children(base)
	return n, true
}

// flowScalar reads a quoted or plain scalar inside a flow collection.
func (p *fastParser) flowScalar() (*yaml.Node, bool) {
	switch p.src[p.pos] {
	case '"':
		return p.doubleQuoted()
	case '\'':
		return p.singleQuoted()
	}
	return p.flowPlain()
}

// flowPlain reads a plain scalar inside a flow collection. It ends at ',',
// ']', '}' or ": ", and declines the characters with other meanings there
// ('#', '?', other colons and opening brackets).
func (p *fastParser) flowPlain() (*yaml.Node, bool) {
	start := p.pos
	c := p.src[start]
	if c == '-' {
		if start+1 >= len(p.src) || !fastWordChar(p.src[start+1]) {
			return nil, false
		}
	} else if !fastWordChar(c) && c < utf8.RuneSelf {
		return nil, false
	}
	i, end := start, start
	for i < len(p.src) {
		switch c := p.src[i]; c {
		case ',', ']', '}':
			p.pos = end
			return p.plainNode(p.src[start:end], start), true
		case ':':
			if i+1 < len(p.src) && p.src[i+1] == ' ' {
				p.pos = end
				return p.plainNode(p.src[start:end], start), true
			}
			return nil, false
		case ' ':
			i++
			continue
		case '\n', '#', '?', '[', '{':
			return nil, false
		}
		i++
		end = i
	}
	return nil, false
}

// fastWordChar reports the ASCII characters a flow plain scalar may start
// with in this parser: letters, digits and a few harmless punctuation marks.
func fastWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == '~' || c == '$' || c == '+' || c == '('
}
