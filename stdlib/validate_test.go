package stdlib

// Every expected value and error message in this file is what Puppet 7.23
// with puppetlabs-stdlib 8.5 produced for the same code (the value shown
// with String($v, '%p'), the error after "Error while evaluating a
// Function Call, ").

import "testing"

func TestValidators(t *testing.T) {
	checkValues(t, []valueCase{
		{`validate_string('a', undef)`, `undef`},
		{`validate_bool(true, false)`, `undef`},
		{`validate_hash({})`, `undef`},
		{`validate_array([])`, `undef`},
		{`validate_re('abc', '^a')`, `undef`},
		{`validate_re('abc', ['^x', 'b'])`, `undef`},
		{`validate_re("x\nabc", '^abc$')`, `undef`},
		{`validate_absolute_path('/a', ['/b', 'C:/x'])`, `undef`},
		{`validate_absolute_path('\\\\server\\share')`, `undef`},
		{`validate_integer(5, 10, 1)`, `undef`},
		{`validate_integer('5')`, `undef`},
		{`validate_integer([1, '2'], 3)`, `undef`},
		{`validate_numeric(1.5, 2)`, `undef`},
		{`validate_slength('abc', 3)`, `undef`},
		{`validate_ip_address('1.2.3.4')`, `undef`},
		{`validate_legacy(Hash, 'validate_hash', {a => 1})`, `undef`},
		{`validate_legacy(Optional[String], 'validate_string', undef)`, `undef`},
		{`validate_legacy(Enum['full', 'none'], 'validate_re', 'full', [['^full$', '^none$']])`, `undef`},
		{`validate_legacy('Optional[String]', 'validate_string', 'x')`, `undef`},
		{`validate_legacy(Stdlib::Compat::Hash, 'validate_hash', {})`, `undef`},
		{`validate_legacy(Stdlib::Absolutepath, 'validate_absolute_path', '/x')`, `undef`},
		{`is_array([])`, `true`},
		{`is_array('a')`, `false`},
		{`is_hash({})`, `true`},
		{`is_string('abc')`, `true`},
		{`is_string('1')`, `false`},
		{`is_string('1.5')`, `false`},
		{`is_string(1)`, `false`},
		{`is_string(undef)`, `true`},
		{`is_bool(false)`, `true`},
		{`is_bool('true')`, `false`},
		{`is_integer('-12')`, `true`},
		{`is_integer('012')`, `false`},
		{`is_integer(1.0)`, `false`},
		{`is_numeric('1.5e3')`, `true`},
		{`is_numeric('abc')`, `false`},
		{`is_float('1.5')`, `true`},
		{`is_float(1.5)`, `true`},
		{`is_float('1')`, `false`},
		{`is_absolute_path('/x')`, `true`},
		{`is_absolute_path('x')`, `false`},
		{`is_ip_address('::1')`, `true`},
		{`is_ip_address('1.2.3')`, `false`},
		{`is_ipv4_address('1.2.3.4')`, `true`},
		{`is_ipv6_address('1.2.3.4')`, `false`},
		{`is_domain_name('foo.example.com')`, `true`},
		{`is_domain_name('foo_bar.com')`, `false`},
		{`is_domain_name('foo.123')`, `false`},
		{`is_mac_address('00:11:22:33:44:55')`, `true`},
		{`is_email_address('a@b.com')`, `true`},
	})
	// Not yet matched (value.DescribeMismatch descends into Optional[Hash]
	// even for a non-hash): validate_legacy(Optional[Hash], 'validate_hash', [1])
	// fails with "validate_legacy(validate_hash) expects a value of type
	// Undef or Hash, got Tuple".
	checkErrors(t, []errorCase{
		{`validate_legacy(String, 'validate_string', 5)`, `validate_legacy(validate_string) expects a String value, got Integer`},
		{`validate_string(1)`, `1 is not a string.  It looks to be a Integer`},
		{`validate_string([1])`, `[1] is not a string.  It looks to be a Array`},
		{`validate_bool('true')`, `"true" is not a boolean.  It looks to be a String`},
		{`validate_hash([])`, `[] is not a Hash.  It looks to be a Array`},
		{`validate_array({})`, `{} is not an Array.  It looks to be a Hash`},
		{`validate_array(undef)`, `nil is not an Array.  It looks to be a NilClass`},
		{`validate_re('abc', '^x')`, `validate_re(): "abc" does not match "^x"`},
		{`validate_re('abc', ['^x', '^y'], 'custom msg')`, `custom msg`},
		{`validate_re(undef, '^x')`, `validate_re(): input needs to be a String, not a NilClass`},
		{`validate_re(1, '^x')`, `validate_re(): input needs to be a String, not a Integer`},
		{`validate_absolute_path('rel/path')`, `"rel/path" is not an absolute path.`},
		{`validate_absolute_path(undef)`, `nil is not an absolute path.`},
		{`validate_integer(11, 10)`, `validate_integer(): Expected 11 to be smaller or equal to 10, got 11.`},
		{`validate_integer(0, 10, 1)`, `validate_integer(): Expected 0 to be greater or equal to 1, got 0.`},
		{`validate_integer('x')`, `validate_integer(): Expected first argument to be an Integer or Array, got String`},
		{`validate_integer([1, 'x'])`, `validate_integer(): Expected element at array position 1 to be an Integer, got String`},
		{`validate_integer(1, 'a')`, `validate_integer(): Expected second argument to be unset or an Integer, got a:String`},
		{`validate_numeric(3.5, 2)`, `validate_numeric(): Expected 3.5 to be smaller or equal to 2.0, got 3.5.`},
		{`validate_slength('abcd', 3)`, `validate_slength(): Expected length of "abcd" to be between 0 and 3, was 4`},
		{`validate_ip_address('1.2.3')`, `"1.2.3" is not a valid IP address.`},
		{`validate_legacy(Hash, 'validate_hash', 'x')`, `validate_legacy(validate_hash) expects a Hash value, got String`},
		{`validate_legacy(String, 'validate_string', [1])`, `validate_legacy(validate_string) expects a String value, got Tuple`},
		{`validate_legacy(Hash, 'nope', 'x')`, "undefined method `function_nope' for Scope"},
		{`validate_string()`, `validate_string(): wrong number of arguments (0; must be > 0)`},
		{`is_a(1)`, `'is_a' expects 2 arguments, got 1`},
	})
}
