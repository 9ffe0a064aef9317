package stdlib

// Every expected value and error message in this file is what Puppet 7.23
// with puppetlabs-stdlib 9.7.0 produced for the same code, with the facts
// of testFacts except networking.interfaces (see facts9).

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// facts9 are testFacts with a structured networking.interfaces fact, which
// stdlib 9's has_interface_with reads.
func facts9() *value.Hash {
	str := func(s string) value.Value { return value.String(s) }
	b := value.NewHashBuilder(0)
	f := testFacts()
	for i := range f.Len() {
		k, v := f.At(i)
		if k == str("networking") {
			v = value.NewHash(str("fqdn"), str("Probe.Example.com"), str("interfaces"), value.NewHash(
				str("lo"), value.NewHash(str("ip"), str("127.0.0.1"), str("mac"), str("00:00")),
				str("eth0"), value.NewHash(str("ip"), str("10.0.0.5"))))
		}
		b.Set(k, v)
	}
	return b.Build()
}

// run9 evaluates Puppet source with the stdlib 9.7 table.
func run9(t *testing.T, h *testHost, src string) (value.Value, error) {
	t.Helper()
	prog, err := syntax.ParseFile("test.pp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	ev := &eval.Evaluator{Host: h}
	top := eval.NewScope(eval.TopScope, "", nil, prog.File)
	facts := facts9()
	top.Set("facts", facts)
	for i := range facts.Len() {
		k, v := facts.At(i)
		top.Set(string(k.(value.String)), v)
	}
	return ev.Statements(prog.Body, top)
}

func newTestHost9() *testHost {
	return &testHost{stdlib: FunctionsFor("9.7.0"), core: functions.Builtins()}
}

func TestStdlib9Values(t *testing.T) {
	for _, tt := range []valueCase{
		{`stdlib::fqdn_rand_string(10)`, `'AcNet6pWlF'`},
		{`stdlib::fqdn_rand_string(8, 'abc')`, `'babcacaa'`},
		{`stdlib::fqdn_rand_string(8, '', 'salt')`, `'qDYEcAg6'`},
		{`stdlib::fqdn_rand_string(8, undef, 'salt', 3)`, `'Gb3MCawo'`},
		{`stdlib::fqdn_rotate([1,2,3,4,5])`, `[3, 4, 5, 1, 2]`},
		{`stdlib::fqdn_rotate('abcdef', 'x', 1)`, `'fabcde'`},
		{`stdlib::seeded_rand(100, 'x')`, `16`},
		{`stdlib::seeded_rand_string(8, 'seed')`, `'JSYSrD2x'`},
		{`stdlib::sort_by([3,1,2]) |$x| { -$x }`, `[3, 2, 1]`},
		{`stdlib::sort_by({b=>1,a=>2}) |$kv| { $kv[1] }`, `{'b' => 1, 'a' => 2}`},
		{`stdlib::sort_by('cba') |$x| { $x }`, `'abc'`},
		{`stdlib::has_function('stdlib::merge')`, `true`},
		{`stdlib::has_function('nope')`, `false`},
		{`stdlib::nested_values({a=>{b=>1, c=>[2], e=>{}}, d=>3})`, `[1, [2], 3]`},
		{`stdlib::crc32('abc')`, `'352441c2'`},
		{`stdlib::crc32(Sensitive('abc'))`, `'352441c2'`},
		{`stdlib::crc32(1.5)`, `'875c9bba'`},
		{`stdlib::sha256('abc')`, `'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'`},
		{`stdlib::sha256(1)`, `'6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b'`},
		{`stdlib::sha256(true)`, `'b5bea41b6c623f7c09f1bf24dcae58ebab3c0cdd90ad966bc43a45b44867e12b'`},
		{`stdlib::has_interface_with('lo')`, `true`},
		{`stdlib::has_interface_with('ipaddress', '10.0.0.5')`, `true`},
		{`stdlib::has_interface_with('macaddress', '11')`, `false`},
		{`stdlib::to_json([1,{a=>undef}])`, `'[1,{"a":null}]'`},
		{`"${stdlib::type_of([1])}"`, `'Tuple[Integer[1, 1]]'`},
		{`stdlib::os_version_gte('Debian', '13')`, `false`},
		{`stdlib::os_version_gte('Debian', '11')`, `true`},
		{`stdlib::start_with('foobar', ['bar','foo'])`, `true`},
		{`stdlib::merge({a=>1},{b=>2})`, `{'a' => 1, 'b' => 2}`},
		{`merge({a=>1},{b=>2})`, `{'a' => 1, 'b' => 2}`},
		{`stdlib::validate_domain_name('foo.com')`, `undef`},
		{`stdlib::validate_email_address('a@b.com')`, `undef`},
		{`stdlib::xml_encode('<a>&"')`, `'&lt;a&gt;&amp;"'`},
		{`is_a(1, Integer)`, `true`},
		{`pick(undef, 3)`, `3`},
	} {
		v, err := run9(t, newTestHost9(), "String(("+tt.src+"), '%p')")
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tt.src, err)
			continue
		}
		if got := value.ToString(v); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.src, got, tt.want)
		}
	}
}

func TestStdlib9Strings(t *testing.T) {
	for _, tt := range []valueCase{
		{`stdlib::to_json_pretty({a=>[1,2], b=>{c=>undef}})`, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": null\n  }\n}\n"},
		{`stdlib::to_yaml({a=>[1,2]})`, "---\na:\n- 1\n- 2\n"},
		{`stdlib::to_toml({a=>[1,2], b=>{c=>'x'}})`, "a = [1, 2]\n[b]\nc = \"x\"\n"},
		{`stdlib::to_toml({a=>1.5, b=>'x', c=>true, d=>{e=>[1,{f=>2}]}, g=>undef})`, "a = 1.5\nb = \"x\"\nc = true\ng = nil\n[d]\ne = [1, {\"f\"=>2}]\n"},
		{`stdlib::to_toml({'a b'=>1, b=>'x#{y}', t=>[{n=>1},{n=>2, m=>{z=>1}}], e=>{}, f=>{g=>{h=>1}}})`, "\"a b\" = 1\nb = \"x#{y}\"\n[e]\n[f.g]\nh = 1\n[[t]]\nn = 1\n[[t]]\nn = 2\n[t.m]\nz = 1\n"},
		{`stdlib::to_python({a=>[1,true,undef]})`, `{"a": [1, True, None]}`},
		{`stdlib::to_ruby({a=>"x'y", b=>1.5, c=>undef})`, `{"a" => "x'y", "b" => 1.5, "c" => nil}`},
		{`stdlib::powershell_escape('a b"$c` + "`" + `')`, "a` b\\`\"`$c``"},
		{`stdlib::batch_escape('a b"%c^')`, `"a b""%c^"`},
		{`stdlib::shell_escape('a b"$c')`, `a\ b\"\$c`},
		{`stdlib::extname('foo.tar.gz')`, `.gz`},
	} {
		v, err := run9(t, newTestHost9(), tt.src)
		if err != nil {
			t.Errorf("%s: unexpected error: %v", tt.src, err)
			continue
		}
		if got := value.ToString(v); got != tt.want {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

func TestStdlib9Errors(t *testing.T) {
	for _, tt := range []errorCase{
		{`stdlib::merge({a=>1}, 3)`, "The function 'stdlib::merge' was called with arguments it does not accept. It expects one of:\n  (Variant[Hash[Scalar, Any], Undef, String[0, 0]] args*)\n    rejected: parameter 'args' expects a value of type Undef, Hash, or String, got Integer"},
		{`merge({a=>1}, 3)`, "The function 'stdlib::merge' was called with arguments it does not accept."},
		{`stdlib::to_json_pretty(1)`, `'stdlib::to_json_pretty' parameter 'data' expects a value of type Hash or Array, got Integer`},
		{`stdlib::to_json()`, `'stdlib::to_json' expects 1 argument, got none`},
		{`stdlib::shell_escape()`, `'stdlib::shell_escape' expects 1 argument, got none`},
		{`stdlib::ensure_packages(1)`, `'stdlib::ensure_packages' parameter 'packages' expects a value of type String, Array, or Hash, got Integer`},
		{`is_string('a')`, `Unknown function: 'is_string'`},
		{`validate_string('a')`, `Unknown function: 'validate_string'`},
		{`has_key({a=>1}, 'a')`, `Unknown function: 'has_key'`},
		{`dig44({a=>1}, ['a'])`, `Unknown function: 'dig44'`},
		{`fqdn_rand_string(0)`, `'stdlib::fqdn_rand_string' parameter 'length' expects an Integer[1] value, got Integer[0, 0]`},
		{`stdlib::seeded_rand(0, 'x')`, `'stdlib::seeded_rand' parameter 'max' expects an Integer[1] value, got Integer[0, 0]`},
		{`stdlib::seeded_rand(100, 1)`, `'stdlib::seeded_rand' parameter 'seed' expects a String value, got Integer`},
		{`stdlib::seeded_rand_string(12, 'x', 'a')`, `'stdlib::seeded_rand_string' parameter 'charset' expects a String[2] value, got String`},
		{`stdlib::fqdn_rotate([1,2], [1])`, "The function 'stdlib::fqdn_rotate' was called with arguments it does not accept. It expects one of:\n  (String input, Variant[Integer, String] seeds*)\n    rejected: parameter 'input' expects a String value, got Tuple\n  (Array input, Variant[Integer, String] seeds*)\n    rejected: parameter 'seeds' expects a value of type Integer or String, got Tuple"},
		{`stdlib::sort_by([3,1,2])`, `'stdlib::sort_by' expects a block`},
		{`stdlib::sort_by(['a', 1]) |$x| { $x }`, `comparison of String with 1 failed`},
		{`stdlib::has_function('')`, `'stdlib::has_function' parameter 'function_name' expects a String[1] value, got String`},
		{`stdlib::nested_values([1])`, `'stdlib::nested_values' parameter 'hash' expects a Hash value, got Tuple`},
		{`stdlib::crc32([1])`, `'stdlib::crc32' parameter 'my_data' expects a value of type ScalarData, Sensitive[ScalarData], Binary, or Sensitive[Binary], got Tuple`},
		{`stdlib::sha256(undef)`, `'stdlib::sha256' parameter 'my_data' expects a value of type ScalarData, Sensitive[ScalarData], Binary, or Sensitive[Binary], got Undef`},
		{`stdlib::to_toml([1])`, `'stdlib::to_toml' parameter 'data' expects a Hash value, got Tuple`},
		{`stdlib::has_interface_with('foo', '11')`, "The function 'stdlib::has_interface_with' was called with arguments it does not accept. It expects one of:\n  (String[1] interface)\n    rejected: expects 1 argument, got 2\n  (Enum['ip', 'ipaddress', 'mac', 'macaddress', 'netmask', 'network'] kind, String[1] value)\n    rejected: parameter 'kind' expects a match for Enum['ip', 'ipaddress', 'mac', 'macaddress', 'netmask', 'network'], got 'foo'"},
		{`stdlib::validate_domain_name()`, `stdlib::validate_domain_name(): Wrong number of arguments need at least one`},
		{`stdlib::validate_domain_name('-foo')`, `'stdlib::validate_domain_name' parameter 'values' expects a match for Variant[Stdlib::Fqdn = Pattern[/\A(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9])\z/], Stdlib::Dns::Zone = Pattern[/\A((([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)+|\.)\z/]], got '-foo'`},
		{`stdlib::validate_email_address('a@b.c', 1)`, `'stdlib::validate_email_address' parameter 'values' expects a match for Stdlib::Email = Pattern[/\A[a-zA-Z0-9.!#$%&'*+\/=?^_` + "`" + `{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\z/], got Integer`},
		{`deprecation('k', 1)`, `'deprecation' parameter 'message' expects a String value, got Integer`},
		{`deprecation('k', 'm', 1)`, `'deprecation' parameter 'use_strict_setting' expects a Boolean value, got Integer`},
	} {
		_, err := run9(t, newTestHost9(), tt.src)
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.src, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want && !strings.Contains(got, tt.want) {
			t.Errorf("%s\n got error  %q\n want error %q", tt.src, got, tt.want)
		}
	}
}

// TestStdlib9ArgumentErrorsAreData: a rejected call is an ARGUMENT_MISMATCH
// naming the function as the call shows it (its stdlib 9 name), so the
// renaming needs no reading of messages.
func TestStdlib9ArgumentErrorsAreData(t *testing.T) {
	for _, tt := range []struct{ src, function string }{
		{`stdlib::to_json()`, "stdlib::to_json"},
		{`stdlib::ensure_packages(1)`, "stdlib::ensure_packages"},
		{`stdlib::to_json_pretty(1)`, "stdlib::to_json_pretty"},
		{`stdlib::merge({a=>1}, 3)`, "stdlib::merge"},
		{`stdlib::merge([1]) |$a| { }`, "stdlib::merge"},
		{`merge({a=>1}, 3)`, "stdlib::merge"},
		{`stdlib::type_of()`, "stdlib::type_of"},
	} {
		_, err := run9(t, newTestHost9(), tt.src)
		if d := diag.Coded(err); !d.Matches(diag.ArgumentMismatch, "function", tt.function) {
			t.Errorf("%s: error %v is no ARGUMENT_MISMATCH of %s", tt.src, err, tt.function)
		}
	}
}

// TestStdlib9Shims checks that the deprecated top-level names warn and
// call the namespaced function.
func TestStdlib9Shims(t *testing.T) {
	h := newTestHost9()
	v, err := run9(t, h, `to_json({a => 1})`)
	if err != nil || value.ToString(v) != `{"a":1}` {
		t.Fatalf("to_json = %v, %v", v, err)
	}
	want := "warning: This function is deprecated, please use stdlib::to_json instead."
	if len(h.logs) != 1 || h.logs[0] != want {
		t.Errorf("logs = %q, want [%q]", h.logs, want)
	}
}

// TestFunctionsForVersion checks which table each version gets.
func TestFunctionsForVersion(t *testing.T) {
	for _, tt := range []struct {
		version   string
		name      string
		wantFound bool
	}{
		{"9.7.0", "stdlib::to_toml", true},
		{"9.0.0", "is_string", false},
		{"10.1.0", "stdlib::crc32", true},
		{"8.5.0", "is_string", true},
		{"8.5.0", "stdlib::to_toml", false},
		{"", "is_string", true},
		{"garbage", "stdlib::crc32", false},
	} {
		_, found := FunctionsFor(tt.version)[tt.name]
		if found != tt.wantFound {
			t.Errorf("FunctionsFor(%q)[%q] found = %v, want %v", tt.version, tt.name, found, tt.wantFound)
		}
	}
}
