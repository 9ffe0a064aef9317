package rubyhost

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"
)

func openSession(t *testing.T, h *Host) *Session {
	t.Helper()
	s, err := h.Session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sessionCall(t *testing.T, s *Session, fc *fakeCompile, name string, args ...value.Value) (value.Value, error) {
	t.Helper()
	return s.Call(context.Background(), Request{ModulePath: testModulePath(t), Name: name, Args: args}, fc)
}

// TestHostScopeWrites: scope.setvar lands in the calling scope,
// compiler.topscope.setvar and topscope[]= in top scope; topscope's
// to_hash is top scope's; a reassignment's error is raised in Ruby.
func TestHostScopeWrites(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	fc := &fakeCompile{}
	s := openSession(t, h)
	got, err := sessionCall(t, s, fc, "hatch::assign", value.String("x"), value.Integer(5))
	if err != nil {
		t.Fatal(err)
	}
	want := value.Array{value.Integer(1), value.Array{value.String("greeting"), value.String("top_x")}}
	if !sameValue(got, want) {
		t.Errorf("assign = %v, want %v", got, want)
	}
	if strings.Join(fc.set, "|") != "x=5 top=false|top_x=5 top=true|also_x=5 top=true" {
		t.Errorf("assignments %q", fc.set)
	}
	_, err = sessionCall(t, s, fc, "hatch::assign", value.String("taken"), value.Integer(1))
	if err == nil || !strings.Contains(err.Error(), "Cannot reassign variable '$taken'") {
		t.Errorf("reassignment: %v", err)
	}
	// A 3.x role() function: a top-scope variable and a class.
	got, err = sessionCall(t, s, fc, "hatch_role")
	if err != nil || value.ToString(got) != "hello" {
		t.Fatalf("hatch_role = %v, %v", got, err)
	}
	if last := fc.set[len(fc.set)-1]; last != "role=hello top=true" {
		t.Errorf("hatch_role set %q", last)
	}
	if last := fc.calls[len(fc.calls)-1]; last != "include" {
		t.Errorf("hatch_role called %q", fc.calls)
	}
}

// TestHostRuntimeValues: a Ruby object without a data form comes back as
// a Runtime value (a monkey-patch's Class too), goes back to Ruby as the
// same object within its session, and is refused by another session.
func TestHostRuntimeValues(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	s := openSession(t, h)
	fc := &fakeCompile{}
	patched, err := sessionCall(t, s, fc, "hatch::patch")
	if rt, ok := patched.(*value.Runtime); err != nil || !ok || rt.Class != "Class" || rt.Text != "Puppet::Parser::Scope" {
		t.Fatalf("patch = %#v, %v", patched, err)
	}
	if value.TypeString(value.TypeOf(patched)) != "Runtime" || value.ToString(patched) != "Puppet::Parser::Scope" {
		t.Errorf("type %s, string %s", value.TypeString(value.TypeOf(patched)), value.ToString(patched))
	}
	obj, err := sessionCall(t, s, fc, "hatch::behave", value.String("object"))
	if err != nil {
		t.Fatal(err)
	}
	classes, err := sessionCall(t, s, fc, "hatch::classes", obj)
	if err != nil || !sameValue(classes, value.Array{value.String("Object")}) {
		t.Errorf("the object back in Ruby: %v, %v", classes, err)
	}
	other := openSession(t, h)
	_, err = sessionCall(t, other, fc, "hatch::classes", obj)
	if err == nil || !strings.Contains(err.Error(), "cannot pass the Ruby Object") {
		t.Errorf("the object in another session: %v", err)
	}
}

// TestHostNestedCall: a function's callback may call another function in
// the same session, which runs nested in Ruby.
func TestHostNestedCall(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{MaxProcs: 1})
	s := openSession(t, h)
	fc := &fakeCompile{nested: s}
	got, err := sessionCall(t, s, fc, "hatch::ask", value.String("greeting"), value.String("nested"), value.String("deep"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (value.Array{value.String("hello"), value.True, value.Array{value.String("deep")}}); !sameValue(got, want) {
		t.Errorf("nested = %v, want %v", got, want)
	}
}

// lookupContext is a Puppet::LookupContext as hiera keeps it.
type lookupContext struct {
	value.Extension
	cache    map[string]value.Value
	explains []string
	notFound bool
}

var errNoSuchKey = errors.New("no such key")

func (c *lookupContext) ContextMethod(method string, args []value.Value) (value.Value, error) {
	switch method {
	case "cache":
		c.cache[value.ToString(args[0])] = args[1]
		return args[1], nil
	case "cache_has_key":
		_, ok := c.cache[value.ToString(args[0])]
		return value.Boolean(ok), nil
	case "cached_value":
		return c.cache[value.ToString(args[0])], nil
	case "interpolate":
		return value.String(strings.ReplaceAll(value.ToString(args[0]), "%{greeting}", "hello")), nil
	case "explain":
		c.explains = append(c.explains, value.ToString(args[0]))
		return value.Undef, nil
	case "not_found":
		c.notFound = true
		return nil, errNoSuchKey
	}
	return nil, errors.New("no method " + method)
}

// TestHostLookupContext: a custom Hiera backend in Ruby uses the
// lookup's context in Go (explain, cache, interpolate), and not_found
// ends the call with the context's own error.
func TestHostLookupContext(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	s := openSession(t, h)
	lc := &lookupContext{cache: map[string]value.Value{}}
	opts := value.NewHash(value.String("prefix"), value.String("p"))
	fc := &fakeCompile{}
	for range 2 {
		got, err := sessionCall(t, s, fc, "hatch::backend", value.String("k"), opts, lc)
		if err != nil || value.ToString(got) != "p-hello-k" {
			t.Errorf("backend k = %v, %v", got, err)
		}
	}
	if len(lc.cache) != 1 || strings.Join(lc.explains, "|") != "hatch looks for k|hatch looks for k" {
		t.Errorf("cache %v, explained %q", lc.cache, lc.explains)
	}
	_, err := sessionCall(t, s, fc, "hatch::backend", value.String("missing"), opts, lc)
	if !errors.Is(err, errNoSuchKey) || !lc.notFound {
		t.Errorf("missing: %v, not_found %v", err, lc.notFound)
	}
	// The session goes on after not_found.
	if _, err := sessionCall(t, s, fc, "hatch::backend", value.String("k"), opts, lc); err != nil {
		t.Errorf("after not_found: %v", err)
	}
}

// TestHostSurvivesCrashes: a session whose process dies fails its call
// with a clear error once; the helper that died is started again for the
// next session.
func TestHostSurvivesCrashes(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	_, err := call(t, h, "hatch::behave", value.String("kill"))
	if err == nil || !strings.Contains(err.Error(), "the Ruby helper exited (crashed or killed)") {
		t.Errorf("killed session: %v", err)
	}
	if _, err := call(t, h, "hatch::echo"); err != nil {
		t.Fatalf("after a killed session: %v", err)
	}
	h.mu.Lock()
	l := h.private
	h.mu.Unlock()
	_ = l.cmd.Process.Kill()
	<-l.exited
	if _, err := call(t, h, "hatch::echo"); err != nil {
		t.Fatalf("after the helper was killed: %v", err)
	}
	if h.Starts() != 2 {
		t.Errorf("%d helpers started, want 2", h.Starts())
	}
}

// TestHostShared: processes of one user share one helper through a
// socket only the user can use; it exits when idle, and the next session
// starts it again.
func TestHostShared(t *testing.T) {
	needRuby(t)
	dir := filepath.Join(t.TempDir(), "run")
	o := Options{SocketDir: dir, IdleTimeout: time.Second}
	first, second := New(o), New(o)
	defer first.Close()
	defer second.Close()
	if _, err := call(t, first, "hatch::echo"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := call(t, second, "hatch::echo"); err != nil {
		t.Fatal(err)
	}
	t.Logf("a session and a call in the running shared helper: %v", time.Since(start))
	if first.Starts() != 1 || second.Starts() != 0 {
		t.Errorf("helpers started: %d and %d, want 1 and 0", first.Starts(), second.Starts())
	}
	socket := SharedSocket(dir, DefaultRuby)
	for name, want := range map[string]os.FileMode{dir: 0o700, socket: 0o600} {
		fi, err := os.Stat(name)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %04o", name, fi.Mode().Perm(), err, want)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(socket); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle shared helper did not exit")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := call(t, second, "hatch::echo"); err != nil || second.Starts() != 1 {
		t.Errorf("after the idle exit: %v, %d started", err, second.Starts())
	}

	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := call(t, New(Options{SocketDir: open}), "hatch::echo")
	if err == nil || !strings.Contains(err.Error(), "is open to other users (mode 0755") {
		t.Errorf("a directory others can enter: %v", err)
	}
}

// TestHostStart: a helper started ahead serves the first session.
func TestHostStart(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, h, "hatch::echo"); err != nil || h.Starts() != 1 {
		t.Errorf("after Start: %v, %d helpers started, want 1", err, h.Starts())
	}
}

// TestHostBlock: the call's lambda is the function's block, of the
// lambda's arity, and runs back in Go.
func TestHostBlock(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	req := Request{ModulePath: testModulePath(t), Name: "hatch::each_pair", Args: []value.Value{value.NewHash(value.String("a"), value.Integer(1))}, Block: true, BlockParams: 2}
	got, err := h.Call(context.Background(), req, &fakeCompile{})
	if want := (value.Array{value.Array{value.String("yielded"), value.String("a"), value.Integer(1)}}); err != nil || !sameValue(got, want) {
		t.Errorf("each_pair = %v, %v; want %v", got, err, want)
	}
	req.BlockParams = 1
	_, err = h.Call(context.Background(), req, &fakeCompile{})
	if err == nil || !strings.Contains(err.Error(), "block") {
		t.Errorf("a block of the wrong arity: %v", err)
	}
}
