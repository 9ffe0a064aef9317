package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// collector is a Type <| query |> expression: it realizes matching virtual
// resources (re-run until the compile settles) and applies its overrides to
// everything it matched.
type collector struct {
	typ     string
	x       *syntax.CollectExpr
	scope   *eval.Scope
	ops     []attrOp
	matched []*resource
	seen    map[*resource]bool
	// emptyAlternative is the left operand of the chaining arrow this
	// collector is the right operand of: the source when it collects nothing.
	emptyAlternative value.Array
	// fetched: an exported collector asked the Store already.
	fetched bool
}

func (c *Compilation) collect(sc *eval.Scope, x *syntax.CollectExpr) (value.Value, error) {
	// Puppet checks the type when it evaluates the collector, with or
	// without a store.
	if err := c.collectableType(x.Type.Name); err != nil {
		what := "Error while evaluating a Virtual Query, "
		if x.Exported {
			what = "Error while evaluating an Exported Query, "
		}
		return nil, evalError(sc, x, what, err)
	}
	col := &collector{typ: value.CapitalizeName(x.Type.Name), x: x, scope: sc, seen: map[*resource]bool{}}
	if len(x.Ops) > 0 {
		ops, err := c.attrValues(sc, x.Ops, x)
		if err != nil {
			return nil, err
		}
		col.ops = ops
	}
	c.collectors = append(c.collectors, col)
	// A collector's value (for relationships) is resolved at finish.
	return &collectorRef{col: col}, nil
}

// collectableType reports why a collector of type name cannot be
// evaluated: classes, and types that are neither native nor defined.
func (c *Compilation) collectableType(name string) error {
	lower := strings.ToLower(name)
	if lower == "class" {
		return fmt.Errorf("Classes cannot be collected")
	}
	if c.types == nil {
		return nil
	}
	if _, ok := c.types.Lookup(lower); ok {
		return nil
	}
	d, err := c.env.lookup(environment.KindDefine, lower)
	if err != nil {
		return err
	}
	if d == nil {
		return fmt.Errorf("Resource type %s doesn't exist", lower)
	}
	return nil
}

// collectorRef is the value of a collector expression.
type collectorRef struct {
	value.Extension
	col *collector
}

// runCollectors evaluates every collector once; it returns how many
// resources were newly matched.
func (c *Compilation) runCollectors() (int, error) {
	n := 0
	for _, col := range c.collectors {
		// Exported collectors (<<| |>>) find nothing without a store,
		// as Puppet's without storeconfigs; with one they collect the
		// node's own exports, then the store's.
		if col.x.Exported && c.req.Store == nil {
			continue
		}
		// Resources the operations below declare join the list: the
		// loop reads it again each time round.
		for i := 0; i < len(c.byType[col.typ]); i++ {
			r := c.byType[col.typ][i]
			if err := c.ev.Tick(); err != nil {
				return n, err
			}
			if col.seen[r] || col.x.Exported && !r.exported {
				continue
			}
			ok, err := c.queryMatches(col.scope, col.x.Query, r)
			if err != nil {
				return n, err
			}
			if !ok {
				continue
			}
			col.seen[r] = true
			col.matched = append(col.matched, r)
			n++
			if r.virtual {
				c.realize(r)
			}
			c.applyCollectorOps(r, col.ops)
		}
		if col.x.Exported {
			m, err := c.collectStored(col)
			n += m
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// realize makes a virtual (or exported) resource part of the catalog.
func (c *Compilation) realize(r *resource) {
	if !r.virtual {
		return
	}
	r.virtual = false
	r.Exported = r.exported
	if r.define != nil && !r.evaluated {
		c.pendingDefines = append(c.pendingDefines, r)
	}
}

// queryMatches evaluates a collector query against a resource.
func (c *Compilation) queryMatches(sc *eval.Scope, q syntax.Expr, r *resource) (bool, error) {
	switch q := q.(type) {
	case nil:
		return true, nil
	case *syntax.ParenExpr:
		return c.queryMatches(sc, q.X, r)
	case *syntax.BinaryExpr:
		switch q.Op {
		case syntax.AND, syntax.OR:
			l, err := c.queryMatches(sc, q.Left, r)
			if err != nil {
				return false, err
			}
			if q.Op == syntax.AND && !l || q.Op == syntax.OR && l {
				return l, nil
			}
			return c.queryMatches(sc, q.Right, r)
		case syntax.EQL, syntax.NEQ:
			name, err := queryAttribute(q.Left)
			if err != nil {
				return false, eval.Errorf(c.pos(sc, q), "%s", err)
			}
			want, err := c.ev.Eval(q.Right, sc)
			if err != nil {
				return false, err
			}
			if q.Op == syntax.NEQ {
				// Puppet's != compares the attribute's value whole: no
				// element matching for arrays, and tag is the tag
				// parameter, not the resource's tags.
				return !value.Equal(attributeValue(r, name), want), nil
			}
			return attributeEquals(r, name, want), nil
		}
	}
	return false, eval.Errorf(c.pos(sc, q), "Unsupported collector query expression")
}

func queryAttribute(x syntax.Expr) (string, error) {
	switch x := x.(type) {
	case *syntax.QualifiedName:
		return x.Name, nil
	case *syntax.StringLit:
		return x.Value, nil
	}
	return "", fmt.Errorf("A collector query must compare an attribute name")
}

// attributeEquals is a collector comparison: array values match when any
// element matches; tag compares against the resource's tags.
func attributeEquals(r *resource, name string, want value.Value) bool {
	switch name {
	case "title":
		return value.Equal(value.String(r.Title), want)
	case "tag":
		ws := value.ToString(want)
		for _, t := range r.Tags {
			if equalFoldASCII(t, ws) {
				return true
			}
		}
		return false
	}
	v, ok := r.Param(name)
	if !ok {
		return value.IsUndef(want)
	}
	if a, isArr := v.(value.Array); isArr {
		for _, e := range a {
			if value.Equal(e, want) {
				return true
			}
		}
		return false
	}
	return value.Equal(v, want)
}

// attributeValue is what Puppet's resource[name] gives a collector query:
// the title, or the parameter's value (undef when unset).
func attributeValue(r *resource, name string) value.Value {
	if name == "title" {
		return value.String(r.Title)
	}
	if v, ok := r.Param(name); ok {
		return v
	}
	return value.Undef
}

func equalFoldASCII(a, b string) bool { return value.StringsEqual(a, b) }

// applyCollectorOps applies a collector block to a resource it collected;
// tag adds to the resource's tags, as it does in an override.
func (c *Compilation) applyCollectorOps(r *resource, ops []attrOp) {
	for _, o := range ops {
		c.applyOverrideOp(r, o)
		if o.name == "tag" {
			r.AddTags(tagValues(o.value)...)
		}
	}
}

// applyOverrideOp applies one attribute operation of an override or a
// collector: => replaces (undef removes), +> appends.
func (c *Compilation) applyOverrideOp(r *resource, o attrOp) {
	// The body's line no longer locates this attribute's value.
	r.relLines = slices.DeleteFunc(r.relLines, func(rl relLine) bool { return rl.name == o.name })
	if o.appendOp {
		old, ok := r.Param(o.name)
		if ok {
			c.setParam(r, o.name, appendValues(old, o.value))
			return
		}
	}
	if value.IsUndef(o.value) {
		r.SetParam(o.name, value.Undef)
		return
	}
	c.setParam(r, o.name, o.value)
}

func appendValues(old, add value.Value) value.Value {
	out := value.Array{}
	if a, ok := old.(value.Array); ok {
		out = append(out, a...)
	} else {
		out = append(out, old)
	}
	if a, ok := add.(value.Array); ok {
		return append(out, a...)
	}
	return append(out, add)
}

// relationship is one source → target pair of a chaining arrow, applied at
// finish. Either side may be a collector, resolved then.
type relationship struct {
	param          string // "before" or "notify"
	source, target value.Value
	pos            syntax.Position
}

// relationship evaluates a chaining arrow as Puppet does: both operands
// are flattened into sets of references (or collectors), every source is
// related to every target, and the expression's value is the right operand
// (the left one when the right is empty, so X -> [] -> Y relates X to Y; a
// collector on the right remembers the left as its empty alternative).
func (c *Compilation) relationship(sc *eval.Scope, x *syntax.RelationshipExpr) (value.Value, error) {
	l, err := c.ev.Eval(x.Left, sc)
	if err != nil {
		return nil, err
	}
	r, err := c.ev.Eval(x.Right, sc)
	if err != nil {
		return nil, err
	}
	left, right := operandSet(l), operandSet(r)
	source, target := left, right
	if x.Op == syntax.REQUIRE || x.Op == syntax.SUBSCRIBE {
		source, target = right, left
	}
	param := "before"
	if x.Op == syntax.NOTIFY || x.Op == syntax.SUBSCRIBE {
		param = "notify"
	}
	pos := c.pos(sc, x)
	for _, s := range source {
		for _, t := range target {
			c.relationships = append(c.relationships, &relationship{param: param, source: s, target: t, pos: pos})
		}
	}
	if len(right) == 0 {
		return left, nil
	}
	if len(right) == 1 {
		if col, ok := right[0].(*collectorRef); ok {
			col.col.emptyAlternative = left
		}
	}
	return right, nil
}

// operandSet flattens a relationship operand into unique references and
// collectors.
func operandSet(v value.Value) value.Array {
	var out value.Array
	seenRef := map[catalog.Ref]bool{}
	seenCol := map[*collector]bool{}
	var add func(v value.Value)
	add = func(v value.Value) {
		switch v := v.(type) {
		case value.Array:
			for _, e := range v {
				add(e)
			}
		case *collectorRef:
			if !seenCol[v.col] {
				seenCol[v.col] = true
				out = append(out, v)
			}
		default:
			for _, ref := range refList(v) {
				if !seenRef[ref] {
					seenRef[ref] = true
					out = append(out, refValue(ref))
				}
			}
		}
	}
	add(v)
	return out
}

// sourceRefs resolves the source side of a relationship: a collector that
// collected nothing falls back to its empty alternative, recursively.
func (c *Compilation) sourceRefs(v value.Value) []catalog.Ref {
	for depth := 0; depth < 100; depth++ {
		col, ok := v.(*collectorRef)
		if !ok {
			return c.operandRefs(v)
		}
		if len(col.col.matched) > 0 || col.col.emptyAlternative == nil {
			return c.operandRefs(col)
		}
		alt := col.col.emptyAlternative
		if len(alt) == 1 {
			v = alt[0]
			continue
		}
		return c.operandRefs(alt)
	}
	return nil
}

// operandRefs resolves one side of a relationship to references.
func (c *Compilation) operandRefs(v value.Value) []catalog.Ref {
	switch v := v.(type) {
	case *collectorRef:
		out := make([]catalog.Ref, 0, len(v.col.matched))
		for _, r := range v.col.matched {
			out = append(out, r.Ref())
		}
		return out
	case value.Array:
		var out []catalog.Ref
		for _, e := range v {
			out = append(out, c.operandRefs(e)...)
		}
		return out
	}
	return refList(v)
}
