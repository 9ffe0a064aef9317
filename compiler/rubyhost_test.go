package compiler

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/value"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// forgeCorpus is the corpus of current Forge modules, or the test is
// skipped (failed in CI).
func forgeCorpus(t *testing.T) string {
	t.Helper()
	return filepath.Join(corpus.Forge().Require(t), "modules")
}

// debianFacts are the facts of Debian 12 that postgresql::globals reads.
func debianFacts() *value.Hash {
	s := func(x string) value.Value { return value.String(x) }
	return value.NewHash(s("fqdn"), s("n1.example.com"), s("hostname"), s("n1"), s("osfamily"), s("Debian"),
		s("os"), value.NewHash(s("family"), s("Debian"), s("name"), s("Debian"),
			s("release"), value.NewHash(s("major"), s("12"), s("full"), s("12.5"))))
}

// notifyMessages reads the Notify messages of a catalog in Puppet's JSON
// form (raw or normalized).
func notifyMessages(t *testing.T, data []byte) map[string]string {
	var cat struct {
		Resources []struct {
			Type, Title string
			Parameters  map[string]any
		}
	}
	if err := json.Unmarshal(data, &cat); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range cat.Resources {
		if r.Type == "Notify" {
			out[r.Title], _ = r.Parameters["message"].(string)
		}
	}
	return out
}

// TestRubyHostRunsFunctionsBeyondTheSubset compiles calls of Forge
// functions (OpenSSL::KDF and Sensitive in postgresql_password, a lambda
// in docker_run_flags) with the subset and with the helper: both give
// Puppet's values (testdata/rubyhost/puppet.json is the oracle's
// normalized catalog). TestRubyHostNested covers a function beyond the
// subset.
func TestRubyHostRunsFunctionsBeyondTheSubset(t *testing.T) {
	mp := forgeCorpus(t)
	env, err := environment.Load(environment.Config{Name: "production", Manifest: "testdata/rubyhost/site.pp", ModulePath: []string{mp}})
	if err != nil {
		t.Fatal(err)
	}
	req := func() *Request {
		return &Request{Node: "n1.example.com", Facts: debianFacts(), Now: time.Unix(1700000000, 0)}
	}
	// The subset now runs these functions too (Sensitive, OpenSSL::KDF,
	// lambdas), with Puppet's values; the helper must give the same.
	plain, err := compileCatalog(env, req())
	if err != nil {
		t.Fatalf("without the helper: %v", err)
	}
	var plainJSON bytes.Buffer
	if err := plain.WriteJSON(&plainJSON); err != nil {
		t.Fatal(err)
	}
	puppetJSON, err := os.ReadFile("testdata/rubyhost/puppet.json")
	if err != nil {
		t.Fatal(err)
	}
	plainMsgs, puppetMsgs := notifyMessages(t, plainJSON.Bytes()), notifyMessages(t, puppetJSON)
	for title, msg := range puppetMsgs {
		if plainMsgs[title] != msg {
			t.Errorf("without the helper, Notify[%s] message\n got %q\nwant %q", title, plainMsgs[title], msg)
		}
	}

	if exec.Command(rubyhost.DefaultRuby, "-e", "require 'puppet'").Run() != nil || testing.Short() {
		t.Skip("no Ruby with Puppet's library")
	}
	host := rubyhost.New(rubyhost.Options{})
	defer host.Close()
	r := req()
	r.RubyHost = host
	cat, err := compileCatalog(env, r)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	got := notifyMessages(t, buf.Bytes())
	want, err := os.ReadFile("testdata/rubyhost/puppet.json")
	if err != nil {
		t.Fatal(err)
	}
	wantMsgs := notifyMessages(t, want)
	if len(wantMsgs) != 4 {
		t.Fatalf("puppet.json has %d notify messages, want 4", len(wantMsgs))
	}
	for title, msg := range wantMsgs {
		if got[title] != msg {
			t.Errorf("Notify[%s] message\n got %q\nwant %q", title, got[title], msg)
		}
	}
	// The function reads postgresql::params' variables through the
	// compile, which evaluates the class as Puppet does.
	if got := strings.Join(cat.Classes, " "); !strings.Contains(got, "postgresql::params") {
		t.Errorf("classes %q lack postgresql::params", got)
	}

	// A cancelled compile stops the call.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = req()
	r.RubyHost = host
	if _, err := Compile(ctx, env, r); err == nil {
		t.Error("a cancelled compile succeeded")
	}
}

// TestRubyHostNested: a function the subset runs calls one it cannot; the
// hint is given once, and with the helper the inner function runs in Ruby
// and the value is Puppet's ("outer(ABC)" under Puppet 7.23).
func TestRubyHostNested(t *testing.T) {
	env, err := environment.Load(environment.Config{Name: "production", Manifest: "testdata/rubyhost/nested.pp", ModulePath: []string{"testdata/rubyhost/modules"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts()})
	if err == nil || strings.Count(err.Error(), RubyFunctionsHint) != 1 || !strings.Contains(err.Error(), `inner.rb:8: unexpected "upcase:" in block parameters`) {
		t.Fatalf("without the helper: %v", err)
	}
	if exec.Command(rubyhost.DefaultRuby, "-e", "require 'puppet'").Run() != nil || testing.Short() {
		t.Skip("no Ruby with Puppet's library")
	}
	host := rubyhost.New(rubyhost.Options{})
	defer host.Close()
	cat, err := compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: host})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if got := notifyMessages(t, buf.Bytes())["nested"]; got != "outer(ABC)" {
		t.Errorf("message %q, want outer(ABC)", got)
	}
}

// TestRubyHostUnavailable: with ruby_functions = auto a helper that
// cannot start leaves the subset's error, saying why the helper did not
// run the function; with helper that is the error.
func TestRubyHostUnavailable(t *testing.T) {
	env, err := environment.Load(environment.Config{Name: "production", Manifest: "testdata/rubyhost/nested.pp", ModulePath: []string{"testdata/rubyhost/modules"}})
	if err != nil {
		t.Fatal(err)
	}
	host := rubyhost.New(rubyhost.Options{Ruby: filepath.Join(t.TempDir(), "no-ruby")})
	defer host.Close()
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: host, RubyHostOptional: true})
	if err == nil || !strings.Contains(err.Error(), `inner.rb:8: unexpected "upcase:" in block parameters (the Ruby helper that would run it is unavailable: rubyhost: cannot start`) {
		t.Errorf("auto: %v", err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: host})
	if err == nil || strings.Contains(err.Error(), "upcase:") || !strings.Contains(err.Error(), "rubyhost: cannot start") {
		t.Errorf("helper: %v", err)
	}
}

// TestRubyHostTemplates: templates whose Ruby the subset refuses (Struct)
// fail with the subset's error without the helper (ruby_functions =
// subset) and when it cannot start (auto: with the reason), fail naming
// the template when it must run (helper), and render in the helper with
// the calling scope's variables when it runs.
func TestRubyHostTemplates(t *testing.T) {
	env, err := environment.Load(environment.Config{Name: "production", Manifest: "testdata/rubyhost/tmpl/site.pp", ModulePath: []string{"testdata/rubyhost/tmpl/modules"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts()})
	if err == nil || !strings.Contains(err.Error(), "unsupported Ruby in template") || !strings.Contains(err.Error(), "struct.erb:1") {
		t.Errorf("subset: %v", err)
	}
	broken := rubyhost.New(rubyhost.Options{Ruby: filepath.Join(t.TempDir(), "no-ruby")})
	defer broken.Close()
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: broken, RubyHostOptional: true})
	if err == nil || !strings.Contains(err.Error(), "unsupported Ruby in template") || !strings.Contains(err.Error(), "the Ruby helper that would run it is unavailable") {
		t.Errorf("auto, no helper: %v", err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: broken})
	if err == nil || !strings.Contains(err.Error(), "template t/struct.erb: rubyhost: cannot start") {
		t.Errorf("helper, no helper: %v", err)
	}

	if exec.Command(rubyhost.DefaultRuby, "-e", "require 'puppet'").Run() != nil || testing.Short() {
		t.Skip("no Ruby with Puppet's library")
	}
	host := rubyhost.New(rubyhost.Options{})
	defer host.Close()
	cat, err := compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), RubyHost: host})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	got := notifyMessages(t, buf.Bytes())
	if got["file"] != "in class,top\n" || got["inline"] != "top" {
		t.Errorf("messages %q", got)
	}
}

// TestCalledFunctionErrorOnce: the error of a Puppet function that a Ruby
// function calls (function_fail, call_function re-raised) is reported as
// Puppet reports it: once, at the call of the Ruby function, without the
// Ruby file's line or a second "Error while evaluating a Function Call"
// (Puppet 7.23's messages).
func TestCalledFunctionErrorOnce(t *testing.T) {
	for _, tt := range []struct{ call, want string }{
		{"callfail()", "Evaluation Error: Error while evaluating a Function Call, boom (file: "},
		{"t::reraise()", "Evaluation Error: Error while evaluating a Function Call, boom (file: "},
	} {
		dir := t.TempDir()
		site := filepath.Join(dir, "site.pp")
		if err := os.WriteFile(site, []byte("notify { "+tt.call+": }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		env, err := environment.Load(environment.Config{Name: "production", Manifest: site, ModulePath: []string{"testdata/calledfail/modules"}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = compileCatalog(env, &Request{Node: "n1", Facts: testFacts()})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Count(err.Error(), "(file: ") != 1 {
			t.Errorf("%s: %v\nwant %q once", tt.call, err, tt.want)
		}
	}
}
