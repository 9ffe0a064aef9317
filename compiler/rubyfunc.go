package compiler

import (
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/value"
)

// callRubyFunction runs a function a module ships in Ruby
// (lib/puppet/functions or lib/puppet/parser/functions) with the ruby
// package's Ruby interpreter. found is false when no module defines it.
func (c *Compilation) callRubyFunction(sc *eval.Scope, name string, call *eval.Call) (v value.Value, found bool, err error) {
	file := c.env.RubyFunctionFile(name)
	if file == "" {
		return nil, false, nil
	}
	return c.callRubyFunctionFile(sc, name, file, call)
}

// callRubyFunctionFile runs the Ruby function file defines.
func (c *Compilation) callRubyFunctionFile(sc *eval.Scope, name, file string, call *eval.Call) (v value.Value, found bool, err error) {
	loaded, err := c.loadFile(file, "ruby", func(src []byte) (any, error) {
		return ruby.LoadRubyFunction(file, src)
	})
	if err != nil {
		return c.rubyBeyondSubset(sc, name, call, err)
	}
	fn := loaded.(*ruby.RubyFunction)
	var scope ruby.Scope = &erbScope{c: c, sc: sc, at: call.Node}
	if call.Lambda != nil && fn.API == 4 {
		scope = &lambdaScope{erbScope: scope.(*erbScope), lambda: call.Lambda}
	}
	if len(fn.Dispatches) > 1 {
		i, derr := c.chooseDispatch(sc, fn, call)
		if derr != nil {
			return nil, true, derr
		}
		v, err = fn.CallDispatch(scope, i, call.Args)
	} else {
		v, err = fn.Call(scope, call.Args)
	}
	if err != nil {
		return c.rubyBeyondSubset(sc, name, call, err)
	}
	return v, true, nil
}

// chooseDispatch picks the first dispatch of a 4.x function whose declared
// parameters (and block) accept the call, as Puppet does: the dispatches
// become the function table's signatures, so that the choice and the
// message when none fits are Puppet's dispatcher's.
func (c *Compilation) chooseDispatch(sc *eval.Scope, fn *ruby.RubyFunction, call *eval.Call) (int, error) {
	dispatch, ok := c.dispatchers[fn]
	if !ok {
		var err error
		if dispatch, err = c.rubyDispatcher(fn); err != nil {
			return 0, err
		}
		if c.dispatchers == nil {
			c.dispatchers = make(map[*ruby.RubyFunction]functions.Func)
		}
		c.dispatchers[fn] = dispatch
	}
	ctx := &functions.Ctx{Eval: c.ev, Scope: sc, Call: call, Log: c.logFunc, Services: c}
	v, err := dispatch(ctx, call.Args)
	if err != nil {
		return 0, err
	}
	return int(v.(value.Integer)), nil
}

// rubyDispatcher is a dispatcher over fn's dispatches that answers the
// index of the one that accepts a call.
func (c *Compilation) rubyDispatcher(fn *ruby.RubyFunction) (functions.Func, error) {
	sigs := make([]functions.Signature, 0, len(fn.Dispatches))
	for i, d := range fn.Dispatches {
		index := value.Integer(i)
		sig := functions.Signature{Impl: func(*functions.Ctx, []value.Value) (value.Value, error) { return index, nil }}
		optional := false
		for _, p := range d.Params {
			var t value.Type = value.AnyType
			if p.Type != "" {
				pt, err := c.parseTypeSpec(p.Type)
				if err != nil {
					return nil, err
				}
				t = pt
			}
			switch p.Kind {
			case "scope_param":
			case "block_param", "optional_block_param":
				sig.Block, sig.AnyBlock, sig.BlockType = functions.RequiredBlock, true, p.Type
				if p.Kind == "optional_block_param" {
					sig.Block = functions.OptionalBlock
				}
			case "repeated_param", "optional_repeated_param", "required_repeated_param":
				sig.Params = append(sig.Params, functions.P(p.Name, t))
				sig.Repeated = true
				if p.Kind == "required_repeated_param" && !optional {
					sig.Required = len(sig.Params)
				}
			case "optional_param":
				sig.Params = append(sig.Params, functions.P(p.Name, t))
				optional = true
			default:
				sig.Params = append(sig.Params, functions.P(p.Name, t))
				if !optional {
					sig.Required = len(sig.Params)
				}
			}
		}
		sigs = append(sigs, sig)
	}
	return functions.Dispatch(fn.Name, sigs...), nil
}

// CallFunction3 runs scope.function_x with a module's 3.x function x when
// one exists, as Puppet's function_* methods do even where a 4.x function
// of that name exists (ruby.Function3Caller).
func (s *erbScope) CallFunction3(name string, args []value.Value) (value.Value, bool, error) {
	file := s.c.env.RubyFunction3File(name)
	if file == "" {
		return nil, false, nil
	}
	call := &eval.Call{Name: name, Args: args, Node: s.at}
	v, _, err := s.c.callRubyFunctionFile(s.sc, name, file, call)
	if err != nil {
		return nil, true, s.rescuable(evalError(s.sc, call.Node, callKind(call)+", ", err))
	}
	return v, true, nil
}

// lambdaScope is the scope of a 4.x Ruby function called with a lambda:
// the lambda is the function's block (ruby.BlockYielder).
type lambdaScope struct {
	*erbScope
	lambda *eval.Lambda
}

func (s *lambdaScope) HasBlock() bool { return true }

// Yield runs the lambda with the arguments the function's block gets.
func (s *lambdaScope) Yield(args []value.Value) (value.Value, error) {
	v, err := s.c.ev.CallLambda(s.lambda, args)
	if err != nil {
		return nil, s.rescuable(err)
	}
	return v, nil
}
