package ruby

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind classifies Ruby tokens.
type tokKind uint8

const (
	tEOF      tokKind = iota
	tNL               // newline or ';' (statement separator)
	tIdent            // local variable or method name (may end in ? or !)
	tConst            // Constant
	tIVar             // @name
	tCVar             // @@name: lexed so that the parser can refuse it
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
	// bareVar marks "#@x", "#@@x" and "#$x" interpolation, which the
	// parser refuses; code then holds the variable's one token.
	bareVar bool
}

// token is one Ruby token.
type token struct {
	// The small fields first, packed into one word: a type file or a
	// template holds a token per 12 bytes.
	kind        tokKind
	spaceAfter  bool // whitespace follows the token
	spaceBefore bool
	lineStart   bool // first token of its source line
	// text is the identifier, operator or keyword text; a regexp's options
	// (imxo); "i" for a %i word list.
	text  string
	parts []strPart // string pieces; a %w or %i list's words
	line  int
}

// isKeyword reports whether name is a Ruby keyword. A switch, not a map:
// the lexer asks for every name.
func isKeyword(name string) bool {
	switch name {
	case "if", "elsif", "else", "end", "unless", "then", "case", "when", "while", "until", "do",
		"and", "or", "not", "nil", "true", "false", "self", "for", "in", "begin", "rescue", "ensure",
		"def", "return", "next", "break", "yield", "defined?", "class", "module", "redo", "retry",
		"__FILE__", "__LINE__":
		return true
	}
	return false
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
	// file says src is a whole file, not a template tag: its first line
	// may be =begin or __END__.
	file bool
	// plain makes errors "line N: ..." (Tokens) instead of naming a template.
	plain bool
	// atLineStart is set by a newline until the next token.
	atLineStart bool
	// heredocResume, when not 0, is where lexing goes on after the current
	// line ends: past the bodies of the heredocs opened on it.
	heredocResume int
	// interpolation makes the lexer stop at the } that closes the #{ its
	// source follows, setting closed; braceDepth counts the braces open.
	interpolation bool
	closed        bool
	braceDepth    int
	// flushLine, when set (Tokens), takes the tokens before each newline,
	// which the lexer then drops: it looks back no further than a line.
	flushLine func([]token)
}

// lexError is a lexing failure of Tokens, with its line.
type lexError struct {
	line int
	msg  string
}

func (e *lexError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func (lx *lexer) errorf(format string, args ...any) error {
	return lx.errorAt(lx.line, format, args...)
}

func (lx *lexer) errorAt(line int, format string, args ...any) error {
	if lx.plain {
		return &lexError{line: line, msg: fmt.Sprintf(format, args...)}
	}
	return unsupportedf("unsupported Ruby in template %s:%d: %s", lx.name, line, fmt.Sprintf(format, args...))
}

// sub returns a lexer for code inside src (an interpolation, a heredoc's
// body) starting on line, that reports errors as lx does.
func (lx *lexer) sub(src string, line int) *lexer {
	return &lexer{name: lx.name, src: src, line: line, plain: lx.plain}
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
	case tIdent, tConst, tIVar, tCVar, tGVar, tInt, tFloat, tString, tXString, tSymbol, tRegexp:
		return true
	case tKeyword:
		switch t.text {
		case "end", "self", "nil", "true", "false":
			return true
		case "def":
			return true // def / r: what follows is the method's name
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
		if (c == '=' || c == '_') && lx.startsLine() {
			skipped, err := lx.skipDocumentation()
			if err != nil {
				return err
			}
			if skipped {
				continue
			}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.pos++
			lx.markSpace()
			space = true
			continue
		case c == '\\' && lx.continuesLine():
			lx.line++
			lx.markSpace()
			space = true
			continue
		case c == '\n' || c == ';':
			lx.pos++
			if c == '\n' {
				lx.line++
				nlLine := lx.line
				lx.atLineStart = true
				lx.skipHeredocBodies()
				// A line starting with .method continues the previous expression.
				k := lx.pos
				for k < len(lx.src) && (lx.src[k] == ' ' || lx.src[k] == '\t' || lx.src[k] == '\r') {
					k++
				}
				if rest := lx.src[k:]; strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "..") || strings.HasPrefix(rest, "&.") {
					lx.markSpace()
					space = true
					continue
				}
				if lx.flushLine != nil && !lx.afterNewline() {
					lx.flushLine(lx.toks)
					lx.toks = lx.toks[:0]
				}
				if !lx.plain || !lx.afterNewline() {
					// Tokens drops newlines: one after the other is enough
					// for what follows to see the line ended.
					lx.toks = append(lx.toks, token{kind: tNL, text: "\n", line: nlLine})
				}
			} else {
				lx.toks = append(lx.toks, token{kind: tNL, text: ";", line: lx.line})
			}
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
		if lx.interpolation && c == '}' && lx.braceDepth == 0 {
			lx.closed = true
			return nil
		}
		var t token
		var err error
		switch {
		case isDigit(c):
			t, err = lx.number()
		case c == '@':
			lx.pos++
			kind := tIVar
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '@' {
				lx.pos++
				kind = tCVar
			}
			t = token{kind: kind, text: lx.ident()}
			if t.text == "" || isDigit(t.text[0]) {
				return lx.errorf("bad instance variable")
			}
		case c == '$':
			lx.pos++
			if lx.pos < len(lx.src) && (isDigit(lx.src[lx.pos]) || strings.IndexByte(specialGlobals, lx.src[lx.pos]) >= 0) {
				lx.pos++
				t = token{kind: tGVar, text: lx.src[start+1 : lx.pos]}
			} else if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == '-' && isIdentChar(lx.src[lx.pos+1]) {
				lx.pos += 2 // $-w and the other option globals
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
		case c == ':' && lx.pos+2 < len(lx.src) && lx.src[lx.pos+1] == '@' && (space || !lx.valueEnded()) && lx.ivarSymbol():
			// :@name and :@@name, a variable's name as a symbol.
			lx.pos++
			at := lx.pos
			lx.pos++
			if lx.src[lx.pos] == '@' {
				lx.pos++
			}
			lx.ident()
			t = token{kind: tSymbol, parts: []strPart{{lit: lx.src[at:lx.pos]}}}
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
		case c == '<' && lx.heredocAhead(space):
			t, err = lx.heredoc()
		case c == '?' && lx.charLiteralAhead(space):
			t, err = lx.charLiteral()
		default:
			t, err = lx.operator()
			switch t.text {
			case "{":
				lx.braceDepth++
			case "}":
				lx.braceDepth--
			}
		}
		if err != nil {
			return err
		}
		t.spaceBefore = space
		t.lineStart = lx.atLineStart
		lx.atLineStart = false
		if t.line == 0 {
			t.line = lx.line
		}
		lx.toks = append(lx.toks, t)
		space = false
	}
	// The source may end on the line that opened a heredoc.
	lx.skipHeredocBodies()
	return nil
}

// skipHeredocBodies moves past the bodies of the heredocs opened on the
// line that just ended, which their tokens hold. A literal that ran from
// that line into them (Ruby would read the bodies first) has already
// moved past them: then nothing is skipped.
func (lx *lexer) skipHeredocBodies() {
	if lx.heredocResume > lx.pos {
		lx.line += strings.Count(lx.src[lx.pos:lx.heredocResume], "\n")
		lx.pos = lx.heredocResume
	}
	lx.heredocResume = 0
}

// specialGlobals are the punctuation characters that name a global on
// their own after $: $! $~ $: $0 ...
const specialGlobals = "~!&@'`\"+*$?:<>,./\\;"

// continuesLine reports whether the backslash at lx.pos ends its line (a
// line continuation) and moves past the line break.
func (lx *lexer) continuesLine() bool {
	rest := lx.src[lx.pos+1:]
	switch {
	case strings.HasPrefix(rest, "\n"):
		lx.pos += 2
	case strings.HasPrefix(rest, "\r\n"):
		lx.pos += 3
	default:
		return false
	}
	return true
}

// startsLine reports whether lx.pos is at the start of a source line.
func (lx *lexer) startsLine() bool {
	if lx.pos == 0 {
		return lx.file
	}
	return lx.src[lx.pos-1] == '\n'
}

// lineIs reports whether the line at lx.pos is word, alone or followed by
// white space and more text (=begin comment).
func (lx *lexer) lineIs(word string, textAfter bool) bool {
	rest := lx.src[lx.pos:]
	if !strings.HasPrefix(rest, word) {
		return false
	}
	rest = rest[len(word):]
	if rest == "" || rest[0] == '\n' || rest[0] == '\r' {
		return true
	}
	return textAfter && (rest[0] == ' ' || rest[0] == '\t')
}

// skipDocumentation moves past an =begin ... =end comment, or to the end
// for __END__ (what follows it is data, not code), at the start of a line.
func (lx *lexer) skipDocumentation() (bool, error) {
	switch {
	case lx.lineIs("__END__", false):
		lx.pos = len(lx.src)
		return true, nil
	case lx.lineIs("=begin", true):
		startLine := lx.line
		for {
			nl := strings.IndexByte(lx.src[lx.pos:], '\n')
			if nl < 0 {
				return false, lx.errorAt(startLine, "=begin without =end")
			}
			lx.pos += nl + 1
			lx.line++
			if lx.lineIs("=end", true) {
				break
			}
		}
		// The rest of the =end line is comment too; its newline is left
		// to end the line.
		for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
			lx.pos++
		}
		return true, nil
	}
	return false, nil
}

// ivarSymbol reports whether :@ at lx.pos starts :@name or :@@name.
func (lx *lexer) ivarSymbol() bool {
	k := lx.pos + 2
	if k < len(lx.src) && lx.src[k] == '@' {
		k++
	}
	return k < len(lx.src) && isIdentStart(lx.src[k])
}

// namesMethod reports whether the previous token is def or a dot, after
// which an operator is a method's name.
func (lx *lexer) namesMethod() bool {
	if len(lx.toks) <= lx.base {
		return false
	}
	t := &lx.toks[len(lx.toks)-1]
	return t.kind == tKeyword && t.text == "def" || t.kind == tOp && (t.text == "." || t.text == "&.")
}

// afterNewline reports whether the previous token is a newline.
func (lx *lexer) afterNewline() bool {
	n := len(lx.toks)
	return n > lx.base && lx.toks[n-1].kind == tNL && lx.toks[n-1].text == "\n"
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
	if isKeyword(name) {
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

// number lexes a numeric literal. Templates and functions need its value,
// an int64 or a float64; Tokens (plain) only its form, so there an integer
// beyond int64, a rational (3r) or an imaginary (2i) keeps its text.
func (lx *lexer) number() (token, error) {
	start := lx.pos
	src := lx.src
	if lx.pos+1 < len(src) && src[lx.pos] == '0' && strings.IndexByte("xXbBoOdD", src[lx.pos+1]) >= 0 {
		lx.pos += 2
		for lx.pos < len(src) && (isIdentChar(src[lx.pos])) {
			lx.pos++
		}
		text := strings.ToLower(strings.ReplaceAll(src[start:lx.pos], "_", ""))
		base := 0 // from the prefix
		if strings.HasPrefix(text, "0d") {
			text, base = text[2:], 10
		}
		n, err := strconv.ParseInt(text, base, 64)
		if lx.plain && errors.Is(err, strconv.ErrRange) {
			return token{kind: tInt, text: text}, nil
		}
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
	if lx.plain && lx.pos < len(src) && (src[lx.pos] == 'r' || src[lx.pos] == 'i') &&
		(lx.pos+1 == len(src) || !isIdentChar(src[lx.pos+1])) {
		lx.pos++
		return token{kind: tInt, text: src[start:lx.pos]}, nil
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
		if lx.plain && errors.Is(err, strconv.ErrRange) {
			return token{kind: tInt, text: text}, nil
		}
		if err != nil {
			return token{}, lx.errorf("bad number %q", text)
		}
		return token{kind: tInt, text: strconv.FormatInt(n, 10)}, nil
	}
	if _, err := strconv.ParseInt(text, 10, 64); err != nil && !lx.plain {
		return token{}, lx.errorf("integer %s is out of range", text)
	}
	return token{kind: tInt, text: text}, nil
}

func (lx *lexer) operator() (token, error) {
	if op := operatorAt(lx.src[lx.pos:]); op != "" {
		lx.pos += len(op)
		if lx.pos < len(lx.src) && lx.src[lx.pos] == '@' && len(op) == 1 && strings.Contains("+-!~", op) && lx.namesMethod() {
			lx.pos++ // def -@: the unary operator's method
			op += "@"
		}
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
	case 'Q', 'x':
		// %x is a command, like a backquoted string.
		return lx.quoted(closer(open), open, true, false)
	case 'q':
		return lx.quoted(closer(open), open, false, false)
	case 's':
		t, err := lx.quoted(closer(open), open, false, false)
		t.kind = tSymbol
		return t, err
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
			if close == 0 {
				break // a heredoc's body: all of src
			}
			return token{}, lx.errorAt(startLine, "unterminated string")
		}
		c := src[lx.pos]
		if c == '\n' {
			lx.line++
		}
		if open != 0 && open != close && c == open {
			depth++
		} else if c == close && close != 0 {
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
			// The code is lexed up to the } that closes it, so that
			// braces in its strings and regexps do not count.
			sub := lx.sub(src[lx.pos:], lx.line)
			sub.interpolation = true
			if err := sub.run(); err != nil {
				return token{}, err
			}
			if !sub.closed {
				return token{}, lx.errorf("unterminated #{ interpolation")
			}
			code := sub.toks
			if code == nil || lx.plain {
				code = []token{} // Tokens tells only that there is code
			}
			parts = append(parts, strPart{code: code, line: lx.line})
			lx.line = sub.line
			lx.pos += sub.pos + 1
			runStart = lx.pos
			continue
		}
		if interp && c == '#' && lx.pos+1 < len(src) && (src[lx.pos+1] == '@' || src[lx.pos+1] == '$') {
			if v, n := lx.bareVarAt(lx.pos + 1); n > 0 {
				if s := lx.litText(&lit, src[runStart:lx.pos]); s != "" {
					parts = append(parts, strPart{lit: s})
				}
				v.line = lx.line
				parts = append(parts, strPart{code: []token{v}, line: lx.line, bareVar: true})
				lx.pos += 1 + n
				runStart = lx.pos
				continue
			}
		}
		lx.pos++
	}
	if s := lx.litText(&lit, src[runStart:lx.pos]); s != "" || len(parts) == 0 {
		parts = append(parts, strPart{lit: s})
	}
	if close != 0 {
		lx.pos++ // the closing delimiter
	}
	return token{kind: tString, parts: parts, line: startLine}, nil
}

// bareVarAt returns the variable that "#@x", "#@@x" or "#$x" interpolates,
// k being the position of its sigil, and its length (0 when the # is
// plain text, as in "#@ " or "#$1.00").
func (lx *lexer) bareVarAt(k int) (token, int) {
	src := lx.src
	start := k
	kind := tGVar
	if src[k] == '@' {
		kind = tIVar
		if k+1 < len(src) && src[k+1] == '@' {
			kind = tCVar
			k++
		}
	}
	k++
	if k >= len(src) || !isIdentStart(src[k]) {
		return token{}, 0
	}
	nameStart := k
	for k < len(src) && isIdentChar(src[k]) {
		k++
	}
	return token{kind: kind, text: src[nameStart:k]}, k - start
}

// regexpOpts lexes the option letters after a regexp literal: imxo, and
// the encodings n, e, s, u, which change nothing here.
func (lx *lexer) regexpOpts() string {
	start := lx.pos
	for lx.pos < len(lx.src) && strings.IndexByte("imxonesu", lx.src[lx.pos]) >= 0 {
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
	for _, op := range []string{"[]=", "[]", "<=>", "===", "==", "=~", "!=", "!~", "**", "<<", ">>", "<=", ">=", "+@", "-@", "+", "-", "*", "/", "%", "<", ">", "!", "&", "|", "^", "~"} {
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

// heredocAhead reports whether the << at lx.pos opens a heredoc (<<ID,
// <<-ID, <<~ID, the ID maybe quoted) rather than being a shift or append:
// where a value starts, or, for Tokens, as the argument of a command
// (`desc <<-EOT`; in a template `lines <<"x"` appends to a local). A bare
// <<ID needs a capital, since `a <<b` is far more often an append.
func (lx *lexer) heredocAhead(space bool) bool {
	rest := lx.src[lx.pos:]
	if len(rest) < 3 || rest[1] != '<' {
		return false
	}
	k := 2
	if rest[k] == '-' || rest[k] == '~' {
		k++
		if k == len(rest) {
			return false
		}
	}
	switch c := rest[k]; {
	case c == '\'' || c == '"' || c == '`':
	case k == 2 && !(c >= 'A' && c <= 'Z'):
		return false
	case !isIdentStart(c):
		return false
	}
	return !lx.valueEnded() || lx.plain && space && lx.prevIsIdent()
}

// heredoc lexes a heredoc's opener at lx.pos into a string token holding
// its body, which starts on the next line (after the bodies of heredocs
// opened earlier on the same line); heredocResume records where the
// lexing of lines goes on once this line ends.
func (lx *lexer) heredoc() (token, error) {
	lx.pos += 2
	squiggly := lx.src[lx.pos] == '~'
	indentedEnd := squiggly || lx.src[lx.pos] == '-'
	if indentedEnd {
		lx.pos++
	}
	interp := true
	var id string
	if q := lx.src[lx.pos]; q == '\'' || q == '"' || q == '`' {
		end := strings.IndexByte(lx.src[lx.pos+1:], q)
		if end < 0 || strings.ContainsAny(lx.src[lx.pos+1:lx.pos+1+end], "\r\n") {
			return token{}, lx.errorf("unterminated heredoc identifier")
		}
		id = lx.src[lx.pos+1 : lx.pos+1+end]
		interp = q != '\''
		lx.pos += end + 2
	} else {
		id = lx.ident()
	}
	bodyStart := lx.heredocResume
	if bodyStart <= lx.pos { // none yet, or a literal ran past them
		nl := strings.IndexByte(lx.src[lx.pos:], '\n')
		if nl < 0 {
			return token{}, lx.errorf("heredoc %s has no body", id)
		}
		bodyStart = lx.pos + nl + 1
	}
	bodyLine := lx.line + strings.Count(lx.src[lx.pos:bodyStart], "\n")
	// Find the terminator: a line holding only id (indented for <<- and <<~).
	bodyEnd := -1
	for k := bodyStart; k < len(lx.src); {
		lineEnd := strings.IndexByte(lx.src[k:], '\n')
		next := len(lx.src)
		if lineEnd >= 0 {
			lineEnd += k
			next = lineEnd + 1
		} else {
			lineEnd = len(lx.src)
		}
		text := strings.TrimSuffix(lx.src[k:lineEnd], "\r")
		if indentedEnd {
			text = strings.TrimLeft(text, " \t")
		}
		if text == id {
			bodyEnd = k
			lx.heredocResume = next
			break
		}
		k = next
	}
	if bodyEnd < 0 {
		return token{}, lx.errorf("heredoc %s is not terminated", id)
	}
	body := lx.src[bodyStart:bodyEnd]
	if squiggly {
		lines := dedent(strings.Split(body, "\n"))
		body = strings.Join(lines, "\n")
	}
	line := lx.line
	if !interp {
		return token{kind: tString, parts: []strPart{{lit: body}}, line: line}, nil
	}
	sub := lx.sub(body, bodyLine)
	t, err := sub.quoted(0, 0, true, false)
	t.line = line
	return t, err
}

// charLiteralAhead reports whether the ? at lx.pos starts a character
// literal (?a, ?\n) rather than a conditional: where a value starts, or,
// for Tokens, as a command's argument (`split ?,`; in a template `x ?" ":""`
// is a conditional on a local); and the character is not followed by a
// name character (?a: in `x ?a:b` is the conditional).
func (lx *lexer) charLiteralAhead(space bool) bool {
	rest := lx.src[lx.pos+1:]
	if rest == "" || strings.IndexByte(" \t\r\n", rest[0]) >= 0 {
		return false
	}
	n := 1
	if rest[0] == '\\' {
		n = 2 // ?\n; a longer escape (?\u0041) is lexed as one
		if len(rest) > 1 && strings.IndexByte("uxCcM01234567", rest[1]) >= 0 {
			return !lx.valueEnded()
		}
	} else if rest[0] >= 0x80 {
		_, n = utf8.DecodeRuneInString(rest)
	}
	if n > len(rest) || n < len(rest) && isIdentChar(rest[n]) {
		return false
	}
	return !lx.valueEnded() || lx.plain && space && lx.prevIsIdent() && !isIdentChar(rest[0])
}

// charLiteral lexes ?c into a one-character string.
func (lx *lexer) charLiteral() (token, error) {
	lx.pos++
	if lx.src[lx.pos] != '\\' {
		_, n := utf8.DecodeRuneInString(lx.src[lx.pos:])
		lx.pos += n
		return token{kind: tString, parts: []strPart{{lit: lx.src[lx.pos-n : lx.pos]}}}, nil
	}
	var b strings.Builder
	e := lx.src[lx.pos+1]
	lx.pos += 2
	if err := lx.escape(e, &b); err != nil {
		return token{}, err
	}
	return token{kind: tString, parts: []strPart{{lit: b.String()}}}, nil
}
