package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Statement implements eval.Host: the catalog statements.
func (c *Compilation) Statement(ev *eval.Evaluator, sc *eval.Scope, x syntax.Expr) (value.Value, error) {
	switch x := x.(type) {
	case *syntax.ResourceExpr:
		v, err := c.declareResources(sc, x, true)
		if err != nil {
			return nil, evalError(sc, x, "Error while evaluating a Resource Statement, ", err)
		}
		return v, nil
	case *syntax.ResourceDefaultsExpr:
		return value.Undef, c.resourceDefaults(sc, x)
	case *syntax.ResourceOverrideExpr:
		return value.Undef, c.resourceOverride(sc, x)
	case *syntax.CollectExpr:
		return c.collect(sc, x)
	case *syntax.RelationshipExpr:
		return c.relationship(sc, x)
	}
	return nil, fmt.Errorf("unsupported statement %T", x)
}

// RunStatement implements eval.StatementRunner: a resource declaration
// whose value is not used does not build its list of references.
func (c *Compilation) RunStatement(ev *eval.Evaluator, sc *eval.Scope, x syntax.Expr) error {
	if rx, ok := x.(*syntax.ResourceExpr); ok {
		if _, err := c.declareResources(sc, rx, false); err != nil {
			return evalError(sc, x, "Error while evaluating a Resource Statement, ", err)
		}
		return nil
	}
	_, err := c.Statement(ev, sc, x)
	return err
}

// attrValues evaluates attribute operations into ordered name/value pairs.
// A `* => hash` splat contributes its entries; setting one attribute twice
// is an error. stmt is the statement the operations belong to.
func (c *Compilation) attrValues(sc *eval.Scope, ops []*syntax.AttributeOp, stmt syntax.Node) ([]attrOp, error) {
	return c.attrValuesInto(make([]attrOp, 0, len(ops)), sc, ops, stmt)
}

// attrValuesInto is attrValues appending to out (given empty): a caller
// that keeps none of the result passes a buffer on its stack.
func (c *Compilation) attrValuesInto(out []attrOp, sc *eval.Scope, ops []*syntax.AttributeOp, stmt syntax.Node) ([]attrOp, error) {
	// Every attribute set so far is in out; a scan of the few there beats
	// a map.
	seen := func(name string) bool {
		return slices.ContainsFunc(out, func(o attrOp) bool { return o.name == name })
	}
	for _, op := range ops {
		v, err := c.ev.Eval(op.Value, sc)
		if err != nil {
			return nil, err
		}
		if op.Name == "*" {
			h, ok := v.(*value.Hash)
			if !ok {
				if value.IsUndef(v) {
					continue
				}
				return nil, eval.Errorf(c.pos(sc, op), "The value of the '* =>' attribute must be a Hash")
			}
			for i, k := range h.Keys() {
				name := value.ToString(k)
				if seen(name) {
					// Puppet places this one at the statement.
					return nil, c.issueAt(sc, stmt, diag.DuplicateAttribute, diag.Args{"attribute": name}, "The attribute '%s' has already been set", name)
				}
				out = append(out, attrOp{name: name, value: h.Values()[i], op: op})
			}
			continue
		}
		if seen(op.Name) {
			return nil, c.issueAt(sc, op, diag.DuplicateAttribute, diag.Args{"attribute": op.Name}, "The attribute '%s' has already been set", op.Name)
		}
		out = append(out, attrOp{name: op.Name, value: v, op: op, appendOp: op.Op == syntax.PARROW})
	}
	return out, nil
}

type attrOp struct {
	name     string
	value    value.Value
	op       *syntax.AttributeOp
	appendOp bool
}

// titles flattens an evaluated title into the list of titles it declares.
func titles(v value.Value) ([]string, bool) {
	switch v := v.(type) {
	case value.String:
		return []string{string(v)}, true
	case value.Array:
		var out []string
		for _, e := range v {
			t, ok := titles(e)
			if !ok {
				return nil, false
			}
			out = append(out, t...)
		}
		return out, true
	case value.Integer, value.Float, value.Boolean:
		return []string{value.ToString(v)}, true
	case *value.ResourceType:
		return []string{v.Title}, true
	}
	return nil, false
}

// declareResources declares the resources of a resource expression; its
// value, the references to them, is built only when wantRefs is set.
func (c *Compilation) declareResources(sc *eval.Scope, x *syntax.ResourceExpr, wantRefs bool) (value.Value, error) {
	var typeName string
	switch t := x.Type.(type) {
	case *syntax.QualifiedName:
		typeName = environment.CanonicalName(t.Name)
	case *syntax.StringLit:
		typeName = environment.CanonicalName(t.Value)
	default:
		tv, err := c.ev.Eval(x.Type, sc)
		if err != nil {
			return nil, err
		}
		typeName = environment.CanonicalName(value.ToString(tv))
	}
	// A body titled `default:` supplies attributes to every other body.
	var defaults []attrOp
	for _, b := range x.Bodies {
		if _, ok := b.Title.(*syntax.DefaultLit); ok {
			ops, err := c.attrValues(sc, b.Ops, x)
			if err != nil {
				return nil, err
			}
			defaults = ops
		}
	}
	var refs value.Array
	if wantRefs {
		refs = make(value.Array, 0, len(x.Bodies))
	}
	for _, b := range x.Bodies {
		if _, ok := b.Title.(*syntax.DefaultLit); ok {
			continue
		}
		tv, err := c.ev.Eval(b.Title, sc)
		if err != nil {
			return nil, err
		}
		var ts []string
		var ok bool
		if t, isStr := tv.(value.String); isStr {
			// The usual single title needs no list on the heap.
			var one [1]string
			one[0], ts, ok = string(t), one[:], true
		} else {
			ts, ok = titles(tv)
		}
		if !ok || value.IsUndef(tv) {
			return nil, c.issueAt(sc, b.Title, diag.MissingTitle, nil, "Missing title. The title expression resulted in undef")
		}
		// The operations are copied into the resources and kept by none of
		// them: the usual few live on the stack.
		var buf [8]attrOp
		ops, err := c.attrValuesInto(buf[:0], sc, b.Ops, x)
		if err != nil {
			return nil, err
		}
		ops = withBodyDefaults(ops, defaults)
		// Every body's resources carry the line of the resource expression.
		pos := c.pos(sc, x)
		var shared []*sharedArray
		if len(ts) > 1 && typeName != "class" {
			for _, o := range ops {
				if a, ok := o.value.(value.Array); ok && len(a) > 0 && (o.name == "before" || o.name == "notify") {
					shared = append(shared, &sharedArray{param: o.name})
				}
			}
		}
		for _, title := range ts {
			if typeName == "class" {
				if err := c.declareClassFromResource(sc, title, ops, pos); err != nil {
					return nil, err
				}
				if wantRefs {
					refs = append(refs, &value.ClassType{Name: environment.CanonicalName(title)})
				}
				continue
			}
			r, err := c.declareResource(sc, typeName, title, ops, pos, x.Form)
			if err != nil {
				return nil, err
			}
			for _, sa := range shared {
				sa.members = append(sa.members, r)
				r.shared = append(r.shared, sa)
			}
			if wantRefs {
				refs = append(refs, &value.ResourceType{Type: r.Type, Title: r.Title})
			}
		}
	}
	if !wantRefs {
		return value.Undef, nil
	}
	return refs, nil
}

// withBodyDefaults adds the `default:` body's attributes a body does not set.
func withBodyDefaults(ops, defaults []attrOp) []attrOp {
	if len(defaults) == 0 {
		return ops
	}
	out := ops
outer:
	for _, d := range defaults {
		for _, o := range ops {
			if o.name == d.name {
				continue outer
			}
		}
		out = append(out, d)
	}
	return out
}

func (c *Compilation) declareClassFromResource(sc *eval.Scope, title string, ops []attrOp, pos syntax.Position) error {
	b := value.NewHashBuilder(len(ops))
	var meta []catalog.Param
	for _, o := range ops {
		if metaparams[o.name] {
			meta = append(meta, catalog.Param{Name: o.name, Value: o.value})
			continue
		}
		b.Set(value.String(o.name), o.value)
	}
	return c.declareClassResourceLike(sc, title, b.Build(), pos, meta)
}

// declareResource declares one resource of a native or defined type.
func (c *Compilation) declareResource(sc *eval.Scope, typeName, title string, ops []attrOp, pos syntax.Position, form syntax.ResourceForm) (*resource, error) {
	kind := catalog.KindNative
	var def *environment.Definition
	if c.types != nil {
		if _, ok := c.types.Lookup(typeName); !ok {
			d, err := c.env.lookup(environment.KindDefine, typeName)
			if err != nil {
				return nil, err
			}
			if d == nil {
				return nil, c.unknownResourceType(typeName, fmt.Sprintf("Unknown resource type: '%s'", typeName))
			}
			def, kind = d, catalog.KindDefined
		}
	}
	r := c.newResource(typeName, title, sc, pos, kind)
	if def != nil && r.defineDepth >= MaxDefineDepth {
		return nil, fmt.Errorf("Defined types nest more than %d deep (a defined type that declares itself without end? MaxDefineDepth, a fixed limit of marionette) at %s", MaxDefineDepth, r.Ref())
	}
	// Room for the resource defaults too: growing the list for them cost
	// a second list per resource under a File { ... } default.
	var lists [4][]defaultAttr
	defaults := c.visibleDefaults(lists[:0], r.Type, sc)
	n := len(ops)
	for _, l := range defaults {
		n += len(l)
	}
	r.Params = make([]catalog.Param, 0, n)
	r.define = def
	r.virtual = form != syntax.Regular
	r.exported = form == syntax.Exported
	// An attribute set to undef is not stored, but it still keeps a
	// resource default for it away, as in Puppet.
	var undefs []string
	for _, o := range ops {
		if o.name == "tag" {
			// Tags from the tag metaparameter come first, as in Puppet.
			r.Tags = append(tagValues(o.value), r.Tags...)
			r.Tags = dedupeTags(r.Tags)
		}
		if value.IsUndef(o.value) {
			undefs = append(undefs, o.name)
		}
		if o.op != nil && sc.File != nil && isRelationshipParam(o.name) {
			if line := sc.File.Position(o.op.Pos()).Line; line != pos.Line {
				r.relLines = append(r.relLines, relLine{o.name, line})
			}
		}
		c.setParam(r, o.name, o.value)
	}
	c.applyDefaultLists(r, defaults, undefs)
	if def != nil {
		r.givenUndef = undefs
	}
	c.addTitleParams(r)
	if err := c.addResource(r); err != nil {
		return nil, err
	}
	if def != nil && !r.virtual {
		c.pendingDefines = append(c.pendingDefines, r)
	}
	return r, nil
}

// addTitleParams normalizes a native resource's namevar parameters as
// Puppet emits them: a name or namevar equal to the title is dropped, and
// the values the type's title patterns derive from the title come first
// when they differ from it (file { '/tmp/a/': } gets path => '/tmp/a').
func (c *Compilation) addTitleParams(r *resource) {
	if r.Kind == catalog.KindDefined {
		// A defined type's namevar is name: equal to the title, it is dropped too.
		for i, p := range r.Params {
			if s, ok := p.Value.(value.String); ok && p.Name == "name" && string(s) == r.Title {
				r.Params = append(r.Params[:i], r.Params[i+1:]...)
				break
			}
		}
		return
	}
	if r.Kind != catalog.KindNative || c.types == nil {
		return
	}
	schema, ok := c.types.Lookup(r.Type) // Lookup ignores case
	if !ok {
		return
	}
	// Puppet drops a namevar (or name) parameter equal to the title.
	nv := schema.Namevar()
	for i := 0; i < len(r.Params); i++ {
		p := r.Params[i]
		if s, ok := p.Value.(value.String); ok && string(s) == r.Title && (p.Name == "name" || p.Name == nv) {
			r.Params = append(r.Params[:i], r.Params[i+1:]...)
			i--
		}
	}
	if schema.TitleParsesToItself(r.Title) {
		return // nothing derived from the title differs from it
	}
	parsed, err := schema.ParseTitle(r.Title)
	if err != nil {
		return
	}
	var front []catalog.Param
	for _, p := range parsed {
		s, isStr := p.Value.(string)
		if !isStr || s == r.Title && (p.Name == nv || p.Name == "name") {
			continue
		}
		if _, set := r.Param(p.Name); set {
			continue
		}
		front = append(front, catalog.Param{Name: p.Name, Value: value.String(s)})
	}
	if len(front) > 0 {
		r.Params = append(front, r.Params...)
	}
}

func dedupeTags(tags []string) []string {
	out := tags[:0]
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// setParam sets a resource parameter, unwrapping Sensitive values and
// recording them in sensitive_parameters.
func (c *Compilation) setParam(r *resource, name string, v value.Value) {
	if s, ok := v.(*value.Sensitive); ok {
		v = s.Value
		if !containsString(r.Sensitive, name) {
			r.Sensitive = append(r.Sensitive, name)
		}
	}
	r.SetParam(name, v)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// applyDefaults adds the resource defaults visible from sc that r does not
// set (nor set to undef: the names in undefs). Defaults are dynamically
// scoped: they follow the declaration chain.
func (c *Compilation) applyDefaults(r *resource, sc *eval.Scope, undefs []string) {
	var lists [4][]defaultAttr
	c.applyDefaultLists(r, c.visibleDefaults(lists[:0], r.Type, sc), undefs)
}

// visibleDefaults appends the lists of resource defaults for typ visible
// from sc to lists, the nearest first (a type without defaults anywhere
// skips the scope walk).
func (c *Compilation) visibleDefaults(lists [][]defaultAttr, typ string, sc *eval.Scope) [][]defaultAttr {
	if !c.defaultTypes[typ] {
		return lists
	}
	for d := c.data(sc); d != nil; d = c.dynamicParent(d) {
		if l := d.defaults[typ]; len(l) > 0 {
			lists = append(lists, l)
		}
	}
	return lists
}

// applyDefaultLists adds the defaults of lists (the nearest first) that r
// does not set (nor set to undef: the names in undefs).
func (c *Compilation) applyDefaultLists(r *resource, lists [][]defaultAttr, undefs []string) {
	for _, l := range lists {
		for _, a := range l {
			if _, set := r.Param(a.name); !set && !slices.Contains(undefs, a.name) {
				c.setParam(r, a.name, a.value)
			}
		}
	}
}

// dynamicParent is where resource defaults continue after d: the inherited
// class for a class that inherits, else the scope that declared d's
// resource; nil after the top scope.
func (c *Compilation) dynamicParent(d *scopeData) *scopeData {
	if d.class != nil && d.class.parent != nil && d.class.parent.scope != nil {
		return c.scopes[d.class.parent.scope]
	}
	top := c.scopes[c.top]
	if d == top {
		return nil
	}
	if d.resource == nil || d.resource.scope == nil {
		return top
	}
	if next := c.data(d.resource.scope); next != d {
		return next
	}
	return nil
}

func (c *Compilation) resourceDefaults(sc *eval.Scope, x *syntax.ResourceDefaultsExpr) error {
	ops, err := c.attrValues(sc, x.Ops, x)
	if err != nil {
		return err
	}
	d := c.data(sc)
	if d.defaults == nil {
		d.defaults = make(map[string][]defaultAttr)
	}
	typ := c.capitalize(x.Type.Name)
	if c.defaultTypes == nil {
		c.defaultTypes = make(map[string]bool)
	}
	c.defaultTypes[typ] = true
	for _, o := range ops {
		list := d.defaults[typ]
		replaced := false
		for i := range list {
			if list[i].name == o.name {
				list[i].value = o.value
				replaced = true
			}
		}
		if !replaced {
			list = append(list, defaultAttr{o.name, o.value})
		}
		d.defaults[typ] = list
	}
	return nil
}

// override is a pending Type['title'] { ... } applied at finish.
type override struct {
	ref   catalog.Ref
	ops   []attrOp
	scope *eval.Scope
	pos   syntax.Position
	// fromCollector overrides skip the subclass check.
	fromCollector bool
}

func (c *Compilation) resourceOverride(sc *eval.Scope, x *syntax.ResourceOverrideExpr) error {
	rv, err := c.ev.Eval(x.Resources, sc)
	if err != nil {
		return err
	}
	ops, err := c.attrValues(sc, x.Ops, x)
	if err != nil {
		return err
	}
	for _, ref := range refList(rv) {
		o := &override{ref: ref, ops: ops, scope: sc, pos: c.pos(sc, x)}
		// As in Puppet, an override of a resource that exists applies at
		// once (so a defined type evaluated later sees it); others wait
		// until the compile finishes.
		if c.byRef[ref] != nil {
			if err := c.applyOverride(o); err != nil {
				return err
			}
			continue
		}
		c.overrides = append(c.overrides, o)
	}
	return nil
}

// refList turns evaluated references (one or an array) into catalog refs.
func refList(v value.Value) []catalog.Ref {
	return appendRefs(nil, v)
}

// appendRefs appends the references in v to out (see refList).
func appendRefs(out []catalog.Ref, v value.Value) []catalog.Ref {
	switch v := v.(type) {
	case *value.ResourceType:
		if v.Title != "" {
			out = append(out, catalog.Ref{Type: v.Type, Title: v.Title})
		}
	case *value.ClassType:
		if v.Name != "" {
			out = append(out, catalog.Ref{Type: "Class", Title: value.CapitalizeName(v.Name)})
		}
	case value.Array:
		for _, e := range v {
			out = appendRefs(out, e)
		}
	case value.String:
		if t, title, ok := parseRef(string(v)); ok {
			out = append(out, catalog.Ref{Type: t, Title: title})
		}
	}
	return out
}

// parseRef reads "Type[title]".
func parseRef(s string) (string, string, bool) {
	i := strings.IndexByte(s, '[')
	if i <= 0 || !strings.HasSuffix(s, "]") {
		return "", "", false
	}
	t := value.CapitalizeName(s[:i])
	title := s[i+1 : len(s)-1]
	if t == "Class" {
		title = value.CapitalizeName(title)
	}
	return t, title, true
}
