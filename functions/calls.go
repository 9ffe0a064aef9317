package functions

import (
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Functions that reach back into the evaluator: call() runs another
// function by name, getvar() reads a variable by name.

func addCalls(t Table) {
	t["call"] = Dispatch("call", Signature{Params: []Param{P("function_name", tString), P("arguments", tAny)},
		Required: 1, Repeated: true, Block: OptionalBlock, AnyBlock: true, Impl: callImpl})
	addGetvar(t)
}

// callImpl calls the named function with the remaining arguments and the
// block, as if it had been called directly.
func callImpl(c *Ctx, args []value.Value) (value.Value, error) {
	if c.Eval == nil || c.Eval.Host == nil {
		return nil, errors.New("call(): no evaluator")
	}
	call := &eval.Call{Name: string(args[0].(value.String)), Args: args[1:], Lambda: c.lambda()}
	if c.Call != nil {
		call.Node = c.Call.Node
	}
	return c.Eval.Host.CallFunction(c.Eval, c.Scope, call)
}

// getvarName splits getvar's argument into the variable name and the rest.
var getvarName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A((?:::)?(?:\w+::)*\w+)(.*)\z`) })

func addGetvar(t Table) {
	// The argument must start with a variable name, optionally qualified,
	// followed by a '.' navigation or the end.
	validName := &value.PatternType{Regexps: []*value.Regexp{mustRegexp(`\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|\Z)`)}}
	t["getvar"] = Dispatch("getvar",
		Signature{Params: []Param{P("get_string", validName), P("default_value", tAny)}, Required: 1,
			Block: OptionalBlock, BlockMin: 1, BlockMax: 1, Impl: getvarImpl},
		Signature{Params: []Param{P("get_string", tString), P("default_value", tAny)}, Required: 1,
			Block: OptionalBlock, AnyBlock: true, ArgumentMismatch: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
				return nil, errors.New("'getvar' The given string does not start with a valid variable name")
			}})
}

// getvarImpl looks up a variable (as $name would in the calling scope) and
// digs into it along a dotted path, as get() does.
func getvarImpl(c *Ctx, args []value.Value) (value.Value, error) {
	m := getvarName().FindStringSubmatch(string(args[0].(value.String)))
	if m == nil {
		return nil, errors.New("'getvar' The given string does not start with a valid variable name")
	}
	name, navigation := m[1], m[2]
	if navigation != "" {
		if navigation[0] != '.' {
			return nil, fmt.Errorf("First character after var name in get string must be a '.' - got %s", navigation[:1])
		}
		navigation = navigation[1:]
	}
	if c.Eval == nil {
		return nil, errors.New("getvar(): no evaluator")
	}
	x, err := syntax.ParseExpr("$" + name)
	if err != nil {
		return nil, err
	}
	v, err := c.Eval.Eval(x, c.Scope)
	if err != nil {
		return nil, err
	}
	getArgs := []value.Value{v, value.String(navigation)}
	if len(args) > 1 {
		getArgs = append(getArgs, args[1])
	}
	return getImpl(c, getArgs)
}
