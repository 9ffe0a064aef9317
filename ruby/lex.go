package ruby

import (
	"fmt"
	"strconv"
	"strings"
)

// tokKind classifies Ruby tokens.
type tokKind uint8

const (
	tEOF      tokKind = iota
	tNL               // newline or ';' (statement separator)
	tIdent            // local variable or method name (may end in ? or !)
	tConst            // Constant
	tIVar             // @name
	tGVar             // $name, $1
	tInt              // integer literal
	tFloat            // float literal
	tString           // string literal; parts hold interpolations
	tXString          // %w / %i word list
	tSymbol           // :name
	tRegexp           // /re/
	tLabel            // name: in a hash or argument list
	tKeyword          // if, end, do, ...
	tOp               // operators and punctuation
	tText             // template text (from outside the tags)
	tOutBegin         // start of <%= ... %>
	tOutEnd           // end of <%= ... %>
)

// strPart is a piece of a string literal: literal text or interpolated code.
type strPart struct {
	lit  string
	code []token // non-nil for #{...}
	line int
}

// token is one Ruby token.
type token struct {
	kind tokKind
	// text is the identifier, operator or keyword text; a regexp's options
	// (imxo); "i" for a %i word list.
	text        string
	parts       []strPart // string pieces; a %w or %i list's words
	spaceAfter  bool      // whitespace follows the token
	spaceBefore bool
	line        int
}

var keywords = map[string]bool{
	"if": true, "elsif": true, "else": true, "end": true, "unless": true, "then": true,
	"case": true, "when": true, "while": true, "until": true, "do": true, "and": true,
	"or": true, "not": true, "nil": true, "true": true, "false": true, "self": true,
	"for": true, "in": true, "begin": true, "rescue": true, "ensure": true, "def": true,
	"return": true, "next": true, "break": true, "yield": true, "defined?": true,
	"class": true, "module": true, "redo": true, "retry": true, "__FILE__": true, "__LINE__": true,
}

// operatorAt returns the operator rest starts with, the longest one, or "".
// A switch per length, not a list scanned in order: the lexer asks for
// every operator and punctuation token.
func operatorAt(rest string) string {
	if len(rest) >= 3 {
		switch s := rest[:3]; s {
		case "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=":
			return s
		}
	}
	if len(rest) >= 2 {
		switch s := rest[:2]; s {
		case "&.", "**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "=~", "!~", "..", "::",
			"+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "=>", "->":
			return s
		}
	}
	if len(rest) >= 1 {
		switch s := rest[:1]; s {
		case "+", "-", "*", "/", "%", "=", "<", ">", "!", "&", "|", "^", "~", "?", ":", ",", ".", "(", ")", "[", "]", "{", "}":
			return s
		}
	}
	return ""
}

// lexer turns the Ruby code of one tag (or of an interpolation) into tokens.
type lexer struct {
	name string
	src  string
	pos  int
	line int
	toks []token
	// base is where this lexer's tokens start in toks: a template's tags
	// share one slice, and a tag's lexing must not see the tags before it.
	base int
	// commentAtEnd records that a # comment ran to the end of the source.
	commentAtEnd bool
}

func (lx *lexer) errorf(format string, args ...any) error {
	return unsupportedf("unsupported Ruby in template %s:%d: %s", lx.name, lx.line, fmt.Sprintf(format, args...))
}

// lexRuby tokenizes src, which starts on the given line.
func lexRuby(name, src string, line int) ([]token, error) {
	lx := &lexer{name: name, src: src, line: line}
	if err := lx.run(); err != nil {
		return nil, err
	}
	return lx.toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// valueEnded reports whether the previous token ends an operand, which decides
// whether / starts a regexp and whether a unary minus binds to a number.
func (lx *lexer) valueEnded() bool {
	if len(lx.toks) <= lx.base {
		return false
	}
	t := &lx.toks[len(lx.toks)-1]
	switch t.kind {
	case tIdent, tConst, tIVar, tGVar, tInt, tFloat, tString, tXString, tSymbol, tRegexp:
		return true
	case tKeyword:
		switch t.text {
		case "end", "self", "nil", "true", "false":
			return true
		}
	case tOp:
		return t.text == ")" || t.text == "]" || t.text == "}"
	}
	return false
}

func (lx *lexer) run() error {
	space := true
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		start := lx.pos
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.pos++
			lx.markSpace()
			space = true
			continue
		case c == '\\' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\n':
			lx.pos += 2
			lx.line++
			lx.markSpace()
			space = true
			continue
		case c == '\n' || c == ';':
			lx.pos++
			if c == '\n' {
				// A line starting with .method continues the previous expression.
				rest := strings.TrimLeft(lx.src[lx.pos:], " \t\r")
				lx.line++
				if strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "..") || strings.HasPrefix(rest, "&.") {
					lx.markSpace()
					space = true
					continue
				}
			}
			lx.toks = append(lx.toks, token{kind: tNL, text: string(c), line: lx.line})
			lx.markSpace()
			space = true
			continue
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			lx.commentAtEnd = lx.pos == len(lx.src)
			space = true
			continue
		}
		var t token
		var err error
		switch {
		case isDigit(c):
			t, err = lx.number()
		case c == '@':
			lx.pos++
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '@' {
				return lx.errorf("class variables (@@) are not supported")
			}
			t = token{kind: tIVar, text: lx.ident()}
			if t.text == "" {
				return lx.errorf("bad instance variable")
			}
		case c == '$':
			lx.pos++
			if lx.pos < len(lx.src) && (isDigit(lx.src[lx.pos]) || strings.IndexByte("~!&", lx.src[lx.pos]) >= 0) {
				lx.pos++
				t = token{kind: tGVar, text: lx.src[start+1 : lx.pos]}
			} else {
				t = token{kind: tGVar, text: lx.ident()}
			}
		case isIdentStart(c):
			t = lx.word()
		case c == '`':
			// Ruby runs the command and inserts its output; a template
			// must not run commands on the server.
			return lx.errorf("backticks (running a command) are not supported")
		case c == '"':
			lx.pos++
			t, err = lx.quoted(c, 0, true, false)
		case c == '\'':
			lx.pos++
			t, err = lx.quoted('\'', 0, false, false)
		case c == ':' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '"':
			lx.pos += 2
			t, err = lx.quoted('"', 0, true, false)
			t.kind = tSymbol
		case c == ':' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\'' && (space || !lx.valueEnded()) && !lx.inTernary():
			lx.pos += 2
			t, err = lx.quoted('\'', 0, false, false)
			t.kind = tSymbol
		case c == ':' && lx.pos+1 < len(lx.src) && isIdentStart(lx.src[lx.pos+1]) && (space || !lx.valueEnded()):
			lx.pos++
			name := lx.ident()
			if lx.pos < len(lx.src) && (lx.src[lx.pos] == '?' || lx.src[lx.pos] == '!' || lx.src[lx.pos] == '=') &&
				!(lx.pos+1 < len(lx.src) && (lx.src[lx.pos+1] == '=' || lx.src[lx.pos+1] == '>' || lx.src[lx.pos+1] == '~')) {
				name += string(lx.src[lx.pos])
				lx.pos++
			}
			t = token{kind: tSymbol, parts: []strPart{{lit: name}}}
		case c == ':' && lx.pos+2 < len(lx.src) && lx.src[lx.pos+1] == '@' && isIdentStart(lx.src[lx.pos+2]) && (space || !lx.valueEnded()):
			// :@name, an instance variable's name as a symbol.
			lx.pos += 2
			t = token{kind: tSymbol, parts: []strPart{{lit: "@" + lx.ident()}}}
		case c == ':' && (space || !lx.valueEnded()) && lx.operatorSymbol() != "":
			op := lx.operatorSymbol()
			lx.pos += 1 + len(op)
			t = token{kind: tSymbol, parts: []strPart{{lit: op}}}
		case c == '/' && (!lx.valueEnded() || space && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] != ' ' && lx.src[lx.pos+1] != '=' && lx.prevIsIdent()):
			lx.pos++
			t, err = lx.quoted('/', 0, true, true)
			t.kind = tRegexp
			t.text = lx.regexpOpts()
		case c == '%' && lx.pos+1 < len(lx.src) && (!lx.valueEnded() || space && lx.src[lx.pos+1] != ' ' && lx.src[lx.pos+1] != '=' && lx.prevIsIdent()):
			t, err = lx.percentLiteral()
		default:
			t, err = lx.operator()
		}
		if err != nil {
			return err
		}
		t.spaceBefore = space
		if t.line == 0 {
			t.line = lx.line
		}
		lx.toks = append(lx.toks, t)
		space = false
	}
	return nil
}

// prevIsIdent reports whether the previous token is an identifier, i.e. a
// possible command name such as `split /,/`.
func (lx *lexer) prevIsIdent() bool {
	return len(lx.toks) > lx.base && lx.toks[len(lx.toks)-1].kind == tIdent
}

func (lx *lexer) markSpace() {
	if n := len(lx.toks); n > lx.base {
		lx.toks[n-1].spaceAfter = true
	}
}

func (lx *lexer) ident() string {
	start := lx.pos
	for lx.pos < len(lx.src) && isIdentChar(lx.src[lx.pos]) {
		lx.pos++
	}
	return lx.src[start:lx.pos]
}

// word lexes an identifier, constant, keyword or label.
func (lx *lexer) word() token {
	line := lx.line
	name := lx.ident()
	afterDot := false
	if n := len(lx.toks); n > lx.base && lx.toks[n-1].kind == tOp && (lx.toks[n-1].text == "." || lx.toks[n-1].text == "&.") {
		afterDot = true
	}
	// Method names may end in ? or ! (but not when that starts != or ?:).
	if lx.pos < len(lx.src) && (lx.src[lx.pos] == '?' || lx.src[lx.pos] == '!') {
		next := byte(0)
		if lx.pos+1 < len(lx.src) {
			next = lx.src[lx.pos+1]
		}
		if next != '=' && !(lx.src[lx.pos] == '?' && next == ':') {
			name += string(lx.src[lx.pos])
			lx.pos++
		}
	}
	// Labels: `key: value` (but not `a ? b :c` nor `A::B`).
	if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == ':' && lx.src[lx.pos+1] != ':' && !afterDot &&
		(lx.src[lx.pos+1] == ' ' || lx.src[lx.pos+1] == '\t' || lx.src[lx.pos+1] == '\n' || lx.src[lx.pos+1] == '"' || lx.src[lx.pos+1] == '\'') && !lx.inTernary() {
		lx.pos++
		return token{kind: tLabel, text: name, line: line}
	}
	if afterDot {
		return token{kind: tIdent, text: name, line: line}
	}
	if name == "defined" && strings.HasPrefix(lx.src[lx.pos:], "?") {
		lx.pos++
		name = "defined?"
	}
	if keywords[name] {
		return token{kind: tKeyword, text: name, line: line}
	}
	if name[0] >= 'A' && name[0] <= 'Z' {
		return token{kind: tConst, text: name, line: line}
	}
	return token{kind: tIdent, text: name, line: line}
}

// inTernary reports whether an unclosed `?` of a conditional precedes, in
// which case `x ? a : b` must not lex `a:` as a label.
func (lx *lexer) inTernary() bool {
	depth := 0
	for k := len(lx.toks) - 1; k >= lx.base; k-- {
		t := &lx.toks[k]
		if t.kind == tNL {
			return false
		}
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case ":":
			depth++
		case "?":
			if depth == 0 {
				return true
			}
			depth--
		case "(", "[", "{":
			return false
		}
	}
	return false
}

func (lx *lexer) number() (token, error) {
	start := lx.pos
	src := lx.src
	if strings.HasPrefix(src[lx.pos:], "0x") || strings.HasPrefix(src[lx.pos:], "0b") || strings.HasPrefix(src[lx.pos:], "0o") {
		lx.pos += 2
		for lx.pos < len(src) && (isIdentChar(src[lx.pos])) {
			lx.pos++
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(src[start:lx.pos], "_", ""), 0, 64)
		if err != nil {
			return token{}, lx.errorf("bad number %q", src[start:lx.pos])
		}
		return token{kind: tInt, text: strconv.FormatInt(n, 10)}, nil
	}
	for lx.pos < len(src) && (isDigit(src[lx.pos]) || src[lx.pos] == '_') {
		lx.pos++
	}
	isFloat := false
	if lx.pos+1 < len(src) && src[lx.pos] == '.' && isDigit(src[lx.pos+1]) {
		isFloat = true
		lx.pos++
		for lx.pos < len(src) && (isDigit(src[lx.pos]) || src[lx.pos] == '_') {
			lx.pos++
		}
	}
	if lx.pos < len(src) && (src[lx.pos] == 'e' || src[lx.pos] == 'E') {
		k := lx.pos + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			isFloat = true
			lx.pos = k
			for lx.pos < len(src) && isDigit(src[lx.pos]) {
				lx.pos++
			}
		}
	}
	text := strings.ReplaceAll(src[start:lx.pos], "_", "")
	if isFloat {
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return token{}, lx.errorf("bad number %q", text)
		}
		return token{kind: tFloat, text: text}, nil
	}
	if len(text) > 1 && text[0] == '0' {
		n, err := strconv.ParseInt(text, 8, 64)
		if err != nil {
			return token{}, lx.errorf("bad number %q", text)
		}
		return token{kind: tInt, text: strconv.FormatInt(n, 10)}, nil
	}
	if _, err := strconv.ParseInt(text, 10, 64); err != nil {
		return token{}, lx.errorf("integer %s is out of range", text)
	}
	return token{kind: tInt, text: text}, nil
}

func (lx *lexer) operator() (token, error) {
	if op := operatorAt(lx.src[lx.pos:]); op != "" {
		lx.pos += len(op)
		return token{kind: tOp, text: op}, nil
	}
	return token{}, lx.errorf("unexpected character %q", lx.src[lx.pos])
}

// closer returns the closing delimiter for a %-literal or string opener.
func closer(open byte) byte {
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

func (lx *lexer) percentLiteral() (token, error) {
	lx.pos++ // %
	kind := byte('Q')
	c := lx.src[lx.pos]
	if isIdentStart(c) {
		kind = c
		lx.pos++
		if lx.pos >= len(lx.src) {
			return token{}, lx.errorf("unterminated %%-literal")
		}
		c = lx.src[lx.pos]
	}
	if isIdentChar(c) || c == ' ' || c == '\n' {
		return token{}, lx.errorf("unsupported %%-literal")
	}
	lx.pos++
	open := c
	switch kind {
	case 'Q':
		return lx.quoted(closer(open), open, true, false)
	case 'q':
		return lx.quoted(closer(open), open, false, false)
	case 'w', 'W', 'i', 'I':
		t, err := lx.quoted(closer(open), open, false, false)
		if err != nil {
			return t, err
		}
		var s strings.Builder
		for _, p := range t.parts {
			s.WriteString(p.lit)
		}
		words := strings.Fields(s.String())
		parts := make([]strPart, len(words))
		for k, w := range words {
			parts[k].lit = w
		}
		t = token{kind: tXString, parts: parts}
		if kind == 'i' || kind == 'I' {
			t.text = "i"
		}
		return t, nil
	case 'r':
		t, err := lx.quoted(closer(open), open, true, true)
		t.kind = tRegexp
		t.text = lx.regexpOpts()
		return t, err
	}
	return token{}, lx.errorf("unsupported %%%c literal", kind)
}

// quoted lexes a string body up to the closing delimiter; lx.pos is just past
// the opening one. open is the opening bracket for nesting (0 if none).
// Double-quoted strings (interp) process escapes and #{} interpolation; for
// regexps escapes are kept for the regexp engine.
func (lx *lexer) quoted(close, open byte, interp, regexp bool) (token, error) {
	startLine := lx.line
	var parts []strPart
	// lit collects the literal text only once an escape changed it; until
	// then the text is the source from runStart, used without a copy.
	var lit strings.Builder
	runStart := lx.pos
	depth := 0
	src := lx.src
	for {
		if lx.pos >= len(src) {
			return token{}, unsupportedf("unsupported Ruby in template %s:%d: unterminated string", lx.name, startLine)
		}
		c := src[lx.pos]
		if c == '\n' {
			lx.line++
		}
		if open != 0 && open != close && c == open {
			depth++
		} else if c == close {
			if depth == 0 {
				break
			}
			depth--
		}
		if c == '\\' && lx.pos+1 < len(src) {
			e := src[lx.pos+1]
			lit.WriteString(src[runStart:lx.pos])
			lx.pos += 2
			runStart = lx.pos
			if !interp {
				if e == close || e == '\\' || (open != 0 && e == open) {
					lit.WriteByte(e)
				} else {
					lit.WriteByte('\\')
					lit.WriteByte(e)
				}
				continue
			}
			if regexp {
				if e == '/' {
					lit.WriteByte('/')
				} else {
					lit.WriteByte('\\')
					lit.WriteByte(e)
				}
				continue
			}
			if err := lx.escape(e, &lit); err != nil {
				return token{}, err
			}
			runStart = lx.pos // escape may read more (\u1234, \001)
			continue
		}
		if interp && c == '#' && lx.pos+1 < len(src) && src[lx.pos+1] == '{' {
			if s := lx.litText(&lit, src[runStart:lx.pos]); s != "" {
				parts = append(parts, strPart{lit: s})
			}
			lx.pos += 2
			end, err := lx.matchBrace()
			if err != nil {
				return token{}, err
			}
			code, err := lexRuby(lx.name, src[lx.pos:end], lx.line)
			if err != nil {
				return token{}, err
			}
			if code == nil {
				code = []token{}
			}
			parts = append(parts, strPart{code: code, line: lx.line})
			lx.line += strings.Count(src[lx.pos:end], "\n")
			lx.pos = end + 1
			runStart = lx.pos
			continue
		}
		if interp && c == '#' && lx.pos+1 < len(src) && (src[lx.pos+1] == '@' || src[lx.pos+1] == '$') {
			return token{}, lx.errorf("#@var interpolation is not supported")
		}
		lx.pos++
	}
	if s := lx.litText(&lit, src[runStart:lx.pos]); s != "" || len(parts) == 0 {
		parts = append(parts, strPart{lit: s})
	}
	lx.pos++ // the closing delimiter
	return token{kind: tString, parts: parts, line: startLine}, nil
}

// regexpOpts lexes the option letters after a regexp literal.
func (lx *lexer) regexpOpts() string {
	start := lx.pos
	for lx.pos < len(lx.src) && strings.IndexByte("imxo", lx.src[lx.pos]) >= 0 {
		lx.pos++
	}
	return lx.src[start:lx.pos]
}

// litText returns the literal text ending in tail: tail itself when no escape
// went into lit before it (no copy), else lit's text and tail; lit is reset.
func (lx *lexer) litText(lit *strings.Builder, tail string) string {
	if lit.Len() == 0 {
		return tail
	}
	lit.WriteString(tail)
	s := lit.String()
	lit.Reset()
	return s
}

// matchBrace finds the } closing an interpolation starting at lx.pos,
// skipping nested braces and strings.
func (lx *lexer) matchBrace() (int, error) {
	depth := 0
	src := lx.src
	for k := lx.pos; k < len(src); k++ {
		switch src[k] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return k, nil
			}
			depth--
		case '"', '\'':
			q := src[k]
			k++
			for k < len(src) && src[k] != q {
				if src[k] == '\\' {
					k++
				}
				k++
			}
		}
	}
	return 0, lx.errorf("unterminated #{ interpolation")
}

// escape writes the character a double-quoted string escape stands for.
func (lx *lexer) escape(e byte, b *strings.Builder) error {
	switch e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 's':
		b.WriteByte(' ')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		// \nnn: up to three octal digits, the low byte of their value.
		n := int(e - '0')
		for k := 0; k < 2 && lx.pos < len(lx.src) && lx.src[lx.pos] >= '0' && lx.src[lx.pos] <= '7'; k++ {
			n = n*8 + int(lx.src[lx.pos]-'0')
			lx.pos++
		}
		b.WriteByte(byte(n))
	case 'e':
		b.WriteByte(0x1b)
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '\n':
		lx.line++
	case 'u':
		src := lx.src
		if lx.pos < len(src) && src[lx.pos] == '{' {
			end := strings.IndexByte(src[lx.pos:], '}')
			if end < 0 {
				return lx.errorf("bad \\u escape")
			}
			for _, h := range strings.Fields(src[lx.pos+1 : lx.pos+end]) {
				n, err := strconv.ParseUint(h, 16, 32)
				if err != nil {
					return lx.errorf("bad \\u escape")
				}
				b.WriteRune(rune(n))
			}
			lx.pos += end + 1
			return nil
		}
		if lx.pos+4 > len(src) {
			return lx.errorf("bad \\u escape")
		}
		n, err := strconv.ParseUint(src[lx.pos:lx.pos+4], 16, 32)
		if err != nil {
			return lx.errorf("bad \\u escape")
		}
		b.WriteRune(rune(n))
		lx.pos += 4
	case 'x':
		src := lx.src
		k := lx.pos
		for k < len(src) && k < lx.pos+2 && strings.IndexByte("0123456789abcdefABCDEF", src[k]) >= 0 {
			k++
		}
		if k == lx.pos {
			return lx.errorf("bad \\x escape")
		}
		n, _ := strconv.ParseUint(src[lx.pos:k], 16, 8)
		b.WriteByte(byte(n))
		lx.pos = k
	default:
		b.WriteByte(e)
	}
	return nil
}

// operatorSymbol returns the operator named by a symbol such as :+ or :<=>
// at lx.pos (which holds the colon), or "".
func (lx *lexer) operatorSymbol() string {
	rest := lx.src[lx.pos+1:]
	for _, op := range []string{"[]=", "[]", "<=>", "===", "==", "=~", "**", "<<", ">>", "<=", ">=", "+", "-", "*", "/", "%", "<", ">", "!", "&", "|", "^"} {
		if strings.HasPrefix(rest, op) {
			// `a ? b :-1` is not a symbol; require the symbol to end here.
			after := rest[len(op):]
			if after == "" || strings.IndexByte(" \t\n),]}", after[0]) >= 0 {
				return op
			}
		}
	}
	return ""
}
