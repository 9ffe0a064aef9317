package stdlib

// Every expected value and error message in this file is what Puppet 7.23
// with puppetlabs-stdlib 8.5 produced for the same code.

import "testing"

func TestFunctionSignatures(t *testing.T) {
	checkValues(t, []valueCase{
		{`merge(5) |$a, $b| { {} }`, `{}`},
	})
	checkErrors(t, []errorCase{
		{`ensure_packages(1)`, `'ensure_packages' parameter 'packages' expects a value of type String, Array, or Hash, got Integer`},
		{`ensure_packages('x', 1)`, `'ensure_packages' parameter 'default_attributes' expects a Hash value, got Integer`},
		{`to_json_pretty([1], 'x')`, `'to_json_pretty' parameter 'skip_undef' expects a value of type Undef or Boolean, got String`},
		{`os_version_gte('', '1')`, `'os_version_gte' parameter 'os' expects a String[1] value, got String`},
		{`seeded_rand_string(0, 'x')`, `'seeded_rand_string' parameter 'length' expects an Integer[1] value, got Integer[0, 0]`},
		{`stdlib::start_with(1, 'a')`, `'stdlib::start_with' parameter 'test_string' expects a String value, got Integer`},
		{`stdlib::start_with('a', '')`, `'stdlib::start_with' parameter 'prefixes' expects a value of type String[1] or Array[String[1], 1], got String`},
		{`parsepson('')`, `'parsepson' parameter 'pson_string' expects a String[1] value, got String`},
		{`deprecation(1, 'x')`, `'deprecation' parameter 'key' expects a String value, got Integer`},
		{`is_a(1, 'x')`, `'is_a' parameter 'type' expects a Type value, got String`},
		{`to_yaml(1, 'x')`, `'to_yaml' parameter 'options' expects a Hash value, got String`},
		{`shell_escape()`, `'shell_escape' expects 1 argument, got none`},
		{`fact('a.b', 1)`, `'fact' expects 1 argument, got 2`},
		{`fact([1])`, `'fact' parameter 'fact_name' expects a String value, got Tuple`},
		{`stdlib::extname([1])`, `'stdlib::extname' parameter 'filename' expects a String value, got Tuple`},
		{`stdlib::extname()`, `'stdlib::extname' expects 1 argument, got none`},
		{`is_a(1, [1])`, `'is_a' parameter 'type' expects a Type value, got Tuple`},
		{`sprintf_hash('x', [1])`, `'sprintf_hash' parameter 'arguments' expects a Hash value, got Tuple`},
		{`stdlib::xml_encode([1])`, `'stdlib::xml_encode' parameter 'str' expects a String value, got Tuple`},
		{`stdlib::xml_encode()`, `'stdlib::xml_encode' expects between 1 and 2 arguments, got none`},
		{`stdlib::str2resource({'a' => 1})`, `'stdlib::str2resource' parameter 'res_string' expects a String value, got Struct`},
		{`validate_legacy(1, 'x', 1)`, `The function 'validate_legacy' was called with arguments it does not accept. It expects one of:`},
		{`validate_legacy(Integer, 1, 1)`, `The function 'validate_legacy' was called with arguments it does not accept. It expects one of:`},
		{`merge(1)`, `The function 'merge' was called with arguments it does not accept. It expects one of:`},
		{`merge({a => 1}) |$a| { {} }`, `The function 'merge' was called with arguments it does not accept. It expects one of:`},
	})
}

func TestArgumentCounts(t *testing.T) {
	checkValues(t, []valueCase{})
	checkErrors(t, []errorCase{
		{`dig44()`, `dig44(): Wrong number of arguments given (0 for minimum 1)`},
		{`pw_hash('a', 'md5')`, `pw_hash(): Wrong number of arguments given (2 for 3)`},
		{`ensure_resource()`, `Must specify a type`},
		{`ensure_resource('package')`, `Must specify a title`},
		{`ensure_resources('user', 'x')`, `ensure_resources(): Requires second argument to be a Hash`},
		{`validate_legacy(Hash)`, `'validate_legacy' expects at least 4 arguments, got 2`},
		{`fqdn_rotate()`, `fqdn_rotate(): Wrong number of arguments given (0 for 1)`},
		{`count()`, `count(): Wrong number of arguments given (0 for minimum 1)`},
		{`count([1], 1, 2)`, `count(): Wrong number of arguments given 3 for 1 or 2.`},
		{`concat([1])`, `concat(): Wrong number of arguments given (1 for < 2)`},
		{`zip([1])`, `zip(): Wrong number of arguments given (1 for 2)`},
		{`union([1])`, `union(): Wrong number of arguments given (1 for < 2)`},
		{`has_key({})`, `has_key(): wrong number of arguments (1; must be 2)`},
		{`str2bool()`, `str2bool(): Wrong number of arguments given (0 for 1)`},
		{`delete([1])`, `delete(): Wrong number of arguments given 1 for 2`},
		{`fqdn_rand()`, `fqdn_rand(): Wrong number of arguments given (0 for minimum 1)`},
		{`getparam()`, `Must specify a reference`},
		{`defined_with_params()`, `Must specify a reference`},
		{`base64('encode')`, `base64(): Wrong number of arguments (1; must be >= 2)`},
	})
}
