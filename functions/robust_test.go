package functions

import (
	"fmt"
	"math"
	"testing"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// TestNoPanics calls every function with assorted bad and odd arguments:
// each call must end in a value or an error, never a panic.
func TestNoPanics(t *testing.T) {
	re, _ := value.NewRegexp(`a(b)?`)
	samples := []value.Value{
		value.Undef, value.Default, value.Integer(0), value.Integer(-1), value.Integer(math.MaxInt64),
		value.Integer(math.MinInt64), value.Float(math.Inf(1)), value.Float(math.NaN()), value.Float(1e300),
		value.String(""), value.String("("), value.String("%"), value.String("%*d"), value.String("%<a>s"),
		value.String("0x"), value.String("-"), value.String("a.b..c"), value.String("99999999999999999999999"),
		value.Array{}, value.Array{value.Undef, value.Array{value.Integer(1)}}, value.NewHash(value.String("a"), value.Integer(1)),
		value.EmptyHash, re, value.IntegerAny, value.RegexpAny, &value.Sensitive{Value: value.String("s")},
		value.True, &value.IntegerType{Min: 1, Max: 3},
	}
	table := Builtins()
	top := eval.NewScope(eval.TopScope, "", nil, nil)
	h := &testHost{table: table}
	ev := &eval.Evaluator{Host: h}
	call := func(name string, f Func, withCall bool, args []value.Value) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s(%v) panicked: %v", name, literals(args), r)
			}
		}()
		c := &Ctx{Eval: ev, Scope: top, Log: func(Level, string) {}}
		if withCall {
			c.Call = &eval.Call{Name: name, Args: args}
		}
		_, _ = f(c, args)
	}
	for name, f := range table {
		call(name, f, false, nil)
		for _, a := range samples {
			call(name, f, true, []value.Value{a})
			for _, b := range samples {
				call(name, f, true, []value.Value{a, b})
				call(name, f, false, []value.Value{b, a, value.Integer(2)})
			}
		}
	}
	for _, tn := range []string{"Integer", "Float", "Numeric", "String", "Boolean", "Array", "Hash", "Regexp", "Sensitive", "Type", "Optional", "Variant"} {
		typ, _ := value.BaseType(tn)
		for _, a := range samples {
			for _, b := range samples {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("New(%s, %v, %v) panicked: %v", tn, value.Literal(a), value.Literal(b), r)
						}
					}()
					c := &Ctx{Eval: ev, Scope: top, Log: func(Level, string) {}}
					_, _ = New(c, typ, []value.Value{a})
					_, _ = New(c, typ, []value.Value{a, b})
				}()
			}
		}
	}
}

func literals(vs []value.Value) string {
	s := ""
	for i, v := range vs {
		if i > 0 {
			s += ", "
		}
		s += value.Literal(v)
	}
	return fmt.Sprint(s)
}
