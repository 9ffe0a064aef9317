package syntax

// Token is the kind of a lexical token. Operators in the AST (UnaryExpr.Op,
// BinaryExpr.Op, RelationshipExpr.Op, AttributeOp.Op) are Tokens too.
type Token int

// The token kinds. The names follow go/token where the meaning is the same;
// the rest follow Puppet's lexer.
const (
	ILLEGAL Token = iota
	EOF

	// Values.
	NAME     // lower-case name: foo, foo::bar, ::foo
	WORD     // bare word that is not a name: foo-bar, _x
	TYPEREF  // capitalized name: File, Foo::Bar
	VARIABLE // $x (text is the name without '$')
	NUMBER   // 12, 0x1F, 017, 1.5e3
	STRING   // a string without interpolation
	DQPRE    // text of an interpolated string before the first expression
	DQMID    // text between two interpolated expressions
	DQPOST   // text after the last interpolated expression
	REGEX    // /re/ (text is the pattern)
	HEREDOC  // @(TAG:syntax/escapes)

	// EPP templates.
	RENDERSTRING // template text
	RENDEREXPR   // <%=
	EPPEND       // %> after <%=
	EPPENDTRIM   // -%> after <%=

	// Punctuation and operators.
	LBRACK    // [ directly after a value: access
	LISTSTART // [ after whitespace: starts an array
	RBRACK    // ]
	LBRACE    // {
	SELBRACE  // { after ?
	RBRACE    // }
	LPAREN    // ( directly after a value: call
	WSLPAREN  // ( first on its line
	RPAREN    // )
	ASSIGN    // =
	APPEND    // +=
	DELETE    // -=
	EQL       // ==
	NEQ       // !=
	MATCH     // =~
	NOMATCH   // !~
	GEQ       // >=
	GTR       // >
	LEQ       // <=
	LSS       // <
	FARROW    // =>
	PARROW    // +>
	SHL       // <<
	LLCOLLECT // <<|
	LCOLLECT  // <|
	SHR       // >>
	RRCOLLECT // |>>
	RCOLLECT  // |>
	ADD       // +
	SUB       // -
	QUO       // /
	MUL       // *
	REM       // %
	NOT       // !
	DOT       // .
	PIPE      // |
	AT        // @
	ATAT      // @@
	COLON     // :
	COMMA     // ,
	SEMICOLON // ;
	QUESTION  // ?
	TILDE     // ~ (lexed, never valid)
	BEFORE    // ->
	NOTIFY    // ~>
	REQUIRE   // <-
	SUBSCRIBE // <~

	// Keywords.
	keywordStart
	AND
	ATTR
	CASE
	CLASS
	DEFAULT
	DEFINE
	ELSE
	ELSIF
	FALSE
	FUNCTION
	IF
	IN
	INHERITS
	NODE
	OR
	PRIVATE
	TRUE
	TYPE
	UNDEF
	UNLESS
	keywordEnd
)

var tokenText = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "EOF",

	NAME:     "NAME",
	WORD:     "WORD",
	TYPEREF:  "TYPEREF",
	VARIABLE: "VARIABLE",
	NUMBER:   "NUMBER",
	STRING:   "STRING",
	DQPRE:    "DQPRE",
	DQMID:    "DQMID",
	DQPOST:   "DQPOST",
	REGEX:    "REGEX",
	HEREDOC:  "HEREDOC",

	RENDERSTRING: "RENDERSTRING",
	RENDEREXPR:   "<%=",
	EPPEND:       "%>",
	EPPENDTRIM:   "-%>",

	LBRACK:    "[",
	LISTSTART: "[",
	RBRACK:    "]",
	LBRACE:    "{",
	SELBRACE:  "{",
	RBRACE:    "}",
	LPAREN:    "(",
	WSLPAREN:  "(",
	RPAREN:    ")",
	ASSIGN:    "=",
	APPEND:    "+=",
	DELETE:    "-=",
	EQL:       "==",
	NEQ:       "!=",
	MATCH:     "=~",
	NOMATCH:   "!~",
	GEQ:       ">=",
	GTR:       ">",
	LEQ:       "<=",
	LSS:       "<",
	FARROW:    "=>",
	PARROW:    "+>",
	SHL:       "<<",
	LLCOLLECT: "<<|",
	LCOLLECT:  "<|",
	SHR:       ">>",
	RRCOLLECT: "|>>",
	RCOLLECT:  "|>",
	ADD:       "+",
	SUB:       "-",
	QUO:       "/",
	MUL:       "*",
	REM:       "%",
	NOT:       "!",
	DOT:       ".",
	PIPE:      "|",
	AT:        "@",
	ATAT:      "@@",
	COLON:     ":",
	COMMA:     ",",
	SEMICOLON: ";",
	QUESTION:  "?",
	TILDE:     "~",
	BEFORE:    "->",
	NOTIFY:    "~>",
	REQUIRE:   "<-",
	SUBSCRIBE: "<~",

	AND:      "and",
	ATTR:     "attr",
	CASE:     "case",
	CLASS:    "class",
	DEFAULT:  "default",
	DEFINE:   "define",
	ELSE:     "else",
	ELSIF:    "elsif",
	FALSE:    "false",
	FUNCTION: "function",
	IF:       "if",
	IN:       "in",
	INHERITS: "inherits",
	NODE:     "node",
	OR:       "or",
	PRIVATE:  "private",
	TRUE:     "true",
	TYPE:     "type",
	UNDEF:    "undef",
	UNLESS:   "unless",
}

// String returns the source text of operators and keywords and the name of
// the other kinds.
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenText) && tokenText[t] != "" {
		return tokenText[t]
	}
	return "token(" + itoa(int(t)) + ")"
}

// IsKeyword reports whether t is one of Puppet's reserved words.
func (t Token) IsKeyword() bool { return t > keywordStart && t < keywordEnd }

// Lookup maps a name to its keyword token, or NAME.
func Lookup(name string) Token {
	switch name {
	case "and":
		return AND
	case "attr":
		return ATTR
	case "case":
		return CASE
	case "class":
		return CLASS
	case "default":
		return DEFAULT
	case "define":
		return DEFINE
	case "else":
		return ELSE
	case "elsif":
		return ELSIF
	case "false":
		return FALSE
	case "function":
		return FUNCTION
	case "if":
		return IF
	case "in":
		return IN
	case "inherits":
		return INHERITS
	case "node":
		return NODE
	case "or":
		return OR
	case "private":
		return PRIVATE
	case "true":
		return TRUE
	case "type":
		return TYPE
	case "undef":
		return UNDEF
	case "unless":
		return UNLESS
	}
	return NAME
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
