package syntax

// Node is any node of the syntax tree.
type Node interface {
	Pos() Pos // position of the first character
	End() Pos // position just past the last character
}

// Expr is an expression. In Puppet everything is an expression: statements,
// definitions and resource declarations too.
type Expr interface {
	Node
	exprNode()
}

// Definition is a definition that Puppet hoists to the top of a program:
// classes, defines, nodes, functions and type aliases.
type Definition interface {
	Expr
	definitionNode()
}

// Span is the source range of a node; every node embeds one.
type Span struct {
	From, To Pos
}

// Pos returns the position of the node's first character.
func (s Span) Pos() Pos { return s.From }

// End returns the position just past the node's last character.
func (s Span) End() Pos { return s.To }

// Program is a parsed manifest.
type Program struct {
	Span
	File *File
	Body []Expr
	// Definitions lists every class, define, node, function and type alias
	// in the file, nested ones included, in source order. They also stay in
	// Body (or their enclosing body) where they were written.
	Definitions []Definition
}

// Block is a sequence of expressions, as in a class body or an if branch.
type Block struct {
	Span
	Stmts []Expr
}

// StringLit is a string without interpolation: 'x', "x", or a bare word used
// as a string (foo-bar). Value has the escapes decoded.
type StringLit struct {
	Span
	Value string
}

// InterpolatedString is a double-quoted string with interpolation. Text parts
// are *StringLit; the rest are the embedded expressions.
type InterpolatedString struct {
	Span
	Parts []Expr
}

// Heredoc is @(TAG:syntax) text. Text is a *StringLit or *InterpolatedString.
type Heredoc struct {
	Span
	Syntax string
	Text   Expr
}

// IntegerLit is an integer; Radix is 8, 10 or 16 as written.
type IntegerLit struct {
	Span
	Value int64
	Radix int
}

// FloatLit is a floating-point number.
type FloatLit struct {
	Span
	Value float64
}

// BoolLit is true or false.
type BoolLit struct {
	Span
	Value bool
}

// UndefLit is undef.
type UndefLit struct{ Span }

// DefaultLit is default.
type DefaultLit struct{ Span }

// RegexLit is /pattern/.
type RegexLit struct {
	Span
	Pattern string
}

// Variable is $name. Name has no '$': x, ::x, a::b, 0, 1.
type Variable struct {
	Span
	Name string
}

// QualifiedName is a lower-case bare name: foo, foo::bar, ::foo.
type QualifiedName struct {
	Span
	Name string
}

// TypeReference is a capitalized name: File, Foo::Bar.
type TypeReference struct {
	Span
	Name string
}

// ArrayLit is [a, b].
type ArrayLit struct {
	Span
	Elements []Expr
}

// HashLit is {k => v}. Unfolded marks a hash written without braces as the
// trailing arguments of a call or an access, f(a => 1).
type HashLit struct {
	Span
	Entries  []*HashEntry
	Unfolded bool
}

// HashEntry is one k => v of a hash.
type HashEntry struct {
	Span
	Key, Value Expr
	Arrow      Pos // the "=>"
}

// AccessExpr is Operand[Keys...]: indexing, slicing, or type parameters.
type AccessExpr struct {
	Span
	Operand Expr
	Keys    []Expr
}

// CallExpr is a call of a named function: f(x), f(x) |$y| {...}, or a
// statement call without parentheses (include x, notice 'y'). When a type
// is called, as in Integer('1') (which means Integer.new('1')), Name is the
// capitalized type name.
type CallExpr struct {
	Span
	Name string
	// Callee is set (and Name empty) when a parameterized type is called:
	// Integer[0, 5]('3') means new(Integer[0, 5], '3').
	Callee        Expr
	Args          []Expr
	Lambda        *Lambda
	Parenthesized bool // false for statement calls
}

// MethodCall is Receiver.Name(Args) |params| {...}.
type MethodCall struct {
	Span
	Receiver      Expr
	Dot           Pos // the '.'
	Name          string
	NamePos       Pos // the method's name
	Lparen        Pos // the '(' of the arguments; NoPos without parentheses
	Args          []Expr
	Lambda        *Lambda
	Parenthesized bool
}

// Lambda is |params| >> ReturnType { body }.
type Lambda struct {
	Span
	Params     []*Parameter
	ReturnType Expr
	Body       *Block
}

// Parameter is one parameter of a class, define, function, lambda or EPP
// template: Type *$Name = Default.
type Parameter struct {
	Span
	Name         string
	NamePos      Pos  // the '$' of the name
	Type         Expr // nil if untyped
	Default      Expr // nil if none
	CapturesRest bool // *$rest
}

// UnaryExpr is -x, !x, or the splat *x.
type UnaryExpr struct {
	Span
	Op      Token // SUB, NOT or MUL
	Operand Expr
}

// BinaryExpr is Left Op Right for arithmetic, comparison, in, =~, !~, and, or.
type BinaryExpr struct {
	Span
	Op          Token
	OpPos       Pos
	Left, Right Expr
}

// AssignExpr is Left = Right.
type AssignExpr struct {
	Span
	Op          Token // ASSIGN, or APPEND and DELETE, which Puppet rejects
	OpPos       Pos
	Left, Right Expr
}

// RelationshipExpr is Left Op Right for -> ~> <- <~.
type RelationshipExpr struct {
	Span
	Op          Token // BEFORE, NOTIFY, REQUIRE or SUBSCRIBE
	OpPos       Pos
	Left, Right Expr
}

// ParenExpr is (X).
type ParenExpr struct {
	Span
	X Expr
}

// IfExpr is if Cond { Then } else ... . Else is nil, a *Block, or an
// *IfExpr for elsif.
type IfExpr struct {
	Span
	Cond Expr
	Then *Block
	Else Expr
}

// UnlessExpr is unless Cond { Then } else { Else }. Else may be nil.
type UnlessExpr struct {
	Span
	Cond Expr
	Then *Block
	Else *Block
}

// CaseExpr is case Test { options }.
type CaseExpr struct {
	Span
	Test    Expr
	Options []*CaseOption
}

// CaseOption is v1, v2: { Body }.
type CaseOption struct {
	Span
	Values []Expr
	Body   *Block
}

// SelectorExpr is Test ? { Match => Value, ... }.
type SelectorExpr struct {
	Span
	Test    Expr
	Options []*SelectorOption
	// Braced records that the options stand in braces (the usual form);
	// only then can a method call or access follow the selector.
	Braced bool
}

// SelectorOption is one Match => Value of a selector.
type SelectorOption struct {
	Span
	Match, Value Expr
}

// ResourceForm says whether a resource is declared, virtual or exported.
type ResourceForm int

const (
	Regular  ResourceForm = iota
	Virtual               // @type { ... }
	Exported              // @@type { ... }
)

func (f ResourceForm) String() string {
	switch f {
	case Virtual:
		return "virtual"
	case Exported:
		return "exported"
	}
	return "regular"
}

// ResourceExpr declares resources: type { title: attr => value; ... }.
// Type is usually a *QualifiedName ("class" for class { 'x': }); Puppet's
// grammar allows any expression and leaves the check to validation.
type ResourceExpr struct {
	Span
	Form   ResourceForm
	Type   Expr
	Bodies []*ResourceBody
}

// ResourceBody is one title: attribute operations.
type ResourceBody struct {
	Span
	Title Expr
	Ops   []*AttributeOp
}

// AttributeOp is name => value, name +> value, or * => hash (Name "*").
type AttributeOp struct {
	Span
	Name  string
	Op    Token // FARROW or PARROW
	OpPos Pos
	Value Expr
}

// ResourceDefaultsExpr is Type { attr => value }.
type ResourceDefaultsExpr struct {
	Span
	Form ResourceForm
	Type *TypeReference
	Ops  []*AttributeOp
}

// ResourceOverrideExpr is Type['title'] { attr => value }. Resources is an
// *AccessExpr, or another expression that evaluates to references.
type ResourceOverrideExpr struct {
	Span
	Form      ResourceForm
	Resources Expr
	Ops       []*AttributeOp
}

// CollectExpr is Type <| Query |> or Type <<| Query |>> with an optional
// { attr => value } block.
type CollectExpr struct {
	Span
	Type     *TypeReference
	Exported bool
	Query    Expr // nil collects all
	Ops      []*AttributeOp
}

// ClassDef is class Name(Params) inherits Parent { Body }.
type ClassDef struct {
	Span
	Name   string
	Params []*Parameter
	Parent string // "" if none
	Body   *Block
}

// DefineDef is define Name(Params) { Body }.
type DefineDef struct {
	Span
	Name   string
	Params []*Parameter
	Body   *Block
}

// NodeDef is node names inherits Parent { Body }. Names are *StringLit
// (quoted or dotted names), *RegexLit or *DefaultLit.
type NodeDef struct {
	Span
	Names  []Expr
	Parent Expr // nil if none
	Body   *Block
}

// FunctionDef is function Name(Params) >> ReturnType { Body }.
type FunctionDef struct {
	Span
	Name       string
	Params     []*Parameter
	ReturnType Expr // nil if none
	Body       *Block
}

// TypeAlias is type Name = Type.
type TypeAlias struct {
	Span
	Name    string
	NamePos Pos
	Type    Expr
}

// ImportStmt is the legacy import 'file' statement, which Puppet 4+ rejects
// when evaluated.
type ImportStmt struct {
	Span
	Files []Expr
}

// EPPProgram is a parsed EPP template.
type EPPProgram struct {
	Span
	File      *File
	Params    []*Parameter
	HasParams bool // the template declares |params|, maybe none
	Body      *Block
}

// RenderString is literal template text.
type RenderString struct {
	Span
	Value string
}

// RenderExpr is <%= X %>.
type RenderExpr struct {
	Span
	X Expr
}

func (*Program) exprNode()              {}
func (*Block) exprNode()                {}
func (*StringLit) exprNode()            {}
func (*InterpolatedString) exprNode()   {}
func (*Heredoc) exprNode()              {}
func (*IntegerLit) exprNode()           {}
func (*FloatLit) exprNode()             {}
func (*BoolLit) exprNode()              {}
func (*UndefLit) exprNode()             {}
func (*DefaultLit) exprNode()           {}
func (*RegexLit) exprNode()             {}
func (*Variable) exprNode()             {}
func (*QualifiedName) exprNode()        {}
func (*TypeReference) exprNode()        {}
func (*ArrayLit) exprNode()             {}
func (*HashLit) exprNode()              {}
func (*AccessExpr) exprNode()           {}
func (*CallExpr) exprNode()             {}
func (*MethodCall) exprNode()           {}
func (*Lambda) exprNode()               {}
func (*UnaryExpr) exprNode()            {}
func (*BinaryExpr) exprNode()           {}
func (*AssignExpr) exprNode()           {}
func (*RelationshipExpr) exprNode()     {}
func (*ParenExpr) exprNode()            {}
func (*IfExpr) exprNode()               {}
func (*UnlessExpr) exprNode()           {}
func (*CaseExpr) exprNode()             {}
func (*SelectorExpr) exprNode()         {}
func (*ResourceExpr) exprNode()         {}
func (*ResourceDefaultsExpr) exprNode() {}
func (*ResourceOverrideExpr) exprNode() {}
func (*CollectExpr) exprNode()          {}
func (*ClassDef) exprNode()             {}
func (*DefineDef) exprNode()            {}
func (*NodeDef) exprNode()              {}
func (*FunctionDef) exprNode()          {}
func (*TypeAlias) exprNode()            {}
func (*ImportStmt) exprNode()           {}
func (*EPPProgram) exprNode()           {}
func (*RenderString) exprNode()         {}
func (*RenderExpr) exprNode()           {}

func (*ClassDef) definitionNode()    {}
func (*DefineDef) definitionNode()   {}
func (*NodeDef) definitionNode()     {}
func (*FunctionDef) definitionNode() {}
func (*TypeAlias) definitionNode()   {}
