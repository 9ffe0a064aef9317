package ruby

import "fmt"

// procVal is a Proc: a block made a value by proc { }, lambda { } or
// ->() { }. A lambda checks its argument count and returns from itself; a
// proc binds its arguments loosely, as a block does.
type procVal struct {
	blk    *blockVal
	lambda bool
}

// callProc calls a Proc with arguments.
func (in *interp) callProc(line int, p *procVal, args []any) (any, error) {
	if !p.lambda || p.blk.symbol {
		return in.yield(line, p.blk, args...)
	}
	required, splat := 0, false
	for _, prm := range p.blk.params {
		if prm.splat {
			splat = true
		} else {
			required++
		}
	}
	if len(args) != required && (!splat || len(args) < required) {
		expected := fmt.Sprint(required)
		if splat {
			expected += "+"
		}
		return nil, in.errorf(line, "ArgumentError", "wrong number of arguments (given %d, expected %s)", len(args), expected)
	}
	in.depth++
	defer func() { in.depth-- }()
	if in.depth > MaxCallDepth {
		return nil, in.callsTooDeep(line)
	}
	e := &env{vars: make(map[string]any, len(p.blk.params)), parent: p.blk.env}
	bindParams(e, p.blk.params, args, false)
	v, err := in.eval(p.blk.body, e)
	switch s := err.(type) {
	case nil:
		return v, nil
	case *returnSignal:
		return s.v, nil
	case *nextSignal:
		return s.v, nil
	}
	return nil, err
}

// procMethods are Proc's methods, by name.
func procMethods() methodTable[*procVal] {
	t := methodTable[*procVal]{}
	t.def("call () yield [] ===", func(in *interp, line int, p *procVal, name string, args []any, blk *blockVal) (any, bool, error) {
		v, err := in.callProc(line, p, args)
		return v, true, err
	})
	t.def("lambda?", func(in *interp, line int, p *procVal, name string, args []any, blk *blockVal) (any, bool, error) {
		return p.lambda, true, nil
	})
	t.def("to_proc", func(in *interp, line int, p *procVal, name string, args []any, blk *blockVal) (any, bool, error) {
		return p, true, nil
	})
	t.def("arity", func(in *interp, line int, p *procVal, name string, args []any, blk *blockVal) (any, bool, error) {
		n := int64(0)
		for _, prm := range p.blk.params {
			if prm.splat {
				return -n - 1, true, nil
			}
			n++
		}
		return n, true, nil
	})
	return t
}
