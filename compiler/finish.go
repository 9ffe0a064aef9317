package compiler

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// The finishing stages run after the lazy fixpoint, when every resource
// has been declared; each is a separate entry of the stages table so that
// its cost shows in Result.Stages.

// stageOverrides applies the resource overrides (Type['x'] { ... } and
// collector blocks) in the order they were declared.
func (c *Compilation) stageOverrides() error {
	for _, o := range c.overrides {
		if err := c.applyOverride(o); err != nil {
			return err
		}
	}
	return nil
}

// stageRelationships turns the relationship operators (-> ~> <- <~) into
// before/notify metaparameters on their sources.
func (c *Compilation) stageRelationships() error {
	for _, rel := range c.relationships {
		if err := c.applyRelationship(rel); err != nil {
			return err
		}
	}
	return nil
}

// stageRealize checks that every resource realize() named exists.
func (c *Compilation) stageRealize() error {
	var missing []string
	for _, rq := range c.realizeReqs {
		for _, ref := range rq.refs {
			if c.byRef[ref] == nil {
				missing = append(missing, ref.String())
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("Failed to realize virtual resources %s", strings.Join(missing, ", "))
	}
	return nil
}

// stageValidate checks each resource of the catalog: attribute names of
// native types, and that relationship metaparameters name resources that
// exist.
func (c *Compilation) stageValidate() error {
	for _, r := range c.resources {
		if r.virtual {
			continue
		}
		flattenRelationships(r)
		if err := c.validateResource(r); err != nil {
			return err
		}
	}
	return nil
}

// stageContainment adds the resources to the catalog, in declaration
// order, each with the edge from its container, then the edges contain()
// added.
func (c *Compilation) stageContainment() error {
	// Every resource but the virtual ones goes in, most with an edge:
	// room for all at once instead of growing step by step.
	c.cat.Grow(len(c.resources), len(c.resources)+len(c.containEdges))
	for _, r := range c.resources {
		if r.virtual {
			continue
		}
		c.cat.Add(r.Resource)
		if r.container != nil && r.Type != "Stage" {
			c.cat.AddEdge(r.container.Ref(), r.Ref())
		}
	}
	for _, e := range c.containEdges {
		c.cat.AddEdge(e.Source, e.Target)
	}
	c.propagateFromContainers()
	return nil
}

// propagatedMetaparams are the metaparameters a container hands down to
// what it contains, in Puppet's order (the relationship ones are not).
var propagatedMetaparams = [...]string{"noop", "schedule", "audit", "loglevel", "alias", "tag", "stage"}

// propagateFromContainers walks the containment edges breadth first from
// Class[main], as Puppet does when it finishes a catalog: each contained
// resource gets its container's tags, and the propagated metaparameters it
// does not set itself (a define declared with noop => true makes its
// contents noop). Classes are contained by their stage, not by
// Class[main], so a class's own metaparameters stay on the class, as in
// Puppet; a class that a define contain()s is reached through the define.
func (c *Compilation) propagateFromContainers() {
	out := make(map[catalog.Ref][]catalog.Ref, len(c.cat.Edges))
	for _, e := range c.cat.Edges {
		out[e.Source] = append(out[e.Source], e.Target)
	}
	type metaData = []catalog.Param
	data := make(map[*resource]metaData)
	metaOf := func(r *resource) metaData {
		var d metaData
		for _, name := range propagatedMetaparams {
			if v, ok := r.Param(name); ok && v != nil && !value.IsUndef(v) {
				d = append(d, catalog.Param{Name: name, Value: v})
			}
		}
		return d
	}
	seen := make(map[catalog.Ref]bool, len(out))
	queue := []catalog.Ref{c.mainClass.Ref()}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		src := c.byRef[ref]
		if src == nil {
			continue
		}
		for _, tref := range out[ref] {
			dst := c.byRef[tref]
			if dst == nil {
				continue
			}
			srcData, ok := data[src]
			if !ok {
				srcData = metaOf(src)
			}
			if srcData != nil {
				data[src] = srcData
				for _, p := range srcData {
					if v, set := dst.Param(p.Name); !set || v == nil || value.IsUndef(v) {
						dst.SetParam(p.Name, p.Value)
					}
				}
				// What dst hands on: its container's, overridden by its own.
				merged := append(metaData(nil), srcData...)
				for _, own := range metaOf(dst) {
					replaced := false
					for i := range merged {
						if merged[i].Name == own.Name {
							merged[i].Value, replaced = own.Value, true
						}
					}
					if !replaced {
						merged = append(merged, own)
					}
				}
				data[dst] = merged
			}
			dst.AddTags(src.Tags...)
		}
		queue = append(queue, out[ref]...)
	}
}

// stageTags sets the catalog's tags, in Puppet's order: every class name
// with its namespace segments, then "node" when a node definition matched
// and "class" when a class besides Settings was declared.
func (c *Compilation) stageTags() error {
	for _, name := range c.cat.Classes {
		c.cat.AddTags(nameTags(name)...)
	}
	if c.nodeRes != nil {
		c.cat.AddTags("node")
	}
	if len(c.classes) > 2 { // more than Settings and main
		c.cat.AddTags("class")
	}
	return nil
}

// stageSize bounds the catalog's encoded size before anything encodes it:
// parameters that share structure (`[$a, $a, $a]` thirty levels deep) are
// small in memory but expand in full in the catalog's JSON.
func (c *Compilation) stageSize() error {
	var x value.Expansion
	max := c.ev.MaxValueSizeOrDefault()
	for _, r := range c.cat.Resources {
		for _, p := range r.Params {
			if err := x.Add(p.Value, max, "The catalog"); err != nil {
				return locatedf(syntax.Position{Filename: r.File, Line: r.Line}, "%v", err)
			}
		}
	}
	return nil
}

// sourceClass is the class (or define) whose code declared a resource.
func (c *Compilation) sourceClass(sc *eval.Scope) *classInstance {
	if d := c.data(sc); d != nil && d.class != nil {
		return d.class
	}
	return c.classes[""]
}

func (c *Compilation) applyOverride(o *override) error {
	r := c.byRef[o.ref]
	if r == nil {
		return lineErrorf(o.pos, "Could not find resource '%s' for overriding", o.ref)
	}
	if !o.fromCollector {
		src, osrc := c.sourceClass(r.scope), c.sourceClass(o.scope)
		sameSource := c.data(r.scope) == c.data(o.scope) || src == osrc
		if !sameSource && !inherits(osrc, src) {
			return locatedf(o.pos, "Only subclasses can override parameters")
		}
		if sameSource && !inherits(osrc, src) {
			for _, op := range o.ops {
				if _, set := r.Param(op.name); set {
					return lineErrorf(o.pos, "Parameter '%s' is already set on %s at%s; cannot redefine", op.name, r.Ref(), declaredAt(r.pos))
				}
			}
		}
	}
	for _, op := range o.ops {
		c.applyOverrideOp(r, op)
		if op.name == "tag" {
			r.AddTags(tagValues(op.value)...)
		}
	}
	return nil
}

// inherits reports whether class a inherits (transitively) from b.
func inherits(a, b *classInstance) bool {
	if a == nil || b == nil {
		return false
	}
	for p := a.parent; p != nil; p = p.parent {
		if p == b {
			return true
		}
	}
	return false
}

// applyRelationship records a relationship as before/notify on the source,
// appending (duplicates included, as Puppet does).
func (c *Compilation) applyRelationship(rel *relationship) error {
	sources, targets := c.sourceRefs(rel.source), c.operandRefs(rel.target)
	for _, s := range sources {
		src := c.findRef(s)
		if src == nil {
			return lineErrorf(rel.pos, "Could not find resource '%s' for relationship on '%s'", s, refsString(targets))
		}
		for _, t := range targets {
			if c.findRef(t) == nil {
				return lineErrorf(rel.pos, "Could not find resource '%s' for relationship from '%s'", t, s)
			}
			ref := refValue(t)
			if old, ok := src.Param(rel.param); ok {
				nv := appendValues(old, ref)
				src.SetParam(rel.param, nv)
				for _, sa := range src.shared {
					if sa.param != rel.param {
						continue
					}
					for _, m := range sa.members {
						if v, ok := m.Param(rel.param); ok && m != src && sameArray(v, old) {
							m.SetParam(rel.param, nv)
						}
					}
				}
			} else {
				src.SetParam(rel.param, value.Array{ref})
			}
		}
	}
	return nil
}

// findRef finds the resource a reference names: by its title, else, as
// Puppet's catalog aliases a resource whose name differs from its title, by
// the uniqueness key of an isomorphic type (Service['postgresql'] is the
// service titled postgresqld_instance_main whose name is postgresql).
func (c *Compilation) findRef(ref catalog.Ref) *resource {
	if r := c.byRef[ref]; r != nil {
		return r
	}
	return c.uniq[titleUniqKey(ref.Type, ref.Title)]
}

func refsString(refs []catalog.Ref) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

func refValue(r catalog.Ref) value.Value {
	if r.Type == "Class" {
		return &value.ClassType{Name: strings.ToLower(r.Title)}
	}
	return &value.ResourceType{Type: r.Type, Title: r.Title}
}

var relationshipParams = []string{"before", "require", "notify", "subscribe"}

func isRelationshipParam(name string) bool {
	switch name {
	case "before", "require", "notify", "subscribe":
		return true
	}
	return false
}

// flattenRelationships writes each relationship metaparameter given as an
// array as Puppet's catalog has it: nested arrays flattened and undef
// entries dropped (`require => [undef, Package['y']]` is ["Package[y]"]).
func flattenRelationships(r *resource) {
	for _, name := range relationshipParams {
		v, ok := r.Param(name)
		if !ok {
			continue
		}
		a, ok := v.(value.Array)
		if !ok || isFlatDefined(a) {
			continue
		}
		r.SetParam(name, appendFlatDefined(make(value.Array, 0, len(a)), a))
	}
}

func isFlatDefined(a value.Array) bool {
	for _, e := range a {
		if _, nested := e.(value.Array); nested || value.IsUndef(e) {
			return false
		}
	}
	return true
}

func appendFlatDefined(out, a value.Array) value.Array {
	for _, e := range a {
		switch e := e.(type) {
		case value.Array:
			out = appendFlatDefined(out, e)
		default:
			if !value.IsUndef(e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// validateResource checks a finished resource as Puppet does before it
// hands out the catalog: attribute names of native types, and that
// relationship targets exist.
func (c *Compilation) validateResource(r *resource) error {
	if r.Kind == catalog.KindNative && c.types != nil && r.Type != "Stage" {
		if schema, ok := c.types.Lookup(r.Type); ok && len(schema.Problems()) == 0 {
			for _, p := range r.Params {
				if err := schema.CheckAttribute(p.Name); err != nil {
					return lineErrorf(r.pos, "no parameter named '%s'%s on %s", p.Name, declaredAt(r.pos), r.Ref())
				}
			}
		}
	}
	for _, name := range relationshipParams {
		v, ok := r.Param(name)
		if !ok {
			continue
		}
		var buf [4]catalog.Ref // most parameters name a few resources
		for _, ref := range appendRefs(buf[:0], v) {
			target := c.findRef(ref)
			if target == nil || target.virtual {
				at := r.pos
				for _, rl := range r.relLines {
					if rl.name == name {
						at.Line = rl.line
					}
				}
				return lineErrorf(at, "Could not find resource '%s' in parameter '%s'", ref, name)
			}
		}
	}
	return nil
}
