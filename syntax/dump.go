package syntax

import (
	"io"
	"strconv"
	"strings"
)

// Dump writes a stable S-expression rendering of the tree rooted at n, for
// golden tests and "marionette parse --dump". A list that fits in 80
// columns is written on one line; a longer one puts each element on its own
// indented line.
func Dump(w io.Writer, n Node) error {
	var b strings.Builder
	writeSexp(&b, toSexp(n), 0)
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

const maxDumpIndent = 40

// sexp is an atom (atom != "") or a list.
type sexp struct {
	atom string
	list []sexp
}

func atom(s string) sexp       { return sexp{atom: s} }
func quoted(s string) sexp     { return sexp{atom: strconv.Quote(s)} }
func list(xs ...sexp) sexp     { return sexp{list: xs} }
func (s sexp) isAtom() bool    { return s.atom != "" }
func (s sexp) add(x sexp) sexp { s.list = append(s.list, x); return s }

// flatLen returns the length of s on one line, or more than limit.
func flatLen(s sexp, limit int) int {
	if s.isAtom() {
		return len(s.atom)
	}
	if limit < 2 {
		return limit + 1 // too long already: "()" at least
	}
	n := 1
	for i, x := range s.list {
		if i > 0 {
			n++
		}
		n += flatLen(x, limit-n)
		if n > limit {
			return n
		}
	}
	return n + 1
}

func writeFlat(b *strings.Builder, s sexp) {
	if s.isAtom() {
		b.WriteString(s.atom)
		return
	}
	b.WriteByte('(')
	for i, x := range s.list {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeFlat(b, x)
	}
	b.WriteByte(')')
}

func writeSexp(b *strings.Builder, s sexp, indent int) {
	if s.isAtom() || flatLen(s, 80-indent) <= 80-indent {
		writeFlat(b, s)
		return
	}
	b.WriteByte('(')
	// Keep the head atoms (the node kind and its names) on the first line.
	i := 0
	for i < len(s.list) && s.list[i].isAtom() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.list[i].atom)
		i++
	}
	for ; i < len(s.list); i++ {
		b.WriteByte('\n')
		// Indentation stops growing at some depth, so that the dump of a
		// deeply nested tree stays linear in its size.
		b.WriteString(strings.Repeat("  ", min(indent/2+1, maxDumpIndent)))
		writeSexp(b, s.list[i], indent+2)
	}
	b.WriteByte(')')
}

func exprsSexp(head sexp, xs []Expr) sexp {
	for _, x := range xs {
		head = head.add(toSexp(x))
	}
	return head
}

func paramsSexp(ps []*Parameter) sexp {
	s := list(atom("params"))
	for _, p := range ps {
		s = s.add(toSexp(p))
	}
	return s
}

func opsSexp(head sexp, ops []*AttributeOp) sexp {
	for _, op := range ops {
		head = head.add(toSexp(op))
	}
	return head
}

func toSexp(n Node) sexp {
	if n == nil || isNilNode(n) {
		return atom("nil")
	}
	switch n := n.(type) {
	case *Program:
		return exprsSexp(list(atom("program")), n.Body)
	case *Block:
		return exprsSexp(list(atom("block")), n.Stmts)
	case *StringLit:
		return list(atom("str"), quoted(n.Value))
	case *InterpolatedString:
		return exprsSexp(list(atom("istr")), n.Parts)
	case *Heredoc:
		s := list(atom("heredoc"))
		if n.Syntax != "" {
			s = s.add(quoted(n.Syntax))
		}
		return s.add(toSexp(n.Text))
	case *IntegerLit:
		s := list(atom("int"), atom(strconv.FormatInt(n.Value, 10)))
		if n.Radix != 10 {
			s = s.add(atom("radix=" + strconv.Itoa(n.Radix)))
		}
		return s
	case *FloatLit:
		return list(atom("float"), atom(strconv.FormatFloat(n.Value, 'g', -1, 64)))
	case *BoolLit:
		return atom(strconv.FormatBool(n.Value))
	case *UndefLit:
		return atom("undef")
	case *DefaultLit:
		return atom("default")
	case *RegexLit:
		return list(atom("regex"), quoted(n.Pattern))
	case *Variable:
		return list(atom("var"), quoted(n.Name))
	case *QualifiedName:
		return list(atom("name"), atom(n.Name))
	case *TypeReference:
		return list(atom("type"), atom(n.Name))
	case *ArrayLit:
		return exprsSexp(list(atom("array")), n.Elements)
	case *HashLit:
		head := "hash"
		if n.Unfolded {
			head = "hash-unfolded"
		}
		s := list(atom(head))
		for _, e := range n.Entries {
			s = s.add(toSexp(e))
		}
		return s
	case *HashEntry:
		return list(atom("=>"), toSexp(n.Key), toSexp(n.Value))
	case *AccessExpr:
		return exprsSexp(list(atom("access"), toSexp(n.Operand)), n.Keys)
	case *CallExpr:
		head := "call"
		if !n.Parenthesized {
			head = "call-bare"
		}
		callee := atom(n.Name)
		if n.Callee != nil {
			callee = toSexp(n.Callee)
		}
		s := exprsSexp(list(atom(head), callee), n.Args)
		if n.Lambda != nil {
			s = s.add(toSexp(n.Lambda))
		}
		return s
	case *MethodCall:
		head := "method"
		if !n.Parenthesized {
			head = "method-bare"
		}
		s := exprsSexp(list(atom(head), atom(n.Name), toSexp(n.Receiver)), n.Args)
		if n.Lambda != nil {
			s = s.add(toSexp(n.Lambda))
		}
		return s
	case *Lambda:
		s := list(atom("lambda"), paramsSexp(n.Params))
		if n.ReturnType != nil {
			s = s.add(list(atom("returns"), toSexp(n.ReturnType)))
		}
		return s.add(toSexp(n.Body))
	case *Parameter:
		name := n.Name
		if n.CapturesRest {
			name = "*" + name
		}
		s := list(atom("param"), atom(strconv.Quote(name)))
		if n.Type != nil {
			s = s.add(toSexp(n.Type))
		}
		if n.Default != nil {
			s = s.add(list(atom("="), toSexp(n.Default)))
		}
		return s
	case *UnaryExpr:
		op := n.Op.String()
		if n.Op == MUL {
			op = "splat"
		}
		return list(atom(op), toSexp(n.Operand))
	case *BinaryExpr:
		return list(atom(n.Op.String()), toSexp(n.Left), toSexp(n.Right))
	case *AssignExpr:
		return list(atom("="), toSexp(n.Left), toSexp(n.Right))
	case *RelationshipExpr:
		return list(atom(n.Op.String()), toSexp(n.Left), toSexp(n.Right))
	case *ParenExpr:
		return list(atom("paren"), toSexp(n.X))
	case *IfExpr:
		s := list(atom("if"), toSexp(n.Cond), toSexp(n.Then))
		if n.Else != nil {
			s = s.add(toSexp(n.Else))
		}
		return s
	case *UnlessExpr:
		s := list(atom("unless"), toSexp(n.Cond), toSexp(n.Then))
		if n.Else != nil {
			s = s.add(toSexp(n.Else))
		}
		return s
	case *CaseExpr:
		s := list(atom("case"), toSexp(n.Test))
		for _, o := range n.Options {
			s = s.add(toSexp(o))
		}
		return s
	case *CaseOption:
		return exprsSexp(list(atom("when")), n.Values).add(toSexp(n.Body))
	case *SelectorExpr:
		s := list(atom("?"), toSexp(n.Test))
		for _, o := range n.Options {
			s = s.add(toSexp(o))
		}
		return s
	case *SelectorOption:
		return list(atom("=>"), toSexp(n.Match), toSexp(n.Value))
	case *ResourceExpr:
		s := list(atom("resource"))
		if n.Form != Regular {
			s = s.add(atom(n.Form.String()))
		}
		s = s.add(toSexp(n.Type))
		for _, b := range n.Bodies {
			s = s.add(toSexp(b))
		}
		return s
	case *ResourceBody:
		return opsSexp(list(atom("body"), toSexp(n.Title)), n.Ops)
	case *AttributeOp:
		return list(atom(n.Op.String()), atom(n.Name), toSexp(n.Value))
	case *ResourceDefaultsExpr:
		s := list(atom("defaults"))
		if n.Form != Regular {
			s = s.add(atom(n.Form.String()))
		}
		return opsSexp(s.add(toSexp(n.Type)), n.Ops)
	case *ResourceOverrideExpr:
		s := list(atom("override"))
		if n.Form != Regular {
			s = s.add(atom(n.Form.String()))
		}
		return opsSexp(s.add(toSexp(n.Resources)), n.Ops)
	case *CollectExpr:
		head := "collect"
		if n.Exported {
			head = "collect-exported"
		}
		s := list(atom(head), toSexp(n.Type))
		if n.Query != nil {
			s = s.add(list(atom("query"), toSexp(n.Query)))
		}
		return opsSexp(s, n.Ops)
	case *ClassDef:
		s := list(atom("class"), atom(n.Name))
		if len(n.Params) > 0 {
			s = s.add(paramsSexp(n.Params))
		}
		if n.Parent != "" {
			s = s.add(list(atom("inherits"), atom(n.Parent)))
		}
		return s.add(toSexp(n.Body))
	case *DefineDef:
		s := list(atom("define"), atom(n.Name))
		if len(n.Params) > 0 {
			s = s.add(paramsSexp(n.Params))
		}
		return s.add(toSexp(n.Body))
	case *NodeDef:
		s := exprsSexp(list(atom("node")), n.Names)
		if n.Parent != nil {
			s = s.add(list(atom("inherits"), toSexp(n.Parent)))
		}
		return s.add(toSexp(n.Body))
	case *FunctionDef:
		s := list(atom("function"), atom(n.Name))
		if len(n.Params) > 0 {
			s = s.add(paramsSexp(n.Params))
		}
		if n.ReturnType != nil {
			s = s.add(list(atom("returns"), toSexp(n.ReturnType)))
		}
		return s.add(toSexp(n.Body))
	case *TypeAlias:
		return list(atom("type-alias"), atom(n.Name), toSexp(n.Type))
	case *ImportStmt:
		return exprsSexp(list(atom("import")), n.Files)
	case *EPPProgram:
		s := list(atom("epp"))
		if n.HasParams {
			s = s.add(paramsSexp(n.Params))
		}
		return s.add(toSexp(n.Body))
	case *RenderString:
		return list(atom("render-str"), quoted(n.Value))
	case *RenderExpr:
		return list(atom("render"), toSexp(n.X))
	case *BadExpr:
		return list(atom("bad"))
	}
	return atom("?")
}
