package stdlib

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// The resources and values expected here are what Puppet 7.23 with stdlib
// 8.5 put in the catalog for the same manifest (with a declared
// package { 'pre': ensure => installed } in place of the seeded resource).
func TestCatalogFunctions(t *testing.T) {
	h := newTestHost()
	h.resources = []testResource{{"Package", "pre", value.NewHash(value.String("ensure"), value.String("installed"))}}
	src := `
ensure_packages(['pre', 'a', 'b'])
ensure_packages('c', {ensure => present, provider => 'apt'})
ensure_packages({'d' => {ensure => '1.0'}, 'e' => {}}, {tag => 'x'})
ensure_resource('file', ['/tmp/x', '/tmp/y'], {ensure => directory})
ensure_resource('file', '/tmp/x', {ensure => directory})
ensure_resources('user', {'u1' => {uid => 1}, 'u2' => undef}, {ensure => present})
$d1 = defined_with_params(Package['a'], {ensure => installed})
$d2 = defined_with_params('Package[a]', {ensure => absent})
$d3 = defined_with_params('File[/tmp/x]')
$d4 = defined_with_params('File[/nope]')
$g1 = getparam(Package['c'], 'ensure')
$g2 = getparam(Package['c'], 'provider')
$g3 = getparam(Package['c'], 'nope')
$g4 = getparam(File['/nope'], 'ensure')
"d: ${d1} ${d2} ${d3} ${d4} g: [${g1}] [${g2}] [${g3}] [${g4}]"
`
	v, err := run(t, h, src)
	if err != nil {
		t.Fatal(err)
	}
	if want := "d: true false true false g: [installed] [apt] [] []"; value.ToString(v) != want {
		t.Errorf("got %q, want %q", value.ToString(v), want)
	}
	var got []string
	for _, r := range h.resources {
		got = append(got, r.typ+"["+r.title+"] "+value.ToString(r.params))
	}
	want := []string{
		"Package[pre] {ensure => installed}",
		"Package[a] {ensure => installed}",
		"Package[b] {ensure => installed}",
		"Package[c] {ensure => installed, provider => apt}",
		"Package[d] {ensure => 1.0, tag => x}",
		"Package[e] {ensure => installed, tag => x}",
		"File[/tmp/x] {ensure => directory}",
		"File[/tmp/y] {ensure => directory}",
		"User[u1] {ensure => present, uid => 1}",
		"User[u2] {ensure => present}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEnsureResourceConflict(t *testing.T) {
	h := newTestHost()
	// A package declared with other parameters is not "defined with" the
	// wanted ones, so Puppet declares it again and fails on the duplicate.
	_, err := run(t, h, `ensure_resource('package', 'x', {ensure => present}) ensure_packages(['x'])`)
	if err == nil || !strings.Contains(err.Error(), "Duplicate declaration: Package[x] is already declared") {
		t.Errorf("got %v, want a duplicate declaration error", err)
	}
}

func TestDefinedWithParamsSkipsTheCallingResource(t *testing.T) {
	h := newTestHost()
	h.resources = []testResource{{"Mydef", "m1", value.EmptyHash}}
	h.scopeResource = "Mydef[m1]"
	v, err := run(t, h, `defined_with_params(Mydef['m1'])`)
	if err != nil || v != value.False {
		t.Errorf("got %v, %v; want false", v, err)
	}
}

// Puppet 7.23's answers for a class privmod::inner and a define
// privmod::d calling assert_private(), declared from outside the module.
func TestAssertPrivate(t *testing.T) {
	for _, tt := range []struct {
		kind           eval.ScopeKind
		name           string
		module, caller string
		src, want      string
	}{
		{eval.ClassScope, "privmod::inner", "privmod", "privmod", `assert_private()`, ""},
		{eval.ClassScope, "privmod::inner", "privmod", "", `assert_private()`, "Class privmod::inner is private"},
		{eval.DefineScope, "privmod::d", "privmod", "", `assert_private()`, "Definition privmod::d is private"},
		{eval.ClassScope, "privmod::msg", "privmod", "", `assert_private('custom private message')`, "custom private message"},
		{eval.TopScope, "", "", "", `assert_private()`, "Class  is private"},
	} {
		h := newTestHost()
		prog, err := syntax.ParseFile("test.pp", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		top := eval.NewScope(eval.TopScope, "", nil, prog.File)
		sc := top
		if tt.kind != eval.TopScope {
			sc = eval.NewScope(tt.kind, tt.name, top, prog.File)
			sc.Set("module_name", value.String(tt.module))
			sc.Set("caller_module_name", value.String(tt.caller))
		}
		_, err = (&eval.Evaluator{Host: h}).Statements(prog.Body, sc)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s in %s: unexpected error %v", tt.src, tt.name, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s in %s: got %v, want %q", tt.src, tt.name, err, tt.want)
		}
	}
}

// Undef parameters: Puppet 7.23 skips an existing resource, and fails
// with Ruby's conversion error when it has to declare one.
func TestEnsureResourceUndefParams(t *testing.T) {
	h := newTestHost()
	if _, err := run(t, h, `ensure_resource('notify', ['a', 'b']) ensure_resource('notify', 'a', undef)`); err != nil {
		t.Errorf("unexpected error: %v", err)
	}
	if len(h.resources) != 2 {
		t.Errorf("got %d resources, want 2", len(h.resources))
	}
	checkErrors(t, []errorCase{
		{`ensure_resource('file', '/tmp/z', undef)`, `no implicit conversion of String into Hash`},
	})
}

// Before stdlib 8.0 (govuk's vendored 4.25.1), ensure_packages declared
// present and took installed for it: a package declared with ensure
// present is then already there, not a duplicate.
func TestEnsurePackagesBefore8(t *testing.T) {
	h := newTestHost()
	h.stdlib = FunctionsFor("4.25.1")
	h.resources = []testResource{{"Package", "apparmor", value.NewHash(value.String("ensure"), value.String("present"))}}
	if _, err := run(t, h, `ensure_packages(['cgroup-lite', 'apparmor'])
ensure_packages('x', {ensure => installed})`); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range h.resources {
		got = append(got, r.typ+"["+r.title+"] "+value.ToString(r.params))
	}
	want := "Package[apparmor] {ensure => present}\nPackage[cgroup-lite] {ensure => present}\nPackage[x] {ensure => present}"
	if strings.Join(got, "\n") != want {
		t.Errorf("resources:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// Before stdlib 5.1 (MODULES-7768) delete_undef_values deleted only Ruby's
// :undef, which Puppet 6 and later do not pass: a nested undef stays
// (govuk's govuk::app::envvar::redis joins it into "_redis_url").
func TestDeleteUndefValuesBefore51(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"4.25.1", "_redis_url {a => 1, b => }"},
		{"5.1.0", "redis_url {a => 1}"},
		{"8.5.0", "redis_url {a => 1}"},
	} {
		h := newTestHost()
		h.stdlib = FunctionsFor(tc.version)
		v, err := run(t, h, `"${join(delete_undef_values([undef, 'redis', 'url']), '_')} ${delete_undef_values({a => 1, b => undef})}"`)
		if err != nil {
			t.Fatal(err)
		}
		if got := value.ToString(v); got != tc.want {
			t.Errorf("stdlib %s: got %q, want %q", tc.version, got, tc.want)
		}
	}
}

// Before stdlib 5.0 (#930) any2array of an empty string, which a 3.x
// function gets for undef, is an array of it (govuk's docker::run extra_params).
func TestAny2arrayBefore5(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"4.25.1", "1 1 [a]"},
		{"5.0.0", "0 0 [a]"},
	} {
		h := newTestHost()
		h.stdlib = FunctionsFor(tc.version)
		v, err := run(t, h, `"${length(any2array(undef))} ${length(any2array(''))} ${any2array('a')}"`)
		if err != nil {
			t.Fatal(err)
		}
		if got := value.ToString(v); got != tc.want {
			t.Errorf("stdlib %s: got %q, want %q", tc.version, got, tc.want)
		}
	}
}
