package compiler

import (
	"context"
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// fnLookup implements lookup() in all its forms:
//
//	lookup(name | [names], [Type], [merge], [default])
//	lookup(name | [names], { value_type, merge, default_value, ... })
//	lookup({ name, value_type, merge, default_value })
//
// with an optional block computing the default.
func fnLookup(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var req hieraRequest
	var opts *value.Hash
	switch a := args[0].(type) {
	case *value.Hash:
		if len(args) != 1 {
			return nil, fmt.Errorf("'lookup' expects 1 argument when the first is an options hash, got %d", len(args))
		}
		opts = a
		n, ok := a.GetString("name")
		if !ok {
			return nil, fmt.Errorf("'lookup' options hash has no 'name'")
		}
		if err := req.setNames(n); err != nil {
			return nil, err
		}
	default:
		if err := req.setNames(a); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			if h, ok := args[1].(*value.Hash); ok {
				opts = h
				break
			}
		}
		if len(args) > 1 && !value.IsUndef(args[1]) {
			t, ok := args[1].(value.Type)
			if !ok {
				return nil, fmt.Errorf("'lookup' parameter 'value_type' expects a Type value, got %s", value.TypeString(value.Generalize(value.TypeOf(args[1]))))
			}
			req.Type = t
		}
		if len(args) > 2 {
			req.Merge = args[2]
		}
		if len(args) > 3 {
			req.Default, req.HasDefault = args[3], true
		}
	}
	if opts != nil {
		if t, ok := opts.GetString("value_type"); ok {
			if tt, ok := t.(value.Type); ok {
				req.Type = tt
			}
		}
		if m, ok := opts.GetString("merge"); ok {
			req.Merge = m
		}
		if d, ok := opts.GetString("default_value"); ok {
			req.Default, req.HasDefault = d, true
		}
		// default_values_hash answers keys the data does not have, before
		// default_value does.
		if dvh, ok := opts.GetString("default_values_hash"); ok {
			if h, ok := dvh.(*value.Hash); ok {
				for _, k := range req.Keys {
					if v, found := h.GetString(k); found {
						req.Default, req.HasDefault = v, true
						break
					}
				}
			}
		}
	}
	req.DefaultFunc = defaultFunc(c)
	// Data is interpolated with the calling scope's variables, as in
	// Puppet: a class's lookup() sees its $module_name and locals.
	if comp, ok := c.Services.(*Compilation); ok && c.Scope != nil {
		req.Scope = &erbScope{c: comp, sc: c.Scope}
	}
	return c.Svc().Lookup(req.Request)
}

// defaultFunc computes a lookup's default with the call's block, nil
// without one.
func defaultFunc(c *functions.Ctx) func(string) (value.Value, error) {
	if c.Call == nil || c.Call.Lambda == nil {
		return nil
	}
	lam := c.Call.Lambda
	return func(key string) (value.Value, error) {
		return c.Eval.CallLambda(lam, []value.Value{value.String(key)})
	}
}

// Lookup implements functions.Data.
func (c *Compilation) Lookup(req hiera.Request) (value.Value, error) { return c.lookups.Lookup(req) }

// Hiera implements functions.Data.
func (c *Compilation) Hiera(kind hiera.HieraFunction, key string, def value.Value, hasDefault bool, defaultFunc func(string) (value.Value, error)) (value.Value, error) {
	return c.lookups.Hiera(kind, key, def, hasDefault, defaultFunc)
}

// convertTo implements lookup_options convert_to with the new() function.
func (c *Compilation) convertTo(typeSpec string, v value.Value, args []value.Value) (value.Value, error) {
	t, err := c.parseTypeSpec(typeSpec)
	if err != nil {
		return nil, err
	}
	ctx := &functions.Ctx{Eval: c.ev, Scope: c.top, Call: &eval.Call{Name: "new"}, Log: c.logFunc, Services: c}
	return functions.New(ctx, t, append([]value.Value{v}, args...))
}

// parseTypeSpec evaluates a type written as a string (Integer, Array[String]).
func (c *Compilation) parseTypeSpec(spec string) (value.Type, error) {
	x, err := parseExpr(spec)
	if err != nil {
		return nil, err
	}
	v, err := c.ev.Eval(x, c.top)
	if err != nil {
		return nil, err
	}
	t, ok := v.(value.Type)
	if !ok {
		return nil, fmt.Errorf("'%s' is not a type", spec)
	}
	return t, nil
}

// hieraFunc implements hiera(), hiera_array() and hiera_hash():
// (key, [default], [override]) with an optional default block.
func hieraFunc(name string, kind hiera.HieraFunction) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		key, ok := args[0].(value.String)
		if !ok {
			return nil, fmt.Errorf("'%s' parameter 'key' expects a String value", name)
		}
		var def value.Value
		hasDefault := len(args) > 1
		if hasDefault {
			def = args[1]
		}
		return c.Svc().Hiera(kind, string(key), def, hasDefault, defaultFunc(c))
	}
}

// fnHieraInclude includes the classes listed under a key (merged unique).
func fnHieraInclude(c *functions.Ctx, args []value.Value) (value.Value, error) {
	v, err := hieraFunc("hiera_include", hiera.HieraArray)(c, args)
	if err != nil {
		return nil, err
	}
	names, err := classNames([]value.Value{v})
	if err != nil {
		return nil, err
	}
	if _, err := c.Svc().DeclareClasses(c.Scope, at(c), names, functions.Include); err != nil {
		return nil, err
	}
	return value.Undef, nil
}

// hieraRequest is a lookup() call being assembled from its arguments.
type hieraRequest struct {
	hiera.Request
}

func (r *hieraRequest) setNames(v value.Value) error {
	switch n := v.(type) {
	case value.String:
		r.Keys = []string{string(n)}
		return nil
	case value.Array:
		for _, e := range n {
			s, ok := e.(value.String)
			if !ok {
				return errLookupName
			}
			r.Keys = append(r.Keys, string(s))
		}
		return nil
	}
	return errLookupName
}

// errLookupName is lookup()'s error for a name that is not a string or an
// array of strings; the function call around it gives it its location.
var errLookupName = errors.New("'lookup' parameter 'name' expects a value of type String or Array[String]")

func parseExpr(src string) (syntax.Expr, error) { return syntax.ParseExpr(src) }

// DataLookup answers `puppet lookup`-style questions for a node without
// compiling its catalog: facts, $trusted and ENC parameters are in scope,
// manifests are not evaluated.
type DataLookup struct {
	c *Compilation
}

// NewDataLookup prepares lookups for req.Node in env.
func NewDataLookup(ctx context.Context, env *Environment, req *Request) (*DataLookup, error) {
	c := newCompilation(ctx, env, req)
	for _, s := range []stage{stages[0], stages[1]} { // node, top
		if err := s.run(c); err != nil {
			return nil, err
		}
	}
	return &DataLookup{c: c}, nil
}

// Lookup performs one lookup; with explain it also returns the trace.
func (d *DataLookup) Lookup(req hiera.Request, explain bool) (value.Value, *hiera.ExplainNode, error) {
	if explain {
		return d.c.lookups.Explain(req)
	}
	v, err := d.c.lookups.Lookup(req)
	return v, nil, err
}

// Close ends what the lookups hold: a Ruby helper session a custom
// backend opened.
func (d *DataLookup) Close() { d.c.closeRubySession() }

// ParseType evaluates a type written as text, e.g. "Array[String]".
func (d *DataLookup) ParseType(spec string) (value.Type, error) { return d.c.parseTypeSpec(spec) }

// Diagnostics returns the warnings raised by the lookups so far.
func (d *DataLookup) Diagnostics() diag.List { return d.c.diags }
