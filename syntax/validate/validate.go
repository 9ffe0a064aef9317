// Package validate checks a parsed Puppet manifest against the rules that
// Puppet enforces after parsing, before any evaluation: names of classes,
// defines, functions, type aliases, parameters and variables; where
// definitions may appear; what may be assigned to; expressions that produce
// a value nobody uses; queries of collectors; the text of heredocs with a
// known syntax; and more.
//
// Messages and positions follow Puppet 7's validator. Where marionette is
// deliberately more lenient than Puppet 7 (node inheritance, which older
// Puppet supported), the problem is reported as a warning instead.
//
// Left to later stages, as in Puppet: rules that depend on where a file sits
// in a module (a class defined in the wrong file), and definitions of the
// same class, define, node, function or type alias twice, which Puppet finds
// when it loads the definitions.
package validate

import (
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// ParseFile parses and validates a manifest. The error is the parser's
// diag.List when the text does not parse, else the validator's, or nil when
// the manifest is valid. Warnings are returned in both cases that
// the parser succeeded.
func ParseFile(filename string, src []byte) (prog *syntax.Program, warnings diag.List, err error) {
	prog, err = syntax.ParseFile(filename, src)
	if err != nil {
		return prog, nil, err
	}
	errs, warnings := Program(prog)
	return prog, warnings, errs.Err()
}

// Program validates prog, a tree the parser built without errors. It returns
// the errors, in the order Puppet reports them, and the warnings.
func Program(prog *syntax.Program) (errs, warnings diag.List) {
	v := &validator{file: prog.File}
	v.walk(prog)
	return v.errs, v.warnings
}

type validator struct {
	file     *syntax.File
	path     []syntax.Node // the ancestors of the node being checked
	errs     diag.List
	warnings diag.List
	visit    func(syntax.Node) // in tests: called for each node walked
}

// errorAt reports the problem code at p.
func (v *validator) errorAt(p syntax.Pos, code diag.Code, msg string) {
	v.errs.Add(diag.New(code, diag.At(v.file.Position(p)), msg))
}

// error reports the problem code about n.
func (v *validator) error(n syntax.Node, code diag.Code, msg string) {
	v.errs.Add(diag.New(code, v.rangeOf(n), msg))
}

func (v *validator) warning(n syntax.Node, code diag.Code, msg string) {
	w := diag.New(code, v.rangeOf(n), msg)
	w.Severity = diag.Warning
	v.warnings.Add(w)
}

// rangeOf returns the range of n, starting where Puppet's validator places
// it: as the evaluator does (syntax.ErrorPos), but a method call at its
// start.
func (v *validator) rangeOf(n syntax.Node) diag.Range {
	at := syntax.ErrorPos(n)
	if _, isCall := n.(*syntax.MethodCall); isCall {
		at = n.Pos()
	}
	return diag.Span(v.file, at, n.End())
}

// parent returns the i-th ancestor of the node being checked: 1 is its
// parent. It is nil above the root.
func (v *validator) parent(i int) syntax.Node {
	if i > len(v.path) {
		return nil
	}
	return v.path[len(v.path)-i]
}

func (v *validator) check(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.Program:
		v.checkStatements(n.Body)
	case *syntax.Block:
		v.checkStatements(n.Stmts)
	case *syntax.AssignExpr:
		v.assign(n.Left)
		v.rvalue(n.Right)
	case *syntax.AttributeOp:
		if n.Op == syntax.PARROW {
			switch p := v.parent(1).(type) {
			case *syntax.CollectExpr, *syntax.ResourceOverrideExpr:
			default:
				v.error(n, diag.IllegalAttributeAppend, "Illegal +> operation on attribute "+n.Name+". This operator can not be used in "+aAn(label(p)))
			}
		}
		v.rvalue(n.Value)
	case *syntax.BinaryExpr:
		v.rvalue(n.Left)
		v.rvalue(n.Right)
	case *syntax.RelationshipExpr:
		v.relation(n.Left)
		v.relation(n.Right)
	case *syntax.UnaryExpr:
		v.rvalue(n.Operand)
	case *syntax.ParenExpr:
		v.rvalue(n.X)
	case *syntax.InterpolatedString:
		for _, part := range n.Parts {
			if _, text := part.(*syntax.StringLit); !text {
				v.rvalue(part)
			}
		}
	case *syntax.ArrayLit:
		for _, x := range n.Elements {
			v.rvalue(x)
		}
	case *syntax.HashLit:
		v.checkHash(n)
	case *syntax.HashEntry:
		v.rvalue(n.Key)
		v.rvalue(n.Value)
	case *syntax.AccessExpr:
		if len(n.Keys) == 0 {
			// Puppet's grammar rejects $x[].
			v.errorAt(n.End()-1, diag.SyntaxError, "Syntax error at ']'")
		}
	case *syntax.IfExpr:
		v.rvalue(n.Cond)
	case *syntax.UnlessExpr:
		v.rvalue(n.Cond)
	case *syntax.CaseExpr:
		v.rvalue(n.Test)
		seen := false
		for _, o := range n.Options {
			for _, x := range o.Values {
				if _, ok := x.(*syntax.DefaultLit); ok {
					if seen {
						v.error(x, diag.DuplicateDefault, "This 'case' statement already has a 'default' entry - this is a duplicate")
					}
					seen = true
				}
			}
		}
	case *syntax.CaseOption:
		for _, x := range n.Values {
			v.rvalue(x)
		}
	case *syntax.SelectorExpr:
		v.rvalue(n.Test)
		seen := false
		for _, o := range n.Options {
			if _, ok := o.Match.(*syntax.DefaultLit); ok {
				if seen {
					v.error(o.Match, diag.DuplicateDefault, "This Selector Expression already has a 'default' entry - this is a duplicate")
					break
				}
				seen = true
			}
		}
	case *syntax.SelectorOption:
		v.rvalue(n.Match)
	case *syntax.Variable:
		v.checkVariable(n)
	case *syntax.Heredoc:
		v.checkHeredoc(n)
	case *syntax.CollectExpr:
		if n.Query != nil {
			v.query(n.Query)
		}
	case *syntax.ResourceExpr:
		if q, ok := n.Type.(*syntax.QualifiedName); ok && q.Name == "class" && n.Form != syntax.Regular {
			v.error(n, diag.ClassNotVirtualizable, "Classes are not virtualizable")
		}
	case *syntax.ResourceBody:
		unfolds := 0
		for _, op := range n.Ops {
			if op.Name == "*" {
				if unfolds++; unfolds == 2 {
					v.error(op, diag.MultipleAttributesUnfold, "Unfolding of attributes from Hash can only be used once per resource body")
				}
			}
		}
	case *syntax.ResourceDefaultsExpr:
		if n.Form != syntax.Regular {
			v.error(n, diag.NotVirtualizeable, "Resource Defaults are not virtualizable")
		}
	case *syntax.ResourceOverrideExpr:
		if n.Form != syntax.Regular {
			v.error(n, diag.NotVirtualizeable, "Resource Defaults are not virtualizable")
		}
	case *syntax.Lambda:
		v.checkCaptureLast(n.Params)
	case *syntax.Parameter:
		v.checkParameter(n)
	case *syntax.ClassDef:
		v.checkNamedDefinition(n, n.Name)
		v.checkNoCapture(n, n.Params)
		v.checkUniqueParams(n.Params)
		v.checkReservedParams(n, n.Params)
		v.checkIdemLast(n, n.Body)
	case *syntax.DefineDef:
		v.checkNamedDefinition(n, n.Name)
		v.checkNoCapture(n, n.Params)
		v.checkUniqueParams(n.Params)
		v.checkReservedParams(n, n.Params)
		v.checkIdemLast(n, n.Body)
	case *syntax.FunctionDef:
		v.checkNamedDefinition(n, n.Name)
		v.checkUniqueParams(n.Params)
	case *syntax.NodeDef:
		for _, name := range n.Names {
			v.checkHostname(name)
		}
		v.top(n)
		v.checkIdemLast(n, n.Body)
		if n.Parent != nil {
			v.warning(n.Parent, diag.IllegalNodeInheritance, "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation")
		}
	case *syntax.TypeAlias:
		v.top(n)
		if !isTypeName(n.Name) {
			v.error(n, diag.IllegalDefinitionName, "Unacceptable name. The name '"+n.Name+"' is unacceptable as the name of a Type Alias")
		}
		v.checkTypeRef(n, n.Type)
	case *syntax.EPPProgram:
		v.checkNoCapture(n, n.Params)
		v.checkUniqueParams(n.Params)
	}
}

// reservedTypeNames are the names of Puppet's built-in types, which no
// class, define or function may take.
var reservedTypeNames = map[string]bool{
	"type": true, "any": true, "unit": true, "scalar": true, "boolean": true,
	"numeric": true, "integer": true, "float": true, "collection": true,
	"array": true, "hash": true, "tuple": true, "struct": true, "variant": true,
	"optional": true, "enum": true, "regexp": true, "pattern": true,
	"runtime": true, "init": true, "object": true, "sensitive": true,
	"semver": true, "semverrange": true, "string": true, "timestamp": true,
	"timespan": true, "typeset": true,
}

// checkStatements reports the first statement, the last excepted, whose
// value is computed and then dropped.
func (v *validator) checkStatements(stmts []syntax.Expr) {
	for _, s := range stmts[:max(len(stmts)-1, 0)] {
		if idem(s) {
			v.error(s, diag.IdemExpressionNotLast, "This "+label(s)+" has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)")
			return
		}
	}
}

// checkIdemLast reports a class, define or node body that ends with an
// expression without effect.
func (v *validator) checkIdemLast(def syntax.Node, body *syntax.Block) {
	if body == nil || len(body.Stmts) == 0 {
		return
	}
	last := body.Stmts[len(body.Stmts)-1]
	if idem(last) {
		v.error(last, diag.IdemNotAllowedLast, "This "+label(last)+" has no effect. "+aAnUpper(label(def))+" can not end with a value-producing expression without other effect")
	}
}

func (v *validator) checkNamedDefinition(def syntax.Definition, name string) {
	v.top(def)
	if !isClassName(name) {
		v.error(def, diag.IllegalDefinitionName, "Unacceptable name. The name '"+name+"' is unacceptable as the name of "+aAn(label(def)))
	}
	if reservedTypeNames[name] {
		v.error(def, diag.ReservedTypeName, "The name: '"+name+"' is already defined by Puppet and can not be used as the name of "+aAn(label(def))+".")
	}
	if name == "plan" {
		v.warning(def, diag.FutureReservedWord, "Use of future reserved word: 'plan'")
	}
}

// top checks that a definition appears where Puppet allows it: classes,
// defines and nodes at top level or in a class; functions and type aliases
// at top level only.
func (v *validator) top(def syntax.Definition) {
	absolute := false
	switch def.(type) {
	case *syntax.FunctionDef, *syntax.TypeAlias:
		absolute = true
	}
	for i := 1; ; i++ {
		switch c := v.parent(i).(type) {
		case nil, *syntax.Program, *syntax.ClassDef:
			return
		case *syntax.Block:
			if v.transparent(c, i) {
				continue
			}
			if _, ok := v.parent(i + 1).(*syntax.Program); !ok && absolute {
				v.error(def, diag.NotAbsoluteTopLevel, aAnUpper(label(def))+" may only appear at toplevel")
				return
			}
		default:
			v.error(def, diag.NotTopLevel, "Classes, definitions, and nodes may only appear at toplevel or inside other classes")
			return
		}
	}
}

// transparent reports whether the block b, the i-th ancestor, is a branch of
// an if or unless with a single statement: Puppet keeps no block for it, so
// its statement's container is the if.
func (v *validator) transparent(b *syntax.Block, i int) bool {
	if len(b.Stmts) != 1 {
		return false
	}
	switch v.parent(i + 1).(type) {
	case *syntax.IfExpr, *syntax.UnlessExpr:
		return true
	}
	return false
}

func (v *validator) checkNoCapture(def syntax.Node, params []*syntax.Parameter) {
	for _, p := range params {
		if p.CapturesRest {
			v.error(p, diag.CapturesRestNotSupported, "Parameter $"+p.Name+" has 'captures rest' - not supported in "+aAn(label(def)))
		}
	}
}

func (v *validator) checkCaptureLast(params []*syntax.Parameter) {
	for i, p := range params {
		if p.CapturesRest && i != len(params)-1 {
			v.error(p, diag.CapturesRestNotLast, "Parameter $"+p.Name+" is not last, and has 'captures rest'")
		}
	}
}

func (v *validator) checkUniqueParams(params []*syntax.Parameter) {
	// Short lists (most) are compared pairwise, without a map.
	var seen map[string]bool
	if len(params) > 24 {
		seen = make(map[string]bool, len(params))
	}
	for i, p := range params {
		dup := false
		if seen != nil {
			dup = seen[p.Name]
			seen[p.Name] = true
		} else {
			for _, q := range params[:i] {
				if q.Name == p.Name {
					dup = true
					break
				}
			}
		}
		if dup {
			v.error(p, diag.DuplicateParameter, "The parameter '"+p.Name+"' is declared more than once in the parameter list")
		}
	}
}

func (v *validator) checkReservedParams(def syntax.Node, params []*syntax.Parameter) {
	for _, p := range params {
		if p.Name == "name" || p.Name == "title" {
			v.error(p, diag.ReservedParameter, "The parameter $"+p.Name+" redefines a built in parameter in the "+label(def))
		}
	}
}

func (v *validator) checkParameter(p *syntax.Parameter) {
	if isNumericParam(p.Name) {
		v.error(p, diag.IllegalNumericParameter, "The numeric parameter name '$"+p.Name+"' cannot be used (clashes with numeric match result variables)")
	}
	if !isParamName(p.Name) {
		v.error(p, diag.IllegalParamName, "Illegal parameter name. The given name '"+p.Name+`' does not conform to the naming rule /^[a-z_]\w*$/`)
	}
	if p.Default != nil {
		v.noAssignment(p.Default)
	}
}

// noAssignment reports assignments in a parameter's default value, lambdas
// excepted.
func (v *validator) noAssignment(x syntax.Expr) {
	syntax.Inspect(x, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.AssignExpr:
			v.error(n, diag.IllegalAssignmentContext, "Assignment not allowed here")
			return false
		case *syntax.Lambda:
			return false
		}
		return true
	})
}

func (v *validator) checkVariable(x *syntax.Variable) {
	name := x.Name
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		if !isNumericVarName(name) {
			v.error(x, diag.IllegalNumericVarName, "Illegal numeric variable name, The given name '"+name+"' must be a decimal value if it starts with a digit 0-9")
		}
		return
	}
	if !isVarName(name) {
		v.error(x, diag.IllegalVarName, "Illegal variable name, The given name '"+name+`' does not conform to the naming rule /^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$/`)
	}
}

// checkTypeRef checks the type of a type alias: a type name, possibly with
// parameters, or an Object's hash.
func (v *validator) checkTypeRef(def syntax.Node, t syntax.Expr) {
	x := t
	if a, ok := x.(*syntax.AccessExpr); ok {
		x = a.Operand
	}
	switch x.(type) {
	case *syntax.TypeReference, *syntax.HashLit:
		return
	}
	v.error(t, diag.IllegalExpression, "Illegal expression. "+aAnUpper(label(t))+" is unacceptable as a type reference in "+aAn(label(def)))
}

func (v *validator) checkHostname(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.StringLit:
		if hasIllegalHostnameChar(x.Value) {
			v.error(x, diag.IllegalHostnameChars, "The hostname '"+x.Value+"' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)")
		}
	case *syntax.InterpolatedString:
		for _, part := range x.Parts {
			if _, text := part.(*syntax.StringLit); !text {
				v.error(part, diag.IllegalHostnameInterpolation, "An interpolated expression is not allowed in a hostname of a node")
				return
			}
		}
		if len(x.Parts) == 1 {
			v.checkHostname(x.Parts[0])
		} else {
			v.error(x, diag.IllegalHostnameInterpolation, "An interpolated expression is not allowed in a hostname of a node")
		}
	case *syntax.IntegerLit, *syntax.FloatLit, *syntax.DefaultLit, *syntax.RegexLit:
	default:
		v.error(x, diag.IllegalExpression, "Illegal expression. "+aAnUpper(label(x))+" is unacceptable as hostname in a Node Definition")
	}
}

// checkHash warns of keys given twice in a hash literal.
func (v *validator) checkHash(h *syntax.HashLit) {
	seen := make(map[string]bool)
	for _, e := range h.Entries {
		key, ok := literalKey(e.Key)
		if !ok {
			continue
		}
		if seen[key] {
			// Puppet places the warning at the entry's "=>".
			at := e.Arrow
			if !at.IsValid() {
				at = e.Pos()
			}
			w := diag.New(diag.DuplicateKey, diag.Span(v.file, at, e.End()), "The key '"+key[1:]+"' is declared more than once")
			w.Severity = diag.Warning
			w.Args = diag.Args{"key": key[1:]}
			v.warnings.Add(w)
		}
		seen[key] = true
	}
}

// literalKey returns a hash key that is a literal as a string that tells
// its kind and value apart, and whether it is one.
func literalKey(x syntax.Expr) (string, bool) {
	switch x := x.(type) {
	case *syntax.StringLit:
		return "s" + x.Value, true
	case *syntax.QualifiedName:
		return "s" + x.Name, true
	case *syntax.IntegerLit:
		return "n" + formatInt(x.Value), true
	case *syntax.BoolLit:
		if x.Value {
			return "btrue", true
		}
		return "bfalse", true
	}
	return "", false
}

// assign checks the left side of an assignment.
func (v *validator) assign(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.Variable:
		if isNumericVarName(x.Name) {
			v.error(x, diag.IllegalNumericAssignment, "Illegal attempt to assign to the numeric match result variable '$"+x.Name+"'. Numeric variables are not assignable")
		}
		if strings.Contains(x.Name, "::") {
			v.error(x, diag.CrossScopeAssignment, "Illegal attempt to assign to '"+x.Name+"'. Cannot assign to variables in other namespaces")
		}
	case *syntax.AccessExpr:
		v.error(x, diag.IllegalIndexedAssignment, "Illegal attempt to assign via [index/key]. Not an assignable reference")
	case *syntax.ArrayLit:
		for _, e := range x.Elements {
			v.assign(e)
		}
	default:
		v.error(x, diag.IllegalAssignment, "Illegal attempt to assign to '"+aAn(label(x))+"'. Not an assignable reference")
	}
}

// rvalue checks that x produces a value.
func (v *validator) rvalue(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.CollectExpr, syntax.Definition:
		v.error(x, diag.NotRvalue, "Invalid use of expression. "+aAnUpper(label(x))+" does not produce a value")
	case *syntax.UnaryExpr:
		v.rvalue(x.Operand)
	case *syntax.ParenExpr:
		v.rvalue(x.X)
	}
}

// relation checks a side of a relationship: a collector or another
// relationship may stand there, besides values.
func (v *validator) relation(x syntax.Expr) {
	switch x.(type) {
	case *syntax.CollectExpr, *syntax.RelationshipExpr:
		return
	}
	v.rvalue(x)
}

// query checks the query of a collector: comparisons with == and !=
// combined with and, or and parentheses.
func (v *validator) query(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.AND, syntax.OR:
			v.query(x.Left)
			v.query(x.Right)
			return
		case syntax.EQL, syntax.NEQ:
			return
		}
	case *syntax.ParenExpr:
		v.query(x.X)
		return
	case *syntax.Variable, *syntax.QualifiedName, *syntax.IntegerLit, *syntax.FloatLit,
		*syntax.StringLit, *syntax.BoolLit:
		return
	}
	v.error(x, diag.IllegalQueryExpression, "Illegal query expression. "+aAnUpper(label(x))+" cannot be used in a query")
}

// idem reports whether evaluating x is known to have no effect but its
// value.
func idem(x syntax.Expr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.StringLit, *syntax.InterpolatedString, *syntax.Heredoc,
		*syntax.IntegerLit, *syntax.FloatLit, *syntax.BoolLit, *syntax.UndefLit,
		*syntax.DefaultLit, *syntax.RegexLit, *syntax.QualifiedName,
		*syntax.TypeReference, *syntax.ArrayLit,
		*syntax.HashLit, *syntax.AccessExpr, *syntax.Variable, *syntax.UnaryExpr,
		*syntax.SelectorExpr:
		return true
	case *syntax.BinaryExpr:
		// A match sets $0, $1, ...
		return x.Op != syntax.MATCH && x.Op != syntax.NOMATCH
	case *syntax.ParenExpr:
		return idem(x.X)
	case *syntax.Block:
		if x == nil {
			return true
		}
		for _, s := range x.Stmts {
			if !idem(s) {
				return false
			}
		}
		return true
	case *syntax.IfExpr:
		return idem(x.Cond) && idem(x.Then) && idem(x.Else)
	case *syntax.UnlessExpr:
		return idem(x.Cond) && idem(x.Then) && idem(x.Else)
	case *syntax.CaseExpr:
		if !idem(x.Test) {
			return false
		}
		for _, o := range x.Options {
			for _, val := range o.Values {
				if !idem(val) {
					return false
				}
			}
			if !idem(o.Body) {
				return false
			}
		}
		return true
	}
	return false
}
