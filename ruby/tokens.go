package ruby

import "strings"

// TokenKind classifies a Token.
type TokenKind uint8

// The kinds of Token.
const (
	Ident       TokenKind = iota + 1 // a local variable or method name, maybe ending in ? or !
	Keyword                          // if, end, do, def, self, true, nil, ...
	Constant                         // a name starting with a capital
	InstanceVar                      // @name; Text is the name without @
	ClassVar                         // @@name; Text is the name without @@
	GlobalVar                        // $name, $1, $!; Text is without $
	Number                           // an integer or float as written, without _
	String                           // a string, heredoc, %q/%Q/%x literal or ?c
	Symbol                           // :name, :"name", %s(name); Text is the name
	Regexp                           // /re/ or %r{re}; Text is its source, Flags its options
	Label                            // name: in a hash or an argument list; Text is the name
	Operator                         // operators and punctuation, ; included
)

// Token is one token of Ruby source, as Tokens returns it.
type Token struct {
	Kind TokenKind
	// Interpolated is set on a string, symbol or regexp holding #{...}
	// (or #@var): its Text is then not its value.
	Interpolated bool
	// LineStart is set on the first token of a source line.
	LineStart bool
	// SpaceBefore is set when white space (or a line break) precedes the
	// token.
	SpaceBefore bool
	// Text is the token's value: a string's or symbol's characters with
	// escapes processed (the literal parts only, when Interpolated), a
	// regexp's source with its escapes kept, a name, an operator.
	Text string
	// Flags are a regexp's option letters (imxo...).
	Flags string
	Line  int
}

// Is reports whether t is of kind and reads text.
func (t Token) Is(kind TokenKind, text string) bool { return t.Kind == kind && t.Text == text }

// Tokens lexes a whole Ruby file for readers that look at its structure
// without running it (resource type files): the lexer of templates and
// functions, so both agree on where strings, regexps, heredocs and
// comments end. Newlines are not tokens (LineStart marks them); a word
// list (%w, %i) comes as the array it stands for: [ "a" , "b" ]. The
// error of a lexically invalid file names its line ("line 3: ...").
func Tokens(src string) ([]Token, error) {
	// Type files hold a token per 12 bytes on average, the densest one per
	// 6: sized for one per 8, the slice seldom grows, and then once.
	out := make([]Token, 0, len(src)/8+16)
	// The lexer hands over each line's tokens as the line ends and keeps
	// only the line it is in: a line is all it looks back at.
	lx := &lexer{src: src, line: 1, file: true, plain: true, atLineStart: true, toks: make([]token, 0, 64)}
	lx.flushLine = func(toks []token) { out = appendTokens(out, toks) }
	if err := lx.run(); err != nil {
		return nil, err
	}
	return appendTokens(out, lx.toks), nil
}

// appendTokens appends the exported form of toks to out.
func appendTokens(out []Token, toks []token) []Token {
	// The exported kind of each internal one; template kinds never occur.
	kinds := [tOutEnd + 1]TokenKind{
		tIdent: Ident, tKeyword: Keyword, tConst: Constant, tIVar: InstanceVar, tCVar: ClassVar,
		tGVar: GlobalVar, tInt: Number, tFloat: Number, tString: String, tSymbol: Symbol,
		tRegexp: Regexp, tLabel: Label, tOp: Operator, tNL: Operator,
	}
	for _, t := range toks {
		pt := Token{Kind: kinds[t.kind], Text: t.text, Line: t.line, LineStart: t.lineStart, SpaceBefore: t.spaceBefore}
		switch t.kind {
		case tNL:
			if t.text != ";" {
				continue
			}
		case tString, tSymbol:
			pt.Text, pt.Interpolated = partsText(t.parts)
		case tRegexp:
			pt.Flags = t.text
			pt.Text, pt.Interpolated = partsText(t.parts)
		case tXString:
			out = appendWordList(out, t, pt)
			continue
		}
		out = append(out, pt)
	}
	return out
}

// partsText joins a literal's text parts and reports whether it has
// interpolated code too.
func partsText(parts []strPart) (string, bool) {
	if len(parts) == 1 && parts[0].code == nil {
		return parts[0].lit, false
	}
	var b strings.Builder
	interpolated := false
	for _, p := range parts {
		if p.code != nil {
			interpolated = true
			continue
		}
		b.WriteString(p.lit)
	}
	return b.String(), interpolated
}

// appendWordList appends the array a %w or %i list stands for.
func appendWordList(out []Token, t token, at Token) []Token {
	elem := String
	if t.text == "i" {
		elem = Symbol
	}
	punct := func(text string) Token {
		p := at
		p.Kind, p.Text = Operator, text
		return p
	}
	out = append(out, punct("["))
	at.LineStart, at.SpaceBefore = false, false
	for k, w := range t.parts {
		if k > 0 {
			out = append(out, punct(","))
		}
		word := at
		word.Kind, word.Text = elem, w.lit
		out = append(out, word)
	}
	return append(out, punct("]"))
}
