package eval

import (
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// match evaluates `left =~ right`. It returns whether it matched and, for a
// regexp match, the captures ($0..$n) for the branch that follows.
func (ev *Evaluator) match(x *syntax.BinaryExpr, sc *Scope) (bool, []value.Value, error) {
	l, err := ev.Eval(x.Left, sc)
	if err != nil {
		return false, nil, err
	}
	r, err := ev.Eval(x.Right, sc)
	if err != nil {
		return false, nil, err
	}
	return ev.matchValues(sc, x, l, r)
}

func (ev *Evaluator) matchValues(sc *Scope, at syntax.Node, l, r value.Value) (bool, []value.Value, error) {
	var re *value.Regexp
	switch rv := r.(type) {
	case value.Type:
		ok, err := value.CheckInstance(rv, l)
		if err != nil {
			return false, nil, errorAt(sc, at, "%v", err)
		}
		return ok, nil, nil
	case *value.SemVerRange:
		return value.RangeIncludes(rv, l), nil, nil
	case *value.Regexp:
		re = rv
	case value.String:
		var err error
		if re, err = ev.regexp(string(rv)); err != nil {
			return false, nil, errorAt(sc, at, "Invalid regular expression: %v", err)
		}
	default:
		return false, nil, IssueAt(sc, at, diag.OperatorNotApplicable, diag.Args{"operator": "=~"}, "Operator '=~' is not applicable to %s", describe(r))
	}
	s, ok := l.(value.String)
	if !ok {
		// Puppet names the left operand's own position, and labels undef
		// "an Undef Value".
		if b, isBin := at.(*syntax.BinaryExpr); isBin {
			at = b.Left
		}
		got := describe(l)
		if value.IsUndef(l) {
			got = "an Undef Value"
		}
		return false, nil, errorAt(sc, at, "Left match operand must result in a String value. Got %s.", got)
	}
	m, err := re.FindSubmatch(string(s))
	if err != nil {
		return false, nil, errorAt(sc, at, "%v", err)
	}
	if m == nil {
		return false, nil, nil
	}
	caps := make([]value.Value, len(m))
	for i, c := range m {
		caps[i] = value.String(c)
	}
	return true, caps, nil
}

// condition evaluates an if/unless condition; when its top level is a
// regexp match, the captures come back for the branch scope.
func (ev *Evaluator) condition(cond syntax.Expr, sc *Scope) (bool, []value.Value, error) {
	if b, ok := unparen(cond).(*syntax.BinaryExpr); ok && b.Op == syntax.MATCH {
		return ev.match(b, sc)
	}
	if b, ok := unparen(cond).(*syntax.BinaryExpr); ok && (b.Op == syntax.AND || b.Op == syntax.OR) {
		// The captures of a match on the left are visible on the right,
		// and the last match that captured gives the branch its own.
		lt, caps, err := ev.condition(b.Left, sc)
		if err != nil || (b.Op == syntax.AND) != lt {
			return lt, caps, err
		}
		rt, rcaps, err := ev.condition(b.Right, branchScope(sc, caps))
		if rcaps != nil {
			caps = rcaps
		}
		return rt, caps, err
	}
	v, err := ev.Eval(cond, sc)
	if err != nil {
		return false, nil, err
	}
	return value.Truthy(v), nil, nil
}

func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// branchScope is the scope a branch runs in: a match scope when the
// condition captured something.
func branchScope(sc *Scope, caps []value.Value) *Scope {
	if caps == nil {
		return sc
	}
	return sc.NewMatchScope(caps)
}

func (ev *Evaluator) ifExpr(x *syntax.IfExpr, sc *Scope) (value.Value, error) {
	ok, caps, err := ev.condition(x.Cond, sc)
	if err != nil {
		return nil, err
	}
	if ok {
		return ev.Block(x.Then, branchScope(sc, caps))
	}
	if x.Else == nil {
		return value.Undef, nil
	}
	return ev.Eval(x.Else, sc)
}

func (ev *Evaluator) unlessExpr(x *syntax.UnlessExpr, sc *Scope) (value.Value, error) {
	ok, _, err := ev.condition(x.Cond, sc)
	if err != nil {
		return nil, err
	}
	if !ok {
		return ev.Block(x.Then, sc)
	}
	return ev.Block(x.Else, sc)
}

// caseMatch tests one case/selector option against the tested value.
func (ev *Evaluator) caseMatch(sc *Scope, at syntax.Node, test, opt value.Value) (bool, []value.Value, error) {
	switch o := opt.(type) {
	case *value.Regexp:
		if _, ok := test.(value.String); !ok {
			return false, nil, nil
		}
		return ev.matchValues(sc, at, test, o)
	case value.Type:
		ok, err := value.CheckInstance(o, test)
		if err != nil {
			return false, nil, errorAt(sc, at, "%v", err)
		}
		return ok, nil, nil
	case *value.SemVerRange:
		return value.RangeIncludes(o, test), nil, nil
	case value.Array:
		// An array option matches an array of the same length element by
		// element, each by these rules (a regexp element matches a string),
		// as Puppet's case and selector do; it sets no captures. Without a
		// pattern in it that is equality, which compares shared structure
		// once (an element-wise walk would expand it).
		budget := maxPatternWalk
		if !hasPattern(o, &budget) {
			return value.Equal(test, opt), nil, nil
		}
		t, ok := test.(value.Array)
		if !ok || len(t) != len(o) {
			return false, nil, nil
		}
		for i := range o {
			ok, _, err := ev.caseMatch(sc, at, t[i], o[i])
			if !ok || err != nil {
				return false, nil, err
			}
		}
		return true, nil, nil
	}
	return value.Equal(test, opt), nil, nil
}

// maxPatternWalk bounds the elements hasPattern looks at: options written
// with patterns are small literals; a larger (shared) value is compared by
// equality.
const maxPatternWalk = 10000

// hasPattern reports whether an array option holds, at any depth of
// arrays, an element that matches other than by equality (a regexp, a
// type, a version range). It gives up, answering false, once it has
// looked at *budget elements.
func hasPattern(a value.Array, budget *int) bool {
	for _, e := range a {
		if *budget--; *budget < 0 {
			return false
		}
		switch e := e.(type) {
		case *value.Regexp, value.Type, *value.SemVerRange:
			return true
		case value.Array:
			if hasPattern(e, budget) {
				return true
			}
		}
	}
	return false
}

// evalList evaluates a list of expressions (array elements, arguments, case
// options, access keys), unfolding splats (*$x).
// isSplat reports whether e is a splat (*$x), which evalList expands.
func isSplat(e syntax.Expr) bool {
	u, ok := e.(*syntax.UnaryExpr)
	return ok && u.Op == syntax.MUL
}

func (ev *Evaluator) evalList(vals []syntax.Expr, sc *Scope) ([]value.Value, error) {
	out := make([]value.Value, 0, len(vals))
	for _, e := range vals {
		if isSplat(e) {
			v, err := ev.Eval(e.(*syntax.UnaryExpr).Operand, sc)
			if err != nil {
				return nil, err
			}
			out = appendSplat(out, v)
			continue
		}
		v, err := ev.Eval(e, sc)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (ev *Evaluator) caseExpr(x *syntax.CaseExpr, sc *Scope) (value.Value, error) {
	test, err := ev.Eval(x.Test, sc)
	if err != nil {
		return nil, err
	}
	var deflt *syntax.CaseOption
	for _, o := range x.Options {
		vals, err := ev.evalList(o.Values, sc)
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			if value.IsDefault(v) {
				deflt = o
				continue
			}
			ok, caps, err := ev.caseMatch(sc, o.Values[min(i, len(o.Values)-1)], test, v)
			if err != nil {
				return nil, err
			}
			if ok {
				return ev.Block(o.Body, branchScope(sc, caps))
			}
		}
	}
	if deflt != nil {
		return ev.Block(deflt.Body, sc)
	}
	return value.Undef, nil
}

func (ev *Evaluator) selector(x *syntax.SelectorExpr, sc *Scope) (value.Value, error) {
	test, err := ev.Eval(x.Test, sc)
	if err != nil {
		return nil, err
	}
	var deflt *syntax.SelectorOption
	for _, o := range x.Options {
		// Only a splat gives more than one value; the common single value
		// needs no slice on the heap.
		var one [1]value.Value
		var vals []value.Value
		if isSplat(o.Match) {
			vals, err = ev.evalList([]syntax.Expr{o.Match}, sc)
		} else {
			one[0], err = ev.Eval(o.Match, sc)
			vals = one[:]
		}
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if value.IsDefault(v) {
				if deflt == nil {
					deflt = o
				}
				continue
			}
			ok, caps, err := ev.caseMatch(sc, o.Match, test, v)
			if err != nil {
				return nil, err
			}
			if ok {
				return ev.Eval(o.Value, branchScope(sc, caps))
			}
		}
	}
	if deflt != nil {
		return ev.Eval(deflt.Value, sc)
	}
	return nil, IssueAt(sc, x, diag.UnmatchedSelector, diag.Args{"param_value": value.ToString(test)}, "No matching entry for selector parameter with value '%s'", value.ToString(test))
}

func (ev *Evaluator) assign(x *syntax.AssignExpr, sc *Scope) (value.Value, error) {
	v, err := ev.Eval(x.Right, sc)
	if err != nil {
		return nil, err
	}
	if err := ev.assignTo(x.Left, v, sc, x); err != nil {
		return nil, err
	}
	return v, nil
}

// assignTo assigns v to target, a variable or an array or hash of them.
// Errors are reported at the assignment expression at, as Puppet does.
func (ev *Evaluator) assignTo(target syntax.Expr, v value.Value, sc *Scope, at syntax.Node) error {
	switch t := target.(type) {
	case *syntax.Variable:
		name := t.Name
		if _, numeric := captureIndex(name); numeric {
			return errorAt(sc, at, "Illegal attempt to assign to 'a Match Variable'. Not an assignable reference")
		}
		if isQualified(name) || len(name) > 2 && name[:2] == "::" {
			return errorAt(sc, at, "Illegal attempt to assign to 'a Qualified Variable'. Not an assignable reference")
		}
		if name == "facts" || name == "trusted" || name == "server_facts" {
			return IssueAt(sc, at, diag.IllegalReservedAssignment, diag.Args{"name": name}, "Attempt to assign to a reserved variable name: '$%s'", name)
		}
		if !sc.Set(name, v) {
			return IssueAt(sc, at, diag.IllegalReassignment, diag.Args{"name": name}, "Cannot reassign variable '$%s'", name)
		}
		return nil
	case *syntax.ArrayLit:
		switch vv := v.(type) {
		case value.Array:
			if len(vv) != len(t.Elements) {
				return IssueAt(sc, at, diag.IllegalMultiAssignmentSize, diag.Args{"expected": len(t.Elements), "actual": len(vv)}, "Mismatched number of assignable entries and values, expected %d, got %d", len(t.Elements), len(vv))
			}
			for i, e := range t.Elements {
				if err := ev.assignTo(e, vv[i], sc, at); err != nil {
					return err
				}
			}
			return nil
		case *value.Hash:
			for _, e := range t.Elements {
				vr, ok := e.(*syntax.Variable)
				if !ok {
					return errorAt(sc, e, "Illegal attempt to assign to an Array of non variables")
				}
				hv, found := vv.Get(value.String(vr.Name))
				if !found {
					return IssueAt(sc, e, diag.MissingMultiAssignmentKey, diag.Args{"key": vr.Name}, "No value for required variable '$%s' in hash", vr.Name)
				}
				if err := ev.assignTo(vr, hv, sc, at); err != nil {
					return err
				}
			}
			return nil
		}
		return errorAt(sc, at, "Illegal attempt to assign %s to an Array of variables", describe(v))
	}
	return errorAt(sc, target, "Illegal attempt to assign to '%s'. Not an assignable reference", nodeDescription(target))
}

func nodeDescription(x syntax.Expr) string {
	switch x.(type) {
	case *syntax.StringLit, *syntax.InterpolatedString:
		return "a String"
	case *syntax.IntegerLit, *syntax.FloatLit:
		return "a Number"
	case *syntax.AccessExpr:
		return "an Access Expression"
	case *syntax.CallExpr, *syntax.MethodCall:
		return "a Function Call"
	case *syntax.QualifiedName:
		return "a Name"
	}
	return "an Expression"
}
