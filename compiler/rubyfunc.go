package compiler

import (
	"fmt"
	"path/filepath"
	"strings"

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
	return c.callRubyFunctionFile(sc, name, file, call)
}

// callRubyFunctionFile runs the Ruby function file defines.
func (c *Compilation) callRubyFunctionFile(sc *eval.Scope, name, file string, call *eval.Call) (v value.Value, found bool, err error) {
	loaded, err := c.env.sources.templates.load(file, "ruby", func(src []byte) (any, error) {
		return ruby.LoadRubyFunction(file, src)
	})
	if err != nil {
		return c.rubyBeyondSubset(sc, name, call, err)
	}
	fn := loaded.(*ruby.RubyFunction)
	scope := &erbScope{c: c, sc: sc, at: call.Node}
	if len(fn.Dispatches) > 1 {
		i, derr := c.chooseDispatch(fn, call.Args)
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

// CallFunction3 runs scope.function_x with a module's 3.x function x when
// one exists, as Puppet's function_* methods do even where a 4.x function
// of that name exists (ruby.Function3Caller).
func (s *erbScope) CallFunction3(name string, args []value.Value) (value.Value, bool, error) {
	file := s.c.env.rubyFunction3File(name)
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

// rubyFunction3File finds a module's 3.x Ruby function file of that name
// (lib/puppet/parser/functions/NAME.rb), in module path order, or "".
func (env *Environment) rubyFunction3File(name string) string {
	if strings.Contains(name, ":") {
		return ""
	}
	for _, mod := range env.moduleList {
		p := filepath.Join(mod, "lib", "puppet", "parser", "functions", name+".rb")
		if env.rubyFuncs[p] {
			return p
		}
	}
	return ""
}
