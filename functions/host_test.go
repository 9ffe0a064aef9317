package functions

import (
	"fmt"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// testHost routes every function call to Builtins() and records log
// messages, so tests exercise real lambdas in real Puppet code.
type testHost struct {
	table Table
	logs  []string
}

func (h *testHost) CallFunction(ev *eval.Evaluator, sc *eval.Scope, c *eval.Call) (value.Value, error) {
	ctx := &Ctx{Eval: ev, Scope: sc, Call: c, Log: func(level Level, msg string) {
		h.logs = append(h.logs, string(level)+": "+msg)
	}}
	// A call of a type name (Integer('12')) is what the compiler routes to New.
	if t, ok := value.BaseType(c.Name); ok {
		return New(ctx, t, c.Args)
	}
	f, ok := h.table.Lookup(c.Name)
	if !ok {
		return nil, fmt.Errorf("Unknown function: '%s'", c.Name)
	}
	return f(ctx, c.Args)
}

func (h *testHost) QualifiedVariable(sc *eval.Scope, name string, at syntax.Node) (value.Value, error) {
	return value.Undef, nil
}

func (h *testHost) ResolveType(sc *eval.Scope, name string, at syntax.Node) (value.Type, error) {
	return &value.ResourceType{Type: value.CapitalizeName(name)}, nil
}

func (h *testHost) Statement(ev *eval.Evaluator, sc *eval.Scope, x syntax.Expr) (value.Value, error) {
	return nil, fmt.Errorf("statement not supported in tests")
}

// run evaluates Puppet source and returns its value and the log messages.
func run(t *testing.T, src string) (value.Value, []string, error) {
	t.Helper()
	prog, err := syntax.ParseFile("test.pp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	h := &testHost{table: Builtins()}
	ev := &eval.Evaluator{Host: h}
	top := eval.NewScope(eval.TopScope, "", nil, prog.File)
	v, err := ev.Statements(prog.Body, top)
	return v, h.logs, err
}

// valueCase is Puppet code and its value as Puppet 7.23 computes it, shown
// the way String($value, '%p') does.
type valueCase struct{ src, want string }

func checkValues(t *testing.T, tests []valueCase) {
	t.Helper()
	for _, tt := range tests {
		v, _, err := run(t, tt.src)
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tt.src, err)
			continue
		}
		if it, ok := v.(*value.Iterator); ok {
			// Puppet's %p shows an iterator's elements as an array.
			v, _ = value.ToArray(it)
		}
		if got := puppetLiteral(v); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.src, got, tt.want)
		}
	}
}

// errorCase is Puppet code and the error message Puppet 7.23 reports for it
// (after "Error while evaluating a Function Call, "). Multi-line messages
// were taken from Puppet's evaluator directly: the oracle's log drops
// repeated lines, so its copy of them can miss "rejected:" lines.
type errorCase struct{ src, want string }

func checkErrors(t *testing.T, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		_, _, err := run(t, tt.src)
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.src, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want && !strings.Contains(got, tt.want) {
			t.Errorf("%s\n got error  %q\n want error %q", tt.src, got, tt.want)
		}
	}
}
