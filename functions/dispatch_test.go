package functions

import (
	"testing"

	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

// TestDispatchExported: functions built from the exported signature API
// reject calls with Puppet's messages and run the matching signature.
func TestDispatchExported(t *testing.T) {
	ok := func(c *Ctx, args []value.Value) (value.Value, error) { return value.Integer(len(args)), nil }
	tests := []struct {
		name string
		f    Func
		args []value.Value
		want string // the error, or "" when the call succeeds
	}{
		{"fixed none", Dispatch("f", Fixed(ok, P("a", value.StringAny), P("b", value.AnyType))), nil, "'f' expects 2 arguments, got none"},
		{"fixed type", Dispatch("f", Fixed(ok, P("a", value.StringAny))), []value.Value{value.Integer(1)}, "'f' parameter 'a' expects a String value, got Integer"},
		{"fixed ok", Dispatch("f", Fixed(ok, P("a", value.StringAny))), []value.Value{value.String("x")}, ""},
		{"arity range", Dispatch("g", Arity(1, 2, ok)), nil, "'g' expects between 1 and 2 arguments, got none"},
		{"arity too many", Dispatch("g", Arity(1, 2, ok)), []value.Value{value.Undef, value.Undef, value.Undef}, "'g' expects between 1 and 2 arguments, got 3"},
		{"arity at least", Dispatch("h", Arity(1, -1, ok)), nil, "'h' expects at least 1 argument, got none"},
		{"arity exactly", Dispatch("h", Arity(2, 2, ok)), []value.Value{value.Undef}, "'h' expects 2 arguments, got 1"},
		{"arity unbounded ok", Dispatch("h", Arity(1, -1, ok)), []value.Value{value.Undef, value.Undef, value.Undef, value.Undef}, ""},
	}
	for _, tt := range tests {
		_, err := tt.f(&Ctx{}, tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: error %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCountArgs: the 3.x count checks keep each function's own wording.
func TestCountArgs(t *testing.T) {
	args := func(n int) []value.Value { return make([]value.Value, n) }
	tests := []struct {
		err  error
		want string
	}{
		{CountArgs(args(1), 1, 1, "x(): Wrong number of arguments given (%d for 1)"), ""},
		{CountArgs(args(2), 1, 1, "x(): Wrong number of arguments given (%d for 1)"), "x(): Wrong number of arguments given (2 for 1)"},
		{CountArgs(args(0), 1, -1, "%s(): wrong number of arguments (%d; must be > 0)", "y"), "y(): wrong number of arguments (0; must be > 0)"},
		{CountArgs(args(9), 1, -1, "%s(): wrong number of arguments (%d; must be > 0)", "y"), ""},
		{CountArgs(args(3), 0, 2, "z(): Takes at most two arguments"), "z(): Takes at most two arguments"},
		{Arity3("pw_hash", args(2), 3, false), "pw_hash(): Wrong number of arguments given (2 for 3)"},
		{Arity3("sprintf", args(0), 1, true), "sprintf(): Wrong number of arguments given (0 for minimum 1)"},
		{Arity3("sprintf", args(5), 1, true), ""},
	}
	for i, tt := range tests {
		got := ""
		if tt.err != nil {
			got = tt.err.Error()
		}
		if got != tt.want {
			t.Errorf("%d: error %q, want %q", i, got, tt.want)
		}
	}
}

// TestNoServices: a host without services gets errors, not a panic.
func TestNoServices(t *testing.T) {
	c := &Ctx{}
	if _, err := c.Svc().Lookup(hiera.Request{Keys: []string{"a"}}); err != ErrNoService {
		t.Errorf("Lookup error = %v", err)
	}
	if _, found := c.Svc().ModulePath("stdlib"); found {
		t.Error("ModulePath found a module")
	}
}

// TestUnpackArgs: fixed parameters are checked with Puppet's messages and
// stored through typed pointers; missing optional ones keep their default.
func TestUnpackArgs(t *testing.T) {
	var (
		s    string
		n    int64
		h    *value.Hash
		anyV value.Value
	)
	tests := []struct {
		args  []value.Value
		want  string
		check func() bool
	}{
		{[]value.Value{value.String("a"), value.Integer(2)}, "", func() bool { return s == "a" && n == 2 && h == nil }},
		{[]value.Value{value.String("a"), value.Integer(2), value.EmptyHash, value.True}, "", func() bool { return h == value.EmptyHash && anyV == value.True }},
		{nil, "'f' expects between 2 and 4 arguments, got none", nil},
		{[]value.Value{value.String("a"), value.String("b")}, "'f' parameter 'count' expects an Integer value, got String", nil},
		{[]value.Value{value.String("a"), value.Integer(1), value.Integer(3)}, "'f' parameter 'options' expects a Hash value, got Integer", nil},
		{[]value.Value{value.Array{value.Integer(1)}, value.Integer(1)}, "'f' parameter 'name' expects a String value, got Tuple", nil},
	}
	for i, tt := range tests {
		s, n, h, anyV = "", 0, nil, nil
		err := UnpackArgs("f", tt.args, "name", &s, "count", &n, "options?", &h, "extra", &anyV)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%d: error %q, want %q", i, got, tt.want)
		}
		if tt.check != nil && !tt.check() {
			t.Errorf("%d: unpacked s=%q n=%d h=%v any=%v", i, s, n, h, anyV)
		}
	}
	var bad int
	if err := UnpackArgs("f", nil, "x", &bad); err == nil {
		t.Error("an unsupported pointer type was accepted")
	}
}
