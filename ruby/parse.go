package ruby

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// parser builds the syntax tree of a whole template from its token stream,
// in which template text and <%= %> tags are tokens too, so that blocks can
// span tags.
type parser struct {
	name     string
	toks     []token
	pos      int
	locals   []map[string]bool // known local variables, innermost last
	noDo     int               // > 0 while `do` belongs to an enclosing construct
	depth    int               // nesting depth, bounded so bad input cannot overflow the stack
	argDepth int               // > 0 inside argument lists and hash literals
	// defParams is set while parsing a def's parameter list, where
	// parameters may have default values.
	defParams bool
	// inDef counts the def bodies being parsed, where Ruby refuses
	// constant assignment.
	inDef int
}

// parseError is the parser's failure, carried by panic to parseProgram;
// unsupported marks Ruby the subset does not parse (not a limit).
type parseError struct {
	msg         string
	unsupported bool
}

func (p *parser) fail(t token, format string, args ...any) {
	panic(parseError{msg: fmt.Sprintf("unsupported Ruby in template %s:%d: %s", p.name, t.line, fmt.Sprintf(format, args...)), unsupported: true})
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) isOp(text string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == text
}

func (p *parser) isKw(text string) bool {
	t := p.peek()
	return t.kind == tKeyword && t.text == text
}

func (p *parser) accept(text string) bool {
	t := p.peek()
	if (t.kind == tOp || t.kind == tKeyword) && t.text == text {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(text string) token {
	t := p.peek()
	if (t.kind == tOp || t.kind == tKeyword) && t.text == text {
		p.pos++
		return t
	}
	p.fail(t, "expected %q, found %s", text, describe(t))
	return t
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of template"
	case tNL:
		return "end of line"
	case tText:
		return "template text"
	case tOutBegin:
		return "<%="
	case tOutEnd:
		return "%>"
	case tString:
		return "string"
	case tLabel:
		return strconv.Quote(t.text + ":")
	case tRegexp, tXString:
		return `""` // their text holds options, not source
	}
	return strconv.Quote(t.text)
}

func (p *parser) skipNL() {
	for p.peek().kind == tNL {
		p.pos++
	}
}

func (p *parser) pushScope() { p.locals = append(p.locals, map[string]bool{}) }
func (p *parser) popScope()  { p.locals = p.locals[:len(p.locals)-1] }

func (p *parser) declare(name string) { p.locals[len(p.locals)-1][name] = true }

func (p *parser) isLocal(name string) bool {
	for k := len(p.locals) - 1; k >= 0; k-- {
		if p.locals[k][name] {
			return true
		}
	}
	return false
}

func (p *parser) enter(t token) {
	p.depth++
	if p.depth > MaxParseDepth {
		panic(parseError{msg: fmt.Sprintf("template %s:%d: expressions nested more than MaxParseDepth (%d) deep: %s", p.name, t.line, MaxParseDepth, limitOfMarionette(""))})
	}
}

func (p *parser) leave() { p.depth-- }

// parseProgram parses the whole template.
func (p *parser) parseProgram() (n node, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			if pe.unsupported {
				err = &UnsupportedError{msg: pe.msg}
			} else {
				err = errors.New(pe.msg)
			}
		}
	}()
	p.pushScope()
	body := p.parseStatements()
	if t := p.peek(); t.kind != tEOF {
		p.fail(t, "unexpected %s", describe(t))
	}
	return body, nil
}

// endsBody reports whether t closes a statement list.
func endsBody(t token) bool {
	switch t.kind {
	case tEOF, tOutEnd:
		return true
	case tKeyword:
		switch t.text {
		case "end", "else", "elsif", "when", "rescue", "ensure", "in":
			return true
		}
	case tOp:
		return t.text == "}" || t.text == ")"
	}
	return false
}

func (p *parser) parseStatements() node {
	seq := &nSeq{at: at{p.peek().line}}
	for {
		p.skipNL()
		t := p.peek()
		if endsBody(t) {
			return seq
		}
		switch t.kind {
		case tText:
			p.next()
			seq.stmts = append(seq.stmts, &nText{at{t.line}, t.text})
			continue
		case tOutBegin:
			p.next()
			body := p.parseStatements()
			if p.peek().kind != tOutEnd {
				p.fail(p.peek(), "unexpected %s in <%%= %%>", describe(p.peek()))
			}
			p.next()
			seq.stmts = append(seq.stmts, &nOutput{at{t.line}, body})
			continue
		}
		seq.stmts = append(seq.stmts, p.parseStatement())
		switch n := p.peek(); n.kind {
		case tNL, tText, tOutBegin:
		default:
			if !endsBody(n) {
				p.fail(n, "unexpected %s", describe(n))
			}
		}
	}
}

// parseStatement parses an expression with trailing modifiers (x if y).
func (p *parser) parseStatement() node {
	n := p.parseExprStmt()
	for {
		m := p.peek()
		if m.kind != tKeyword {
			return n
		}
		switch m.text {
		case "if":
			p.next()
			n = &nIf{at{m.line}, p.parseExprStmt(), n, nil}
		case "unless":
			p.next()
			n = &nIf{at{m.line}, &nNot{at{m.line}, p.parseExprStmt()}, n, nil}
		case "while", "until":
			p.next()
			n = &nWhile{at{m.line}, p.parseExprStmt(), n, m.text == "until"}
		case "rescue":
			p.next()
			n = &nBegin{at: at{m.line}, body: n, rescues: []rescueClause{{body: p.parseExprStmt()}}}
		default:
			return n
		}
	}
}

// parseExprStmt parses `not`, `and` and `or`, the lowest-precedence operators.
func (p *parser) parseExprStmt() node {
	n := p.parseNotExpr()
	for {
		t := p.peek()
		if t.kind == tKeyword && (t.text == "and" || t.text == "or") {
			p.next()
			p.skipNL()
			r := p.parseNotExpr()
			if t.text == "and" {
				n = &nAnd{at{t.line}, n, r}
			} else {
				n = &nOr{at{t.line}, n, r}
			}
			continue
		}
		return n
	}
}

func (p *parser) parseNotExpr() node {
	if t := p.peek(); t.kind == tKeyword && t.text == "not" {
		p.next()
		return &nNot{at{t.line}, p.parseNotExpr()}
	}
	n := p.parseExpr()
	// Multiple assignment: a, b = x
	if p.isOp(",") && isAssignable(n) && p.looksLikeMultiAssign() {
		targets := []node{n}
		for p.accept(",") {
			targets = append(targets, p.parseTernary())
		}
		t := p.expect("=")
		for i, tg := range targets {
			targets[i] = p.declareTarget(tg)
		}
		p.skipNL()
		// The values: one expression, a list, or a splat (a, b = *x).
		v := p.parseMultiValue()
		if p.isOp(",") || isSplat(v) {
			arr := &nArray{at: at{t.line}, elems: []node{v}}
			for p.accept(",") {
				arr.elems = append(arr.elems, p.parseMultiValue())
			}
			v = arr
		}
		return &nMultiAssign{at{t.line}, targets, v}
	}
	return n
}

// parseRescues parses the rescue clauses, else and ensure of a begin
// block or def body, up to (not including) its end.
func (p *parser) parseRescues(b *nBegin) {
	for p.accept("rescue") {
		c := p.parseRescueClasses()
		if p.accept("=>") {
			id := p.next()
			if id.kind != tIdent {
				p.fail(id, "expected a variable after =>")
			}
			p.declare(id.text)
			c.varName = id.text
		}
		p.accept("then")
		c.body = p.parseStatements()
		b.rescues = append(b.rescues, c)
	}
	if len(b.rescues) > 0 && p.accept("else") {
		b.els = p.parseStatements()
	}
	if p.accept("ensure") {
		b.ensure = p.parseStatements()
	}
}

// parseRescueClasses reads a rescue clause's exception classes (Const,
// A::B, or *list) by name: matching them against an error needs only the
// names (see rescues), and naming a class the subset does not know is
// no error until one is raised.
func (p *parser) parseRescueClasses() rescueClause {
	var c rescueClause
	for {
		switch t := p.peek(); {
		case t.kind == tConst || t.kind == tOp && t.text == "::":
			c.classes = append(c.classes, p.constName())
		case t.kind == tOp && t.text == "*":
			p.next()
			p.parsePostfix(p.parsePrimary())
			c.splat = true
		default:
			return c
		}
		if !p.accept(",") {
			return c
		}
		p.skipNL()
	}
}

// constName reads a constant path, A::B::C or ::A, as a name.
func (p *parser) constName() string {
	var name strings.Builder
	p.accept("::")
	for {
		c := p.next()
		if c.kind != tConst {
			p.fail(c, "expected a class name")
		}
		name.WriteString(c.text)
		if !p.isOp("::") || p.peekAt(1).kind != tConst {
			return name.String()
		}
		p.next()
		name.WriteString("::")
	}
}

// parseMultiValue parses one value of a multiple assignment, *x included.
func (p *parser) parseMultiValue() node {
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		return &nSplat{at{t.line}, p.parseExpr()}
	}
	return p.parseExpr()
}

func isSplat(n node) bool {
	_, ok := n.(*nSplat)
	return ok
}

// looksLikeMultiAssign scans ahead on the current line for a plain `=`
// outside brackets (a[i], a[j] = a[j], a[i]).
func (p *parser) looksLikeMultiAssign() bool {
	depth := 0
	for k := p.pos; k < len(p.toks); k++ {
		t := p.toks[k]
		switch t.kind {
		case tNL, tEOF, tText, tOutBegin, tOutEnd:
			return false
		case tOp:
			switch t.text {
			case "=":
				if depth == 0 {
					return true
				}
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return false
				}
				depth--
			}
		}
	}
	return false
}

func isAssignable(n node) bool {
	switch n := n.(type) {
	case *nLocal, *nIVar, *nGVar, *nConst:
		return true
	case *nCall:
		return n.recv == nil && len(n.args) == 0 && n.block == nil || n.name == "[]" || n.recv != nil && len(n.args) == 0 && n.block == nil
	}
	return false
}

func (p *parser) declareTarget(n node) node {
	switch c := n.(type) {
	case *nCall:
		if c.recv == nil && len(c.args) == 0 {
			p.declare(c.name)
			return &nLocal{c.at, c.name}
		}
	case *nLocal:
		p.declare(c.name)
	case *nConst:
		if p.inDef > 0 {
			p.fail(token{line: c.line}, "dynamic constant assignment")
		}
	}
	return n
}

var assignOps = map[string]string{
	"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "**=": "**", "||=": "||", "&&=": "&&",
	"<<=": "<<", ">>=": ">>", "|=": "|", "&=": "&", "^=": "^",
}

// parseExpr parses an assignment or a conditional expression.
func (p *parser) parseExpr() node {
	t := p.peek()
	p.enter(t)
	defer p.leave()
	n := p.parseTernary()
	op := p.peek()
	if op.kind != tOp {
		return n
	}
	if op.text == "=" && isAssignable(n) {
		p.next()
		p.skipNL()
		target := p.declareTarget(n)
		v := p.parseExpr()
		if p.isOp(",") && p.noDo == 0 {
			// a = 1, 2 builds an array
			if _, ok := target.(*nLocal); ok && !p.inArgs() {
				arr := &nArray{at: at{op.line}, elems: []node{v}}
				for p.accept(",") {
					arr.elems = append(arr.elems, p.parseExpr())
				}
				v = arr
			}
		}
		return &nAssign{at{op.line}, target, v}
	}
	if bin, ok := assignOps[op.text]; ok && isAssignable(n) {
		p.next()
		p.skipNL()
		target := p.declareTarget(n)
		return &nOpAssign{at{op.line}, target, bin, p.parseExpr()}
	}
	return n
}

// inArgs is a hook for argument-list contexts; a trailing comma there
// separates arguments rather than building an array.
func (p *parser) inArgs() bool { return p.argDepth > 0 }

func (p *parser) parseTernary() node {
	c := p.parseRange()
	if t := p.peek(); t.kind == tOp && t.text == "?" {
		p.next()
		p.skipNL()
		a := p.parseTernary()
		p.skipNL()
		if l := p.peek(); l.kind == tLabel {
			p.fail(l, "ambiguous label in conditional")
		}
		p.expect(":")
		p.skipNL()
		b := p.parseTernary()
		return &nIf{at{t.line}, c, a, b}
	}
	return c
}

func (p *parser) parseRange() node {
	lo := p.parseBinary(0)
	if t := p.peek(); t.kind == tOp && (t.text == ".." || t.text == "...") {
		p.next()
		// An endless range (1..) ends where no operand follows.
		if n := p.peek(); n.kind == tNL || n.kind == tEOF || n.kind == tOutEnd || n.kind == tOp && (n.text == "]" || n.text == ")") {
			return &nRange{at{t.line}, lo, &nNil{at{t.line}}, t.text == "..."}
		}
		hi := p.parseBinary(0)
		return &nRange{at{t.line}, lo, hi, t.text == "..."}
	}
	return lo
}

// binary operator precedences, loosest first.
var binPrec = map[string]int{
	"||":  1,
	"&&":  2,
	"<=>": 3, "==": 3, "===": 3, "!=": 3, "=~": 3, "!~": 3,
	"<": 4, "<=": 4, ">": 4, ">=": 4,
	"|": 5, "^": 5,
	"&":  6,
	"<<": 7, ">>": 7,
	"+": 8, "-": 8,
	"*": 9, "/": 9, "%": 9,
	"**": 11,
}

func (p *parser) parseBinary(min int) node {
	left := p.parseUnary()
	for {
		t := p.peek()
		if t.kind != tOp {
			return left
		}
		prec, ok := binPrec[t.text]
		if !ok || prec < min {
			return left
		}
		p.next()
		p.skipNL()
		var right node
		if t.text == "**" {
			right = p.parseBinary(prec)
		} else {
			right = p.parseBinary(prec + 1)
		}
		switch t.text {
		case "&&":
			left = &nAnd{at{t.line}, left, right}
		case "||":
			left = &nOr{at{t.line}, left, right}
		case "!=":
			left = &nNot{at{t.line}, &nCall{at: at{t.line}, recv: left, name: "==", args: []node{right}}}
		case "!~":
			left = &nNot{at{t.line}, &nCall{at: at{t.line}, recv: left, name: "=~", args: []node{right}}}
		case "=~":
			call := &nCall{at: at{t.line}, recv: left, name: t.text, args: []node{right}}
			left = call
			if re, ok := call.recv.(*nRegexp); ok && len(re.parts) == 1 && re.parts[0].expr == nil {
				if names := regexpGroupNames(re.parts[0].lit); len(names) > 0 {
					for _, n := range names {
						p.declare(n)
					}
					left = &nMatchAssign{at: at{t.line}, match: call, names: names}
				}
			}
		default:
			left = &nCall{at: at{t.line}, recv: left, name: t.text, args: []node{right}}
		}
	}
}

// regexpGroupName finds the named groups (?<name>...) of a regexp's
// source.
var regexpGroupName = regexp.MustCompile(`\(\?<([A-Za-z_][A-Za-z0-9_]*)>`)

// regexpGroupNames lists the names of a regexp literal's named groups, in
// order, each once: the locals Ruby's regexp =~ string assigns.
func regexpGroupNames(src string) []string {
	var names []string
	for _, m := range regexpGroupName.FindAllStringSubmatchIndex(src, -1) {
		// A backslash before the parenthesis escapes it.
		if k := m[0]; k > 0 && src[k-1] == '\\' {
			continue
		}
		if n := src[m[2]:m[3]]; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// powerOf reads `** exponent` after the operand of a unary minus, which
// binds tighter than the minus.
func (p *parser) powerOf(base node) node {
	if t := p.peek(); t.kind == tOp && t.text == "**" {
		p.next()
		p.skipNL()
		return &nCall{at: at{t.line}, recv: base, name: "**", args: []node{p.parseBinary(binPrec["**"])}}
	}
	return base
}

func (p *parser) parseUnary() node {
	t := p.peek()
	p.enter(t)
	defer p.leave()
	if t.kind == tOp {
		switch t.text {
		case "!":
			p.next()
			return &nNot{at{t.line}, p.parseUnary()}
		case "-":
			p.next()
			if n := p.peek(); (n.kind == tInt || n.kind == tFloat) && !t.spaceAfter {
				start := p.pos
				v := p.parsePostfix(p.parseNumber(true))
				if !p.isOp("**") {
					return v
				}
				// -2 ** 2 is -(2 ** 2): read the number again, unsigned.
				p.pos = start
				v = p.parsePostfix(p.parseNumber(false))
				return &nCall{at: at{t.line}, recv: p.powerOf(v), name: "-@"}
			}
			// -x ** 2 is -(x ** 2) too.
			return &nCall{at: at{t.line}, recv: p.powerOf(p.parseUnary()), name: "-@"}
		case "+":
			p.next()
			return p.parseUnary()
		case "~":
			p.next()
			return &nCall{at: at{t.line}, recv: p.parseUnary(), name: "~"}
		}
	}
	if t.kind == tKeyword && t.text == "defined?" {
		p.next()
		if p.accept("(") {
			p.skipNL()
			v := p.parseExprStmt()
			p.skipNL()
			p.expect(")")
			return p.parsePostfix(&nDefined{at{t.line}, v})
		}
		return &nDefined{at{t.line}, p.parseUnary()}
	}
	if t.kind == tKeyword && t.text == "not" {
		p.next()
		return &nNot{at{t.line}, p.parseUnary()}
	}
	return p.parsePostfix(p.parsePrimary())
}

func (p *parser) parseNumber(neg bool) node {
	t := p.next()
	if t.kind == tInt {
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			p.fail(t, "bad integer %s", t.text)
		}
		if neg {
			v = -v
		}
		return &nInt{at{t.line}, v}
	}
	v, err := strconv.ParseFloat(t.text, 64)
	if err != nil {
		p.fail(t, "bad float %s", t.text)
	}
	if neg {
		v = -v
	}
	return &nFloat{at{t.line}, v}
}

// canStartArg reports whether t can begin the first argument of a call
// written without parentheses, such as `include? 'x'`.
func canStartArg(t token) bool {
	if !t.spaceBefore {
		return false
	}
	switch t.kind {
	case tInt, tFloat, tString, tXString, tSymbol, tRegexp, tIVar, tCVar, tGVar, tConst, tIdent, tLabel:
		return true
	case tKeyword:
		switch t.text {
		case "nil", "true", "false", "self", "not", "defined?", "__FILE__":
			return true
		}
	case tOp:
		switch t.text {
		case "[", "(", "->":
			return true
		case "!", "-", "*", "&", "::", ":":
			return !t.spaceAfter
		}
	}
	return false
}

func (p *parser) parsePrimary() node {
	t := p.peek()
	switch t.kind {
	case tInt, tFloat:
		return p.parseNumber(false)
	case tString:
		p.next()
		n := &nStr{at{t.line}, p.strParts(t)}
		// Adjacent literals concatenate: "a" "b"
		for p.peek().kind == tString {
			n.parts = append(n.parts, p.strParts(p.next())...)
		}
		return n
	case tXString:
		p.next()
		arr := &nArray{at: at{t.line}}
		for _, w := range t.parts {
			if t.text == "i" {
				arr.elems = append(arr.elems, &nSym{at{t.line}, []strNode{{lit: w.lit}}})
			} else {
				arr.elems = append(arr.elems, &nStr{at{t.line}, []strNode{{lit: w.lit}}})
			}
		}
		return arr
	case tSymbol:
		p.next()
		return &nSym{at{t.line}, p.strParts(t)}
	case tRegexp:
		p.next()
		n := &nRegexp{at: at{t.line}, parts: p.strParts(t), opts: t.text}
		if len(n.parts) == 1 && n.parts[0].expr == nil {
			n.compiled, _ = compileRubyRegexp(n.parts[0].lit, n.opts)
		}
		return n
	case tIVar:
		p.next()
		return &nIVar{at{t.line}, t.text}
	case tCVar:
		p.fail(t, "class variables (@@) are not supported")
	case tGVar:
		p.next()
		return &nGVar{at{t.line}, t.text}
	case tConst:
		p.next()
		name := t.text
		for p.isOp("::") && p.peekAt(1).kind == tConst {
			p.next()
			name += "::" + p.next().text
		}
		if n := p.peek(); n.kind == tOp && n.text == "(" && !n.spaceBefore {
			return p.parseCallRest(t, nil, name)
		}
		if n := p.peek(); n.kind == tString && n.spaceBefore {
			// Kernel conversion written as a command: Integer "3"
			return p.parseCallRest(t, nil, name)
		}
		return &nConst{at{t.line}, name}
	case tIdent:
		p.next()
		if p.isLocal(t.text) {
			if n := p.peek(); !(n.kind == tOp && n.text == "(" && !n.spaceBefore) {
				return &nLocal{at{t.line}, t.text}
			}
		}
		return p.parseCallRest(t, nil, t.text)
	case tLabel:
		p.fail(t, "unexpected label %s:", t.text)
	case tKeyword:
		return p.parseKeyword()
	case tOp:
		switch t.text {
		case "(":
			p.next()
			p.noDo++
			saved := p.argDepth
			p.argDepth = 0
			body := p.parseStatements()
			p.argDepth = saved
			p.noDo--
			p.expect(")")
			if s, ok := body.(*nSeq); ok && len(s.stmts) == 1 {
				return s.stmts[0]
			}
			return body
		case "[":
			p.next()
			arr := &nArray{at: at{t.line}}
			arr.elems = p.parseArgList("]", false)
			return arr
		case "{":
			p.next()
			return p.parseHash(t)
		case "::":
			p.next()
			c := p.next()
			if c.kind != tConst {
				p.fail(c, "expected a constant after ::")
			}
			return &nConst{at{t.line}, c.text}
		case "->":
			p.next()
			return p.parseLambda(t)
		}
	}
	p.fail(t, "unexpected %s", describe(t))
	return nil
}

func (p *parser) strParts(t token) []strNode {
	var out []strNode
	for _, part := range t.parts {
		if part.code == nil {
			out = append(out, strNode{lit: part.lit})
			continue
		}
		if part.bareVar {
			p.fail(token{line: part.line}, "#@var interpolation is not supported")
		}
		sub := &parser{name: p.name, toks: append(append([]token{}, part.code...), token{kind: tEOF, line: part.line}), locals: p.locals}
		var expr node
		func() {
			sub.depth = p.depth
			body := sub.parseStatements()
			if e := sub.peek(); e.kind != tEOF {
				sub.fail(e, "unexpected %s in interpolation", describe(e))
			}
			expr = body
		}()
		out = append(out, strNode{expr: expr})
	}
	return out
}

func (p *parser) parseHash(open token) node {
	h := &nHash{at: at{open.line}}
	p.argDepth++
	defer func() { p.argDepth-- }()
	for {
		p.skipNL()
		if p.accept("}") {
			return h
		}
		k, v := p.parsePair()
		if k == nil {
			p.fail(p.peek(), "expected key => value in hash")
		}
		h.keys = append(h.keys, k)
		h.vals = append(h.vals, v)
		p.skipNL()
		if !p.accept(",") {
			p.skipNL()
			p.expect("}")
			return h
		}
	}
}

// parsePair parses `key => value`, `key: value` or `"key": value`; when the
// next token starts no pair it parses an ordinary expression and returns it
// as v with a nil k.
func (p *parser) parsePair() (k, v node) {
	t := p.peek()
	if t.kind == tOp && t.text == "**" {
		p.next()
		return &nDoubleSplat{at{t.line}}, p.parseExpr()
	}
	if t.kind == tLabel {
		p.next()
		p.skipNL()
		return &nSym{at{t.line}, []strNode{{lit: t.text}}}, p.parseExpr()
	}
	if t.kind == tString && p.peekAt(1).kind == tOp && p.peekAt(1).text == ":" && !p.peekAt(1).spaceBefore {
		p.next()
		p.next()
		p.skipNL()
		return &nSym{at{t.line}, p.strParts(t)}, p.parseExpr()
	}
	e := p.parseExpr()
	if p.accept("=>") {
		p.skipNL()
		return e, p.parseExpr()
	}
	return nil, e
}

// parseArgList parses comma-separated arguments up to the closing token,
// collecting trailing key: value pairs into one hash argument.
func (p *parser) parseArgList(close string, allowBlockPass bool) []node {
	var args []node
	var kw *nHash
	p.argDepth++
	p.noDo++
	defer func() { p.argDepth--; p.noDo-- }()
	for {
		p.skipNL()
		if p.accept(close) {
			break
		}
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "*":
			p.next()
			args = append(args, &nSplat{at{t.line}, p.parseExpr()})
		case t.kind == tOp && t.text == "&" && allowBlockPass:
			p.next()
			args = append(args, &nBlockPass{at{t.line}, p.parseExpr()})
		default:
			k, v := p.parsePair()
			if k != nil {
				if kw == nil {
					kw = &nHash{at: at{t.line}}
					args = append(args, kw)
				}
				kw.keys = append(kw.keys, k)
				kw.vals = append(kw.vals, v)
			} else {
				args = append(args, v)
			}
		}
		p.skipNL()
		if !p.accept(",") {
			p.skipNL()
			p.expect(close)
			break
		}
	}
	return args
}

// parseCommandArgs parses the arguments of a call written without
// parentheses, which run to the end of the statement.
func (p *parser) parseCommandArgs() []node {
	var args []node
	var kw *nHash
	p.argDepth++
	p.noDo++
	defer func() { p.argDepth--; p.noDo-- }()
	for {
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "*":
			p.next()
			args = append(args, &nSplat{at{t.line}, p.parseExpr()})
		case t.kind == tOp && t.text == "&":
			p.next()
			args = append(args, &nBlockPass{at{t.line}, p.parseExpr()})
		default:
			k, v := p.parsePair()
			if k != nil {
				if kw == nil {
					kw = &nHash{at: at{t.line}}
					args = append(args, kw)
				}
				kw.keys = append(kw.keys, k)
				kw.vals = append(kw.vals, v)
			} else {
				args = append(args, v)
			}
		}
		if !p.accept(",") {
			return args
		}
		p.skipNL()
	}
}

// parseCallRest parses the arguments and block of a call whose name has
// just been read.
func (p *parser) parseCallRest(t token, recv node, name string) node {
	call := &nCall{at: at{t.line}, recv: recv, name: name}
	n := p.peek()
	switch {
	case n.kind == tOp && n.text == "(" && !n.spaceBefore:
		p.next()
		call.args = p.parseArgList(")", true)
	case canStartArg(n):
		call.args = p.parseCommandArgs()
	case !n.spaceBefore && (strings.HasSuffix(name, "?") || strings.HasSuffix(name, "!")) &&
		(n.kind == tIdent || n.kind == tIVar || n.kind == tString || n.kind == tConst || n.kind == tInt):
		// include?x is a call with argument x.
		call.args = p.parseCommandArgs()
	}
	// Block pass args become the block.
	for k, a := range call.args {
		if bp, ok := a.(*nBlockPass); ok {
			if k != len(call.args)-1 {
				p.fail(t, "block argument must be last")
			}
			call.args = call.args[:k]
			call.block = &nBlock{at: bp.at, params: []param{{name: "__blockpass"}}, body: bp}
		}
	}
	p.parseBlock(call)
	return call
}

func (p *parser) parseBlock(call *nCall) {
	n := p.peek()
	if n.kind == tOp && n.text == "{" {
		p.next()
		call.block = p.parseBlockBody(n, "}")
	} else if n.kind == tKeyword && n.text == "do" && p.noDo == 0 {
		p.next()
		call.block = p.parseBlockBody(n, "end")
	}
}

func (p *parser) parseBlockBody(open token, close string) *nBlock {
	b := &nBlock{at: at{open.line}}
	p.pushScope()
	defer p.popScope()
	savedDo, savedArgs := p.noDo, p.argDepth
	p.noDo, p.argDepth = 0, 0
	defer func() { p.noDo, p.argDepth = savedDo, savedArgs }()
	p.skipNL()
	if p.accept("||") {
	} else if p.accept("|") {
		b.params = p.parseParams("|")
	}
	b.body = p.parseStatements()
	if close == "end" {
		// A do ... end block may have rescue, else and ensure clauses
		// as a def body has (Ruby 2.5 and later).
		if t := p.peek(); t.kind == tKeyword && (t.text == "rescue" || t.text == "ensure") {
			body := &nBegin{at: at{open.line}, body: b.body}
			p.parseRescues(body)
			b.body = body
		}
	}
	p.expect(close)
	return b
}

// parseModule parses a module definition after its keyword.
func (p *parser) parseModule(t token) node {
	var name strings.Builder
	for {
		c := p.next()
		if c.kind != tConst {
			p.fail(c, "expected a module name")
		}
		name.WriteString(c.text)
		if !p.accept("::") {
			break
		}
		name.WriteString("::")
	}
	// A class is read as a module of class methods (def self.x), which
	// is what module libraries define (mongodb's MongodbMd5er); its
	// superclass only matters to rescue clauses.
	var super string
	if t.text == "class" && p.accept("<") {
		super = p.constName()
	}
	saved := p.locals
	p.locals = nil
	p.pushScope()
	defer func() { p.locals = saved }()
	body := p.parseStatements()
	p.expect("end")
	return &nModule{at: at{t.line}, name: name.String(), super: super, body: body}
}

// parseLambda parses a lambda literal after its ->: optional parameters in
// parentheses, then a body in braces or do ... end.
func (p *parser) parseLambda(arrow token) node {
	b := &nBlock{at: at{arrow.line}}
	p.pushScope()
	defer p.popScope()
	if p.accept("(") && !p.accept(")") {
		b.params = p.parseParams(")")
	}
	savedDo, savedArgs := p.noDo, p.argDepth
	p.noDo, p.argDepth = 0, 0
	defer func() { p.noDo, p.argDepth = savedDo, savedArgs }()
	close := "}"
	if !p.accept("{") {
		p.expect("do")
		close = "end"
	}
	b.body = p.parseStatements()
	p.expect(close)
	return &nLambda{at: at{arrow.line}, block: b}
}

func (p *parser) parseParams(close string) []param {
	var ps []param
	for {
		t := p.next()
		switch {
		case t.kind == tIdent:
			p.declare(t.text)
			ps = append(ps, param{name: t.text})
			if p.defParams && p.isOp("=") {
				p.next()
				ps[len(ps)-1].dflt = p.parseTernary()
			} else if p.defParams && len(ps) > 1 && ps[len(ps)-2].dflt != nil {
				p.fail(t, "a required parameter after an optional one")
			}
		case t.kind == tOp && t.text == "*":
			id := p.next()
			if id.kind != tIdent {
				p.fail(id, "expected a parameter name")
			}
			p.declare(id.text)
			ps = append(ps, param{name: id.text, splat: true})
		case t.kind == tOp && t.text == "(":
			ps = append(ps, param{sub: p.parseParams(")")})
		case t.kind == tOp && t.text == "&" && p.defParams:
			id := p.next()
			if id.kind != tIdent {
				p.fail(id, "expected a parameter name")
			}
			p.declare(id.text)
			ps = append(ps, param{name: id.text, block: true})
			p.expect(close)
			return ps
		default:
			p.fail(t, "unexpected %s in block parameters", describe(t))
		}
		if p.accept(close) {
			return ps
		}
		p.expect(",")
	}
}

func (p *parser) parsePostfix(n node) node {
	for {
		t := p.peek()
		if t.kind != tOp {
			return n
		}
		switch t.text {
		case ".", "&.":
			p.next()
			p.skipNL()
			m := p.next()
			name := m.text
			switch {
			case m.kind == tIdent || m.kind == tConst || m.kind == tKeyword:
			case m.kind == tLabel:
				p.fail(m, "unexpected label after .")
			case m.kind == tOp && m.text == "(":
				// x.(args) is x.call(args)
				p.pos--
				name = "call"
			default:
				p.fail(m, "expected a method name after .")
			}
			// Attribute assignment: x.y = v
			if a := p.peek(); a.kind == tOp && a.text == "=" && m.kind != tOp {
				return &nCall{at: at{m.line}, recv: n, name: name, safeNav: t.text == "&."}
			}
			c := p.parseCallRest(m, n, name).(*nCall)
			c.safeNav = t.text == "&."
			n = c
		case "[":
			if t.spaceBefore {
				if _, isLocal := n.(*nLocal); !isLocal {
					return n
				}
			}
			p.next()
			n = &nCall{at: at{t.line}, recv: n, name: "[]", args: p.parseArgList("]", false)}
		case "::":
			if c := p.peekAt(1); c.kind == tConst {
				if nc, ok := n.(*nConst); ok {
					p.next()
					p.next()
					n = &nConst{nc.at, nc.name + "::" + c.text}
					continue
				}
			}
			if c := p.peekAt(1); c.kind == tIdent {
				p.next()
				m := p.next()
				n = p.parseCallRest(m, n, m.text)
				continue
			}
			return n
		default:
			return n
		}
	}
}

func (p *parser) parseKeyword() node {
	t := p.next()
	switch t.text {
	case "nil":
		return &nNil{at{t.line}}
	case "true":
		return &nBool{at{t.line}, true}
	case "false":
		return &nBool{at{t.line}, false}
	case "self":
		return &nSelf{at{t.line}}
	case "__FILE__":
		return &nCall{at: at{t.line}, name: "__FILE__"}
	case "if", "unless":
		return p.parseIf(t)
	case "case":
		return p.parseCase(t)
	case "while", "until":
		p.noDo++
		cond := p.parseExprStmt()
		p.noDo--
		p.accept("do")
		body := p.parseStatements()
		p.expect("end")
		return &nWhile{at{t.line}, cond, body, t.text == "until"}
	case "for":
		var vars []param
		for {
			id := p.next()
			if id.kind != tIdent {
				p.fail(id, "expected a loop variable")
			}
			p.declare(id.text)
			vars = append(vars, param{name: id.text})
			if !p.accept(",") {
				break
			}
		}
		p.expect("in")
		p.noDo++
		iter := p.parseExprStmt()
		p.noDo--
		p.accept("do")
		body := p.parseStatements()
		p.expect("end")
		return &nFor{at{t.line}, vars, iter, body}
	case "begin":
		b := &nBegin{at: at{t.line}}
		b.body = p.parseStatements()
		p.parseRescues(b)
		p.expect("end")
		return b
	case "break", "next":
		var v node
		if n := p.peek(); canStartArg(n) || n.kind != tNL && !endsBody(n) && n.kind != tKeyword && n.kind != tText && n.kind != tOutBegin {
			v = p.parseExpr()
		}
		if t.text == "break" {
			return &nBreak{at{t.line}, v}
		}
		return &nNext{at{t.line}, v}
	case "then":
		p.fail(t, "unexpected then")
	case "module", "class":
		return p.parseModule(t)
	case "yield":
		return p.parseCallRest(t, nil, "yield")
	case "def":
		return p.parseDef(t)
	case "return":
		var v node
		if n := p.peek(); n.kind != tNL && !endsBody(n) && !(n.kind == tKeyword && (n.text == "if" || n.text == "unless")) && n.kind != tText && n.kind != tOutBegin {
			v = p.parseExpr()
		}
		return &nReturn{at{t.line}, v}
	}
	p.fail(t, "%q is not supported", t.text)
	return nil
}

func (p *parser) parseIf(t token) node {
	// Unlike while's, an if's condition may hold a call with a do block
	// (`if list.each do |x| ... end`): do is the call's there.
	cond := p.parseExprStmt()
	if t.text == "unless" {
		cond = &nNot{at{t.line}, cond}
	}
	p.accept("then")
	n := &nIf{at: at{t.line}, cond: cond, then: p.parseStatements()}
	switch e := p.peek(); {
	case e.kind == tKeyword && e.text == "elsif" && t.text != "unless":
		p.next()
		n.els = p.parseIf(e)
		return n
	case e.kind == tKeyword && e.text == "else":
		p.next()
		n.els = p.parseStatements()
	}
	p.expect("end")
	return n
}

func (p *parser) parseCase(t token) node {
	c := &nCase{at: at{t.line}}
	if p.peek().kind != tNL {
		c.subject = p.parseExprStmt()
	}
	p.skipNL()
	for p.accept("when") {
		var w whenClause
		p.noDo++
		for {
			p.skipNL()
			if p.isOp("*") {
				s := p.next()
				w.conds = append(w.conds, &nSplat{at{s.line}, p.parseTernary()})
			} else {
				w.conds = append(w.conds, p.parseTernary())
			}
			if !p.accept(",") {
				break
			}
		}
		p.noDo--
		p.accept("then")
		w.body = p.parseStatements()
		c.whens = append(c.whens, w)
	}
	if len(c.whens) == 0 {
		p.fail(t, "case without when")
	}
	if p.accept("else") {
		c.els = p.parseStatements()
	}
	p.expect("end")
	return c
}

// parseDef parses a method definition: def name(params) body [rescue ...] end.
func (p *parser) parseDef(t token) node {
	singleton := false
	if n := p.peek(); n.kind == tKeyword && n.text == "self" && p.peekAt(1).kind == tOp && p.peekAt(1).text == "." {
		p.next()
		p.next()
		singleton = true
	}
	id := p.next()
	if id.kind != tIdent {
		p.fail(id, "expected a method name after def")
	}
	d := &nDef{at: at{t.line}, name: id.text, singleton: singleton}
	saved := p.locals
	p.locals = nil
	p.pushScope()
	defer func() { p.locals = saved }()
	if p.isOp("(") {
		p.next()
		if !p.accept(")") {
			p.defParams = true
			d.params = p.parseParams(")")
			p.defParams = false
		}
	} else {
		for p.peek().kind == tIdent {
			id := p.next()
			p.declare(id.text)
			d.params = append(d.params, param{name: id.text})
			if !p.accept(",") {
				break
			}
		}
	}
	body := &nBegin{at: at{t.line}}
	p.inDef++
	body.body = p.parseStatements()
	p.parseRescues(body)
	p.inDef--
	p.expect("end")
	d.body = body
	return d
}
