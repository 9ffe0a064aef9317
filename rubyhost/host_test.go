package rubyhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// needRuby skips a test on machines without Ruby and Puppet's library.
func needRuby(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Ruby")
	}
	if err := exec.Command(DefaultRuby, "-e", "require 'puppet'").Run(); err != nil {
		t.Skipf("no Ruby with Puppet's library: %v", err)
	}
}

func testModulePath(testing.TB) []string {
	dir, err := filepath.Abs("testdata/modules")
	if err != nil {
		panic(err)
	}
	return []string{dir}
}

// fakeCompile answers callbacks: a few variables, and upcase and a
// failing function.
type fakeCompile struct {
	mu    sync.Mutex
	calls []string
	logs  []string
	set   []string
	// nested answers the function "nested" with a call of hatch::echo in
	// this session.
	nested *Session
}

func (f *fakeCompile) Log(level, msg string) {
	f.mu.Lock()
	f.logs = append(f.logs, level+": "+msg)
	f.mu.Unlock()
}

func (f *fakeCompile) Variable(name string) (value.Value, bool) {
	if name == "::top_x" {
		return value.Integer(1), true
	}
	switch strings.TrimPrefix(name, "::") {
	case "greeting":
		return value.String("hello"), true
	case "nothing":
		return value.Undef, true
	}
	return nil, false
}

func (f *fakeCompile) CallFunction(name string, args []value.Value) (value.Value, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	f.mu.Unlock()
	switch name {
	case "upcase":
		return value.String(strings.ToUpper(value.ToString(args[0]))), nil
	case "stdlib::shell_escape":
		return value.String("'" + value.ToString(args[0]) + "'"), nil
	case "include":
		return value.Undef, nil
	case "nested":
		return f.nested.Call(context.Background(), Request{ModulePath: testModulePath(nil), Name: "hatch::echo", Args: args}, f)
	}
	return nil, errors.New("Unknown function: '" + name + "'")
}

func (f *fakeCompile) Variables(top bool) *value.Hash {
	if top {
		return value.NewHash(value.String("top_x"), value.Integer(1), value.String("greeting"), value.String("hello"))
	}
	return value.NewHash(value.String("greeting"), value.String("hello"))
}

func (f *fakeCompile) Yield(args []value.Value) (value.Value, error) {
	return value.Array(append([]value.Value{value.String("yielded")}, args...)), nil
}

func (f *fakeCompile) Resource(typ, title string) (*value.Hash, bool) {
	if typ == "File" && title == "/etc/motd" {
		return value.NewHash(value.String("ensure"), value.String("file")), true
	}
	return nil, false
}

func (f *fakeCompile) SetVariable(name string, v value.Value, top bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if name == "taken" {
		return errors.New("Cannot reassign variable '$taken'")
	}
	f.set = append(f.set, fmt.Sprintf("%s=%s top=%v", name, value.ToString(v), top))
	return nil
}

func (f *fakeCompile) ParseType(s string) (value.Value, error) { return parseTypeStub(s) }

func newTestHost(t testing.TB, o Options) *Host {
	h := New(o)
	t.Cleanup(func() { h.Close() })
	return h
}

func call(t testing.TB, h *Host, name string, args ...value.Value) (value.Value, error) {
	t.Helper()
	return h.Call(context.Background(), Request{ModulePath: testModulePath(t), Name: name, Args: args}, &fakeCompile{})
}

func TestHostRoundTripsRichData(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	args := value.Array{
		value.Undef, value.String("s"), value.Integer(42), value.Float(2), value.True, value.Default,
		value.NewHash(value.String("b"), value.Integer(1), value.String("a"), value.Integer(2)),
		value.NewHash(value.Integer(1), value.String("x")),
		&value.Sensitive{Value: value.String("pw")},
		&value.Timestamp{T: time.Date(2024, 2, 3, 4, 5, 6, 7, time.UTC)},
		&value.Timespan{D: 5006007},
		&value.Binary{Data: []byte{0, 1, 255}},
		mustRegexp(t, `a+b`),
		&value.Deferred{Name: "f", Args: value.Array{value.Integer(1)}},
		value.AnyType,
	}
	got, err := call(t, h, "hatch::echo", args...)
	if err != nil {
		t.Fatal(err)
	}
	if !sameValue(args, got) {
		t.Errorf("echo returned %#v", got)
	}
	classes, err := call(t, h, "hatch::classes", args...)
	if err != nil {
		t.Fatal(err)
	}
	want := "NilClass String Integer Float TrueClass Symbol Hash Hash Puppet::Pops::Types::PSensitiveType::Sensitive " +
		"Puppet::Pops::Time::Timestamp Puppet::Pops::Time::Timespan Puppet::Pops::Types::PBinaryType::Binary Regexp"
	var names []string
	for _, c := range classes.(value.Array)[:13] {
		names = append(names, value.ToString(c))
	}
	if strings.Join(names, " ") != want {
		t.Errorf("Ruby saw %v\nwant %s", names, want)
	}
}

func TestHostCallbacks(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	fc := &fakeCompile{}
	ctx := context.Background()
	got, err := h.Call(ctx, Request{ModulePath: testModulePath(t), Name: "hatch::ask", Args: value.Array{value.String("greeting"), value.String("upcase"), value.String("abc")}}, fc)
	if err != nil {
		t.Fatal(err)
	}
	if want := (value.Array{value.String("hello"), value.True, value.String("ABC")}); !sameValue(got, want) {
		t.Errorf("ask = %v, want %v", got, want)
	}
	got, err = h.Call(ctx, Request{ModulePath: testModulePath(t), Name: "hatch::ask", Args: value.Array{value.String("missing"), value.String("upcase"), value.String("x")}}, fc)
	if err != nil {
		t.Fatal(err)
	}
	if want := (value.Array{value.Undef, value.False, value.String("X")}); !sameValue(got, want) {
		t.Errorf("ask missing = %v, want %v", got, want)
	}
	// An error from Go is raised in Ruby, and the function's failure
	// comes back as its message.
	_, err = h.Call(ctx, Request{ModulePath: testModulePath(t), Name: "hatch::ask", Args: value.Array{value.String("x"), value.String("nope")}}, fc)
	if err == nil || !strings.Contains(err.Error(), "Unknown function: 'nope'") {
		t.Errorf("ask nope: %v", err)
	}
	got, err = h.Call(ctx, Request{ModulePath: testModulePath(t), Name: "hatch_legacy", Args: value.Array{value.String("world")}}, fc)
	if err != nil || value.ToString(got) != "hello WORLD" {
		t.Errorf("hatch_legacy = %v, %v", got, err)
	}
	if h.Starts() != 1 {
		t.Errorf("%d helpers started for sequential calls, want 1", h.Starts())
	}
}

// TestHostErrorsAndLimits: each call here is a session of its own, whose
// first call loads the environment: the call timeout leaves room for that
// on a loaded machine.
func TestHostErrorsAndLimits(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{CallTimeout: 8 * time.Second, MaxMessage: 1 << 16, MaxProcs: 1})
	ok := func() {
		t.Helper()
		got, err := call(t, h, "hatch::behave", value.String("print"))
		if err != nil || value.ToString(got) != "printed" {
			t.Fatalf("behave print = %v, %v", got, err)
		}
	}
	ok()
	_, err := call(t, h, "hatch::behave", value.String("raise"), value.Integer(7))
	var re *RubyError
	if !errors.As(err, &re) || re.Message != "hatch says no: 7" || re.Class != "Puppet::ParseError" {
		t.Errorf("raise: %#v", err)
	}
	_, err = call(t, h, "hatch::nonesuch")
	if err == nil || !strings.Contains(err.Error(), "Unknown function: 'hatch::nonesuch'") {
		t.Errorf("unknown function: %v", err)
	}
	obj, err := call(t, h, "hatch::behave", value.String("object"))
	if rt, ok := obj.(*value.Runtime); err != nil || !ok || rt.Class != "Object" || !strings.HasPrefix(rt.Text, "#<Object:") {
		t.Errorf("object: %#v, %v", obj, err)
	}
	starts := h.Starts()
	start := time.Now()
	_, err = call(t, h, "hatch::behave", value.String("sleep"), value.Integer(30))
	if err == nil || !strings.Contains(err.Error(), "did not return within 8s") || time.Since(start) > 25*time.Second {
		t.Errorf("sleep: %v after %v", err, time.Since(start))
	}
	ok()
	_, err = call(t, h, "hatch::behave", value.String("exit"))
	if err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("exit: %v", err)
	}
	ok()
	_, err = call(t, h, "hatch::behave", value.String("big"), value.Integer(1<<17))
	if err == nil || !strings.Contains(err.Error(), "exceeds 65536 bytes") {
		t.Errorf("big: %v", err)
	}
	_, err = call(t, h, "hatch::echo", value.String(strings.Repeat("y", 1<<17)))
	if err == nil || !strings.Contains(err.Error(), "exceed 65536 bytes") {
		t.Errorf("big argument: %v", err)
	}
	ok()
	if got := h.Starts() - starts; got != 0 {
		t.Errorf("%d helper restarts after a session's timeout, exit and oversized answer, want 0 (only the session ends)", got)
	}
}

func TestHostContextCancels(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	if _, err := call(t, h, "hatch::echo"); err != nil { // started
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := h.Call(ctx, Request{ModulePath: testModulePath(t), Name: "hatch::behave", Args: value.Array{value.String("sleep"), value.Integer(30)}}, &fakeCompile{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled call: %v after %v", err, time.Since(start))
	}
}

func TestHostConcurrent(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{MaxProcs: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := call(t, h, "hatch::echo", value.Integer(i))
			if err == nil && !sameValue(got, value.Array{value.Integer(i)}) {
				err = errors.New("wrong answer " + value.ToString(got))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := h.Starts(); n != 1 {
		t.Errorf("%d helpers started for 8 concurrent sessions, want 1", n)
	}
	h.Close()
	if _, err := call(t, h, "hatch::echo"); !errors.Is(err, ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
}

func TestHostMissingRuby(t *testing.T) {
	h := newTestHost(t, Options{Ruby: filepath.Join(t.TempDir(), "no-ruby")})
	_, err := call(t, h, "hatch::echo")
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("missing ruby: %v", err)
	}
}

// forgeModules is the corpus of current Forge modules, or the test is
// skipped (failed in CI).
func forgeModules(t testing.TB) string {
	t.Helper()
	return filepath.Join(corpus.Forge().Require(t), "modules")
}

// TestHostForgeFunctions runs Forge functions the Ruby subset cannot run.
// postgresql_password's value is what Puppet 7.23 computes for the call;
// docker_run_flags calls stdlib::shell_escape back in Go, here the fake
// one that quotes (compiler's TestRubyHostRunsFunctionsBeyondTheSubset
// checks it against Puppet with the real function table).
func TestHostForgeFunctions(t *testing.T) {
	needRuby(t)
	mp := []string{forgeModules(t)}
	h := newTestHost(t, Options{})
	for _, tc := range []struct {
		name string
		args value.Array
		want string
	}{
		{"postgresql::postgresql_password", value.Array{value.String("u"), &value.Sensitive{Value: value.String("pw")}, value.False, value.String("scram-sha-256"), value.String("salt")},
			"SCRAM-SHA-256$4096:c2FsdA==$M6gEs77KaKI/RKU8+SLWUpenplhSaXNgAVnjlXP8RBc=:2DZQqVy2vnonAxkPUYZed+C6dXmY6Ypqsy6QBqo4ZD0="},
		{"docker_run_flags", value.Array{value.NewHash(value.String("username"), value.String("bob"), value.String("hostname"), value.String("h"),
			value.String("env"), value.Array{value.String("A=1")}, value.String("extra_params"), value.Array{})},
			"-u 'bob' \\\n-h 'h' \\\n-e 'A=1' \\\n"},
	} {
		got, err := h.Call(context.Background(), Request{ModulePath: mp, Name: tc.name, Args: tc.args}, &fakeCompile{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s := value.ToString(got); s != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, s, tc.want)
		}
	}
}

// TestHostBusyIsBounded: a call that finds every helper busy fails after
// the call timeout instead of waiting for ever.
func TestHostBusyIsBounded(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{MaxProcs: 1, CallTimeout: time.Second})
	s, err := h.Session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	_, err = call(t, h, "hatch::echo")
	if err == nil || !strings.Contains(err.Error(), "all 1 Ruby helper sessions stayed busy for 1s") || time.Since(start) > 5*time.Second {
		t.Errorf("busy: %v after %v", err, time.Since(start))
	}
}

// TestHostScope: scope.to_hash comes from Go; the catalog's resources are
// read from the compile, as frozen copies; the rest of the catalog and the
// scope's resource the helper cannot reach: using them, or changing a
// resource, is an error, never a silent change to a catalog nobody reads.
func TestHostScope(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	got, err := call(t, h, "hatch::scope", value.String("hash"))
	if err != nil || !sameValue(got, value.NewHash(value.String("greeting"), value.String("hello"))) {
		t.Errorf("to_hash = %v, %v", got, err)
	}
	got, err = call(t, h, "hatch::scope", value.String("motd"))
	if want := (value.Array{value.String("file"), value.String("/etc/motd"), value.Undef}); err != nil || !sameValue(got, want) {
		t.Errorf("motd = %v, %v; want %v", got, err, want)
	}
	for what, msg := range map[string]string{
		"catalog":  "the Ruby helper gives hatch::scope only catalog.resource and catalog.resources of the compile's catalog, not catalog.edges",
		"resource": "the Ruby helper cannot give hatch::scope the compile's resource",
		"change":   "can't modify frozen",
	} {
		_, err := call(t, h, "hatch::scope", value.String(what))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// TestHostLogs: what a function logs at notice or above reaches the
// compile's log, in order, before its result.
func TestHostLogs(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	fc := &fakeCompile{}
	got, err := h.Call(context.Background(), Request{ModulePath: testModulePath(t), Name: "hatch::behave", Args: value.Array{value.String("log")}}, fc)
	if err != nil || value.ToString(got) != "logged" {
		t.Fatalf("behave log = %v, %v", got, err)
	}
	if strings.Join(fc.logs, "|") != "warning: careful" {
		t.Errorf("logs %q", fc.logs)
	}
}

// TestHostSessionsStartAfresh: a session loads a function's file as it is
// when the session starts, even after another session loaded an older
// one; what a function leaves in Ruby (a global) does not reach the next
// session; deep values cross both ways.
func TestHostSessionsStartAfresh(t *testing.T) {
	needRuby(t)
	dir := t.TempDir()
	fn := filepath.Join(dir, "m", "lib", "puppet", "functions", "m")
	if err := os.MkdirAll(fn, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(v string) {
		src := "Puppet::Functions.create_function(:'m::v') do\n  def v\n    '" + v + "'\n  end\nend\n"
		if err := os.WriteFile(filepath.Join(fn, "v.rb"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := newTestHost(t, Options{})
	get := func(s *Session) string {
		got, err := s.Call(context.Background(), Request{ModulePath: []string{dir}, Name: "m::v"}, &fakeCompile{})
		if err != nil {
			t.Fatal(err)
		}
		return value.ToString(got)
	}
	s1, err := h.Session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	write("one")
	if got := get(s1); got != "one" {
		t.Fatalf("v = %s", got)
	}
	write("two")
	s2, err := h.Session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := get(s2); got != "two" {
		t.Errorf("a new session after the file changed: v = %s, want two", got)
	}
	s1.Close()
	s2.Close()
	for i, want := range []value.Value{value.Undef, value.Undef} {
		got, err := call(t, h, "hatch::behave", value.String("remember"), value.Integer(int64(i+1)))
		if err != nil || !sameValue(got, want) {
			t.Errorf("session %d found %v (%v) left by an earlier one, want undef", i, got, err)
		}
	}
	if h.Starts() != 1 {
		t.Errorf("%d helpers started, want 1", h.Starts())
	}

	deep := value.Value(value.String("x"))
	for range 300 {
		deep = value.Array{deep}
	}
	back, err := call(t, h, "hatch::echo", deep)
	if err != nil || !sameValue(back, value.Array{deep}) {
		t.Errorf("deep value: %v", err)
	}
}
