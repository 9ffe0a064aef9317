package compiler

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// compilerFunctionCount is how many functions addCompilerFunctions adds.
const compilerFunctionCount = 21

// addCompilerFunctions adds the functions that need the compile (they
// declare classes and resources, inspect the catalog, look data up or
// render templates) to t. They reach the compile through Ctx.Services.
// Puppet's 4.x functions among them check their argument count with a
// signature; its 3.x ones (realize, tag, template, create_resources, ...)
// with their declared :arity, whose message differs.
func addCompilerFunctions(t functions.Table) {
	add := func(name string, impl functions.Func, lo, hi int) {
		t[name] = functions.Dispatch(name, functions.Arity(lo, hi, impl))
	}
	// add3 adds a 3.x function taking at least that many arguments.
	add3 := func(name string, impl functions.Func, least int) {
		t[name] = func(c *functions.Ctx, args []value.Value) (value.Value, error) {
			if err := functions.Arity3(name, args, least, true); err != nil {
				return nil, err
			}
			return impl(c, args)
		}
	}
	add("include", declareClasses(functions.Include), 1, -1)
	add("contain", declareClasses(functions.Contain), 1, -1)
	add("require", declareClasses(functions.Require), 1, -1)
	add3("realize", fnRealize, 1)
	add("defined", fnDefined, 1, -1)
	add3("tag", fnTag, 1)
	add3("tagged", fnTagged, 1)
	add3("create_resources", fnCreateResources, 2)
	// epp(path, parameters) and inline_epp(template, parameters).
	eppParams := functions.P("parameters", value.HashAny)
	for name, first := range map[string]string{"epp": "path", "inline_epp": "template"} {
		impl := fnEPP
		if name == "inline_epp" {
			impl = fnInlineEPP
		}
		t[name] = functions.Dispatch(name, functions.Signature{
			Params:   []functions.Param{functions.P(first, value.StringAny), eppParams},
			Required: 1, Block: functions.OptionalBlock, AnyBlock: true, Impl: impl,
		})
	}
	add("lookup", fnLookup, 1, 4)
	add("hiera", hieraFunc("hiera", hiera.Hiera), 1, 3)
	add("hiera_array", hieraFunc("hiera_array", hiera.HieraArray), 1, 3)
	add("hiera_hash", hieraFunc("hiera_hash", hiera.HieraHash), 1, 3)
	add("hiera_include", fnHieraInclude, 1, 3)
	add3("template", fnTemplate, 1)
	add3("inline_template", fnInlineTemplate, 1)
}

// at is the node of the call, for positions.
func at(c *functions.Ctx) syntax.Node {
	if c.Call == nil {
		return nil
	}
	return c.Call.Node
}

// declareClasses is include, contain and require: names, arrays of names
// and Class references.
func declareClasses(rel functions.ClassRelation) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		names, err := classNames(args)
		if err != nil {
			return nil, err
		}
		return c.Svc().DeclareClasses(c.Scope, at(c), names, rel)
	}
}

func fnRealize(c *functions.Ctx, args []value.Value) (value.Value, error) {
	c.Svc().Realize(args)
	return value.Undef, nil
}

func fnDefined(c *functions.Ctx, args []value.Value) (value.Value, error) {
	for _, a := range args {
		ok, err := c.Svc().Defined(c.Scope, a)
		if err != nil {
			return nil, err
		}
		if ok {
			return value.True, nil
		}
	}
	return value.False, nil
}

func fnTag(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var tags []string
	for _, a := range args {
		tags = append(tags, tagValues(a)...)
	}
	c.Svc().Tag(c.Scope, tags)
	return value.Undef, nil
}

// Each argument must be one tag, compared whole: an array is no tag at all
// (Puppet's tagged(['a', 'b']) is false).
func fnTagged(c *functions.Ctx, args []value.Value) (value.Value, error) {
	tags := make([]string, 0, len(args))
	for _, a := range args {
		if _, ok := a.(value.Array); ok {
			return value.False, nil
		}
		tags = append(tags, strings.ToLower(value.ToString(a)))
	}
	return value.Boolean(c.Svc().Tagged(c.Scope, tags)), nil
}

// fnCreateResources declares resources from a hash of title => attributes.
func fnCreateResources(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 3, "create_resources(): wrong number of arguments (%d; must be 2 or 3)"); err != nil {
		return nil, err
	}
	res, ok := args[1].(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("create_resources(): second argument must be a hash")
	}
	var defaults *value.Hash
	if len(args) == 3 {
		if defaults, ok = args[2].(*value.Hash); !ok {
			return nil, fmt.Errorf("create_resources(): third argument, if provided, must be a hash")
		}
	}
	return value.Undef, c.Svc().CreateResources(c.Scope, at(c), value.ToString(args[0]), res, defaults)
}

// fnEPP renders a module's EPP template: epp('mod/file.epp', {params}).
func fnEPP(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return c.Svc().EPP(string(args[0].(value.String)), args[1:])
}

// fnInlineEPP renders EPP source given as a string.
func fnInlineEPP(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return c.Svc().InlineEPP(c.Scope, string(args[0].(value.String)), args[1:])
}

// fnTemplate renders module ERB templates: template('mod/file.erb', ...)
// renders each and concatenates the results, as Puppet does.
func fnTemplate(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var out strings.Builder
	for _, a := range args {
		name, ok := a.(value.String)
		if !ok {
			return nil, fmt.Errorf("'template' parameter 'path' expects a String value, got %s", value.TypeString(value.Generalize(value.TypeOf(a))))
		}
		s, err := c.Svc().Template(c.Scope, string(name))
		if err != nil {
			return nil, err
		}
		out.WriteString(s)
	}
	return value.String(out.String()), nil
}

// fnInlineTemplate renders ERB source given as strings.
func fnInlineTemplate(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var out strings.Builder
	for _, a := range args {
		s, err := c.Svc().InlineTemplate(c.Scope, value.ToString(a))
		if err != nil {
			return nil, err
		}
		out.WriteString(s)
	}
	return value.String(out.String()), nil
}

// The services of the compile that the functions above use.

// DeclareClasses implements functions.Catalog.
func (c *Compilation) DeclareClasses(sc *eval.Scope, at syntax.Node, names []string, rel functions.ClassRelation) (value.Array, error) {
	var container *resource
	if rel == functions.Contain {
		container = c.scopeResource(sc)
	}
	cis, err := c.includeClasses(sc, names, at)
	if err != nil {
		return nil, err
	}
	refs := classRefs(cis)
	switch rel {
	case functions.Contain:
		for _, ci := range cis {
			if container != nil && container != ci.res {
				c.containEdges = append(c.containEdges, catalog.Edge{Source: container.Ref(), Target: ci.res.Ref()})
			}
		}
	case functions.Require:
		// The calling scope's resource requires each class.
		for _, ref := range refs {
			if r := c.scopeResource(sc); r != nil {
				old, ok := r.Param("require")
				if ok {
					r.SetParam("require", appendValues(old, ref))
				} else {
					r.SetParam("require", value.Array{ref})
				}
			}
		}
	}
	return refs, nil
}

func classRefs(cis []*classInstance) value.Array {
	refs := make(value.Array, len(cis))
	for i, ci := range cis {
		refs[i] = &value.ClassType{Name: ci.name}
	}
	return refs
}

// realizeRequest remembers realized references for the check at finish.
type realizeRequest struct {
	refs []catalog.Ref
}

// Realize implements functions.Catalog.
func (c *Compilation) Realize(args []value.Value) {
	var refs []catalog.Ref
	for _, a := range args {
		refs = append(refs, refList(a)...)
	}
	for _, ref := range refs {
		if r := c.byRef[ref]; r != nil {
			c.realize(r)
		}
	}
	c.realizeReqs = append(c.realizeReqs, &realizeRequest{refs: refs})
}

// Defined implements functions.Catalog.
func (c *Compilation) Defined(sc *eval.Scope, v value.Value) (bool, error) { return c.isDefined(sc, v) }

// Tag implements functions.Catalog.
func (c *Compilation) Tag(sc *eval.Scope, tags []string) {
	if r := c.scopeResource(sc); r != nil {
		r.AddTags(tags...)
	}
}

// Tagged implements functions.Catalog.
func (c *Compilation) Tagged(sc *eval.Scope, tags []string) bool {
	r := c.scopeResource(sc)
	var classTags []string // the catalog's tags: those of every class so far
	for _, t := range tags {
		if r != nil && containsString(r.Tags, t) {
			continue
		}
		if classTags == nil {
			for _, name := range c.cat.Classes {
				classTags = appendNameTags(classTags, name)
			}
		}
		if !containsString(classTags, t) {
			return false
		}
	}
	return true
}

// CreateResources implements functions.Catalog.
func (c *Compilation) CreateResources(sc *eval.Scope, at syntax.Node, typ string, res, defaults *value.Hash) error {
	typeName := environment.CanonicalName(typ)
	form := syntax.Regular
	switch {
	case strings.HasPrefix(typeName, "@@"):
		form, typeName = syntax.Exported, typeName[2:]
	case strings.HasPrefix(typeName, "@"):
		form, typeName = syntax.Virtual, typeName[1:]
	}
	pos := c.pos(sc, at)
	for i, k := range res.Keys() {
		title := value.ToString(k)
		attrs, _ := res.Values()[i].(*value.Hash)
		var ops []attrOp
		if attrs != nil {
			for j, an := range attrs.Keys() {
				ops = append(ops, attrOp{name: value.ToString(an), value: attrs.Values()[j]})
			}
		}
		if defaults != nil {
			for j, dn := range defaults.Keys() {
				name := value.ToString(dn)
				if attrs == nil || !hashHas(attrs, name) {
					ops = append(ops, attrOp{name: name, value: defaults.Values()[j]})
				}
			}
		}
		if typeName == "class" {
			if err := c.declareClassFromResource(sc, title, ops, pos); err != nil {
				return err
			}
			continue
		}
		r, err := c.declareResource(sc, typeName, title, ops, pos, form)
		if err != nil {
			return err
		}
		if _, isString := k.(value.String); !isString {
			// Puppet keeps such a title as it was (443, not '443'): it
			// does not make a tag of it, and the name, which is its
			// string form, no longer equals it and stays a parameter.
			r.dropTag(title)
			if _, set := r.Param("name"); !set {
				r.SetParam("name", value.String(title))
			}
		}
	}
	return nil
}
