package rubyhost

import (
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// BenchmarkCallCold is a first call: the helper starts, loads Puppet and
// the function, and answers.
func BenchmarkCallCold(b *testing.B) {
	needRuby(b)
	for b.Loop() {
		h := New(Options{})
		if _, err := call(b, h, "hatch::echo", value.String("x")); err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}

// BenchmarkCallWarm is a call to a running helper with the function
// loaded: a round trip and Puppet's dispatch.
func BenchmarkCallWarm(b *testing.B) {
	needRuby(b)
	h := New(Options{})
	defer h.Close()
	args := value.Array{value.NewHash(value.String("a"), value.Array{value.Integer(1), value.String("b")})}
	if _, err := call(b, h, "hatch::echo", args...); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := call(b, h, "hatch::echo", args...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallWarmCallback is a warm call whose function calls back
// into Go once for a variable and once for a function.
func BenchmarkCallWarmCallback(b *testing.B) {
	needRuby(b)
	h := New(Options{})
	defer h.Close()
	args := []value.Value{value.String("greeting"), value.String("upcase"), value.String("abc")}
	for b.Loop() {
		if _, err := call(b, h, "hatch::ask", args...); err != nil {
			b.Fatal(err)
		}
	}
}
