package compiler

import (
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
	"path/filepath"
)

// callHieraBackend runs a custom Hiera backend function (data_hash,
// lookup_key or data_dig): a module's Puppet-language function, else its
// Ruby function, with the arguments hiera gives (the last a
// Puppet::LookupContext). It runs in top scope, as Puppet's do.
func (c *Compilation) callHieraBackend(function string, args []value.Value) (value.Value, error) {
	// The backend may look at the files beside its location, as Hiera
	// itself reads them (miraheze's vmlib::expand_path reads PATH.yaml
	// and PATH/a/b.yaml): Ruby's File methods answer there during the call.
	// The options are the first hash argument (data_hash: options,
	// context; lookup_key and data_dig: key, options, context).
	for _, a := range args {
		opts, ok := a.(*value.Hash)
		if !ok {
			continue
		}
		if p, ok := opts.GetString("path"); ok {
			if ps, ok := p.(value.String); ok && filepath.IsAbs(string(ps)) {
				c.hieraReadRoots = append(c.hieraReadRoots, filepath.Dir(filepath.Clean(string(ps))))
				defer func() { c.hieraReadRoots = c.hieraReadRoots[:len(c.hieraReadRoots)-1] }()
			}
		}
		break
	}
	// Under Puppet a backend's context caches Ruby objects: what
	// cached_value returns is the object cached, not a copy. One table per
	// compile gives each cached hash one Ruby object across the calls
	// (miraheze's expand_path asks its whole data file at every lookup).
	if c.hieraObjects == nil {
		c.hieraObjects = erb.NewObjects()
	}
	saved := c.erbObjects
	c.erbObjects = c.hieraObjects
	defer func() { c.erbObjects = saved }()
	call := &eval.Call{Name: function, Args: args}
	def, err := c.env.lookup(environment.KindFunction, function)
	if err != nil {
		return nil, err
	}
	if def != nil {
		return c.callPuppetFunction(c.top, def, call)
	}
	if v, found, err := c.callRubyFunction(c.top, function, call); found {
		return v, err
	}
	return nil, hiera.ErrUnknownBackend
}

// lookupContextMethod runs `$context.method(...)` on a Puppet::LookupContext;
// ok is false when the call is not a method call on one.
func (c *Compilation) lookupContextMethod(ev *eval.Evaluator, sc *eval.Scope, call *eval.Call) (v value.Value, ok bool, err error) {
	if len(call.Args) == 0 {
		return nil, false, nil
	}
	lc, isContext := call.Args[0].(*hiera.LookupContext)
	if _, isMethod := call.Node.(*syntax.MethodCall); !isContext || !isMethod {
		return nil, false, nil
	}
	args := call.Args[1:]
	switch {
	case call.Name == "explain" && call.Lambda != nil:
		// The block gives the message.
		msg, err := ev.CallLambda(call.Lambda, nil)
		if err != nil {
			return nil, true, err
		}
		args = []value.Value{msg}
	case call.Name == "cached_file_data" && call.Lambda != nil:
		content, err := lc.ContextMethod("file_data", args)
		if err != nil {
			return nil, true, evalError(sc, call.Node, callKind(call)+", ", err)
		}
		v, err := ev.CallLambda(call.Lambda, []value.Value{content})
		return v, true, err
	}
	v, err = lc.ContextMethod(call.Name, args)
	if err != nil && !hiera.IsContextNotFound(err) {
		err = evalError(sc, call.Node, callKind(call)+", ", err)
	}
	return v, true, err
}
