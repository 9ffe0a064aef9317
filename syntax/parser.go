package syntax

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/source"
)

// BadExpr stands for an expression that could not be parsed. It appears
// only in the partial trees returned with errors.
type BadExpr struct{ Span }

func (*BadExpr) exprNode() {}

// ParseFile parses a Puppet manifest. On error it returns the partial tree
// and a diag.List.
//
// A file that is not valid UTF-8 is rejected before parsing, as Puppet
// rejects it: with Ruby's "invalid byte sequence in UTF-8" and no position.
func ParseFile(filename string, src []byte) (*Program, error) {
	return parseFile(filename, src, false)
}

// ParseFileOwned is ParseFile for a src handed over for good: the caller
// never modifies it afterwards (a file's contents just read), so the tree's
// strings are read from it in place instead of from a copy of it.
func ParseFileOwned(filename string, src []byte) (*Program, error) {
	return parseFile(filename, src, true)
}

func parseFile(filename string, src []byte, owned bool) (*Program, error) {
	if !utf8.Valid(src) {
		return newParser(NewFile(filename, nil)).parseProgram(), invalidUTF8()
	}
	f := NewFile(filename, src)
	var p *parser
	if owned && len(src) > 0 {
		p = newParserText(f, unsafe.String(&src[0], len(src)))
	} else {
		p = newParser(f)
	}
	prog := p.parseProgram()
	return prog, p.errors.Err()
}

// ParseExpr parses a single Puppet expression (or a sequence of statements,
// which it returns as a *Block).
func ParseExpr(src string) (Expr, error) {
	if !utf8.ValidString(src) {
		return nil, invalidUTF8()
	}
	p := newParser(NewFile("", []byte(src)))
	prog := p.parseProgram()
	if err := p.errors.Err(); err != nil {
		return nil, err
	}
	if len(prog.Body) == 1 {
		return prog.Body[0], nil
	}
	return &Block{Span: prog.Span, Stmts: prog.Body}, nil
}

// ParseEPP parses an EPP template.
// Like ParseFile, it rejects a template that is not valid UTF-8.
func ParseEPP(filename string, src []byte) (*EPPProgram, error) {
	valid := utf8.Valid(src)
	if !valid {
		src = nil
	}
	p := newParser(NewFile(filename, src))
	p.s.epp = eppText
	p.s.eppScan = true
	p.next()
	prog := p.parseEPP()
	if !valid {
		return prog, invalidUTF8()
	}
	return prog, p.errors.Err()
}

// InvalidUTF8Message is Puppet's (Ruby's) error for a manifest or template
// that is not valid UTF-8.
const InvalidUTF8Message = "invalid byte sequence in UTF-8"

// invalidUTF8 is the error for a source that is not valid UTF-8. Puppet
// names neither file nor position (an epp() call's error gets the call's),
// so the error holds neither.
func invalidUTF8() error {
	return diag.List{diag.New(diag.InvalidUTF8, diag.Range{}, InvalidUTF8Message)}
}

// statementCalls are the functions that may be called without parentheses
// at statement level: include foo, notice 'x'.
var statementCalls = map[string]bool{
	"require": true, "realize": true, "include": true, "contain": true, "tag": true,
	"debug": true, "info": true, "notice": true, "warning": true, "err": true,
	"fail": true, "import": true, "break": true, "next": true, "return": true,
}

type parser struct {
	file   *File
	s      *scanner
	errors *diag.List
	// deferred holds the errors that Puppet finds when it validates the
	// tree, after parsing: they are reported only if the parse succeeds.
	deferred *diag.List
	tok      token
	ahead    token
	hasAhd   bool
	prevEnd  int // file offset just past the last consumed token
	consumed int // number of tokens consumed
	defs     *[]Definition

	depth int // nesting of expressions

	// namespace holds the names of the classes being parsed, outermost
	// first, to qualify the names of nested classes and defines.
	namespace []string

	// forceVar makes the next primary a variable: in "${x}" and "${x[0]}" a
	// bare name means the variable.
	forceVar bool
}

func newParser(f *File) *parser { return newParserText(f, string(f.Src)) }

// newParserText is newParser scanning text, f's source as a string.
func newParserText(f *File, text string) *parser {
	p := &parser{file: f, errors: new(diag.List), deferred: new(diag.List), defs: new([]Definition)}
	p.s = newScanner(text, p.errorAtOffset)
	return p
}

// errorAtOffset records an error. Only the first error is kept: after it
// the parser sees only EOF, unwinds, and returns the partial tree.
func (p *parser) errorAtOffset(off int, code diag.Code, msg string) {
	if len(*p.errors) == 0 {
		p.errors.Add(diag.New(code, diag.At(p.file.Position(source.PosOf(off))), msg))
	}
	p.stop()
}

// stop makes the parser see only EOF from here on.
func (p *parser) stop() {
	p.s.dead = true
	p.hasAhd = false
	p.tok = token{kind: EOF, off: len(p.s.src), end: len(p.s.src)}
}

func (p *parser) failed() bool { return len(*p.errors) > 0 }

// errorAt records an error at a token-local offset.
func (p *parser) errorAt(off int, code diag.Code, msg string) {
	p.errorAtOffset(p.s.globalOffset(off), code, msg)
}

// deferError records an error that Puppet reports in validation, after the
// parse: parsing goes on, and a syntax error later in the file wins.
func (p *parser) deferError(off int, code diag.Code, msg string) {
	p.deferred.Add(diag.New(code, diag.At(p.file.Position(source.PosOf(off))), msg))
}

// reportDeferred reports the deferred errors if the parse succeeded.
func (p *parser) reportDeferred() {
	if len(*p.errors) == 0 && len(*p.deferred) > 0 {
		p.deferred.Sort()
		*p.errors = append(*p.errors, *p.deferred...)
	}
}

// errorNode records an error at the start of a node.
func (p *parser) errorNode(n Node, code diag.Code, msg string) {
	p.errorAtOffset(n.Pos().Offset(), code, msg)
}

// syntaxError reports the current token as unexpected.
func (p *parser) syntaxError(expected string) {
	if p.failed() {
		return
	}
	msg := "Syntax error at " + p.describe(p.tok)
	if expected != "" {
		msg += "; expected " + expected
	}
	tok := p.tok
	p.errorAt(tok.off, diag.SyntaxError, msg)
	if len(*p.errors) == 1 && tok.end > tok.off {
		// The range covers the token that does not fit.
		(*p.errors)[0].Range.End = p.file.Position(source.PosOf(p.s.globalOffset(tok.end)))
	}
}

// describe names a token in an error message the way Puppet does: its text
// in quotes, or "end of input".
func (p *parser) describe(t token) string {
	if t.kind == EOF {
		return "end of input"
	}
	text := t.text
	switch t.kind {
	case NAME, WORD, TYPEREF, VARIABLE, NUMBER, STRING, DQPRE, DQMID, DQPOST, RENDERSTRING:
	case REGEX:
		text = "(?-mix:" + text + ")" // as Ruby shows a Regexp
	case ILLEGAL, RENDEREXPR:
		text = "" // Puppet's tokens have no text
	default:
		text = p.s.src[t.off:t.end]
	}
	return "'" + text + "'"
}

func (p *parser) next() {
	p.consumed++
	if p.tok.kind != EOF || p.tok.end > 0 {
		p.prevEnd = p.s.globalOffset(p.tok.end)
	}
	if p.hasAhd {
		p.tok = p.ahead
		p.hasAhd = false
		return
	}
	p.tok = p.s.next()
}

// peek returns the token after the current one.
func (p *parser) peek() token {
	if !p.hasAhd {
		p.ahead = p.s.next()
		p.hasAhd = true
	}
	return p.ahead
}

// pos returns the file position of the current token.
func (p *parser) pos() Pos { return Pos(p.s.globalOffset(p.tok.off) + 1) }

// span returns the span from start to the end of the last consumed token.
func (p *parser) span(start Pos) Span {
	end := Pos(p.prevEnd + 1)
	if end < start {
		end = start
	}
	return Span{start, end}
}

func (p *parser) got(k Token) bool {
	if p.tok.kind == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(k Token) {
	if !p.got(k) {
		p.syntaxError("'" + k.String() + "'")
	}
}

func (p *parser) bad() Expr {
	start := p.pos()
	return &BadExpr{Span{start, start}}
}

// ---------------------------------------------------------------------------
// Programs and statements

func (p *parser) parseProgram() *Program {
	p.next()
	start := p.pos()
	body := p.parseStatements(EOF)
	if p.tok.kind != EOF {
		p.syntaxError("")
	}
	prog := &Program{File: p.file, Body: body, Definitions: *p.defs}
	prog.Span = Span{start, Pos(len(p.file.Src) + 1)}
	if len(body) == 0 {
		prog.Span.From = prog.Span.To
	}
	p.checkDepth(prog)
	p.reportDeferred()
	return prog
}

func (p *parser) parseEPP() *EPPProgram {
	prog := &EPPProgram{File: p.file}
	if p.tok.kind == PIPE {
		prog.HasParams = true
		prog.Params = p.parseParamList(PIPE, PIPE)
	}
	start := Pos(1)
	body := p.parseStatements(EOF)
	if p.tok.kind != EOF {
		p.syntaxError("")
	}
	end := Pos(len(p.file.Src) + 1)
	prog.Body = &Block{Span: Span{start, end}, Stmts: body}
	prog.Span = Span{start, end}
	p.checkDepth(prog)
	p.reportDeferred()
	return prog
}

// parseStatements parses statements up to (not including) the token end.
// Like Puppet it first reads each statement as an expression, or a comma
// list of them, then turns "name args" pairs into calls when the name is one
// of the statement functions (include a, b).
func (p *parser) parseStatements(end Token) []Expr {
	var stmts []Expr
	var listErr string // the first comma list that is no call's arguments
	listErrOff := 0
	defer func() {
		if listErr != "" && !p.failed() {
			p.errorAt(listErrOff, diag.SyntaxError, listErr)
		}
	}()
	for p.tok.kind != end && p.tok.kind != EOF {
		// A semicolon separates two statements; Puppet accepts none
		// before the first or after the last.
		if len(stmts) > 0 && p.got(SEMICOLON) && (p.tok.kind == end || p.tok.kind == EOF || p.tok.kind == SEMICOLON) {
			p.syntaxError("")
			break
		}
		before := p.consumed
		p.checkUnsupported()
		first := p.parseAssignment()
		var args []Expr // more than one: a comma list
		commaOff := -1
		for p.tok.kind == COMMA {
			if commaOff < 0 {
				commaOff = p.tok.off
				args = append(args, first)
			}
			p.next()
			args = append(args, p.parseAssignment())
		}
		if p.failed() {
			if args == nil {
				args = []Expr{first}
			}
			stmts = append(stmts, args...)
			if listErr != "" && p.consumed == before && len(*p.errors) == 1 {
				// The statement failed at its first token: Puppet ends the
				// list there, and finds the bad comma list first.
				(*p.errors)[0] = diag.New(diag.SyntaxError, diag.At(p.file.Position(source.PosOf(p.s.globalOffset(listErrOff)))), listErr)
			}
			break
		}
		if n := len(stmts); n > 0 {
			if name, ok := stmts[n-1].(*QualifiedName); ok && statementCalls[name.Name] {
				if args == nil {
					args = []Expr{first}
				}
				stmts[n-1] = p.statementCall(name, args)
				continue
			}
		}
		if commaOff >= 0 && listErr == "" {
			// Puppet finds this when the whole list of statements has
			// been read: a syntax error further on comes first.
			listErrOff, listErr = commaOff, "illegal comma separated argument list"
			if n := len(stmts); n > 0 {
				if name, ok := stmts[n-1].(*QualifiedName); ok {
					listErr = "attempt to pass argument list to the function '" + name.Name + "' which cannot be called without parentheses"
				}
			}
		}
		if t, ok := first.(*TypeReference); ok && p.tok.kind == NAME && (p.tok.text == "produces" || p.tok.text == "consumes") {
			p.deferError(t.Pos().Offset(), diag.UnsupportedExpression, "The '"+p.tok.text+"' construct (application orchestration) is not supported in this version of Puppet")
		}
		stmts = append(stmts, first)
		if p.consumed == before && p.tok.kind != end && !p.failed() {
			// Nothing was consumed: stop rather than loop.
			p.syntaxError("")
			break
		}
	}
	return stmts
}

// checkUnsupported rejects the constructs of Puppet's application
// orchestration and Bolt, which Puppet 7 no longer parses as such.
func (p *parser) checkUnsupported() {
	if p.tok.kind != NAME {
		return
	}
	switch p.tok.text {
	case "plan", "application":
		// plan foo { } or application foo { }: a name followed by a name
		// is otherwise two statements that Puppet's validation rejects.
		if nk := p.peek().kind; nk == NAME || nk == WORD {
			// Reported at once: a clearer message than the syntax error
			// that Puppet gives for application's parameters.
			p.errorAt(p.tok.off, diag.UnsupportedExpression, "The '"+p.tok.text+"' construct is not supported in this version of Puppet")
		}
	}
}

func (p *parser) statementCall(name *QualifiedName, args []Expr) Expr {
	last := args[len(args)-1]
	sp := Span{name.Pos(), last.End()}
	if name.Name == "import" {
		return &ImportStmt{Span: sp, Files: args}
	}
	return &CallExpr{Span: sp, Name: name.Name, Args: args}
}

// parseAssignment parses relationship ('=' assignment)?; '=' is right
// associative.
func (p *parser) parseAssignment() Expr {
	left := p.parseRelationship()
	switch p.tok.kind {
	case ASSIGN, APPEND, DELETE:
		defer func(depth int) { p.depth = depth }(p.depth)
		if !p.enterChain() {
			return left
		}
	}
	switch p.tok.kind {
	case ASSIGN:
		op, opPos := p.tok.kind, p.pos()
		p.next()
		right := p.parseAssignment()
		return &AssignExpr{Span: Span{left.Pos(), right.End()}, Op: op, OpPos: opPos, Left: left, Right: right}
	case APPEND, DELETE:
		op, opPos := p.tok.kind, p.pos()
		p.deferError(p.tok.off, diag.AppendsDeletesNoLongerSupported, "The operator '"+p.tok.kind.String()+"' is no longer supported. See http://links.puppet.com/remove-plus-equals")
		p.next()
		right := p.parseAssignment()
		return &AssignExpr{Span: Span{left.Pos(), right.End()}, Op: op, OpPos: opPos, Left: left, Right: right}
	}
	return left
}

func isRelationship(k Token) bool {
	return k == BEFORE || k == NOTIFY || k == REQUIRE || k == SUBSCRIBE
}

func (p *parser) parseRelationship() Expr {
	defer func(depth int) { p.depth = depth }(p.depth)
	left := p.parseResource()
	for isRelationship(p.tok.kind) && p.enterChain() {
		op, opPos := p.tok.kind, p.pos()
		p.next()
		right := p.parseResource()
		left = &RelationshipExpr{Span: Span{left.Pos(), right.End()}, Op: op, OpPos: opPos, Left: left, Right: right}
	}
	return left
}

// parseResource parses an expression, and a resource declaration, default
// or override when a '{' follows it.
func (p *parser) parseResource() Expr {
	start := p.pos()
	switch p.tok.kind {
	case AT, ATAT:
		form, what := Virtual, "Virtual (@)"
		if p.tok.kind == ATAT {
			form, what = Exported, "Exported (@@)"
		}
		atOff := p.tok.off
		p.next()
		r := p.parseResource()
		switch r := r.(type) {
		case *ResourceExpr:
			r.Form, r.From = form, start
		case *ResourceDefaultsExpr:
			r.Form, r.From = form, start
		case *ResourceOverrideExpr:
			r.Form, r.From = form, start
		default:
			if !p.failed() {
				p.errorAt(atOff, diag.SyntaxError, what+" can only be applied to a Resource Expression")
			}
		}
		return r
	case CLASS:
		if p.peek().kind == LBRACE {
			typ := &QualifiedName{Span: Span{start, start + 5}, Name: "class"}
			p.next()
			p.next()
			bodies := p.parseResourceBodies()
			p.expect(RBRACE)
			return &ResourceExpr{Span: p.span(start), Type: typ, Bodies: bodies}
		}
	}
	x := p.parseExpr()
	if p.tok.kind == LBRACE {
		return p.parseResourceRest(x)
	}
	return x
}

// startsAttributeOps reports whether the tokens after '{' are attribute
// operations (name => value) rather than a title.
func (p *parser) startsAttributeOps() bool {
	switch {
	case p.tok.kind == RBRACE || p.tok.kind == COMMA:
		return true
	case p.tok.kind == MUL:
		return p.peek().kind == FARROW
	case p.tok.kind == NAME || isAttributeKeyword(p.tok.kind):
		k := p.peek().kind
		return k == FARROW || k == PARROW
	}
	return false
}

func isAttributeKeyword(k Token) bool {
	return k.IsKeyword() && k != TRUE && k != FALSE
}

func (p *parser) parseResourceRest(typ Expr) Expr {
	lbraceOff := p.tok.off
	p.next() // {
	if !p.startsAttributeOps() {
		bodies := p.parseResourceBodies()
		p.expect(RBRACE)
		return &ResourceExpr{Span: p.span(typ.Pos()), Type: typ, Bodies: bodies}
	}
	ops := p.parseAttributeOps()
	p.expect(RBRACE)
	sp := p.span(typ.Pos())
	switch t := typ.(type) {
	case *QualifiedName:
		if statementCalls[t.Name] {
			h := &HashLit{Span: Span{Pos(p.s.globalOffset(lbraceOff) + 1), sp.To}}
			for _, op := range ops {
				if op.Op == PARROW || op.Name == "*" {
					p.errorAt(lbraceOff, diag.SyntaxError, "Syntax error resource body without title or hash with +>")
					return typ
				}
				key := &StringLit{Span: Span{op.From, op.From + Pos(len(op.Name))}, Value: op.Name}
				h.Entries = append(h.Entries, &HashEntry{Span: op.Span, Key: key, Value: op.Value, Arrow: op.OpPos})
			}
			return &CallExpr{Span: sp, Name: t.Name, Args: []Expr{h}}
		}
		p.deferError(t.Pos().Offset(), diag.ResourceWithoutTitle, "This expression is invalid. Did you try declaring a '"+t.Name+"' resource without a title?")
		return typ
	case *TypeReference:
		return &ResourceDefaultsExpr{Span: sp, Type: t, Ops: ops}
	case *AccessExpr:
		return &ResourceOverrideExpr{Span: sp, Resources: t, Ops: ops}
	}
	if !p.failed() {
		p.errorNode(typ, diag.SyntaxError, "Expression is not valid as a resource, resource-default, or resource-override")
	}
	return typ
}

// parseResourceBodies parses title: attrs; title: attrs ... up to '}'.
func (p *parser) parseResourceBodies() []*ResourceBody {
	var bodies []*ResourceBody
	for !p.failed() {
		start := p.pos()
		title := p.parseExpr()
		p.expect(COLON)
		ops := p.parseAttributeOps()
		bodies = append(bodies, &ResourceBody{Span: p.span(start), Title: title, Ops: ops})
		if !p.got(SEMICOLON) || p.tok.kind == RBRACE {
			break
		}
	}
	return bodies
}

// parseAttributeOps parses name => value, ... with an optional trailing
// comma. Puppet's grammar also allows a comma before the first one.
func (p *parser) parseAttributeOps() []*AttributeOp {
	var ops []*AttributeOp
	p.got(COMMA)
	for !p.failed() {
		start := p.pos()
		var name string
		switch {
		case p.tok.kind == MUL:
			name = "*"
			p.next()
			if p.tok.kind != FARROW {
				p.syntaxError("'=>'")
				return ops
			}
		case p.tok.kind == NAME || isAttributeKeyword(p.tok.kind):
			name = p.s.src[p.tok.off:p.tok.end]
			p.next()
			if p.tok.kind != FARROW && p.tok.kind != PARROW {
				p.syntaxError("'=>' or '+>'")
				return ops
			}
		default:
			return ops
		}
		op, opPos := p.tok.kind, p.pos()
		p.next()
		value := p.parseExpr()
		ops = append(ops, &AttributeOp{Span: p.span(start), Name: name, Op: op, OpPos: opPos, Value: value})
		if !p.got(COMMA) {
			break
		}
	}
	return ops
}

// ---------------------------------------------------------------------------
// Expressions

// Binary operator precedence, lowest first, as in Puppet's grammar. Note
// that == and != bind tighter than < and >.
func binaryPrec(k Token) int {
	switch k {
	case OR:
		return 1
	case AND:
		return 2
	case QUESTION:
		return 3
	case GEQ, GTR, LSS, LEQ:
		return 4
	case NEQ, EQL:
		return 5
	case SHL, SHR:
		return 6
	case ADD, SUB:
		return 7
	case MUL, QUO, REM:
		return 8
	case MATCH, NOMATCH:
		return 9
	case IN:
		return 10
	}
	return 0
}

// parseExpr parses an expression: everything but assignment, relationships
// and resource bodies.
func (p *parser) parseExpr() Expr { return p.parseBinary(1) }

func (p *parser) parseBinary(minPrec int) Expr {
	defer func(depth int) { p.depth = depth }(p.depth)
	x := p.parseUnary()
	for {
		prec := binaryPrec(p.tok.kind)
		if prec == 0 || prec < minPrec || p.failed() || !p.enterChain() {
			return x
		}
		if p.tok.kind == QUESTION {
			x = p.parseSelector(x)
			// A selector whose options are braced is complete: a method
			// call or an access after it applies to its value, as in
			// Puppet's grammar ($m ? { ... }.split(' ')).
			if sel, ok := x.(*SelectorExpr); ok && sel.Braced && (p.tok.kind == DOT || p.tok.kind == LBRACK) {
				x = p.parsePostfix(x)
			}
			continue
		}
		op, opPos := p.tok.kind, p.pos()
		p.next()
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{Span: Span{x.Pos(), y.End()}, Op: op, OpPos: opPos, Left: x, Right: y}
	}
}

func (p *parser) parseUnary() Expr {
	start := p.pos()
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxExpressionDepth {
		p.errorAt(p.tok.off, diag.NestingTooDeep, nestingTooDeepMessage())
		return p.bad()
	}
	switch p.tok.kind {
	case SUB, NOT, MUL:
		op := p.tok.kind
		p.next()
		x := p.parseUnary()
		return &UnaryExpr{Span: Span{start, x.End()}, Op: op, Operand: x}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parseSelector parses ? { match => value, ... } after test.
func (p *parser) parseSelector(test Expr) Expr {
	p.next() // ?
	sel := &SelectorExpr{Test: test}
	if p.got(SELBRACE) {
		sel.Braced = true
		for p.tok.kind != RBRACE && !p.failed() {
			sel.Options = append(sel.Options, p.parseSelectorOption())
			if !p.got(COMMA) {
				break
			}
		}
		p.expect(RBRACE)
	} else {
		sel.Options = append(sel.Options, p.parseSelectorOption())
	}
	sel.Span = p.span(test.Pos())
	return sel
}

func (p *parser) parseSelectorOption() *SelectorOption {
	start := p.pos()
	m := p.parseExpr()
	p.expect(FARROW)
	v := p.parseExpr()
	return &SelectorOption{Span: p.span(start), Match: m, Value: v}
}

// parsePostfix parses access [..], method calls .name(..), calls (..) and
// collectors <| |> after x.
func (p *parser) parsePostfix(x Expr) Expr {
	defer func(depth int) { p.depth = depth }(p.depth)
	for !p.failed() {
		switch p.tok.kind {
		case LBRACK, DOT, LPAREN, LCOLLECT, LLCOLLECT:
			if !p.enterChain() {
				return x
			}
		}
		switch p.tok.kind {
		case LBRACK:
			p.next()
			keys := p.parseAccessKeys()
			p.expect(RBRACK)
			x = &AccessExpr{Span: p.span(x.Pos()), Operand: x, Keys: keys}
		case DOT:
			dot := p.pos()
			p.next()
			if p.tok.kind != NAME && p.tok.kind != TYPE {
				p.syntaxError("a method name")
				return x
			}
			m := &MethodCall{Receiver: x, Dot: dot, Name: p.tok.text, NamePos: p.pos()}
			p.next()
			if p.tok.kind == LPAREN {
				m.Lparen = p.pos()
			}
			if p.got(LPAREN) {
				m.Parenthesized = true
				m.Args = p.parseArgs(RPAREN, true)
				p.expect(RPAREN)
			}
			if p.tok.kind == PIPE {
				m.Lambda = p.parseLambda()
			}
			m.Span = p.span(x.Pos())
			x = m
		case LPAREN:
			x = p.parseCall(x)
		case LCOLLECT, LLCOLLECT:
			x = p.parseCollect(x)
		default:
			return x
		}
	}
	return x
}

// parseCall parses f(args) |params| { } after the function name f.
func (p *parser) parseCall(fn Expr) Expr {
	var name string
	var callee Expr
	switch f := fn.(type) {
	case *QualifiedName:
		name = f.Name
	case *TypeReference:
		name = f.Name // a type called as a function: Integer('1') means new
	case *AccessExpr:
		// A parameterized type called as a function: Integer[0, 5]('3').
		if _, isType := f.Operand.(*TypeReference); isType {
			callee = f
			break
		}
		p.deferError(fn.Pos().Offset(), diag.IllegalExpression, "Illegal expression. "+nodeKind(fn)+" is unacceptable as function name in a Function Call")
	default:
		p.deferError(fn.Pos().Offset(), diag.IllegalExpression, "Illegal expression. "+nodeKind(fn)+" is unacceptable as function name in a Function Call")
	}
	p.next() // (
	c := &CallExpr{Name: name, Callee: callee, Parenthesized: true}
	c.Args = p.parseArgs(RPAREN, true)
	p.expect(RPAREN)
	if p.tok.kind == PIPE {
		c.Lambda = p.parseLambda()
	}
	c.Span = p.span(fn.Pos())
	return c
}

func (p *parser) parseCollect(typ Expr) Expr {
	t, ok := typ.(*TypeReference)
	if !ok {
		query := "Virtual Query"
		if p.tok.kind == LLCOLLECT {
			query = "Exported Query"
		}
		p.deferError(typ.Pos().Offset(), diag.IllegalExpression, "Illegal expression. "+nodeKind(typ)+" is unacceptable as type name in a "+query)
	}
	c := &CollectExpr{Type: t, Exported: p.tok.kind == LLCOLLECT}
	closing := RCOLLECT
	if c.Exported {
		closing = RRCOLLECT
	}
	p.next()
	if p.tok.kind != closing {
		c.Query = p.parseExpr()
	}
	p.expect(closing)
	if p.got(LBRACE) {
		c.Ops = p.parseAttributeOps()
		p.expect(RBRACE)
	}
	c.Span = p.span(typ.Pos())
	return c
}

// parseArgs parses the arguments of a call (assignments) or the keys of an
// access (expressions), with an optional trailing comma. Key => value pairs
// among them make one hash without braces.
func (p *parser) parseArgs(end Token, assignments bool) []Expr {
	var args []Expr
	for p.tok.kind != end && !p.failed() {
		keyword := p.tok.kind == TYPE || p.tok.kind == FUNCTION
		x := p.parseCollectionEntry()
		if !assignments && p.tok.kind != FARROW && (keyword || !isExpression(x)) {
			// An access key is an expression; the assignment or keyword
			// could only have been the key of a key => value pair.
			p.syntaxError("")
			return args
		}
		if p.tok.kind == FARROW {
			arrow := p.pos()
			p.next()
			v := p.parseHashValue()
			e := &HashEntry{Span: Span{x.Pos(), v.End()}, Key: x, Value: v, Arrow: arrow}
			if n := len(args); n > 0 {
				if h, ok := args[n-1].(*HashLit); ok && h.Unfolded {
					h.Entries = append(h.Entries, e)
					h.To = e.To
					goto next
				}
			}
			args = append(args, &HashLit{Span: e.Span, Entries: []*HashEntry{e}, Unfolded: true})
		} else {
			args = append(args, x)
		}
	next:
		if !p.got(COMMA) {
			break
		}
	}
	return args
}

// parseAccessKeys parses the keys of X[keys], after '[': one at least.
func (p *parser) parseAccessKeys() []Expr {
	if p.tok.kind == RBRACK {
		p.syntaxError("")
		return nil
	}
	return p.parseArgs(RBRACK, false)
}

// isExpression reports whether x is an expression in the narrow sense of
// Puppet's grammar: not an assignment, relationship or resource.
func isExpression(x Expr) bool {
	switch x.(type) {
	case *AssignExpr, *RelationshipExpr, *ResourceExpr, *ResourceDefaultsExpr, *ResourceOverrideExpr:
		return false
	}
	return true
}

// parseCollectionEntry parses an array element, argument or hash key: an
// assignment, or the keywords type and function used as strings.
func (p *parser) parseCollectionEntry() Expr {
	if p.tok.kind == TYPE || p.tok.kind == FUNCTION {
		switch p.peek().kind {
		case COMMA, RBRACK, RBRACE, FARROW, RPAREN:
			s := &StringLit{Span: Span{p.pos(), Pos(p.s.globalOffset(p.tok.end) + 1)}, Value: p.tok.kind.String()}
			p.next()
			return s
		}
	}
	return p.parseAssignment()
}

func (p *parser) parseHashValue() Expr { return p.parseCollectionEntry() }

// nodeKind names a node in an error message, as Puppet's labels do.
func nodeKind(n Node) string {
	switch n.(type) {
	case *Variable:
		return "A Variable"
	case *QualifiedName:
		return "A Name"
	case *StringLit, *InterpolatedString, *Heredoc:
		return "A String"
	case *IntegerLit, *FloatLit:
		return "A Number"
	case *AccessExpr:
		return "An Access Expression"
	case *CallExpr, *MethodCall:
		return "A Function Call"
	case *ArrayLit:
		return "An Array Expression"
	case *HashLit:
		return "A Hash Expression"
	}
	return "An Expression"
}

// ---------------------------------------------------------------------------
// Primary expressions

func (p *parser) parsePrimary() Expr {
	start := p.pos()
	t := p.tok
	if p.forceVar {
		p.forceVar = false
		switch {
		case t.kind == NAME || t.kind == NUMBER || t.kind == WORD || t.kind.IsKeyword():
			p.next()
			return &Variable{Span: p.span(start), Name: p.s.src[t.off:t.end]}
		}
	}
	switch t.kind {
	case VARIABLE:
		if t.text == "" {
			p.deferError(t.off, diag.IllegalVarName, `Illegal variable name, The given name '' does not conform to the naming rule /^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$/`)
		}
		p.next()
		return &Variable{Span: p.span(start), Name: t.text}
	case NAME:
		p.next()
		return &QualifiedName{Span: p.span(start), Name: t.text}
	case WORD:
		p.next()
		return &StringLit{Span: p.span(start), Value: t.text}
	case TYPEREF:
		p.next()
		return &TypeReference{Span: p.span(start), Name: t.text}
	case NUMBER:
		p.next()
		return p.number(t, p.span(start))
	case STRING:
		p.next()
		return &StringLit{Span: p.span(start), Value: t.text}
	case DQPRE:
		return p.parseInterpolated()
	case HEREDOC:
		return p.parseHeredoc()
	case REGEX:
		p.next()
		return &RegexLit{Span: p.span(start), Pattern: t.text}
	case TRUE, FALSE:
		p.next()
		return &BoolLit{Span: p.span(start), Value: t.kind == TRUE}
	case UNDEF:
		p.next()
		return &UndefLit{Span: p.span(start)}
	case DEFAULT:
		p.next()
		return &DefaultLit{Span: p.span(start)}
	case LISTSTART, LBRACK:
		p.next()
		elems := p.parseArgs(RBRACK, true)
		p.expect(RBRACK)
		return &ArrayLit{Span: p.span(start), Elements: elems}
	case LBRACE:
		return p.parseHash()
	case LPAREN, WSLPAREN:
		p.next()
		x := p.parseAssignment()
		p.expect(RPAREN)
		return &ParenExpr{Span: p.span(start), X: x}
	case IF:
		p.next()
		return p.parseIfRest(start)
	case UNLESS:
		return p.parseUnless()
	case CASE:
		return p.parseCase()
	case CLASS:
		return p.parseClass()
	case DEFINE:
		return p.parseDefine()
	case NODE:
		return p.parseNode()
	case FUNCTION:
		return p.parseFunction()
	case TYPE:
		if p.peek().kind == LPAREN {
			p.next()
			return p.parseCall(&QualifiedName{Span: p.span(start), Name: "type"})
		}
		return p.parseTypeAlias()
	case ATTR, PRIVATE:
		p.deferError(t.off, diag.ReservedWord, "Use of reserved word: "+t.kind.String()+", must be quoted if intended to be a String value")
		p.next()
		return &BadExpr{Span: p.span(start)}
	case RENDERSTRING:
		p.next()
		return &RenderString{Span: p.span(start), Value: t.text}
	case RENDEREXPR:
		p.next()
		x := p.parseExpr()
		if !p.got(EPPEND) && !p.got(EPPENDTRIM) {
			p.syntaxError("'%>'")
		}
		return &RenderExpr{Span: p.span(start), X: x}
	}
	p.syntaxError("")
	return p.bad()
}

func (p *parser) number(t token, sp Span) Expr {
	text := t.text
	if len(text) > 1 && (text[1] == 'x' || text[1] == 'X') {
		v, err := strconv.ParseInt(text[2:], 16, 64)
		if err != nil {
			p.deferError(t.off, diag.NumericOverflow, "Integer literal out of range: "+text)
		}
		return &IntegerLit{Span: sp, Value: v, Radix: 16}
	}
	if strings.ContainsAny(text, ".eE") {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil && v == 0 {
			p.errorAt(t.off, diag.InvalidDecimalNumber, "Not a valid decimal number "+text)
		}
		return &FloatLit{Span: sp, Value: v}
	}
	base := 10
	if len(text) > 1 && text[0] == '0' {
		base = 8
	}
	v, err := strconv.ParseInt(text, base, 64)
	if err != nil {
		p.deferError(t.off, diag.NumericOverflow, "Integer literal out of range: "+text)
	}
	return &IntegerLit{Span: sp, Value: v, Radix: base}
}

// parseInterpolated parses DQPRE expr (DQMID expr)* DQPOST.
func (p *parser) parseInterpolated() Expr {
	start := p.pos()
	s := &InterpolatedString{}
	for !p.failed() {
		t := p.tok
		if t.text != "" {
			lit := &StringLit{Span: Span{p.pos(), Pos(p.s.globalOffset(t.end) + 1)}, Value: t.text}
			s.Parts = append(s.Parts, lit)
		}
		p.next()
		if t.kind == DQPOST || t.kind == STRING {
			break
		}
		s.Parts = append(s.Parts, p.parseEmbedded())
		if p.tok.kind != DQMID && p.tok.kind != DQPOST {
			p.syntaxError("'}'")
			break
		}
	}
	s.Span = p.span(start)
	return s
}

// parseEmbedded parses the expression of ${...} (or the variable of $x). As
// in Puppet, a lone name or number, or one followed by [ or ., means a
// variable: "${x}", "${x[0]}", "${x.upcase}", "${1}".
func (p *parser) parseEmbedded() Expr {
	k := p.tok.kind
	if k == NAME || k == NUMBER || k == WORD || k.IsKeyword() {
		switch p.peek().kind {
		case DQMID, DQPOST, LBRACK, DOT:
			p.forceVar = true
		}
	}
	x := p.parseAssignment()
	p.forceVar = false
	return x
}

// parseHeredoc parses the text of a heredoc with a parser of its own.
func (p *parser) parseHeredoc() Expr {
	start := p.pos()
	t := p.tok
	p.next()
	sub := &parser{file: p.file, errors: p.errors, deferred: p.deferred, defs: p.defs, depth: p.depth}
	sub.s = &scanner{src: p.s.src, errh: sub.errorAtOffset, queue: t.hd.tokens, replay: true, jump: -1}
	sub.next()
	var text Expr
	switch sub.tok.kind {
	case STRING:
		text = &StringLit{Span: Span{sub.pos(), Pos(sub.s.globalOffset(sub.tok.end) + 1)}, Value: sub.tok.text}
		sub.next()
	case DQPRE:
		text = sub.parseInterpolated()
	default:
		sub.syntaxError("")
		text = sub.bad()
	}
	if sub.tok.kind != EOF {
		sub.syntaxError("")
	}
	if p.failed() {
		p.stop()
	}
	return &Heredoc{Span: Span{start, Pos(p.s.globalOffset(t.end) + 1)}, Syntax: t.text, Text: text}
}

func (p *parser) parseHash() Expr {
	start := p.pos()
	p.next() // {
	h := &HashLit{}
	for p.tok.kind != RBRACE && !p.failed() {
		kstart := p.pos()
		k := p.parseCollectionEntry()
		arrow := p.pos()
		p.expect(FARROW)
		v := p.parseHashValue()
		h.Entries = append(h.Entries, &HashEntry{Span: p.span(kstart), Key: k, Value: v, Arrow: arrow})
		if !p.got(COMMA) {
			break
		}
	}
	p.expect(RBRACE)
	h.Span = p.span(start)
	return h
}

// parseLambda parses |params| >> Type { body }.
func (p *parser) parseLambda() *Lambda {
	start := p.pos()
	l := &Lambda{}
	l.Params = p.parseParamList(PIPE, PIPE)
	l.ReturnType = p.parseReturnType()
	l.Body = p.parseBlock()
	l.Span = p.span(start)
	return l
}

func (p *parser) parseReturnType() Expr {
	if !p.got(SHR) {
		return nil
	}
	if p.tok.kind != TYPEREF {
		p.syntaxError("a type")
		return p.bad()
	}
	start := p.pos()
	t := &TypeReference{Name: p.tok.text}
	p.next()
	t.Span = p.span(start)
	if p.tok.kind == LBRACK {
		p.next()
		keys := p.parseAccessKeys()
		p.expect(RBRACK)
		return &AccessExpr{Span: p.span(start), Operand: t, Keys: keys}
	}
	return t
}

// parseBlock parses { statements }.
func (p *parser) parseBlock() *Block {
	start := p.pos()
	p.expect(LBRACE)
	stmts := p.parseStatements(RBRACE)
	p.expect(RBRACE)
	return &Block{Span: p.span(start), Stmts: stmts}
}

// parseIfRest parses the rest of if or elsif, after the keyword.
func (p *parser) parseIfRest(start Pos) Expr {
	x := &IfExpr{}
	x.Cond = p.parseExpr()
	x.Then = p.parseBlock()
	switch p.tok.kind {
	case ELSIF:
		s := p.pos()
		p.next()
		x.Else = p.parseIfRest(s)
	case ELSE:
		p.next()
		x.Else = p.parseBlock()
	}
	x.Span = p.span(start)
	return x
}

func (p *parser) parseUnless() Expr {
	start := p.pos()
	p.next()
	x := &UnlessExpr{}
	x.Cond = p.parseExpr()
	x.Then = p.parseBlock()
	if p.got(ELSE) {
		x.Else = p.parseBlock()
	}
	x.Span = p.span(start)
	return x
}

func (p *parser) parseCase() Expr {
	start := p.pos()
	p.next()
	x := &CaseExpr{}
	x.Test = p.parseExpr()
	p.expect(LBRACE)
	for p.tok.kind != RBRACE && !p.failed() {
		ostart := p.pos()
		o := &CaseOption{}
		for !p.failed() {
			o.Values = append(o.Values, p.parseExpr())
			if !p.got(COMMA) {
				break
			}
		}
		p.expect(COLON)
		o.Body = p.parseBlock()
		o.Span = p.span(ostart)
		x.Options = append(x.Options, o)
	}
	if len(x.Options) == 0 {
		p.syntaxError("a case option")
	}
	p.expect(RBRACE)
	x.Span = p.span(start)
	return x
}

// parseClassName parses the name of a class, define or function.
func (p *parser) parseClassName() string {
	switch p.tok.kind {
	case NAME, WORD, TYPEREF:
		name := p.tok.text
		p.next()
		return name
	case CLASS:
		p.errorAt(p.tok.off, diag.SyntaxError, "'class' keyword not allowed at this location")
	case STRING:
		p.errorAt(p.tok.off, diag.SyntaxError, "A quoted string is not valid as a name here")
	default:
		p.syntaxError("a name")
	}
	return ""
}

// parseParams parses an optional parameter list (...) of a definition.
func (p *parser) parseParams() []*Parameter {
	if p.tok.kind != LPAREN && p.tok.kind != WSLPAREN {
		return nil
	}
	return p.parseParamList(p.tok.kind, RPAREN)
}

// parseParamList parses open params ,? close.
func (p *parser) parseParamList(open, close Token) []*Parameter {
	p.expect(open)
	params := []*Parameter{}
	for p.tok.kind != close && !p.failed() {
		params = append(params, p.parseParam())
		if !p.got(COMMA) {
			break
		}
	}
	p.expect(close)
	return params
}

// parseParam parses Type *$name = default.
func (p *parser) parseParam() *Parameter {
	start := p.pos()
	prm := &Parameter{}
	if p.tok.kind == TYPEREF {
		tstart := p.pos()
		t := &TypeReference{Name: p.tok.text}
		p.next()
		t.Span = p.span(tstart)
		prm.Type = t
		if p.tok.kind == LBRACK {
			p.next()
			keys := p.parseAccessKeys()
			p.expect(RBRACK)
			prm.Type = &AccessExpr{Span: p.span(tstart), Operand: t, Keys: keys}
		}
	}
	if p.got(MUL) {
		prm.CapturesRest = true
	}
	if p.tok.kind != VARIABLE {
		p.syntaxError("a parameter name ($name)")
		prm.Span = p.span(start)
		return prm
	}
	if p.tok.text == "" {
		p.deferError(p.tok.off, diag.IllegalParamName, `Illegal parameter name. The given name '' does not conform to the naming rule /^[a-z_]\w*$/`)
	}
	prm.Name, prm.NamePos = p.tok.text, p.pos()
	p.next()
	if p.got(ASSIGN) {
		prm.Default = p.parseExpr()
	}
	prm.Span = p.span(start)
	return prm
}

func (p *parser) addDef(d Definition) { *p.defs = append(*p.defs, d) }

// qualify prefixes a class or define name with the names of the classes it
// is nested in, as Puppet does: class a { class b {} } defines a::b.
func (p *parser) qualify(name string) string {
	if len(p.namespace) == 0 {
		return name
	}
	return strings.TrimPrefix(strings.Join(p.namespace, "::")+"::"+name, "::")
}

func (p *parser) parseClass() Expr {
	start := p.pos()
	p.next()
	c := &ClassDef{}
	name := p.parseClassName()
	c.Name = p.qualify(name)
	p.namespace = append(p.namespace, name)
	defer func() { p.namespace = p.namespace[:len(p.namespace)-1] }()
	c.Params = p.parseParams()
	if p.got(INHERITS) {
		if p.got(DEFAULT) {
			c.Parent = "default"
		} else {
			c.Parent = p.parseClassName()
		}
	}
	p.addDef(c)
	c.Body = p.parseBlock()
	c.Span = p.span(start)
	return c
}

func (p *parser) parseDefine() Expr {
	start := p.pos()
	p.next()
	d := &DefineDef{}
	d.Name = p.qualify(p.parseClassName())
	d.Params = p.parseParams()
	p.addDef(d)
	d.Body = p.parseBlock()
	d.Span = p.span(start)
	return d
}

func (p *parser) parseFunction() Expr {
	start := p.pos()
	p.next()
	f := &FunctionDef{}
	f.Name = p.parseClassName()
	f.Params = p.parseParams()
	f.ReturnType = p.parseReturnType()
	p.addDef(f)
	f.Body = p.parseBlock()
	f.Span = p.span(start)
	return f
}

func (p *parser) parseNode() Expr {
	start := p.pos()
	p.next()
	n := &NodeDef{}
	for !p.failed() {
		n.Names = append(n.Names, p.parseHostname())
		if !p.got(COMMA) || p.tok.kind == LBRACE || p.tok.kind == INHERITS {
			break
		}
	}
	if p.got(INHERITS) {
		n.Parent = p.parseHostname()
	}
	p.addDef(n)
	n.Body = p.parseBlock()
	n.Span = p.span(start)
	return n
}

// parseHostname parses a node name: a dotted name (foo.example.com, or
// 10.0.0.1), a quoted string, a regex or default.
func (p *parser) parseHostname() Expr {
	start := p.pos()
	switch p.tok.kind {
	case NAME, NUMBER:
		var b strings.Builder
		for {
			b.WriteString(p.tok.text)
			p.next()
			if p.tok.kind != DOT {
				break
			}
			p.next()
			if p.tok.kind != NAME && p.tok.kind != NUMBER {
				p.syntaxError("a name")
				break
			}
			b.WriteByte('.')
		}
		return &StringLit{Span: p.span(start), Value: b.String()}
	case STRING, WORD:
		t := p.tok
		p.next()
		return &StringLit{Span: p.span(start), Value: t.text}
	case DQPRE:
		return p.parseInterpolated()
	case HEREDOC:
		return p.parseHeredoc()
	case REGEX:
		t := p.tok
		p.next()
		return &RegexLit{Span: p.span(start), Pattern: t.text}
	case DEFAULT:
		p.next()
		return &DefaultLit{Span: p.span(start)}
	}
	p.syntaxError("a node name")
	return p.bad()
}

// parseTypeAlias parses type Name = Type, and rejects type definitions.
func (p *parser) parseTypeAlias() Expr {
	start := p.pos()
	p.next() // type
	if p.tok.kind != TYPEREF {
		p.syntaxError("a type name")
		return p.bad()
	}
	name, namePos := p.tok.text, p.pos()
	nameOff := p.tok.off
	p.next()
	if p.tok.kind == LBRACK {
		// type Name[...] = ...: a type mapping, parsed, then rejected.
		p.next()
		p.parseAccessKeys()
		p.expect(RBRACK)
		p.expect(ASSIGN)
		p.parseExpr()
		p.deferError(nameOff, diag.UnsupportedExpression, "Expressions of type a Type Mapping are not supported in this version of Puppet")
		return &BadExpr{Span: p.span(start)}
	}
	if p.tok.kind == INHERITS || p.tok.kind == LBRACE {
		// type Name inherits Parent { ... }: parsed, then rejected.
		if p.got(INHERITS) {
			p.expect(TYPEREF)
		}
		p.parseBlock()
		p.deferError(start.Offset(), diag.UnsupportedExpression, "Expressions of type a Type Definition are not supported in this version of Puppet")
		return &BadExpr{Span: p.span(start)}
	}
	p.expect(ASSIGN)
	var rhs Expr
	tstart := p.pos()
	switch p.tok.kind {
	case TYPEREF:
		t := &TypeReference{Name: p.tok.text}
		p.next()
		t.Span = p.span(tstart)
		rhs = t
		switch p.tok.kind {
		case LBRACK:
			p.next()
			keys := p.parseAccessKeys()
			p.expect(RBRACK)
			rhs = &AccessExpr{Span: p.span(tstart), Operand: t, Keys: keys}
		case LBRACE:
			// Object { ... } means Object[{ ... }].
			h := p.parseHash()
			rhs = &AccessExpr{Span: p.span(tstart), Operand: t, Keys: []Expr{h}}
		}
	case LBRACE:
		rhs = p.parseHash()
	case LISTSTART, LBRACK:
		rhs = p.parsePrimary()
	default:
		p.syntaxError("a type")
		rhs = p.bad()
	}
	a := &TypeAlias{Span: p.span(start), Name: name, NamePos: namePos, Type: rhs}
	p.addDef(a)
	return a
}
