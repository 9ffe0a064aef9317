package validate

import "github.com/marionette-dev/marionette/syntax"

// walk checks n and then its descendants, depth first, as Puppet's
// validator visits the model. It visits the children syntax.Inspect visits,
// in the same order (TestWalkMatchesInspect holds it to that), without
// Inspect's two closures per node: validation walks every manifest loaded.
func (v *validator) walk(n syntax.Node) {
	if n == nil || isNilNode(n) {
		return
	}
	if v.visit != nil {
		v.visit(n)
	}
	v.check(n)
	v.path = append(v.path, n)
	switch n := n.(type) {
	case *syntax.Program:
		v.walkExprs(n.Body)
	case *syntax.Block:
		v.walkExprs(n.Stmts)
	case *syntax.InterpolatedString:
		v.walkExprs(n.Parts)
	case *syntax.Heredoc:
		v.walk(n.Text)
	case *syntax.ArrayLit:
		v.walkExprs(n.Elements)
	case *syntax.HashLit:
		for _, e := range n.Entries {
			v.walk(e)
		}
	case *syntax.HashEntry:
		v.walk(n.Key)
		v.walk(n.Value)
	case *syntax.AccessExpr:
		v.walk(n.Operand)
		v.walkExprs(n.Keys)
	case *syntax.CallExpr:
		v.walk(n.Callee)
		v.walkExprs(n.Args)
		v.walkLambda(n.Lambda)
	case *syntax.MethodCall:
		v.walk(n.Receiver)
		v.walkExprs(n.Args)
		v.walkLambda(n.Lambda)
	case *syntax.Lambda:
		v.walkParams(n.Params)
		v.walk(n.ReturnType)
		v.walkBlock(n.Body)
	case *syntax.Parameter:
		v.walk(n.Type)
		v.walk(n.Default)
	case *syntax.UnaryExpr:
		v.walk(n.Operand)
	case *syntax.BinaryExpr:
		v.walk(n.Left)
		v.walk(n.Right)
	case *syntax.AssignExpr:
		v.walk(n.Left)
		v.walk(n.Right)
	case *syntax.RelationshipExpr:
		v.walk(n.Left)
		v.walk(n.Right)
	case *syntax.ParenExpr:
		v.walk(n.X)
	case *syntax.IfExpr:
		v.walk(n.Cond)
		v.walkBlock(n.Then)
		v.walk(n.Else)
	case *syntax.UnlessExpr:
		v.walk(n.Cond)
		v.walkBlock(n.Then)
		v.walk(n.Else)
	case *syntax.CaseExpr:
		v.walk(n.Test)
		for _, o := range n.Options {
			v.walk(o)
		}
	case *syntax.CaseOption:
		v.walkExprs(n.Values)
		v.walkBlock(n.Body)
	case *syntax.SelectorExpr:
		v.walk(n.Test)
		for _, o := range n.Options {
			v.walk(o)
		}
	case *syntax.SelectorOption:
		v.walk(n.Match)
		v.walk(n.Value)
	case *syntax.ResourceExpr:
		v.walk(n.Type)
		for _, b := range n.Bodies {
			v.walk(b)
		}
	case *syntax.ResourceBody:
		v.walk(n.Title)
		v.walkOps(n.Ops)
	case *syntax.AttributeOp:
		v.walk(n.Value)
	case *syntax.ResourceDefaultsExpr:
		v.walk(n.Type)
		v.walkOps(n.Ops)
	case *syntax.ResourceOverrideExpr:
		v.walk(n.Resources)
		v.walkOps(n.Ops)
	case *syntax.CollectExpr:
		v.walk(n.Type)
		v.walk(n.Query)
		v.walkOps(n.Ops)
	case *syntax.ClassDef:
		v.walkParams(n.Params)
		v.walkBlock(n.Body)
	case *syntax.DefineDef:
		v.walkParams(n.Params)
		v.walkBlock(n.Body)
	case *syntax.NodeDef:
		v.walkExprs(n.Names)
		v.walk(n.Parent)
		v.walkBlock(n.Body)
	case *syntax.FunctionDef:
		v.walkParams(n.Params)
		v.walk(n.ReturnType)
		v.walkBlock(n.Body)
	case *syntax.TypeAlias:
		v.walk(n.Type)
	case *syntax.ImportStmt:
		v.walkExprs(n.Files)
	case *syntax.EPPProgram:
		v.walkParams(n.Params)
		v.walkBlock(n.Body)
	case *syntax.RenderExpr:
		v.walk(n.X)
	}
	v.path = v.path[:len(v.path)-1]
}

func (v *validator) walkExprs(list []syntax.Expr) {
	for _, x := range list {
		v.walk(x)
	}
}

func (v *validator) walkParams(list []*syntax.Parameter) {
	for _, p := range list {
		v.walk(p)
	}
}

func (v *validator) walkOps(list []*syntax.AttributeOp) {
	for _, op := range list {
		v.walk(op)
	}
}

// walkBlock and walkLambda skip a nil pointer before it becomes
// a non-nil interface.
func (v *validator) walkBlock(b *syntax.Block) {
	if b != nil {
		v.walk(b)
	}
}

func (v *validator) walkLambda(l *syntax.Lambda) {
	if l != nil {
		v.walk(l)
	}
}

// isNilNode reports a typed nil pointer stored in a Node, which
// syntax.Inspect skips too.
func isNilNode(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Block:
		return n == nil
	case *syntax.Lambda:
		return n == nil
	case *syntax.TypeReference:
		return n == nil
	}
	return false
}
