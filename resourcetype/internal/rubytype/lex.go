package rubytype

import (
	"fmt"
	"strings"
)

// This file holds a small lexer for the subset of Ruby that resource type
// files are written in. It does not aim to understand Ruby; it only has to
// get string, regexp, heredoc and comment boundaries right so that the
// scanner in reader.go sees the real method calls and can match blocks.

type tokenKind uint8

const (
	tokIdent  tokenKind = iota // identifiers, constants and keywords
	tokSymbol                  // :name (text is the name without the colon)
	tokLabel                   // name: in hash or keyword-argument position
	tokString                  // any string literal; text is its content
	tokRegexp                  // regexp literal; text is its source
	tokNumber
	tokIVar // @x and @@x
	tokGVar // $x
	tokPunct
)

type token struct {
	kind  tokenKind
	text  string
	line  int
	flags string // regexp options (m, i, x, o)
	// interp is true when the string or regexp contains #{...}, so its
	// text is not its value.
	interp bool
	// lineStart is true for the first token on a source line.
	lineStart bool
	// spaceBefore is true when whitespace precedes the token.
	spaceBefore bool
}

func (t token) is(kind tokenKind, text string) bool { return t.kind == kind && t.text == text }

// endsValue reports whether the token can end an expression; after such
// a token '/' is division, '%' is modulo, '<<' is a shift and a trailing
// 'if' is a modifier.
func (t token) endsValue() bool {
	switch t.kind {
	case tokIdent:
		switch t.text {
		case "and", "or", "not", "if", "unless", "while", "until", "then", "do",
			"else", "elsif", "when", "in", "case", "begin", "rescue", "ensure":
			return false
		}
		return true
	case tokSymbol, tokString, tokRegexp, tokNumber, tokIVar, tokGVar:
		return true
	case tokPunct:
		return t.text == ")" || t.text == "]" || t.text == "}"
	}
	return false
}

// lexError is a lexing failure with the line it happened on.
type lexError struct {
	line int
	msg  string
}

func (e *lexError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

type lexer struct {
	src       string
	pos       int
	line      int
	toks      []token
	lineStart bool
	space     bool
	// heredocs waiting for their bodies, which start on the next line.
	pending []heredoc
}

type heredoc struct {
	tag      string
	indented bool // <<- or <<~: the terminator may be indented
}

func lex(src string) ([]token, error) {
	lx := &lexer{src: src, line: 1, lineStart: true}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func (lx *lexer) fail(format string, args ...any) error {
	return &lexError{line: lx.line, msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) emit(t token) {
	t.line = lx.line
	t.lineStart = lx.lineStart
	t.spaceBefore = lx.space
	lx.toks = append(lx.toks, t)
	lx.lineStart = false
	lx.space = false
}

func (lx *lexer) prev() (token, bool) {
	if len(lx.toks) == 0 || lx.lineStart {
		return token{}, false
	}
	return lx.toks[len(lx.toks)-1], true
}

// valueContext reports whether the next token starts a value (so '/'
// begins a regexp) rather than continuing an expression.
func (lx *lexer) valueContext() bool {
	p, ok := lx.prev()
	if !ok || !p.endsValue() {
		return true
	}
	// "desc /x/" or "newvalues %w{a b}": an identifier, a space, and no
	// space after the operator character is a method argument.
	if p.kind == tokIdent && lx.space && lx.pos+1 < len(lx.src) {
		c := lx.src[lx.pos+1]
		return c != ' ' && c != '=' && c != '\t' && c != '\n'
	}
	return false
}

func (lx *lexer) atLineStart(s string) bool {
	if !strings.HasPrefix(lx.src[lx.pos:], s) {
		return false
	}
	return lx.pos == 0 || lx.src[lx.pos-1] == '\n'
}

func (lx *lexer) run() error {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\n':
			lx.pos++
			lx.line++
			lx.lineStart = true
			lx.space = false
			if len(lx.pending) > 0 {
				if err := lx.heredocBodies(); err != nil {
					return err
				}
			}
			if lx.atLineStart("=begin") {
				if err := lx.blockComment(); err != nil {
					return err
				}
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			lx.pos++
			lx.space = true
		case c == '\\' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\n':
			lx.pos += 2 // line continuation
			lx.line++
			lx.space = true
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		case lx.pos == 0 && lx.atLineStart("=begin"):
			if err := lx.blockComment(); err != nil {
				return err
			}
		case lx.lineStart && lx.atLineStart("__END__"):
			return nil
		case isIdentStart(c):
			lx.ident()
		case c >= '0' && c <= '9':
			lx.number()
		case c == '@':
			start := lx.pos
			lx.pos++
			for lx.pos < len(lx.src) && (lx.src[lx.pos] == '@' || isIdentChar(lx.src[lx.pos])) {
				lx.pos++
			}
			lx.emit(token{kind: tokIVar, text: lx.src[start:lx.pos]})
		case c == '$':
			start := lx.pos
			lx.pos++
			if lx.pos < len(lx.src) && !isIdentChar(lx.src[lx.pos]) {
				lx.pos++ // $! $0 $~ and friends
			}
			for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
				lx.pos++
			}
			lx.emit(token{kind: tokGVar, text: lx.src[start:lx.pos]})
		case c == '\'':
			s, err := lx.quoted('\'', '\'', false)
			if err != nil {
				return err
			}
			lx.emit(token{kind: tokString, text: s.text})
		case c == '"' || c == '`':
			s, err := lx.quoted(c, c, true)
			if err != nil {
				return err
			}
			lx.emit(token{kind: tokString, text: s.text, interp: s.interp})
		case c == ':':
			if err := lx.colon(); err != nil {
				return err
			}
		case c == '/' && lx.valueContext():
			lx.pos++
			s, err := lx.quoted(0, '/', true)
			if err != nil {
				return err
			}
			lx.emit(token{kind: tokRegexp, text: s.text, interp: s.interp, flags: lx.regexpFlags()})
		case c == '%' && lx.valueContext() && lx.percentLiteral():
			if err := lx.percent(); err != nil {
				return err
			}
		case c == '<' && lx.heredocStart():
			if err := lx.heredocHead(); err != nil {
				return err
			}
		case c == '?' && lx.charLiteral():
			// ?a is a one-character string.
			lx.pos += 2
			lx.emit(token{kind: tokString, text: lx.src[lx.pos-1 : lx.pos]})
		default:
			lx.punct()
		}
	}
	if len(lx.pending) > 0 {
		return lx.fail("heredoc %q has no terminator", lx.pending[0].tag)
	}
	return nil
}

func (lx *lexer) blockComment() error {
	start := lx.line
	for lx.pos < len(lx.src) {
		if lx.atLineStart("=end") {
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			return nil
		}
		if lx.src[lx.pos] == '\n' {
			lx.line++
		}
		lx.pos++
	}
	return &lexError{line: start, msg: "=begin without =end"}
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func (lx *lexer) ident() {
	start := lx.pos
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	// Method names may end in ? or ! (but not when followed by = as in !=).
	if lx.pos < len(lx.src) && (lx.src[lx.pos] == '?' || lx.src[lx.pos] == '!') &&
		(lx.pos+1 >= len(lx.src) || lx.src[lx.pos+1] != '=') {
		lx.pos++
	}
	text := lx.src[start:lx.pos]
	// "name: value" is a label, but "a ? b :c" and "Foo::Bar" are not.
	if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == ':' && lx.src[lx.pos+1] != ':' {
		if p, ok := lx.prev(); !ok || !p.is(tokPunct, "?") {
			lx.pos++
			lx.emit(token{kind: tokLabel, text: text})
			return
		}
	}
	lx.emit(token{kind: tokIdent, text: text})
}

func (lx *lexer) number() {
	start := lx.pos
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == '.' && lx.src[lx.pos+1] >= '0' && lx.src[lx.pos+1] <= '9' {
		lx.pos++
		for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
			lx.pos++
		}
	}
	lx.emit(token{kind: tokNumber, text: lx.src[start:lx.pos]})
}

func (lx *lexer) colon() error {
	if strings.HasPrefix(lx.src[lx.pos:], "::") {
		lx.pos += 2
		lx.emit(token{kind: tokPunct, text: "::"})
		return nil
	}
	if lx.pos+1 < len(lx.src) {
		n := lx.src[lx.pos+1]
		switch {
		case isIdentStart(n):
			lx.pos++
			start := lx.pos
			for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
				lx.pos++
			}
			if lx.pos < len(lx.src) && strings.ContainsRune("?!=", rune(lx.src[lx.pos])) &&
				(lx.pos+1 >= len(lx.src) || (lx.src[lx.pos+1] != '=' && lx.src[lx.pos+1] != '>')) {
				lx.pos++
			}
			lx.emit(token{kind: tokSymbol, text: lx.src[start:lx.pos]})
			return nil
		case n == '"' || n == '\'':
			lx.pos++
			s, err := lx.quoted(n, n, n == '"')
			if err != nil {
				return err
			}
			lx.emit(token{kind: tokSymbol, text: s.text, interp: s.interp})
			return nil
		}
	}
	lx.pos++
	lx.emit(token{kind: tokPunct, text: ":"})
	return nil
}

type quotedText struct {
	text   string
	interp bool
}

// quoted reads a delimited literal whose opening delimiter is at lx.pos
// (when open != 0) and returns its raw content. Nesting delimiters such
// as ( ) nest; escapes are kept as written.
func (lx *lexer) quoted(open, closer byte, interpolates bool) (quotedText, error) {
	startLine := lx.line
	if open != 0 {
		lx.pos++
	}
	var b strings.Builder
	var q quotedText
	depth := 0
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\\' && lx.pos+1 < len(lx.src):
			b.WriteByte(c)
			b.WriteByte(lx.src[lx.pos+1])
			if lx.src[lx.pos+1] == '\n' {
				lx.line++
			}
			lx.pos += 2
			continue
		case c == '\n':
			lx.line++
		case interpolates && c == '#' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '{':
			q.interp = true
			start := lx.pos
			if err := lx.skipInterpolation(); err != nil {
				return q, err
			}
			b.WriteString(lx.src[start:lx.pos])
			continue
		case open != 0 && open != closer && c == open:
			depth++
		case c == closer:
			if depth == 0 {
				lx.pos++
				q.text = b.String()
				return q, nil
			}
			depth--
		}
		b.WriteByte(c)
		lx.pos++
	}
	return q, &lexError{line: startLine, msg: "unterminated literal"}
}

// skipInterpolation moves past #{ ... }, allowing nested braces and
// string literals inside.
func (lx *lexer) skipInterpolation() error {
	lx.pos += 2
	depth := 1
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch c {
		case '\n':
			lx.line++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				lx.pos++
				return nil
			}
		case '\'', '"':
			if _, err := lx.quoted(c, c, c == '"'); err != nil {
				return err
			}
			continue
		}
		lx.pos++
	}
	return lx.fail("unterminated interpolation")
}

func (lx *lexer) regexpFlags() string {
	start := lx.pos
	for lx.pos < len(lx.src) && strings.IndexByte("mixounse", lx.src[lx.pos]) >= 0 {
		lx.pos++
	}
	return lx.src[start:lx.pos]
}

func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// percentLiteral reports whether the % at lx.pos starts %q(..), %w[..],
// %r{..}, %(..) and the like.
func (lx *lexer) percentLiteral() bool {
	rest := lx.src[lx.pos+1:]
	if rest == "" {
		return false
	}
	if strings.IndexByte("qQwWiIrsx", rest[0]) >= 0 && len(rest) > 1 && !isIdentChar(rest[1]) && rest[1] != ' ' && rest[1] != '\n' {
		return true
	}
	return strings.IndexByte("([{<|!/", rest[0]) >= 0
}

func (lx *lexer) percent() error {
	lx.pos++
	kind := byte('Q')
	if c := lx.src[lx.pos]; isIdentChar(c) {
		kind = c
		lx.pos++
	}
	open := lx.src[lx.pos]
	interpolates := kind == 'Q' || kind == 'W' || kind == 'I' || kind == 'r' || kind == 'x'
	s, err := lx.quoted(open, closerOf(open), interpolates)
	if err != nil {
		return err
	}
	switch kind {
	case 'r':
		lx.emit(token{kind: tokRegexp, text: s.text, interp: s.interp, flags: lx.regexpFlags()})
	case 'w', 'W', 'i', 'I':
		// Word lists become an array of strings or symbols.
		elem := tokString
		if kind == 'i' || kind == 'I' {
			elem = tokSymbol
		}
		lx.emit(token{kind: tokPunct, text: "["})
		for i, w := range strings.Fields(s.text) {
			if i > 0 {
				lx.emit(token{kind: tokPunct, text: ","})
			}
			lx.emit(token{kind: elem, text: w})
		}
		lx.emit(token{kind: tokPunct, text: "]"})
	case 's':
		lx.emit(token{kind: tokSymbol, text: s.text})
	default:
		lx.emit(token{kind: tokString, text: s.text, interp: s.interp})
	}
	return nil
}

// heredocStart reports whether "<<" at lx.pos opens a heredoc rather than
// being the append or shift operator.
func (lx *lexer) heredocStart() bool {
	rest := lx.src[lx.pos:]
	if !strings.HasPrefix(rest, "<<") || len(rest) < 3 {
		return false
	}
	i := 2
	if rest[i] == '-' || rest[i] == '~' {
		i++
	}
	if i >= len(rest) {
		return false
	}
	c := rest[i]
	if c != '\'' && c != '"' && !isIdentStart(c) {
		return false
	}
	if i == 2 && !(c >= 'A' && c <= 'Z') && c != '\'' && c != '"' {
		return false // "a <<b" is far more likely an append than a heredoc
	}
	return lx.valueContext() || lx.space
}

func (lx *lexer) heredocHead() error {
	lx.pos += 2
	h := heredoc{}
	if c := lx.src[lx.pos]; c == '-' || c == '~' {
		h.indented = true
		lx.pos++
	}
	interp := true
	if c := lx.src[lx.pos]; c == '\'' || c == '"' {
		interp = c == '"'
		end := strings.IndexByte(lx.src[lx.pos+1:], c)
		if end < 0 || strings.Contains(lx.src[lx.pos+1:lx.pos+1+end], "\n") {
			return lx.fail("bad heredoc tag")
		}
		h.tag = lx.src[lx.pos+1 : lx.pos+1+end]
		lx.pos += end + 2
	} else {
		start := lx.pos
		for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
			lx.pos++
		}
		h.tag = lx.src[start:lx.pos]
	}
	lx.pending = append(lx.pending, h)
	// The body is skipped when the line ends; the token's text stays
	// empty because no caller needs heredoc contents.
	lx.emit(token{kind: tokString, interp: interp})
	return nil
}

// heredocBodies skips the bodies of all heredocs opened on the line that
// just ended; lx.pos is at the start of the first body line.
func (lx *lexer) heredocBodies() error {
	for _, h := range lx.pending {
		startLine := lx.line
		for {
			if lx.pos >= len(lx.src) {
				return &lexError{line: startLine, msg: fmt.Sprintf("heredoc %q has no terminator", h.tag)}
			}
			end := strings.IndexByte(lx.src[lx.pos:], '\n')
			var line string
			if end < 0 {
				line = lx.src[lx.pos:]
				lx.pos = len(lx.src)
			} else {
				line = lx.src[lx.pos : lx.pos+end]
				lx.pos += end + 1
				lx.line++
			}
			line = strings.TrimRight(line, "\r")
			if h.indented {
				line = strings.TrimLeft(line, " \t")
			}
			if line == h.tag {
				break
			}
		}
	}
	lx.pending = lx.pending[:0]
	return nil
}

// charLiteral reports whether '?' at lx.pos is a ?x character literal
// rather than the ternary operator.
func (lx *lexer) charLiteral() bool {
	if lx.pos+1 >= len(lx.src) || !lx.valueContext() {
		return false
	}
	c := lx.src[lx.pos+1]
	if c == ' ' || c == '\n' || c == '\t' {
		return false
	}
	return lx.pos+2 >= len(lx.src) || !isIdentChar(lx.src[lx.pos+2])
}

// longOperator returns the operator longer than one character that
// rest starts with, or "".
func longOperator(rest string) string {
	if len(rest) >= 3 {
		switch rest[:3] {
		case "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=":
			return rest[:3]
		}
	}
	if len(rest) >= 2 {
		switch rest[:2] {
		case "=>", "==", "=~", "!=", "!~", ">=", "<=", "&&", "||", "<<", ">>",
			"+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "**", "..", "->", "&.":
			return rest[:2]
		}
	}
	return ""
}

func (lx *lexer) punct() {
	rest := lx.src[lx.pos:]
	if op := longOperator(rest); op != "" {
		lx.pos += len(op)
		lx.emit(token{kind: tokPunct, text: op})
		return
	}
	lx.pos++
	lx.emit(token{kind: tokPunct, text: rest[:1]})
}
