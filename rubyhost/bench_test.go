package rubyhost

import (
	"context"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// BenchmarkHostStart is a first call on a machine where no helper runs:
// Ruby starts and loads Puppet, a session forks, the function loads and
// answers.
func BenchmarkHostStart(b *testing.B) {
	needRuby(b)
	for b.Loop() {
		h := New(Options{})
		if _, err := call(b, h, "hatch::echo", value.String("x")); err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}

// BenchmarkSession is what a compile pays once when the helper runs: a
// session (a fork of the helper), the environment's loaders and the
// first call, which loads the function.
func BenchmarkSession(b *testing.B) {
	needRuby(b)
	h := New(Options{})
	defer h.Close()
	if _, err := call(b, h, "hatch::echo"); err != nil { // the helper runs
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := call(b, h, "hatch::echo", value.String("x")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallWarm is a call in an open session with the function
// loaded: a round trip and Puppet's dispatch.
func BenchmarkCallWarm(b *testing.B) {
	needRuby(b)
	h := New(Options{})
	defer h.Close()
	s, err := h.Session(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	args := []value.Value{value.NewHash(value.String("a"), value.Array{value.Integer(1), value.String("b")})}
	req := Request{ModulePath: testModulePath(b), Name: "hatch::echo", Args: args}
	if _, err := s.Call(context.Background(), req, &fakeCompile{}); err != nil { // loaded
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Call(context.Background(), req, &fakeCompile{}); err != nil {
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
	s, err := h.Session(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	req := Request{ModulePath: testModulePath(b), Name: "hatch::ask", Args: []value.Value{value.String("greeting"), value.String("upcase"), value.String("abc")}}
	if _, err := s.Call(context.Background(), req, &fakeCompile{}); err != nil { // loaded
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Call(context.Background(), req, &fakeCompile{}); err != nil {
			b.Fatal(err)
		}
	}
}
