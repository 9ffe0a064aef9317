package syntax

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/diag"
)

// token is one lexical token. Offsets are into the scanner's source; the
// scanner maps them to file positions (they differ only inside heredocs).
type token struct {
	kind Token
	off  int    // offset of the first byte
	end  int    // offset just past the last byte
	text string // name, variable name, string value, regex pattern, number, heredoc syntax
	hd   *heredoc
}

// heredoc is the text of a heredoc, cut out of the file and ready to be
// scanned on its own as an unquoted string.
type heredoc struct {
	text    string
	escapes escapeSet
	interp  bool       // the end tag was quoted: "$x" and "${x}" interpolate
	lines   []lineSpan // where each line of text came from in the file
	tokens  []token    // the text's tokens, with file offsets
}

// lineSpan maps the start of one line of heredoc text back to the file.
type lineSpan struct{ local, global int }

// escapeSet says which backslash escapes a string honours.
type escapeSet uint16

const (
	escBackslash escapeSet = 1 << iota
	escDollar
	escSQuote
	escDQuote
	escR
	escN
	escT
	escS
	escU
	escNewline // backslash-newline joins lines
)

const dqEscapes = escBackslash | escDollar | escSQuote | escDQuote | escR | escN | escT | escS | escU | escNewline

// strFrame is a string being scanned. While an interpolated expression
// "${...}" is scanned as ordinary tokens, the frame waits on the stack until
// the brace that closes the expression.
type strFrame struct {
	quote   byte // closing quote, or 0 when the string runs to the end of input
	escapes escapeSet
	interp  bool
	braces  int // brace depth outside the open "${"
}

type eppMode int

const (
	eppNone eppMode = iota // not a template
	eppText                // scanning template text
	eppCode                // inside <% %>
	eppExpr                // inside <%= %>
)

// scanner turns source text into tokens, one at a time. Like Puppet's lexer
// it keeps a little context: the previous token decides between regex and
// division, and whether '{' opens a selector; the text before '[' or '('
// decides between access and a new array, or a call and a parenthesized
// expression.
type scanner struct {
	src   string
	off   int
	lines []lineSpan                                // nil for a file; set for heredoc text
	errh  func(off int, code diag.Code, msg string) // off is a file offset

	last        Token // kind of the previous token
	lineDirty   bool  // something other than blanks was scanned on this line
	braces      int   // open braces
	strs        []strFrame
	resume      bool // the next token continues the string on top of strs
	resumeFirst bool // ... and starts it (heredoc text)
	pending     token
	hasPend     bool
	queue       []token // tokens scanned ahead: the rest of an interpolated string
	replay      bool    // the queue holds all the tokens (of a heredoc's text)
	jump        int     // where the next newline continues after a heredoc; -1 if none
	epp         eppMode
	skipLead    bool // after -%>: drop the rest of the line's blanks and its newline
	eppScan     bool // the next token is template text
	dead        bool // an error stopped scanning
	// lastMatch is the text that Puppet's lexer matched last; its message
	// for an unclosed string names it.
	lastMatch string
	errorSeen bool
}

func newScanner(src string, errh func(off int, code diag.Code, msg string)) *scanner {
	return &scanner{src: src, errh: errh, jump: -1}
}

// error reports a scanning error and stops the scanner: every later token is EOF.
func (s *scanner) error(off int, code diag.Code, msg string) {
	if !s.errorSeen {
		s.errorSeen = true
		s.errh(s.globalOffset(off), code, msg)
	}
	s.dead = true
}

// globalOffset maps an offset in s.src to an offset in the file.
func (s *scanner) globalOffset(off int) int {
	if s.lines == nil {
		return off
	}
	lo, hi := 0, len(s.lines)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if s.lines[m].local <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return s.lines[lo].global + off - s.lines[lo].local
}

// next returns the next token. Like Puppet's lexer it scans a string with
// interpolation in one go, the embedded expressions included, so that an
// error in the string's text (an unclosed quote) is reported before any
// syntax error in the expressions.
func (s *scanner) next() token {
	if len(s.queue) > 0 && !s.dead {
		t := s.queue[0]
		s.queue = s.queue[1:]
		return t
	}
	if s.replay {
		return token{kind: EOF, off: len(s.src), end: len(s.src)}
	}
	t := s.nextRaw()
	if t.kind == DQPRE {
		s.queue = s.queue[:0]
		// nesting counts strings and brackets as the parser will count
		// them: past MaxExpressionDepth the parser fails anyway, and a
		// string of a million "${[" would queue millions of tokens first.
		nesting := 1
		for depth := 1; depth > 0 && !s.dead; {
			u := s.nextRaw()
			switch u.kind {
			case DQPRE:
				depth++
				nesting++
			case DQPOST:
				depth--
				nesting--
			case LBRACK, LISTSTART, LBRACE, SELBRACE, LPAREN, WSLPAREN:
				nesting++
			case RBRACK, RBRACE, RPAREN:
				nesting--
			case EOF:
				depth = 0
			}
			if nesting > MaxExpressionDepth {
				s.error(u.off, diag.NestingTooDeep, nestingTooDeepMessage())
				break
			}
			s.queue = append(s.queue, u)
		}
	}
	if s.dead {
		t = token{kind: EOF, off: len(s.src), end: len(s.src)}
	}
	return t
}

// nextRaw scans the next token.
func (s *scanner) nextRaw() token {
	var t token
	switch {
	case s.dead:
		t = token{kind: EOF, off: len(s.src), end: len(s.src)}
	case s.hasPend:
		s.hasPend = false
		t = s.pending
	case s.resume:
		s.resume = false
		t = s.scanStringPart(len(s.strs)-1, s.resumeFirst)
		s.resumeFirst = false
	default:
		t = s.scan()
	}
	if s.dead {
		t = token{kind: EOF, off: len(s.src), end: len(s.src)}
	}
	s.last = t.kind
	s.lineDirty = true
	return t
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// blankLen is the length of the blank at src[off:], 0 when there is none.
// Puppet's lexer skips [[:blank:]\r], which in a UTF-8 manifest is every
// space separator (U+00A0 no-break space, U+2009 thin space, ...) besides
// the space and the tab.
func blankLen(src string, off int) int {
	c := src[off]
	if c < utf8.RuneSelf {
		if isBlank(c) {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(src[off:])
	if unicode.Is(unicode.Zs, r) {
		return n
	}
	return 0
}

// skipBlanks returns the offset after the blanks at src[off:].
func skipBlanks(src string, off int) int {
	for off < len(src) {
		n := blankLen(src, off)
		if n == 0 {
			break
		}
		off += n
	}
	return off
}

func isWordChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// skipSpace skips blanks, newlines and comments. It keeps lastMatch as
// Puppet's lexer leaves it; inside "${...}" that lexer tries to skip blanks
// once more after each of these, which clears it when there are none.
func (s *scanner) skipSpace() {
	inInterp := len(s.strs) > 0
	skipAgain := func() {
		if !inInterp {
			return
		}
		start := s.off
		s.off = skipBlanks(s.src, s.off)
		s.lastMatch = s.src[start:s.off]
	}
	for s.off < len(s.src) {
		if blankLen(s.src, s.off) > 0 {
			start := s.off
			s.off = skipBlanks(s.src, s.off)
			s.lastMatch = s.src[start:s.off]
			skipAgain()
			continue
		}
		switch c := s.src[s.off]; c {
		case '\n':
			if s.jump > s.off {
				// The lines after this one belong to a heredoc.
				s.off = s.jump
				s.jump = -1
			} else {
				s.off++
			}
			s.lineDirty = false
			skipAgain()
		case '#':
			start := s.off
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			s.lastMatch = s.src[start:s.off]
			s.lineDirty = true
			skipAgain()
		case '/':
			if s.off+1 < len(s.src) && s.src[s.off+1] == '*' {
				end := strings.Index(s.src[s.off+2:], "*/")
				if end < 0 {
					s.error(s.off, diag.UnclosedMLComment, "Unclosed multiline comment")
					s.off = len(s.src)
					return
				}
				s.lastMatch = s.src[s.off : s.off+2+end+2]
				s.lineDirty = true
				s.off += 2 + end + 2
				skipAgain()
				continue
			}
			return
		default:
			return
		}
	}
}

func (s *scanner) peekByte(i int) byte {
	if s.off+i < len(s.src) {
		return s.src[s.off+i]
	}
	return 0
}

// op makes an operator token of n bytes at the current offset.
func (s *scanner) op(kind Token, n int) token {
	t := token{kind: kind, off: s.off, end: s.off + n}
	s.off += n
	return t
}

func (s *scanner) scan() token {
	for {
		t, ok := s.scanOne()
		if ok {
			return t
		}
	}
}

// scanOne scans one token. It reports false when there is none to return
// yet: after an EPP code block, which is no token, the template text goes
// on.
func (s *scanner) scanOne() (token, bool) {
	if s.eppScan {
		s.eppScan = false
		if t, ok := s.scanTemplateText(); ok {
			return t, true
		}
		if s.dead {
			return token{kind: EOF}, true
		}
	}
	s.skipSpace()
	if s.epp >= eppCode && s.off+1 < len(s.src) && s.src[s.off] == '%' && s.src[s.off+1] == '>' ||
		s.epp >= eppCode && strings.HasPrefix(s.src[s.off:], "-%>") {
		// The end of a code block: a token only after <%=.
		mode := s.epp
		t := s.op(EPPEND, 2)
		if s.src[t.off] == '-' {
			s.off++
			t = token{kind: EPPENDTRIM, off: t.off, end: s.off}
		}
		s.epp = eppText
		s.skipLead = t.kind == EPPENDTRIM
		s.eppScan = true
		return t, mode == eppExpr
	}
	return s.scanToken(), true
}

func (s *scanner) scanToken() token {
	if s.dead {
		return token{kind: EOF}
	}
	if s.off >= len(s.src) {
		if n := len(s.strs); n > 0 && s.strs[n-1].quote != 0 {
			// The input ended inside "${": the string is unclosed.
			s.error(len(s.src), diag.UnclosedQuote, "Unclosed quote after "+formatQuote(s.lastMatch)+" followed by '<eof>'")
		}
		if s.epp == eppCode || s.epp == eppExpr {
			s.error(len(s.src), diag.EPPUnbalancedTag, "Unbalanced epp tag, reached <eof> without closing tag.")
		}
		return token{kind: EOF, off: len(s.src), end: len(s.src)}
	}
	c := s.src[s.off]
	switch {
	case isLower(c) || c == '_':
		return s.scanBareword(s.off)
	case isUpper(c):
		return s.scanTypeRef(s.off)
	case isDigit(c):
		return s.scanNumber()
	}
	c1 := s.peekByte(1)
	switch c {
	case '.':
		return s.op(DOT, 1)
	case ',':
		return s.op(COMMA, 1)
	case ';':
		return s.op(SEMICOLON, 1)
	case '?':
		return s.op(QUESTION, 1)
	case '*':
		return s.op(MUL, 1)
	case ']':
		return s.op(RBRACK, 1)
	case ')':
		return s.op(RPAREN, 1)
	case '[':
		if s.off == 0 || strings.IndexByte(" \t\r\n", s.src[s.off-1]) >= 0 {
			return s.op(LISTSTART, 1)
		}
		return s.op(LBRACK, 1)
	case '(':
		if !s.lineDirty {
			return s.op(WSLPAREN, 1)
		}
		return s.op(LPAREN, 1)
	case '{':
		s.braces++
		if s.last == QUESTION {
			return s.op(SELBRACE, 1)
		}
		return s.op(LBRACE, 1)
	case '}':
		s.braces--
		if n := len(s.strs); n > 0 && s.strs[n-1].braces == s.braces {
			// This brace closes "${": the string goes on.
			s.off++
			return s.scanStringPart(n-1, false)
		}
		return s.op(RBRACE, 1)
	case '%':
		return s.op(REM, 1)
	case '-':
		switch c1 {
		case '>':
			return s.op(BEFORE, 2)
		case '=':
			return s.op(DELETE, 2)
		}
		return s.op(SUB, 1)
	case '@':
		switch c1 {
		case '@':
			return s.op(ATAT, 2)
		case '(':
			return s.scanHeredoc()
		}
		return s.op(AT, 1)
	case '|':
		if c1 == '>' {
			if s.peekByte(2) == '>' {
				return s.op(RRCOLLECT, 3)
			}
			return s.op(RCOLLECT, 2)
		}
		return s.op(PIPE, 1)
	case '=':
		switch c1 {
		case '=':
			return s.op(EQL, 2)
		case '>':
			return s.op(FARROW, 2)
		case '~':
			return s.op(MATCH, 2)
		}
		return s.op(ASSIGN, 1)
	case '+':
		switch c1 {
		case '=':
			return s.op(APPEND, 2)
		case '>':
			return s.op(PARROW, 2)
		}
		return s.op(ADD, 1)
	case '!':
		switch c1 {
		case '=':
			return s.op(NEQ, 2)
		case '~':
			return s.op(NOMATCH, 2)
		}
		return s.op(NOT, 1)
	case '~':
		if c1 == '>' {
			return s.op(NOTIFY, 2)
		}
		return s.op(TILDE, 1)
	case '/':
		if s.regexAcceptable() {
			if t, ok := s.scanRegex(); ok {
				return t
			}
		}
		return s.op(QUO, 1)
	case '<':
		switch c1 {
		case '<':
			if s.peekByte(2) == '|' {
				return s.op(LLCOLLECT, 3)
			}
			return s.op(SHL, 2)
		case '=':
			return s.op(LEQ, 2)
		case '|':
			return s.op(LCOLLECT, 2)
		case '-':
			return s.op(REQUIRE, 2)
		case '~':
			return s.op(SUBSCRIBE, 2)
		}
		return s.op(LSS, 1)
	case '>':
		switch c1 {
		case '>':
			return s.op(SHR, 2)
		case '=':
			return s.op(GEQ, 2)
		}
		return s.op(GTR, 1)
	case ':':
		if c1 == ':' {
			if isUpper(s.peekByte(2)) {
				return s.scanTypeRef(s.off)
			}
			if isLower(s.peekByte(2)) || s.peekByte(2) == '_' {
				return s.scanBareword(s.off)
			}
			s.error(s.off+2, diag.IllegalFullyQualifiedName, "Illegal fully qualified name")
			return token{kind: EOF}
		}
		return s.op(COLON, 1)
	case '$':
		start := s.off
		if end := scanVarName(s.src, s.off+1); end > s.off+1 {
			s.off = end
			s.lastMatch = s.src[start:end]
			return token{kind: VARIABLE, off: start, end: end, text: s.src[start+1 : end]}
		}
		s.lastMatch = ""
		return s.op(VARIABLE, 1)
	case '"':
		s.lastMatch = `"`
		s.off++
		s.strs = append(s.strs, strFrame{quote: '"', escapes: dqEscapes, interp: true})
		t := s.scanStringPart(len(s.strs)-1, true)
		t.off-- // include the opening quote
		return t
	case '\'':
		return s.scanSingleQuoted()
	}
	_, size := utf8.DecodeRuneInString(s.src[s.off:])
	t := token{kind: ILLEGAL, off: s.off, end: s.off + size, text: s.src[s.off : s.off+size]}
	s.off += size
	return t
}

// regexAcceptable says whether '/' starts a regex rather than a division,
// judged by the previous token as Puppet does.
func (s *scanner) regexAcceptable() bool {
	switch s.last {
	case RPAREN, RBRACK, RRCOLLECT, RCOLLECT,
		NAME, TYPEREF, NUMBER, STRING, TRUE, FALSE, DQPRE, DQMID, DQPOST,
		HEREDOC, REGEX, VARIABLE, WORD:
		return false
	}
	return true
}

// scanRegex scans /.../ where a slash may be escaped as \/. The pattern may
// span lines. It reports false if there is no closing slash.
func (s *scanner) scanRegex() (token, bool) {
	start := s.off
	i := start + 1
	for {
		j := strings.IndexByte(s.src[i:], '/')
		if j < 0 {
			return token{}, false
		}
		i += j
		// Count the backslashes before this slash: an odd number escapes it.
		n := 0
		for k := i - 1; k > start && s.src[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			break
		}
		i++
	}
	pattern := s.src[start+1 : i]
	if strings.Contains(pattern, `\/`) {
		pattern = strings.ReplaceAll(pattern, `\/`, "/")
	}
	s.off = i + 1
	return token{kind: REGEX, off: start, end: s.off, text: pattern}, true
}

// scanVarName returns the end of the variable name (::)?(\w+::)*\w+ that
// starts at i, or i if there is none.
func scanVarName(src string, i int) int {
	j := i
	if strings.HasPrefix(src[j:], "::") {
		j += 2
	}
	end := i
	for {
		k := j
		for k < len(src) && isWordChar(src[k]) {
			k++
		}
		if k == j {
			return end
		}
		end = k
		if strings.HasPrefix(src[k:], "::") && k+2 < len(src) && isWordChar(src[k+2]) {
			j = k + 2
			continue
		}
		return end
	}
}

// scanBareword scans a name or bare word: segments of [a-z_][\w-]* (not
// ending in '-') joined by '::'. A name has no '-' and no segment starting
// with '_'; a name may be a keyword.
func (s *scanner) scanBareword(start int) token {
	i := start
	isName := true
	for {
		segStart := i
		if strings.HasPrefix(s.src[i:], "::") {
			i += 2
		}
		if i >= len(s.src) || !(isLower(s.src[i]) || s.src[i] == '_') {
			i = segStart
			break
		}
		if s.src[i] == '_' {
			isName = false
		}
		i++
		last := i
		for i < len(s.src) && (isWordChar(s.src[i]) || s.src[i] == '-') {
			i++
			if s.src[i-1] != '-' {
				last = i
			}
		}
		if last != i {
			isName = false
			i = last
		}
		for k := segStart; k < i; k++ {
			if s.src[k] == '-' {
				isName = false
			}
		}
	}
	if i == start {
		s.error(start, diag.IllegalNameOrBareWord, "Illegal name or bare word")
		return token{kind: EOF}
	}
	s.off = i
	text := s.src[start:i]
	s.lastMatch = text
	kind := WORD
	if isName {
		kind = Lookup(text)
	}
	return token{kind: kind, off: start, end: i, text: text}
}

// scanTypeRef scans a capitalized name: ((::)?[A-Z]\w*)+.
func (s *scanner) scanTypeRef(start int) token {
	i := start
	for {
		j := i
		if strings.HasPrefix(s.src[j:], "::") {
			j += 2
		}
		if j >= len(s.src) || !isUpper(s.src[j]) {
			break
		}
		j++
		for j < len(s.src) && isWordChar(s.src[j]) {
			j++
		}
		i = j
	}
	if strings.HasPrefix(s.src[i:], "::") {
		// Puppet reports this one character past the name.
		if strings.HasPrefix(s.src[start:], "::") {
			s.error(start+3, diag.IllegalFQClassReference, "Illegal fully qualified class reference")
		} else {
			s.error(i+1, diag.IllegalClassReference, "Illegal class reference")
		}
		return token{kind: EOF}
	}
	s.off = i
	s.lastMatch = s.src[start:i]
	return token{kind: TYPEREF, off: start, end: i, text: s.src[start:i]}
}

// scanNumber scans 0x1F, 017, 12, 1.5, 1e10, 1.5e-3 and checks the form
// the way Puppet's lexer does.
func (s *scanner) scanNumber() token {
	start := s.off
	i := start
	src := s.src
	if src[i] == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X') && i+2 < len(src) && isHex(src[i+2]) {
		i += 2
		for i < len(src) && isHex(src[i]) {
			i++
		}
	} else {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		if i+1 < len(src) && src[i] == '.' && isDigit(src[i+1]) {
			i++
			for i < len(src) && isDigit(src[i]) {
				i++
			}
		}
		if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
			j := i + 1
			if j < len(src) && src[j] == '-' {
				j++
			}
			if j < len(src) && isDigit(src[j]) {
				for j < len(src) && isDigit(src[j]) {
					j++
				}
				i = j
			}
		}
	}
	if i < len(src) && isWordChar(src[i]) {
		// Letters glued to digits: not a number.
		j := i
		for j < len(src) && isWordChar(src[j]) {
			j++
		}
		s.error(start, diag.IllegalNumber, numberError(src[start:j]))
		return token{kind: EOF}
	}
	text := src[start:i]
	switch {
	case len(text) > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'):
	case len(text) > 1 && text[0] == '0' && text[1] != '.':
		// A leading 0 makes an octal number, even with an exponent.
		for k := 1; k < len(text); k++ {
			if text[k] < '0' || text[k] > '7' {
				s.error(start, diag.InvalidOctalNumber, "Not a valid octal number "+text)
				return token{kind: EOF}
			}
		}
	}
	s.off = i
	s.lastMatch = text
	return token{kind: NUMBER, off: start, end: i, text: text}
}

// numberError names what is wrong with text, a malformed number, in the
// words Puppet uses: it judges the number by its prefix first.
func numberError(text string) string {
	switch {
	case len(text) > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'):
		return "Not a valid hex number " + text
	case len(text) > 1 && text[0] == '0' && text[1] != '.':
		return "Not a valid octal number " + text
	}
	i := 0
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E' || text[i] == '.') {
		return "Not a valid decimal number " + text
	}
	return "Illegal number '" + text + "'"
}

// scanSingleQuoted scans '...' where only \\ and \' are escapes.
func (s *scanner) scanSingleQuoted() token {
	start := s.off
	i := start + 1
	var b *strings.Builder
	lit := i
	for {
		if i >= len(s.src) {
			s.error(start+1, diag.UnclosedQuote, "Unclosed quote after \"'\" followed by '"+followedBy(s.src[start+1:])+"'")
			return token{kind: EOF}
		}
		c := s.src[i]
		if c == '\'' {
			break
		}
		if c == '\\' && i+1 < len(s.src) && (s.src[i+1] == '\\' || s.src[i+1] == '\'') {
			if b == nil {
				b = new(strings.Builder)
			}
			b.WriteString(s.src[lit:i])
			b.WriteByte(s.src[i+1])
			i += 2
			lit = i
			continue
		}
		i++
	}
	value := s.src[lit:i]
	if b != nil {
		b.WriteString(value)
		value = b.String()
	}
	s.off = i + 1
	s.lastMatch = s.src[max(start+1, i-1) : i+1]
	return token{kind: STRING, off: start, end: s.off, text: value}
}

// formatQuote quotes the text an unclosed-string message names, as Puppet
// does.
func formatQuote(q string) string {
	if q == "'" {
		return `"'"`
	}
	return "'" + q + "'"
}

// followedBy renders the first few characters of rest the way Puppet's
// error messages show them.
func followedBy(rest string) string {
	if rest == "" {
		return "<eof>"
	}
	n := 0
	i := 0
	for i < len(rest) && n < 5 {
		_, size := utf8.DecodeRuneInString(rest[i:])
		i += size
		n++
	}
	r := strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`)
	return r.Replace(rest[:i]) + "..."
}

// scanStringPart scans string text up to its end or to the next
// interpolation, for the frame strs[fi]. first says whether this is the
// start of the string (STRING or DQPRE) or a continuation (DQMID or DQPOST).
func (s *scanner) scanStringPart(fi int, first bool) token {
	fr := &s.strs[fi]
	start := s.off
	i := start
	src := s.src
	var b *strings.Builder
	lit := i
	flush := func(to int) {
		if b == nil {
			b = new(strings.Builder)
		}
		b.WriteString(src[lit:to])
	}
	value := func(to int) string {
		if b == nil {
			return src[lit:to]
		}
		b.WriteString(src[lit:to])
		return b.String()
	}
	for {
		if i >= len(src) {
			if fr.quote == 0 {
				text := value(i)
				s.off = i
				s.strs = s.strs[:fi]
				kind := DQPOST
				if first {
					kind = STRING
				}
				return token{kind: kind, off: start, end: i, text: text}
			}
			s.error(start, diag.UnclosedQuote, "Unclosed quote after "+formatQuote(s.lastMatch)+" followed by '"+followedBy(src[start:])+"'")
			return token{kind: EOF}
		}
		c := src[i]
		switch {
		case c == fr.quote && fr.quote != 0:
			text := value(i)
			s.off = i + 1
			s.strs = s.strs[:fi]
			kind := DQPOST
			if first {
				kind = STRING
			}
			return token{kind: kind, off: start, end: s.off, text: text}
		case c == '\\' && fr.escapes != 0 && i+1 < len(src):
			n, repl, ok := unescape(src[i:], fr.escapes)
			if ok {
				flush(i)
				b.WriteString(repl)
				i += n
				lit = i
			} else {
				// Not an escape here: the backslash stays, and the next
				// character is read as usual (a '$' may still interpolate).
				i++
			}
		case c == '$' && fr.interp:
			kind := DQMID
			if first {
				kind = DQPRE
			}
			if i+1 < len(src) && src[i+1] == '{' {
				text := value(i)
				s.off = i + 2
				s.lastMatch = ""
				if k := skipBlanks(src, s.off); k > s.off {
					s.lastMatch = src[s.off:k]
				}
				fr.braces = s.braces
				s.braces++
				return token{kind: kind, off: start, end: s.off, text: text}
			}
			if end := scanVarName(src, i+1); end > i+1 {
				text := value(i)
				s.off = end
				s.pending = token{kind: VARIABLE, off: i, end: end, text: src[i+1 : end]}
				s.lastMatch = src[i+1 : end]
				s.hasPend = true
				s.resume = true
				return token{kind: kind, off: start, end: i, text: text}
			}
			s.lastMatch = ""
			i++
		default:
			i++
		}
	}
}

// unescape decodes the escape at the start of s (which begins with a
// backslash) if the set honours it. It returns the bytes consumed and the
// replacement.
func unescape(s string, set escapeSet) (n int, repl string, ok bool) {
	switch s[1] {
	case '\\':
		return 2, `\`, set&escBackslash != 0
	case '$':
		return 2, "$", set&escDollar != 0
	case '\'':
		return 2, "'", set&escSQuote != 0
	case '"':
		return 2, `"`, set&escDQuote != 0
	case 'r':
		return 2, "\r", set&escR != 0
	case 'n':
		return 2, "\n", set&escN != 0
	case 't':
		return 2, "\t", set&escT != 0
	case 's':
		return 2, " ", set&escS != 0
	case '\n':
		return 2, "", set&escNewline != 0
	case '\r':
		if len(s) > 2 && s[2] == '\n' {
			return 3, "", set&escNewline != 0
		}
	case 'u':
		if set&escU == 0 {
			return 0, "", false
		}
		return unescapeUnicode(s)
	}
	return 0, "", false
}

// unescapeUnicode decodes \uXXXX or \u{X...} (one to six hex digits).
func unescapeUnicode(s string) (int, string, bool) {
	var digits string
	var n int
	if len(s) >= 6 && isHex(s[2]) && isHex(s[3]) && isHex(s[4]) && isHex(s[5]) {
		digits, n = s[2:6], 6
	} else if len(s) > 3 && s[2] == '{' {
		j := 3
		for j < len(s) && j < 9 && isHex(s[j]) {
			j++
		}
		if j == 3 || j >= len(s) || s[j] != '}' {
			return 0, "", false
		}
		digits, n = s[3:j], j+1
	} else {
		return 0, "", false
	}
	r := rune(0)
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d byte
		switch {
		case isDigit(c):
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		default:
			d = c - 'A' + 10
		}
		r = r*16 + rune(d)
	}
	if r > utf8.MaxRune {
		return 0, "", false
	}
	return n, string(r), true
}
