package syntax

// Inspect traverses the tree rooted at n in depth-first order, like
// go/ast.Inspect: it calls f(n); if f returns true, it visits each child of n
// and then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	eachChild(n, func(c Node) { Inspect(c, f) })
	f(nil)
}

// isNilNode reports a typed nil pointer stored in a Node.
func isNilNode(n Node) bool {
	switch n := n.(type) {
	case *Block:
		return n == nil
	case *Lambda:
		return n == nil
	case *TypeReference:
		return n == nil
	}
	return false
}

// eachChild calls f for each direct child of n, in source order.
func eachChild(n Node, f func(Node)) {
	exprs := func(list []Expr) {
		for _, x := range list {
			f(x)
		}
	}
	opt := func(x Node) {
		if x != nil && !isNilNode(x) {
			f(x)
		}
	}
	params := func(list []*Parameter) {
		for _, x := range list {
			f(x)
		}
	}
	ops := func(list []*AttributeOp) {
		for _, x := range list {
			f(x)
		}
	}
	switch n := n.(type) {
	case *Program:
		exprs(n.Body)
	case *Block:
		exprs(n.Stmts)
	case *InterpolatedString:
		exprs(n.Parts)
	case *Heredoc:
		opt(n.Text)
	case *ArrayLit:
		exprs(n.Elements)
	case *HashLit:
		for _, e := range n.Entries {
			f(e)
		}
	case *HashEntry:
		f(n.Key)
		f(n.Value)
	case *AccessExpr:
		f(n.Operand)
		exprs(n.Keys)
	case *CallExpr:
		if n.Callee != nil {
			f(n.Callee)
		}
		exprs(n.Args)
		opt(n.Lambda)
	case *MethodCall:
		f(n.Receiver)
		exprs(n.Args)
		opt(n.Lambda)
	case *Lambda:
		params(n.Params)
		opt(n.ReturnType)
		opt(n.Body)
	case *Parameter:
		opt(n.Type)
		opt(n.Default)
	case *UnaryExpr:
		f(n.Operand)
	case *BinaryExpr:
		f(n.Left)
		f(n.Right)
	case *AssignExpr:
		f(n.Left)
		f(n.Right)
	case *RelationshipExpr:
		f(n.Left)
		f(n.Right)
	case *ParenExpr:
		f(n.X)
	case *IfExpr:
		f(n.Cond)
		opt(n.Then)
		opt(n.Else)
	case *UnlessExpr:
		f(n.Cond)
		opt(n.Then)
		opt(n.Else)
	case *CaseExpr:
		f(n.Test)
		for _, o := range n.Options {
			f(o)
		}
	case *CaseOption:
		exprs(n.Values)
		opt(n.Body)
	case *SelectorExpr:
		f(n.Test)
		for _, o := range n.Options {
			f(o)
		}
	case *SelectorOption:
		f(n.Match)
		f(n.Value)
	case *ResourceExpr:
		f(n.Type)
		for _, b := range n.Bodies {
			f(b)
		}
	case *ResourceBody:
		f(n.Title)
		ops(n.Ops)
	case *AttributeOp:
		f(n.Value)
	case *ResourceDefaultsExpr:
		opt(n.Type)
		ops(n.Ops)
	case *ResourceOverrideExpr:
		f(n.Resources)
		ops(n.Ops)
	case *CollectExpr:
		opt(n.Type)
		opt(n.Query)
		ops(n.Ops)
	case *ClassDef:
		params(n.Params)
		opt(n.Body)
	case *DefineDef:
		params(n.Params)
		opt(n.Body)
	case *NodeDef:
		exprs(n.Names)
		opt(n.Parent)
		opt(n.Body)
	case *FunctionDef:
		params(n.Params)
		opt(n.ReturnType)
		opt(n.Body)
	case *TypeAlias:
		opt(n.Type)
	case *ImportStmt:
		exprs(n.Files)
	case *EPPProgram:
		params(n.Params)
		opt(n.Body)
	case *RenderExpr:
		f(n.X)
	}
}
