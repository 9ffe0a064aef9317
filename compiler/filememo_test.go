package compiler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
)

// TestCompileRemembersFiles: within one compile a template, Ruby function
// or Ruby library is read from disk once (a template used again, even
// removed meanwhile, is the one read first; a require that found nothing
// finds nothing again without looking), while the next compile sees the
// disk as it is.
func TestCompileRemembersFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                   "",
		"modules/m/templates/t.erb": "one\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	raw := func(src []byte) (any, error) { return string(src), nil }
	c := newCompilation(context.Background(), env, &Request{Node: "n1", Facts: testFacts()})
	path, err := c.findTemplate("m/t.erb")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.loadFile(path, "raw", raw); err != nil || v != "one\n" {
		t.Fatalf("first load = %v, %v", v, err)
	}
	rb := &erbScope{c: c}
	if _, _, ok := rb.RubyFile("helper"); ok {
		t.Fatal("RubyFile found a library no module has")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{"modules/m/lib/helper.rb": "# helper\n"})
	if p, err := c.findTemplate("m/t.erb"); err != nil || p != path {
		t.Errorf("findTemplate again = %q, %v; want %q", p, err, path)
	}
	if v, err := c.loadFile(path, "raw", raw); err != nil || v != "one\n" {
		t.Errorf("second load in the same compile = %v, %v; want the first", v, err)
	}
	if _, _, ok := rb.RubyFile("helper"); ok {
		t.Error("RubyFile looked again for a library it had not found")
	}

	next := newCompilation(context.Background(), env, &Request{Node: "n1", Facts: testFacts()})
	if _, err := next.findTemplate("m/t.erb"); err == nil {
		t.Error("the next compile found the removed template")
	}
	if _, _, ok := (&erbScope{c: next}).RubyFile("helper"); !ok {
		t.Error("the next compile missed the new library")
	}
}

// TestUnacceptableLocation: every class, define and function of a module
// file, nested ones too, must be named within the file's namespace; the
// first one that is not is the error.
func TestUnacceptableLocation(t *testing.T) {
	for _, tc := range []struct{ src, bad string }{
		{"class m::a { class inner {} }\n", ""}, // nested names are qualified: m::a::inner
		{"class m::a {}\nclass other {}\ndefine wrong {}\n", "other"},
		{"class m::a { if true { include m } }\nfunction m::a::f() {}\nfunction x::f() {}\n", "x::f"},
		{"define m::a::d {}\nclass m::b {}\n", "m::b"},
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"site.pp": "include m::a\n", "modules/m/manifests/a.pp": tc.src})
		env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = env.Lookup(environment.KindClass, "m::a", nil)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%q: %v", tc.src, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), "The name '"+tc.bad+"' is unacceptable")):
			t.Errorf("%q: error %v, want one naming %s", tc.src, err, tc.bad)
		}
	}
}
