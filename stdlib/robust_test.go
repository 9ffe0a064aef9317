package stdlib

import (
	"fmt"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// Bad input must give an error, never a panic, even without a scope, an
// evaluator or a compile behind the call.
func TestNoPanicOnBadInput(t *testing.T) {
	samples := []value.Value{
		value.Undef, value.Default, value.String(""), value.String("x"), value.String("1..3"),
		value.String("/a/b"), value.String("::1"), value.Integer(-1), value.Integer(0), value.Integer(3),
		value.Float(1.5), value.True, value.Array{}, value.Array{value.Undef, value.Array{value.Integer(1)}},
		value.EmptyHash, value.NewHash(value.String("a"), value.Undef), value.IntegerAny,
		&value.Regexp{Source: "a"},
	}
	var argLists [][]value.Value
	argLists = append(argLists, nil)
	for _, a := range samples {
		argLists = append(argLists, []value.Value{a})
		for _, b := range samples {
			argLists = append(argLists, []value.Value{a, b}, []value.Value{a, b, a})
		}
	}
	ctx := &functions.Ctx{Log: func(functions.Level, string) {}}
	for name, f := range Functions() {
		start := time.Now()
		for _, args := range argLists {
			if name == "range" && len(args) > 1 {
				// Most pairs of these strings are Ruby string ranges of a
				// million elements: correct, but slow here.
				continue
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s(%s) panicked: %v", name, fmt.Sprint(args), r)
					}
				}()
				_, _ = f(ctx, args)
			}()
		}
		if d := time.Since(start); d > time.Second {
			t.Logf("%s: %v", name, d)
		}
	}
}
