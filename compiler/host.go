package compiler

import (
	"errors"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// CallFunction implements eval.Host. A capitalized name is a type called as
// a function, which is new(); then come the environment's function table
// (Puppet's core functions, the compiler's own and stdlib's), the
// Puppet-language functions of modules and their Ruby functions.
func (c *Compilation) CallFunction(ev *eval.Evaluator, sc *eval.Scope, call *eval.Call) (value.Value, error) {
	name := strings.TrimPrefix(call.Name, "::")
	if v, ok, err := c.lookupContextMethod(ev, sc, call); ok {
		return v, err
	}
	if name != "" && name[0] >= 'A' && name[0] <= 'Z' {
		// A type called as a function is new(): Integer('12'), Sensitive($x).
		t, err := c.resolveTypeName(sc, name, call.Node)
		if err != nil {
			return nil, err
		}
		ctx := &functions.Ctx{Eval: ev, Scope: sc, Call: call, Log: c.logFunc, Services: c}
		v, err := functions.New(ctx, t, call.Args)
		if err != nil {
			return nil, evalError(sc, call.Node, callKind(call)+", ", err)
		}
		return v, nil
	}
	if f, ok := c.funcs.Lookup(name); ok {
		ctx := &functions.Ctx{Eval: ev, Scope: sc, Call: call, Log: c.logFunc, Services: c}
		v, err := f(ctx, call.Args)
		if err != nil {
			if eval.IsVerbatim(err) || errors.Is(err, eval.ErrBreak) {
				return nil, err
			}
			return nil, evalError(sc, call.Node, callKind(call)+", ", err)
		}
		return v, nil
	}
	def, err := c.env.lookup(environment.KindFunction, name)
	if err != nil {
		return nil, err
	}
	if def != nil {
		return c.callPuppetFunction(sc, def, call)
	}
	if v, found, err := c.callRubyFunction(sc, name, call); found {
		if err != nil {
			return nil, evalError(sc, call.Node, callKind(call)+", ", err)
		}
		return v, nil
	}
	d := eval.IssueAt(sc, call.Node, diag.UnknownFunction, diag.Args{"name": name}, "Unknown function: '%s'.", name)
	d.Detail = diag.DidYouMean(name, c.functionNames())
	return nil, d
}

func callKind(call *eval.Call) string {
	if _, ok := call.Node.(*syntax.MethodCall); ok {
		return "Error while evaluating a Method call"
	}
	return "Error while evaluating a Function Call"
}

func (c *Compilation) logFunc(level functions.Level, msg string) {
	c.logf(string(level), "%s", msg)
}

// callPuppetFunction runs a function written in the Puppet language: a
// fresh local scope under top scope, parameters bound and type checked, and
// return() unwrapped.
func (c *Compilation) callPuppetFunction(sc *eval.Scope, def *environment.Definition, call *eval.Call) (value.Value, error) {
	fd := def.Function
	fsc := eval.NewScope(eval.LocalScope, def.Name, c.top, def.File)
	fsc.Reserve(len(fd.Params))
	args := call.Args
	if call.Lambda != nil {
		args = append(append([]value.Value{}, args...), call.Lambda)
	}
	if err := c.bindFunctionParams(fsc, def, args); err != nil {
		return nil, evalError(sc, call.Node, "Error while evaluating a Function Call, ", err)
	}
	v, err := eval.ReturnValue(c.ev.Block(fd.Body, fsc))
	if err != nil {
		return nil, err
	}
	if fd.ReturnType != nil {
		tv, err := c.ev.Eval(fd.ReturnType, fsc)
		if err != nil {
			return nil, err
		}
		if t, ok := tv.(value.Type); ok {
			if ok, err := value.CheckInstance(t, v); err != nil {
				return nil, evalError(sc, call.Node, "Error while evaluating a Function Call, ", err)
			} else if ok {
				return v, nil
			}
			return nil, evalError(sc, call.Node, "Error while evaluating a Function Call, ",
				fmt.Errorf("'%s' %s", def.Name, value.DescribeMismatch(t, v)))
		}
	}
	return v, nil
}

func (c *Compilation) bindFunctionParams(fsc *eval.Scope, def *environment.Definition, args []value.Value) error {
	params := def.Function.Params
	required := eval.RequiredCount(params)
	if len(args) < required || (len(args) > len(params) && (len(params) == 0 || !params[len(params)-1].CapturesRest)) {
		if required == len(params) {
			return fmt.Errorf("'%s' expects %d arguments, got %d", def.Name, len(params), len(args))
		}
		return fmt.Errorf("'%s' expects between %d and %d arguments, got %d", def.Name, required, len(params), len(args))
	}
	for i, p := range params {
		// The count check above leaves every parameter a value.
		v, _, err := c.ev.ArgValue(fsc, params, i, args)
		if err != nil {
			return err
		}
		if p.Type != nil && !p.CapturesRest {
			tv, err := c.ev.ParamType(p, fsc)
			if err != nil {
				return err
			}
			if t, ok := tv.(value.Type); ok {
				if ok, err := value.CheckInstance(t, v); err != nil {
					return err
				} else if !ok {
					return fmt.Errorf("'%s' parameter '%s' %s", def.Name, p.Name, value.DescribeMismatch(t, v))
				}
			}
		}
		fsc.Set(p.Name, v)
	}
	return nil
}

// QualifiedVariable implements eval.Host: $a::b::c is variable c of class a::b.
// A variable it cannot find is reported as the strict settings say.
func (c *Compilation) QualifiedVariable(sc *eval.Scope, name string, at syntax.Node) (value.Value, error) {
	// Puppet says "Unknown variable" whether or not the class was
	// evaluated.
	if v, found, _ := c.qualifiedLookup(name); found {
		return v, nil
	}
	return c.ev.UnknownVariable(sc, at, name)
}

func (c *Compilation) qualified(name string) (value.Value, error) {
	v, found, missing := c.qualifiedLookup(name)
	if missing != "" {
		c.logf("warning", "Could not look up qualified variable '%s'; class %s has not been evaluated", name, missing)
	}
	if !found {
		return value.Undef, nil
	}
	return v, nil
}

// qualifiedLookup finds $a::b::c: its value and whether it is set, or the
// class (a::b) that has not been evaluated.
func (c *Compilation) qualifiedLookup(name string) (v value.Value, found bool, missingClass string) {
	i := strings.LastIndex(name, "::")
	class, vname := environment.CanonicalName(name[:i]), name[i+2:]
	if class == "" {
		v, ok := c.top.Lookup(vname)
		return v, ok && v != nil, ""
	}
	ci, ok := c.classes[class]
	if !ok || ci.scope == nil {
		return nil, false, class
	}
	if v, ok := ci.scope.GetLocal(vname); ok {
		return v, true, ""
	}
	// Inherited classes see their parents' variables.
	for p := ci.parent; p != nil; p = p.parent {
		if v, ok := p.scope.GetLocal(vname); ok {
			return v, true, ""
		}
	}
	return nil, false, ""
}

// resolveTypeName resolves a capitalized name: a built-in data type, a type
// alias, or a resource type reference.
func (c *Compilation) resolveTypeName(sc *eval.Scope, name string, at syntax.Node) (value.Type, error) {
	if t, ok := value.BaseType(name); ok {
		return t, nil
	}
	return c.ResolveType(sc, name, at)
}

// ResolveType implements eval.Host: type aliases first, else a resource
// type reference.
func (c *Compilation) ResolveType(sc *eval.Scope, name string, at syntax.Node) (value.Type, error) {
	if t, ok := c.resourceTypes[name]; ok {
		return t, nil
	}
	def, err := c.env.lookup(environment.KindTypeAlias, name)
	if err != nil {
		return nil, err
	}
	if def != nil {
		return c.resolveAlias(def)
	}
	// name, not its lowercase copy: Lookup ignores case, and so does the
	// define lookup.
	orig := name
	name = strings.TrimPrefix(name, "::")
	if strings.EqualFold(name, "Puppet::LookupContext") {
		// The context argument of custom Hiera backend functions.
		return value.AnyType, nil
	}
	if !strings.EqualFold(name, "node") && c.types != nil && !c.typeExists(name) {
		d, err := c.env.lookup(environment.KindDefine, name)
		if err != nil {
			return nil, err
		}
		if d == nil {
			d := c.unknownResourceType(name, "Evaluation Error: Resource type not found: "+value.CapitalizeName(name))
			d.Range, d.Nesting = diag.At(c.pos(sc, at)), diag.Verbatim
			return nil, d
		}
	}
	t := &value.ResourceType{Type: c.capitalize(name)}
	if c.resourceTypes == nil {
		c.resourceTypes = make(map[string]*value.ResourceType)
	}
	c.resourceTypes[orig] = t
	return t, nil
}

// typeExists reports whether a native resource type of that name exists.
func (c *Compilation) typeExists(name string) bool {
	_, ok := c.types.Lookup(name)
	return ok
}

// resolveAlias evaluates a type alias once per compile: modules' aliases
// (Struct types with patterns) are referenced by every parameter that uses
// them. The alias is cached before its body is evaluated, so an alias
// that refers to itself resolves to itself.
func (c *Compilation) resolveAlias(def *environment.Definition) (value.Type, error) {
	if at, ok := c.aliases[def]; ok {
		return at, nil
	}
	if c.aliases == nil {
		c.aliases = make(map[*environment.Definition]*value.AliasType)
	}
	at := &value.AliasType{Name: def.Name}
	c.aliases[def] = at
	asc := eval.NewScope(eval.LocalScope, "", c.top, def.File)
	v, err := c.ev.Eval(def.TypeAlias.Type, asc)
	if err != nil {
		delete(c.aliases, def)
		return nil, err
	}
	t, ok := v.(value.Type)
	if !ok {
		delete(c.aliases, def)
		return nil, eval.Errorf(def.File.Position(def.TypeAlias.Pos()), "type alias %s does not resolve to a type", def.Name)
	}
	at.Resolved = t
	return at, nil
}

// classNames flattens include-style arguments: names, arrays, Class refs.
func classNames(args []value.Value) ([]string, error) {
	var out []string
	for _, a := range args {
		switch a := a.(type) {
		case value.String:
			out = append(out, string(a))
		case value.Array:
			names, err := classNames(a)
			if err != nil {
				return nil, err
			}
			out = append(out, names...)
		case *value.ClassType:
			if a.Name == "" {
				return nil, fmt.Errorf("Cannot use an unspecific Class[] Type")
			}
			out = append(out, a.Name)
		case *value.ResourceType:
			if strings.EqualFold(a.Type, "Class") && a.Title != "" {
				out = append(out, a.Title)
				continue
			}
			return nil, fmt.Errorf("Cannot use a Resource reference as a class name: %s", value.TypeString(a))
		default:
			return nil, fmt.Errorf("expects a class name, got %s", value.TypeString(value.Generalize(value.TypeOf(a))))
		}
	}
	return out, nil
}

func (c *Compilation) isDefined(sc *eval.Scope, a value.Value) (bool, error) {
	switch a := a.(type) {
	case value.String:
		s := string(a)
		if strings.HasPrefix(s, "$") {
			name := s[1:]
			if isQualifiedName(strings.TrimPrefix(name, "::")) {
				v, _ := c.qualified(strings.TrimPrefix(name, "::"))
				return !value.IsUndef(v), nil
			}
			if strings.HasPrefix(name, "::") {
				_, ok := c.top.Lookup(name[2:])
				return ok, nil
			}
			_, ok := sc.Lookup(name)
			return ok, nil
		}
		name := environment.CanonicalName(s)
		if c.types != nil {
			if _, ok := c.types.Lookup(name); ok {
				return true, nil
			}
		}
		for _, k := range []environment.Kind{environment.KindClass, environment.KindDefine, environment.KindFunction} {
			d, err := c.env.lookup(k, name)
			if err != nil {
				return false, err
			}
			if d != nil {
				return true, nil
			}
		}
		_, builtin := c.funcs.Lookup(name)
		return builtin, nil
	case *value.ClassType:
		if a.Name == "" {
			return true, nil
		}
		_, ok := c.classes[environment.CanonicalName(a.Name)]
		return ok, nil
	case *value.ResourceType:
		if a.Title == "" {
			n := environment.CanonicalName(a.Type)
			if c.types != nil {
				if _, ok := c.types.Lookup(n); ok {
					return true, nil
				}
			}
			d, err := c.env.lookup(environment.KindDefine, n)
			return d != nil, err
		}
		r := c.byRef[catalog.Ref{Type: a.Type, Title: a.Title}]
		return r != nil, nil
	case value.Type:
		return true, nil
	}
	return false, fmt.Errorf("'defined' parameter 'vals' expects a value of type String, Type[CatalogEntry], or Type[Type], got %s", value.TypeString(value.Generalize(value.TypeOf(a))))
}

func hashHas(h *value.Hash, k string) bool {
	_, ok := h.GetString(k)
	return ok
}
