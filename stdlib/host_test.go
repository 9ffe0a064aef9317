package stdlib

import (
	"fmt"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// testHost routes function calls to Functions() and then Puppet's core
// functions, and keeps a tiny catalog so the catalog functions can run:
// create_resources records resources, and the host implements the catalog
// services.
type testHost struct {
	functions.NoServices
	stdlib    functions.Table
	core      functions.Table
	logs      []string
	resources []testResource
	// scopeResource is what ScopeResource answers.
	scopeResource string
}

type testResource struct {
	typ, title string
	params     *value.Hash
}

func newTestHost() *testHost {
	return &testHost{stdlib: Functions(), core: functions.Builtins()}
}

func (h *testHost) ctx(ev *eval.Evaluator, sc *eval.Scope, c *eval.Call) *functions.Ctx {
	return &functions.Ctx{Eval: ev, Scope: sc, Call: c, Services: h, Log: func(level functions.Level, msg string) {
		h.logs = append(h.logs, string(level)+": "+msg)
	}}
}

func (h *testHost) CallFunction(ev *eval.Evaluator, sc *eval.Scope, c *eval.Call) (value.Value, error) {
	ctx := h.ctx(ev, sc, c)
	if t, ok := value.BaseType(c.Name); ok {
		return functions.New(ctx, t, c.Args)
	}
	if c.Name == "create_resources" {
		return h.createResources(c.Args)
	}
	if f, ok := h.core.Lookup(c.Name); ok {
		return f(ctx, c.Args)
	}
	if f, ok := h.stdlib.Lookup(c.Name); ok {
		return f(ctx, c.Args)
	}
	return nil, fmt.Errorf("Unknown function: '%s'", c.Name)
}

// createResources declares resources, failing on duplicates as Puppet does.
func (h *testHost) createResources(args []value.Value) (value.Value, error) {
	typ := canonicalType(value.ToString(args[0]))
	res := args[1].(*value.Hash)
	for i := range res.Len() {
		k, v := res.At(i)
		title := value.ToString(k)
		if _, found := h.Resource(typ, title); found {
			return nil, fmt.Errorf("Duplicate declaration: %s[%s] is already declared", typ, title)
		}
		params, _ := v.(*value.Hash)
		h.resources = append(h.resources, testResource{typ, title, params})
	}
	return value.Undef, nil
}

func (h *testHost) Resource(typ, title string) (*value.Hash, bool) {
	for _, r := range h.resources {
		if r.typ == typ && r.title == title {
			return r.params, true
		}
	}
	return nil, false
}

func (h *testHost) ResourceTitles(typ string) []string {
	var out []string
	for _, r := range h.resources {
		if r.typ == typ {
			out = append(out, r.title)
		}
	}
	return out
}

func (h *testHost) ScopeResource(sc *eval.Scope) string { return h.scopeResource }

// WarnOnce logs every time: the tests see each deprecation.
func (h *testHost) WarnOnce(key, msg string) { h.logs = append(h.logs, "warning: "+msg) }

// FunctionExists knows the functions of this package and Puppet's core.
func (h *testHost) FunctionExists(name string) bool {
	_, inStdlib := h.stdlib[name]
	_, inCore := h.core[name]
	return inStdlib || inCore
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

// testFacts are the facts the oracle compiled with.
func testFacts() *value.Hash {
	str := func(s string) value.Value { return value.String(s) }
	return value.NewHash(
		str("fqdn"), str("probe.example.com"),
		str("hostname"), str("probe"),
		str("domain"), str("example.com"),
		str("osfamily"), str("Debian"),
		str("operatingsystem"), str("Debian"),
		str("operatingsystemmajrelease"), str("12"),
		str("os"), value.NewHash(str("family"), str("Debian"), str("name"), str("Debian"),
			str("release"), value.NewHash(str("major"), str("12"), str("full"), str("12.4"))),
		str("networking"), value.NewHash(str("fqdn"), str("Probe.Example.com"),
			str("interfaces"), value.Array{str("lo"), str("eth0")}),
		str("interfaces"), str("lo,eth0"),
		str("ipaddress"), str("10.0.0.5"),
		str("ipaddress_lo"), str("127.0.0.1"),
		str("ipaddress_eth0"), str("10.0.0.5"),
		str("network_eth0"), str("10.0.0.0"),
	)
}

// run evaluates Puppet source in a fresh top scope holding the test facts.
func run(t *testing.T, h *testHost, src string) (value.Value, error) {
	t.Helper()
	prog, err := syntax.ParseFile("test.pp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	ev := &eval.Evaluator{Host: h}
	top := eval.NewScope(eval.TopScope, "", nil, prog.File)
	facts := testFacts()
	top.Set("facts", facts)
	for i := range facts.Len() {
		k, v := facts.At(i)
		top.Set(string(k.(value.String)), v)
	}
	return ev.Statements(prog.Body, top)
}

// valueCase is Puppet code and its value as Puppet 7.23 with stdlib 8.5
// computes it, shown the way String($value, '%p') does.
type valueCase struct{ src, want string }

func checkValues(t *testing.T, tests []valueCase) {
	t.Helper()
	for _, tt := range tests {
		v, err := run(t, newTestHost(), "String(("+tt.src+"), '%p')")
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tt.src, err)
			continue
		}
		if got := value.ToString(v); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.src, got, tt.want)
		}
	}
}

// errorCase is Puppet code and the error message Puppet 7.23 reports for it
// (after "Error while evaluating a Function Call, ").
type errorCase struct{ src, want string }

func checkErrors(t *testing.T, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		_, err := run(t, newTestHost(), tt.src)
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.src, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want && !strings.Contains(got, tt.want) {
			t.Errorf("%s\n got error  %q\n want error %q", tt.src, got, tt.want)
		}
	}
}

// checkStrings compares string results exactly (for generated text such
// as YAML, where %p quoting would only obscure the difference).
func checkStrings(t *testing.T, tests []valueCase) {
	t.Helper()
	for _, tt := range tests {
		v, err := run(t, newTestHost(), tt.src)
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tt.src, err)
			continue
		}
		if got := value.ToString(v); got != tt.want {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}
