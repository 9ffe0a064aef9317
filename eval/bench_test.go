package eval

import (
	"testing"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// BenchmarkLambdaLoop evaluates small statements in a lambda called for
// each of 1000 elements: the path where the per-step stop check sits.
func BenchmarkLambdaLoop(b *testing.B) {
	prog, err := syntax.ParseFile("bench.pp", []byte("$r = map($long) |$x| { $a = $x + 1\n $b = $a * 2\n $b }\n"))
	if err != nil {
		b.Fatal(err)
	}
	long := make(value.Array, 1000)
	for i := range long {
		long[i] = value.Integer(i)
	}
	ev := &Evaluator{Host: testHost{}}
	b.ReportAllocs()
	for b.Loop() {
		top := NewScope(TopScope, "", nil, prog.File)
		top.Set("long", long)
		if _, err := ev.Statements(prog.Body, top); err != nil {
			b.Fatal(err)
		}
	}
}
