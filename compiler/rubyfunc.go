package compiler

import (
	"fmt"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/value"
)

// callRubyFunction runs a function a module ships in Ruby
// (lib/puppet/functions or lib/puppet/parser/functions) with the ruby
// package's Ruby interpreter. found is false when no module defines it.
func (c *Compilation) callRubyFunction(sc *eval.Scope, name string, call *eval.Call) (v value.Value, found bool, err error) {
	file := c.env.rubyFunctionFile(name)
	if file == "" {
		return nil, false, nil
	}
	loaded, err := c.loadFile(file, "ruby", func(src []byte) (any, error) {
		return ruby.LoadRubyFunction(file, src)
	})
	if err != nil {
		return c.rubyBeyondSubset(sc, name, call, err)
	}
	fn := loaded.(*ruby.RubyFunction)
	scope := &erbScope{c: c, sc: sc, at: call.Node}
	if len(fn.Dispatches) > 1 {
		i, err := c.chooseDispatch(fn, call.Args)
		if err != nil {
			return nil, true, err
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
// parameter types accept the arguments, as Puppet does.
func (c *Compilation) chooseDispatch(fn *ruby.RubyFunction, args []value.Value) (int, error) {
	for i, d := range fn.Dispatches {
		if c.dispatchAccepts(d, args) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("'%s' has no signature that accepts %d argument(s) of these types", fn.Name, len(args))
}

func (c *Compilation) dispatchAccepts(d ruby.Dispatch, args []value.Value) bool {
	ai := 0
	for _, p := range d.Params {
		var t value.Type = value.AnyType
		if p.Type != "" {
			pt, err := c.parseTypeSpec(p.Type)
			if err != nil {
				return false
			}
			t = pt
		}
		switch p.Kind {
		case "block_param", "optional_block_param", "scope_param":
			continue
		case "repeated_param", "required_repeated_param", "optional_repeated_param":
			n := 0
			for ; ai < len(args); ai++ {
				if !value.IsInstance(t, args[ai]) {
					return false
				}
				n++
			}
			if p.Kind == "required_repeated_param" && n == 0 {
				return false
			}
		case "optional_param":
			if ai < len(args) {
				if !value.IsInstance(t, args[ai]) {
					return false
				}
				ai++
			}
		default:
			if ai >= len(args) || !value.IsInstance(t, args[ai]) {
				return false
			}
			ai++
		}
	}
	return ai == len(args)
}
