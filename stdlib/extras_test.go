package stdlib

// Every expected value in this file is what Puppet 7.23 with
// puppetlabs-stdlib 8.5 produced for the same code and the facts of
// testFacts (shown with String($v, '%p')).

import (
	"errors"
	"testing"
)

func TestExtras(t *testing.T) {
	checkValues(t, []valueCase{
		{`reverse([1, 2, 3])`, `[3, 2, 1]`},
		{`reverse('abc')`, `'cba'`},
		{`swapcase('aBc')`, `'AbC'`},
		{`swapcase(['aB', 1])`, `['Ab', 1]`},
		{`regexpescape('a.b*c')`, `'a\.b\*c'`},
		{`regexpescape(['a+', 1])`, `['a\+', 1]`},
		{`dos2unix("a\r\nb")`, `"a\nb"`},
		{`unix2dos("a\nb\r\n")`, `"a\r\nb\r\n"`},
		{`squeeze('aaabbcc')`, `'abc'`},
		{`squeeze(['aaa', 'bbb'], 'a')`, `['a', 'bbb']`},
		{`convert_base(5, 2)`, `'101'`},
		{`convert_base('254', '16')`, `'fe'`},
		{`clamp(5, 1, 3)`, `3`},
		{`clamp(['2', 10, 4])`, `4`},
		{`to_bytes('4 kB')`, `4096`},
		{`to_bytes('1.5M')`, `1572864`},
		{`to_bytes('100')`, `100`},
		{`to_bytes(3)`, `3`},
		{`fqdn_uuid('example.com')`, `'cfbff0d1-9375-5685-968c-48ce8b15ae17'`},
		{`fqdn_rand_string(10)`, `'AcNet6pWlF'`},
		{`fqdn_rand_string(8, 'abc')`, `'babcacaa'`},
		{`fqdn_rand_string(8, '', 'salt')`, `'qDYEcAg6'`},
		{`seeded_rand_string(8, 'seed')`, `'JSYSrD2x'`},
		{`seeded_rand_string(5, 'x', 'ab')`, `'aaabb'`},
		{`shell_split('a "b c" d\ e \'f g\'')`, `['a', 'b c', 'd e', 'f g']`},
		{`powershell_escape('a b"c$')`, "'a` b\\`\"c`$'"},
		{`batch_escape('a"b$c')`, `'"a""b\$c"'`},
		{`delete_regex(['abc', 'b', 'bcd'], 'b')`, `['abc', 'bcd']`},
		{`delete_regex(['abc', 'b', 'bcd'], ['b.*'])`, `['abc']`},
		{`try_get_value({a => {b => [1, 2]}}, 'a/b/1')`, `2`},
		{`try_get_value({a => 1}, 'a/c', 'dflt')`, `'dflt'`},
		{`try_get_value('x', 'a')`, `'x'`},
		{`is_function_available('nope')`, `false`},
		{`stdlib::start_with('foobar', 'foo')`, `true`},
		{`stdlib::start_with('foobar', ['x', 'fo'])`, `true`},
		{`stdlib::end_with('foobar', 'bar')`, `true`},
		{`stdlib::extname('a/b.tar.gz')`, `'.gz'`},
		{`stdlib::extname('.bashrc')`, `''`},
		{`stdlib::extname('a.')`, `'.'`},
		{`stdlib::extname('a')`, `''`},
		{`stdlib::ip_in_range('10.1.2.3', '10.0.0.0/8')`, `true`},
		{`stdlib::ip_in_range('10.1.2.3', ['192.168.0.0/16', '10.1.2.3'])`, `true`},
		{`stdlib::xml_encode('<a & "b">')`, `'&lt;a &amp; "b"&gt;'`},
		{`stdlib::xml_encode('<a & "b">', 'attr')`, `'"&lt;a &amp; &quot;b&quot;&gt;"'`},
	})
	checkStrings(t, []valueCase{
		{`"${type_of([1, 'a'])}"`, `Tuple[Integer[1, 1], String]`},
	})
}

func TestFactsAndFormats(t *testing.T) {
	checkValues(t, []valueCase{
		{`has_interface_with('lo')`, `true`},
		{`has_interface_with('eth1')`, `false`},
		{`has_interface_with('ipaddress', '127.0.0.1')`, `true`},
		{`has_interface_with('ipaddress', '1.1.1.1')`, `false`},
		{`has_ip_address('10.0.0.5')`, `true`},
		{`has_ip_network('10.0.0.0')`, `true`},
		{`has_ip_network('10.1.0.0')`, `false`},
		{`parsepson('{"a": [1, null]}')`, `{'a' => [1, undef]}`},
		{`parsepson('nope', 'dflt')`, `'dflt'`},
		{`to_python({a => [1, true, undef, 'x', 1.5]})`, `'{"a": [1, True, None, "x", 1.5]}'`},
		{`to_ruby({a => [1, true, undef, 'x', 1.5]})`, `'{"a" => [1, true, nil, "x", 1.5]}'`},
	})
	checkErrors(t, []errorCase{
		{`parsepson('nope')`, `source 'nope' not in PSON!`},
	})
}

func TestOddities(t *testing.T) {
	checkValues(t, []valueCase{
		{`sprintf_hash('%s', {a => 1})`, `'{:a=>1}'`},
		{`sprintf_hash('%<a>s is %<n>05d and %{a}!', {a => 'x', n => 42})`, `'x is 00042 and x!'`},
		{`sprintf_hash('%<f>.2f%%', {f => 1.5})`, `'1.50%'`},
		{`type3x('1')`, `'integer'`},
		{`type3x('1.5')`, `'float'`},
		{`type3x('abc')`, `'string'`},
		{`type3x(true)`, `'boolean'`},
		{`type3x([])`, `'array'`},
	})
	checkErrors(t, []errorCase{
		{`sprintf_hash('%<zz>s', {a => 1})`, `key<zz> not found`},
	})
}

// Puppet's arity check of a 3.x function comes before the function's own
// (Puppet 7.23 with stdlib 9.7).
func TestExtrasArity(t *testing.T) {
	checkErrors(t, []errorCase{
		{`clamp()`, `clamp(): Wrong number of arguments given (0 for minimum 1)`},
		{`convert_base('1')`, `convert_base(): Wrong number of arguments given (1 for 2)`},
		{`dos2unix('a', 'b')`, `dos2unix(): Wrong number of arguments given (2 for 1)`},
		{`unix2dos()`, `unix2dos(): Wrong number of arguments given (0 for 1)`},
		// Ruby's TypeError where the Ruby wants a String.
		{`to_bytes(true)`, `no implicit conversion of true into String`},
		{`to_bytes([])`, `no implicit conversion of Array into String`},
		{`fqdn_uuid({})`, `no implicit conversion of Hash into String`},
		{`fqdn_uuid(0)`, `no implicit conversion of Integer into String`},
	})
}

// The parsers' errors carry the Ruby exception classes stdlib's functions
// let through (what rspec-puppet examples of them expect).
func TestParserErrorClasses(t *testing.T) {
	tests := []struct{ src, class string }{
		{`parseyaml('["one"')`, "Psych::SyntaxError"},
		{`parsejson('error')`, "Puppet::Util::Json::ParseError"},
		{`parsepson('invalid')`, "PSON::ParserError"},
		{`parsehocon('invalid')`, "Hocon::ConfigError::ConfigParseError"},
	}
	for _, tt := range tests {
		_, err := run(t, newTestHost(), tt.src)
		var classed interface{ RubyClass() string }
		if !errors.As(err, &classed) {
			t.Errorf("%s: error %v has no Ruby class, want %s", tt.src, err, tt.class)
			continue
		}
		if classed.RubyClass() != tt.class {
			t.Errorf("%s: Ruby class %s, want %s", tt.src, classed.RubyClass(), tt.class)
		}
	}
}
