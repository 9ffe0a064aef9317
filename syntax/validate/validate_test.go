package validate

import (
	"slices"
	"testing"

	"github.com/marionette-dev/marionette/diag"
)

func TestProgram(t *testing.T) {
	tests := []struct {
		name, src string
		errs      []string // "line:column: message"
		warnings  []string
	}{
		// Valid code.
		{name: "empty", src: ""},
		{name: "class with body", src: "class a::b($x = 1, Optional[String] $y = undef) inherits a {\n  notify { $x: }\n}\n"},
		{name: "nested class", src: "class a {\n  $x = 1\n  class b {}\n}\n"},
		{name: "node in class", src: "class a {\n  node b {}\n}\n"},
		{name: "function at top level", src: "$x = 1\nfunction f() {\n  1\n}\n"},
		{name: "lambda ends with value", src: "[1].each |$x| { $x }\n"},
		{name: "match may set variables", src: "$a = 'x'\n$a =~ /x/\nnotice($1)\n"},
		{name: "unary minus continues a line", src: "$a = 1\n-$a\n"},
		{name: "assign to list", src: "[$a, [$b, $c]] = [1, [2, 3]]\n"},
		{name: "append in collector", src: "User <| |> { groups +> 'x' }\n"},
		{name: "append in override", src: "File['a'] { require +> File['b'] }\n"},
		{name: "queries", src: "User <| title == 'a' and (groups != 'x' or $y) |>\nUser <<| tag == \"${x}\" |>>\n"},
		{name: "collector in relationship", src: "notify { 'a': } -> File <| |>\n"},
		{name: "hostnames", src: "node foo.example.com, 'bar-1.com', 1234, /x/, default {}\n"},
		{name: "variables", src: "$x = [$a::_b, $::y, $_z, $0, $10]\n"},
		{name: "type alias of object", src: "type Foo = Object[{attributes => {a => Integer}}]\n"},
		{name: "heredoc json", src: "$x = @(END:json)\n  {\"a\": [1, 2]}\n  END\nnotice($x)\n"},
		{name: "heredoc unknown syntax", src: "$x = @(END:nosuch)\n  {\n  END\nnotice($x)\n"},
		{name: "heredoc with interpolation", src: "$y = 1\n$x = @(\"END\":json)\n  {\"a\": ${y}\n  END\nnotice($x)\n"},
		{name: "assignment in lambda of default", src: "class a($x = [1].map |$y| { $z = $y }) {}\n"},

		// Names.
		{name: "class name upper case", src: "class Foo {}\n",
			errs: []string{"1:1: Unacceptable name. The name 'Foo' is unacceptable as the name of a Host Class Definition"}},
		{name: "define name with hyphen", src: "define my-type($x) {}\n",
			errs: []string{"1:1: Unacceptable name. The name 'my-type' is unacceptable as the name of a 'define' expression"}},
		{name: "class name starts with underscore", src: "class _a {}\n",
			errs: []string{"1:1: Unacceptable name. The name '_a' is unacceptable as the name of a Host Class Definition"}},
		{name: "reserved type name", src: "define string() {}\n",
			errs: []string{"1:1: The name: 'string' is already defined by Puppet and can not be used as the name of a 'define' expression."}},
		{name: "future reserved word", src: "class plan {}\n",
			warnings: []string{"1:1: Use of future reserved word: 'plan'"}},
		{name: "variable upper case", src: "$x = $Foo\n",
			errs: []string{`1:6: Illegal variable name, The given name 'Foo' does not conform to the naming rule /^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$/`}},
		{name: "numeric variable with leading zero", src: "$x = $01\n",
			errs: []string{"1:6: Illegal numeric variable name, The given name '01' must be a decimal value if it starts with a digit 0-9"}},

		// Parameters.
		{name: "duplicate parameter", src: "class a($x, $x) {}\n",
			errs: []string{"1:13: The parameter 'x' is declared more than once in the parameter list"}},
		{name: "parameter declared three times", src: "class a($x, $x, $y, $x) {}\n",
			errs: []string{"1:13: The parameter 'x' is declared more than once in the parameter list", "1:21: The parameter 'x' is declared more than once in the parameter list"}},
		{name: "duplicate in a long parameter list", src: "class a($p0, $p1, $p2, $p3, $p4, $p5, $p6, $p7, $p8, $p9, $p10, $p11, $p12, $p13, $p14, $p15, $p16, $p17, $p18, $p19, $p20, $p21, $p22, $p23, $p24, $p25, $p26, $p27, $p28, $p29,\n$p3, $p29) {}\n",
			errs: []string{"2:1: The parameter 'p3' is declared more than once in the parameter list", "2:6: The parameter 'p29' is declared more than once in the parameter list"}},
		{name: "reserved parameter typed", src: "class a(String $name) {}\n",
			errs: []string{"1:16: The parameter $name redefines a built in parameter in the Host Class Definition"}},
		{name: "reserved parameter title", src: "define a($title) {}\n",
			errs: []string{"1:10: The parameter $title redefines a built in parameter in the 'define' expression"}},
		{name: "captures rest in define", src: "define a(String *$x) {}\n",
			errs: []string{"1:18: Parameter $x has 'captures rest' - not supported in a 'define' expression"}},
		{name: "captures rest not last", src: "[1].each |Integer *$a, $b| { }\n",
			errs: []string{"1:20: Parameter $a is not last, and has 'captures rest'"}},
		{name: "upper case parameter", src: "class a($Foo) {}\n",
			errs: []string{`1:9: Illegal parameter name. The given name 'Foo' does not conform to the naming rule /^[a-z_]\w*$/`}},
		{name: "assignment in default", src: "define a($x = [$y = 1]) {}\n",
			errs: []string{"1:19: Assignment not allowed here"}},

		// Where definitions may be.
		{name: "define in define", src: "define a() {\n  define b() {}\n}\n",
			errs: []string{"2:3: Classes, definitions, and nodes may only appear at toplevel or inside other classes"}},
		{name: "class in if", src: "if $x {\n  class a {}\n}\n",
			errs: []string{"2:3: Classes, definitions, and nodes may only appear at toplevel or inside other classes"}},
		{name: "class in class in if", src: "class a {\n  if true {\n    class b {}\n  }\n}\n",
			errs: []string{"3:5: Classes, definitions, and nodes may only appear at toplevel or inside other classes"}},
		{name: "function alone in if", src: "if true {\n  function f() {}\n}\n",
			errs: []string{"2:3: Classes, definitions, and nodes may only appear at toplevel or inside other classes"}},
		{name: "function among others in if", src: "if true {\n  $x = 1\n  function f() {}\n}\n",
			errs: []string{"3:3: A Function Definition may only appear at toplevel"}},
		{name: "function in class", src: "class a {\n  function f() {}\n}\n",
			errs: []string{"2:3: A Function Definition may only appear at toplevel"}},
		{name: "type alias in node", src: "node a {\n  $x = 1\n  type T = Integer\n}\n",
			errs: []string{"3:8: A Type Alias may only appear at toplevel"}},
		{name: "class as value", src: "$x = [class a {}]\n", errs: []string{
			"1:7: Invalid use of expression. A Host Class Definition does not produce a value",
			"1:7: Classes, definitions, and nodes may only appear at toplevel or inside other classes"}},

		// Assignment.
		{name: "assign to match variable", src: "$1 = 'x'\n",
			errs: []string{"1:1: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable"}},
		{name: "assign to other namespace", src: "$a = $b::c = 1\n",
			errs: []string{"1:6: Illegal attempt to assign to 'b::c'. Cannot assign to variables in other namespaces"}},
		{name: "assign to index", src: "$a[0] = 1\n",
			errs: []string{"1:1: Illegal attempt to assign via [index/key]. Not an assignable reference"}},
		{name: "assign to literal in list", src: "[$a, 1] = [1, 2]\n",
			errs: []string{"1:6: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference"}},

		// Values that are not used, and expressions that are not values.
		{name: "value dropped", src: "$a = 2\n$a * 3\nnotice($a)\n",
			errs: []string{"2:4: This '*' expression has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)"}},
		{name: "only the first dropped value", src: "1\n2\nnotice(1)\n",
			errs: []string{"1:1: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)"}},
		{name: "empty if dropped", src: "$a = 1\nif $a { }\nnotice($a)\n",
			errs: []string{"2:1: This 'if' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)"}},
		{name: "class ends with value", src: "class a {\n  'x'\n}\n",
			errs: []string{"2:3: This String has no effect. A Host Class Definition can not end with a value-producing expression without other effect"}},
		{name: "node ends with variable", src: "node a {\n  $x\n}\n",
			errs: []string{"2:3: This Variable has no effect. A Node Definition can not end with a value-producing expression without other effect"}},
		{name: "collector as value", src: "$x = !File <| |>\n", errs: []string{
			"1:7: Invalid use of expression. A Virtual Query does not produce a value",
			"1:7: Invalid use of expression. A Virtual Query does not produce a value"}},

		// Resources and collectors.
		{name: "append in resource", src: "file { '/tmp/x':\n  require +> File['/tmp'],\n}\n",
			errs: []string{"2:3: Illegal +> operation on attribute require. This operator can not be used in a Resource Instance Definition"}},
		{name: "append in defaults", src: "File {\n  require +> File['/tmp'],\n}\n",
			errs: []string{"2:3: Illegal +> operation on attribute require. This operator can not be used in a Resource Defaults Expression"}},
		{name: "two unfolds", src: "file { '/tmp/x':\n  * => {},\n  * => {},\n}\n",
			errs: []string{"3:3: Unfolding of attributes from Hash can only be used once per resource body"}},
		{name: "virtual class", src: "@class { 'a': }\n", errs: []string{"1:1: Classes are not virtualizable"}},
		{name: "exported defaults", src: "@@File['/tmp/x'] { mode => '0644' }\n", errs: []string{"1:1: Resource Defaults are not virtualizable"}},
		{name: "query with match", src: "User <| title =~ 'x' |>\n",
			errs: []string{"1:15: Illegal query expression. A '=~' expression cannot be used in a query"}},
		{name: "query with not", src: "User <| !(title == 'a') |>\n",
			errs: []string{"1:9: Illegal query expression. A 'not' expression cannot be used in a query"}},

		// Case and selector.
		{name: "case with two defaults", src: "case $x {\n  default: {}\n  default: {}\n}\n",
			errs: []string{"3:3: This 'case' statement already has a 'default' entry - this is a duplicate"}},
		{name: "selector with two defaults", src: "$y = $x ? {\n  default => 1,\n  default => 2,\n}\n",
			errs: []string{"3:3: This Selector Expression already has a 'default' entry - this is a duplicate"}},

		// Nodes.
		{name: "hostname with space", src: "node 'foo bar' {}\n",
			errs: []string{"1:6: The hostname 'foo bar' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)"}},
		{name: "hostname interpolated", src: "node \"web${x}\" {}\n",
			errs: []string{"1:12: An interpolated expression is not allowed in a hostname of a node"}},
		{name: "node inherits", src: "node a inherits b {}\n",
			warnings: []string{"1:17: Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation"}},

		// Type aliases.
		{name: "type alias of array", src: "type Foo = [Integer]\n",
			errs: []string{"1:12: Illegal expression. An Array Expression is unacceptable as a type reference in a Type Alias"}},

		// Heredoc syntax.
		{name: "heredoc base64", src: "$x = @(END:base64)\n  !!!\n  END\nnotice($x)\n",
			errs: []string{"2:1: Invalid produced text having syntax: 'base64'. Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)"}},
		{name: "heredoc pp", src: "$x = @(END:pp)\n  class a {}\n  END\nnotice($x)\n"},
		{name: "heredoc bad pp", src: "$x = @(END:pp)\n  class Foo {}\n  END\nnotice($x)\n",
			errs: []string{`2:1: Invalid produced text having syntax: 'pp'. PP syntax checker: "Unacceptable name. The name 'Foo' is unacceptable as the name of a Host Class Definition"`}},

		// Hash keys.
		// Puppet places it at the "=>" of the second entry (checked with Puppet 7 and 8).
		{name: "duplicate key", src: "$h = { 'a' => 1, 'a' => 2 }\nnotice($h)\n",
			warnings: []string{"1:22: The key 'a' is declared more than once"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warnings, err := ParseFile("", []byte(tt.src))
			var errs diag.List
			if err != nil {
				var ok bool
				if errs, ok = err.(diag.List); !ok {
					t.Fatalf("error of type %T: %v", err, err)
				}
			}
			if got := messages(errs); !slices.Equal(got, tt.errs) {
				t.Errorf("errors:\ngot  %q\nwant %q", got, tt.errs)
			}
			if got := messages(warnings); !slices.Equal(got, tt.warnings) {
				t.Errorf("warnings:\ngot  %q\nwant %q", got, tt.warnings)
			}
		})
	}
}

// messages returns each diagnostic as "line:column: message".
func messages(list diag.List) []string {
	var out []string
	for _, e := range list {
		out = append(out, positioned(e))
	}
	return out
}

// positioned returns d as "file:line:column: message", leaving out what is
// unknown.
func positioned(d *diag.Diagnostic) string {
	if d.Range.Start.Filename == "" && !d.Range.Start.IsValid() {
		return d.Message
	}
	return d.Range.Start.String() + ": " + d.Message
}
