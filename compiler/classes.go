package compiler

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// metaparams are the attributes every resource (and class) accepts.
var metaparams = map[string]bool{
	"alias": true, "audit": true, "before": true, "loglevel": true, "noop": true,
	"notify": true, "require": true, "schedule": true, "stage": true, "subscribe": true,
	"tag": true,
}

// enclosing is the node or top scope code in sc ultimately runs under:
// where a class or define declared from sc looks up unqualified variables.
func enclosing(sc *eval.Scope) *eval.Scope {
	for s := sc; s != nil; s = s.Parent() {
		if s.Kind == eval.NodeScope || s.Kind == eval.TopScope {
			return s
		}
	}
	return sc
}

// findClass resolves a class name to its definition.
func (c *Compilation) findClass(name string) (*environment.Definition, error) {
	return c.env.lookup(environment.KindClass, name)
}

// classNotFound is Puppet's error for an unknown class; names declared by
// the manifest are shown with their leading "::", as Puppet does.
func (c *Compilation) classNotFound(name string) error {
	cname := environment.CanonicalName(name)
	return c.unknownClass(cname, fmt.Sprintf("Could not find class ::%s for %s", cname, c.req.Node))
}

// ensureClass declares (include-like) and evaluates a class if needed.
func (c *Compilation) ensureClass(sc *eval.Scope, name string, at syntax.Node) (*classInstance, error) {
	cis, err := c.includeClasses(sc, []string{name}, at)
	if err != nil {
		return nil, err
	}
	return cis[0], nil
}

// includeClasses declares classes like include does, as Puppet does for a
// list: every name must resolve, all new classes are declared (added to the
// catalog) first, then each is evaluated in order, with those of the list
// that were declared before but are not evaluated yet.
func (c *Compilation) includeClasses(sc *eval.Scope, names []string, at syntax.Node) ([]*classInstance, error) {
	defs := make([]*environment.Definition, len(names))
	for i, name := range names {
		cname := environment.CanonicalName(name)
		if _, ok := c.classes[cname]; ok {
			continue
		}
		def, err := c.findClass(cname)
		if err != nil {
			return nil, err
		}
		if def == nil || def.Class == nil {
			return nil, c.classNotFound(cname)
		}
		defs[i] = def
	}
	out := make([]*classInstance, len(names))
	var fresh []*classInstance
	for i, name := range names {
		if ci, ok := c.classes[environment.CanonicalName(name)]; ok {
			out[i] = ci
			// A class another include put in the catalog but has not
			// evaluated yet has no scope: Puppet evaluates it now, in
			// this list's order, as a class it has just declared.
			if !ci.evaluated {
				fresh = append(fresh, ci)
			}
			continue
		}
		ci, err := c.declareClass(sc, defs[i], nil, nil, c.pos(sc, at), false)
		if err != nil {
			return nil, err
		}
		out[i] = ci
		fresh = append(fresh, ci)
	}
	for _, ci := range fresh {
		if err := c.evaluateClass(ci); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// declareClassResourceLike handles class { 'x': p => v }: the class must not
// be declared yet.
func (c *Compilation) declareClassResourceLike(sc *eval.Scope, name string, params *value.Hash, at syntax.Position, meta []catalog.Param) error {
	ci, err := c.declareClassWithParams(sc, name, params, at, meta)
	if err != nil {
		return err
	}
	return c.evaluateClass(ci)
}

// declareClassWithParams declares a class resource-like without evaluating it.
func (c *Compilation) declareClassWithParams(sc *eval.Scope, name string, params *value.Hash, at syntax.Position, meta []catalog.Param) (*classInstance, error) {
	cname := environment.CanonicalName(name)
	if prev, ok := c.classes[cname]; ok {
		return nil, duplicateError(catalog.Ref{Type: "Class", Title: value.CapitalizeName(cname)}, resourceLikePos(prev), at)
	}
	def, err := c.findClass(cname)
	if err != nil {
		return nil, err
	}
	if def == nil || def.Class == nil {
		// Puppet words it so for class { 'x': } and create_resources.
		return nil, c.unknownClass(cname, "Could not find declared class "+cname)
	}
	return c.declareClass(sc, def, params, meta, at, true)
}

// resourceLikePos is where a previous declaration was, as Puppet reports it:
// only resource-like declarations carry a position.
func resourceLikePos(ci *classInstance) syntax.Position {
	if ci.resourceLike {
		return ci.declared
	}
	return syntax.Position{}
}

// declareClass creates Class[name] in the catalog (contained in its stage)
// and registers the class as declared; evaluateClass runs it.
func (c *Compilation) declareClass(sc *eval.Scope, def *environment.Definition, given *value.Hash, meta []catalog.Param, at syntax.Position, resourceLike bool) (*classInstance, error) {
	cname := def.Name
	title := c.capitalize(cname)
	res := allocResource("Class", title, catalog.KindClass)
	res.scope = sc
	res.AddTags("class")
	res.Tags = appendNameTags(res.Tags, cname)
	c.setContainer(res, sc)
	if resourceLike {
		// Resource-like declarations carry where they were made, and
		// Puppet records their kind as "class".
		res.Kind = catalog.KindResourceLikeClass
		if at.Filename != "" {
			res.File, res.Line, res.pos = at.Filename, at.Line, at
		}
	}
	res.container = c.mainStage
	ci := &classInstance{name: cname, def: def, res: res, declared: at, resourceLike: resourceLike, given: given, declScope: sc}
	// Register first so that includes of this class from now on are no-ops.
	c.classes[cname] = ci
	for _, m := range meta {
		if m.Name == "tag" {
			res.AddTags(tagValues(m.Value)...)
		}
		res.SetParam(m.Name, m.Value)
	}
	if err := c.addResource(res); err != nil {
		return nil, err
	}
	if err := c.applyStage(res, meta); err != nil {
		return nil, err
	}
	c.cat.Classes = append(c.cat.Classes, cname)
	return ci, nil
}

// evaluateClass binds a declared class's parameters and evaluates its body.
// The parent class (inherits) is declared and evaluated first and its scope
// becomes the parent scope.
func (c *Compilation) evaluateClass(ci *classInstance) error {
	if ci.evaluated {
		return nil
	}
	ci.evaluated = true
	def, cd := ci.def, ci.def.Class
	parentScope := enclosing(ci.declScope)
	if cd.Parent != "" {
		pdef, err := c.findClass(cd.Parent)
		if err != nil {
			return err
		}
		if pdef == nil || pdef.Class == nil {
			return locatedf(def.File.Position(cd.Pos()), "Could not find parent resource type '::%s' of type hostclass in %s",
				environment.CanonicalName(cd.Parent), c.env.Name)
		}
		parent, err := c.ensureClass(ci.declScope, pdef.Name, nil)
		if err != nil {
			return err
		}
		ci.parent = parent
		parentScope = parent.scope
	}
	csc := eval.NewScope(eval.ClassScope, ci.name, parentScope, def.File)
	csc.Reserve(scopeVarCount(cd.Params, cd.Body))
	ci.scope = csc
	c.scopes[csc] = &scopeData{resource: ci.res, class: ci}
	csc.Set("title", value.String(ci.name))
	csc.Set("name", value.String(ci.name))
	c.setModuleNames(csc, def, ci.declScope)
	ref := "Class[" + ci.res.Title + "]"
	if err := c.bindParams(csc, ref, cd.Params, ci.given, ci.res, true, false, ci.name); err != nil {
		return err
	}
	setMetaparamVars(csc, ci.res)
	if err := c.stageOfClass(ci); err != nil {
		return err
	}
	return c.ev.Exec(cd.Body, csc)
}

// stageOfClass puts a class, once its parameters are bound, into its run
// stage as Puppet does: its own stage (a stage metaparameter, or a class
// parameter named stage with a default), else the stage of the resource
// whose scope declared it (a class included from a class in stage first
// runs in stage first too), else Stage[main]. A stage other than main is
// recorded as the class's stage parameter.
func (c *Compilation) stageOfClass(ci *classInstance) error {
	v, ok := ci.res.Param("stage")
	if !ok || v == nil || value.IsUndef(v) {
		if ci.declScope == nil {
			return nil
		}
		decl := c.scopeResource(ci.declScope)
		if decl == nil || decl.Type != "Class" {
			return nil
		}
		v, ok = decl.Param("stage")
		if !ok || v == nil || value.IsUndef(v) {
			return nil
		}
	}
	name := value.ToString(v)
	st := c.byRef[catalog.Ref{Type: "Stage", Title: name}]
	if st == nil {
		return fmt.Errorf("Could not find stage %s specified by %s", name, ci.res.Ref())
	}
	ci.res.container = st
	if name != "main" {
		ci.res.SetParam("stage", value.String(name))
	}
	return nil
}

// scopeVarCount estimates how many variables a class or define body scope
// holds (title, name, the two module names, the parameters and the body's
// top-level assignments) so that its scope is allocated once.
func scopeVarCount(params []*syntax.Parameter, body *syntax.Block) int {
	n := 4 + len(params)
	if body != nil {
		for _, s := range body.Stmts {
			if _, ok := s.(*syntax.AssignExpr); ok {
				n++
			}
		}
	}
	return n
}

// setModuleNames sets $module_name (the module the definition comes from;
// unset outside modules) and $caller_module_name (the module of the code
// that declared it; "" from the main manifest) in a class or define scope.
func (c *Compilation) setModuleNames(sc *eval.Scope, def *environment.Definition, caller *eval.Scope) {
	if m := c.moduleOf(def); m != "" {
		sc.Set("module_name", value.String(m))
	}
	var callerModule value.Value = value.String("")
	if caller != nil {
		if v, ok := caller.Lookup("module_name"); ok {
			if _, isStr := v.(value.String); !isStr {
				v = value.String(value.ToString(v))
			}
			callerModule = v // the caller's value itself: no new string
		}
	}
	sc.Set("caller_module_name", callerModule)
}

// moduleOf returns the module a definition was loaded from ("" for the main manifest).
// A define's body runs once per instance, so the answer is kept per file.
func (c *Compilation) moduleOf(def *environment.Definition) string {
	if m, ok := c.moduleNames[def.File]; ok {
		return m
	}
	m := ""
	for _, mp := range c.env.ModulePath {
		rel, err := filepath.Rel(mp, def.File.Name)
		if err == nil && !strings.HasPrefix(rel, "..") {
			if i := strings.IndexByte(rel, filepath.Separator); i > 0 {
				m = rel[:i]
				break
			}
		}
	}
	if c.moduleNames == nil {
		c.moduleNames = make(map[*syntax.File]string)
	}
	c.moduleNames[def.File] = m
	return m
}

// applyStage puts a class into its run stage (Stage[main] unless a stage
// metaparameter says otherwise).
func (c *Compilation) applyStage(res *resource, meta []catalog.Param) error {
	for _, m := range meta {
		if m.Name != "stage" {
			continue
		}
		name := value.ToString(m.Value)
		st := c.byRef[catalog.Ref{Type: "Stage", Title: name}]
		if st == nil {
			return fmt.Errorf("Could not find stage %s specified by %s", name, res.Ref())
		}
		res.container = st
	}
	return nil
}

// bindParams binds declared parameters in sc: the given value, then (for
// classes) external data `class::param`, then the default, else an error.
// Values are type checked and recorded as the resource's parameters.
// keepUndef is for EPP templates: there, as in Puppet's calls by name, a key
// given with undef is a value (a parameter with a default takes the default),
// where a resource's undef attribute counts as not given.
func (c *Compilation) bindParams(sc *eval.Scope, ref string, params []*syntax.Parameter, given *value.Hash, res *resource, isClass, keepUndef bool, cname string) error {
	// Problems are reported together at the end, as Puppet does: unknown
	// attributes first, then each parameter's, in order.
	var problems []string
	if given != nil {
		for _, k := range given.Keys() {
			name := value.ToString(k)
			if metaparams[name] || hasParam(params, name) || (!isClass && name == "name") {
				continue
			}
			problems = append(problems, fmt.Sprintf("has no parameter named '%s'", name))
		}
	}
	// As Puppet does: every given (or looked-up) value first, then the
	// defaults in order (a default may use any parameter that has a value,
	// and naming one that has none is an error), then one check of all
	// values against their types, reporting every problem.
	// Most classes and defines have few parameters: no allocation for those.
	var small [8]value.Value
	values := small[:0]
	if len(params) <= len(small) {
		values = small[:len(params)]
	} else {
		values = make([]value.Value, len(params))
	}
	unset := false
	for i, p := range params {
		givenUndef := false
		if given != nil {
			if gv, ok := given.GetString(p.Name); ok && !value.IsUndef(gv) {
				values[i] = gv
			} else if ok && p.Default == nil {
				givenUndef = true
				if keepUndef {
					values[i] = value.Undef
				}
			}
		}
		if values[i] == nil && isClass {
			dv, ok, err := c.lookups.LookupParam(cname, p.Name)
			if err != nil {
				return err
			}
			if ok && !value.IsUndef(dv) {
				values[i] = dv
			}
		}
		if values[i] == nil && givenUndef {
			// As Puppet 7 does: an attribute given as undef to a parameter
			// without a default is a value (undef), not a missing one; its
			// type, if any, then decides.
			values[i] = value.Undef
		}
		if values[i] != nil {
			if !sc.Set(p.Name, values[i]) {
				return fmt.Errorf("%s: parameter '%s' is bound twice", ref, p.Name)
			}
		} else {
			unset = true
		}
	}
	if unset {
		sc.SetUnsetParams(ref, params)
		for i, p := range params {
			if values[i] != nil || p.Default == nil {
				continue
			}
			sc.EvaluatingDefault(i)
			dv, err := c.ev.Eval(p.Default, sc)
			if err != nil {
				sc.SetUnsetParams(ref, nil)
				var pae *eval.ParamAccessError
				if errors.As(err, &pae) {
					return errors.New(pae.Msg)
				}
				return err
			}
			values[i] = dv
			if !sc.Set(p.Name, dv) {
				sc.SetUnsetParams(ref, nil)
				return fmt.Errorf("%s: parameter '%s' is bound twice", ref, p.Name)
			}
		}
		sc.SetUnsetParams(ref, nil)
	}
	for i, p := range params {
		v := values[i]
		if p.Type == nil {
			if v == nil {
				problems = append(problems, fmt.Sprintf("expects a value for parameter '%s'", p.Name))
			}
			continue
		}
		tv, err := c.ev.ParamType(p, sc)
		if err != nil {
			return err
		}
		t, ok := tv.(value.Type)
		if !ok {
			return fmt.Errorf("%s: parameter '%s' has a type that is not a type", ref, p.Name)
		}
		if v == nil {
			if !value.IsInstance(t, value.Undef) {
				problems = append(problems, fmt.Sprintf("expects a value for parameter '%s'", p.Name))
				continue
			}
			// An optional parameter without a value is undef.
			values[i] = value.Undef
			if !sc.Set(p.Name, value.Undef) {
				return fmt.Errorf("%s: parameter '%s' is bound twice", ref, p.Name)
			}
			continue
		}
		if ok, err := value.CheckInstance(t, v); err != nil {
			return fmt.Errorf("%s: parameter '%s': %w", ref, p.Name, err)
		} else if !ok {
			for _, d := range value.DescribeMismatches(t, v) {
				problems = append(problems, fmt.Sprintf("parameter '%s' %s", p.Name, d))
			}
		}
	}
	switch len(problems) {
	case 0:
	case 1:
		return fmt.Errorf("%s: %s", ref, problems[0])
	default:
		return fmt.Errorf("%s:\n  %s", ref, strings.Join(problems, "\n  "))
	}
	if res != nil {
		for i, p := range params {
			if v := values[i]; !value.IsUndef(v) {
				if _, set := res.Param(p.Name); !set {
					c.setParam(res, p.Name, v)
				}
			}
		}
	}
	return nil
}

func hasParam(params []*syntax.Parameter, name string) bool {
	for _, p := range params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// tagValues flattens a tag metaparameter into lowercase tags.
func tagValues(v value.Value) []string {
	var out []string
	switch v := v.(type) {
	case value.Array:
		for _, e := range v {
			out = append(out, tagValues(e)...)
		}
	case value.String:
		out = append(out, nameTags(string(v))...)
	default:
		if !value.IsUndef(v) {
			out = append(out, strings.ToLower(value.ToString(v)))
		}
	}
	return out
}

// evaluateDefine evaluates one defined-type instance.
func (c *Compilation) evaluateDefine(r *resource) error {
	r.evaluated = true
	def := r.define
	dsc := eval.NewScope(eval.DefineScope, def.Name, enclosing(r.scope), def.File)
	dsc.Reserve(scopeVarCount(def.Define.Params, def.Define.Body))
	c.scopes[dsc] = &scopeData{resource: r}
	title := value.Value(value.String(r.Title)) // boxed once for both
	dsc.Set("title", title)
	name := title
	if v, ok := r.Param("name"); ok {
		name = v
	}
	dsc.Set("name", name)
	c.setModuleNames(dsc, def, r.scope)
	given := value.NewHashBuilder(len(r.Params))
	for _, p := range r.Params {
		v := p.Value
		// The resource keeps a Sensitive value unwrapped (its name in
		// sensitive_parameters); the define's body gets it as given.
		if containsString(r.Sensitive, p.Name) {
			v = &value.Sensitive{Value: v}
		}
		given.Set(value.String(p.Name), v)
	}
	// A parameter declared undef is given: without a default it is undef
	// (not missing), as in Puppet; one the define lacks is still unknown.
	for _, n := range r.givenUndef {
		if _, set := r.Param(n); !set {
			given.Set(value.String(n), value.Undef)
		}
	}
	ref := r.Ref().String()
	if err := c.bindParams(dsc, ref, def.Define.Params, given.Build(), r, false, true, ""); err != nil {
		return declError(err, r.pos)
	}
	setMetaparamVars(dsc, r)
	return c.ev.Exec(def.Define.Body, dsc)
}

// setMetaparamVars makes the metaparameters a class or defined-type
// instance has (given, or from resource defaults) variables of its body, as
// Puppet sets every attribute of the resource in its scope: $require inside
// a define is the instance's require.
func setMetaparamVars(sc *eval.Scope, r *resource) {
	for _, p := range r.Params {
		if metaparams[p.Name] && p.Value != nil && !value.IsUndef(p.Value) {
			sc.Set(p.Name, asReferences(p.Value)) // a parameter of the same name wins
		}
	}
}

// asReferences is a metaparameter's value as the resource holds it: a
// resource type with a title becomes a reference (Puppet's resource object,
// which prints as Notify[a]), in arrays too.
func asReferences(v value.Value) value.Value {
	switch v := v.(type) {
	case *value.ResourceType:
		if v.Title != "" && !v.Reference {
			r := *v
			r.Reference = true
			return &r
		}
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = asReferences(e)
		}
		return out
	}
	return v
}

func (c *Compilation) pos(sc *eval.Scope, n syntax.Node) syntax.Position {
	if n == nil || sc == nil || sc.File == nil {
		return syntax.Position{}
	}
	return sc.File.Position(n.Pos())
}
