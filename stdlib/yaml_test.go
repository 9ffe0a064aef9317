package stdlib

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// The expected YAML is what Ruby 3.1's Psych writes for the same data
// (["text"].to_yaml), which is all stdlib's to_yaml does; the other
// to_yaml, to_json and parse cases were checked on Puppet 7.23 in
// TestData.
func TestYAMLStringStyles(t *testing.T) {
	checkStrings(t, []valueCase{
		{"to_yaml([\"/etc/foo\"])", "---\n- \"/etc/foo\"\n"},
		{"to_yaml([\"a\\\"b\"])", "---\n- a\"b\n"},
		{"to_yaml([\"-x\\\"\"])", "---\n- -x\"\n"},
		{"to_yaml([\"x\"])", "---\n- x\n"},
		{"to_yaml([\"y\"])", "---\n- \"y\"\n"},
		{"to_yaml([\"Y\"])", "---\n- Y\n"},
		{"to_yaml([\"yes\"])", "---\n- 'yes'\n"},
		{"to_yaml([\"No\"])", "---\n- 'No'\n"},
		{"to_yaml([\"on\"])", "---\n- 'on'\n"},
		{"to_yaml([\"1\"])", "---\n- '1'\n"},
		{"to_yaml([\"1.5\"])", "---\n- '1.5'\n"},
		{"to_yaml([\"1e3\"])", "---\n- 1e3\n"},
		{"to_yaml([\"0x1f\"])", "---\n- '0x1f'\n"},
		{"to_yaml([\"09\"])", "---\n- '09'\n"},
		{"to_yaml([\"017\"])", "---\n- '017'\n"},
		{"to_yaml([\"1:30\"])", "---\n- '1:30'\n"},
		{"to_yaml([\"2024-01-01\"])", "---\n- '2024-01-01'\n"},
		{"to_yaml([\"null\"])", "---\n- 'null'\n"},
		{"to_yaml([\"~\"])", "---\n- \"~\"\n"},
		{"to_yaml([\".inf\"])", "---\n- \".inf\"\n"},
		{"to_yaml([\":sym\"])", "---\n- \":sym\"\n"},
		{"to_yaml([\"a: b\"])", "---\n- 'a: b'\n"},
		{"to_yaml([\"a #b\"])", "---\n- 'a #b'\n"},
		{"to_yaml([\"a#b\"])", "---\n- a#b\n"},
		{"to_yaml([\"x:\"])", "---\n- 'x:'\n"},
		{"to_yaml([\"a:b\"])", "---\n- a:b\n"},
		{"to_yaml([\"a, b\"])", "---\n- a, b\n"},
		{"to_yaml([\"[x]\"])", "---\n- \"[x]\"\n"},
		{"to_yaml([\"x]\"])", "---\n- x]\n"},
		{"to_yaml([\"tab\\tx\"])", "---\n- \"tab\\tx\"\n"},
		{"to_yaml([\"a\\n\\n\"])", "---\n- \"a\\n\\n\"\n"},
		{"to_yaml([\"lead\\n  two\"])", "---\n- |-\n  lead\n    two\n"},
		{"to_yaml([\" lead\\nx\"])", "---\n- |2-\n   lead\n  x\n"},
		{"to_yaml([\"é\"])", "---\n- é\n"},
		{"to_yaml([\"foo bar\"])", "---\n- foo bar\n"},
		{"to_yaml([\"True\"])", "---\n- 'True'\n"},
		{"to_yaml([\"tRue\"])", "---\n- 'tRue'\n"},
		{"to_yaml([\"1_000\"])", "---\n- '1_000'\n"},
		{"to_yaml([\"+1\"])", "---\n- \"+1\"\n"},
		{"to_yaml([\"-\"])", "---\n- \"-\"\n"},
		{"to_yaml([\"---\"])", "---\n- \"---\"\n"},
		{"to_yaml([\"- x\"])", "---\n- \"- x\"\n"},
		{"to_yaml([\"?x\"])", "---\n- \"?x\"\n"},
		{"to_yaml([\"a  \"])", "---\n- 'a  '\n"},
		{"to_yaml([\"trailing \"])", "---\n- 'trailing '\n"},
		{"to_yaml([\"1.0e+20\"])", "---\n- '1.0e+20'\n"},
		{"to_yaml([\".5\"])", "---\n- \".5\"\n"},
		{"to_yaml([\"5.\"])", "---\n- '5.'\n"},
		{"to_yaml([\"null0\"])", "---\n- null0\n"},
		{"to_yaml([\"nULL\"])", "---\n- 'nULL'\n"},
		{"to_yaml([\"oN\"])", "---\n- 'oN'\n"},
		{"to_yaml([\"=\"])", "---\n- \"=\"\n"},
		{"to_yaml([\"12:30:45\"])", "---\n- '12:30:45'\n"},
		{"to_yaml([\"1,000\"])", "---\n- '1,000'\n"},
		{"to_yaml([\"a'b\"])", "---\n- a'b\n"},
		{"to_yaml([\"é'x\"])", "---\n- é'x\n"},
		{"to_yaml({\"sources\" => [{\"name\" => \"some_pollsters\", \"interval\" => 600, \"meters\" => [\"cpu\", \"memory.usage\", \"network.*\", \"disk.device.read.bytes\"]}]})", "---\nsources:\n- name: some_pollsters\n  interval: 600\n  meters:\n  - cpu\n  - memory.usage\n  - network.*\n  - disk.device.read.bytes\n"},
		{"to_yaml({\"metrics\" => {\"cpu\" => {\"unit\" => \"instance\", \"alt_name\" => \"instance\", \"groupby\" => [\"id\", \"user_id\", \"project_id\"], \"metadata\" => [\"flavor_name\", \"flavor_id\", \"vcpus\"], \"mutate\" => \"NUMBOOL\", \"extra_args\" => {\"aggregation_method\" => \"mean\", \"resource_type\" => \"instance\", \"force_granularity\" => 300}}}})", "---\nmetrics:\n  cpu:\n    unit: instance\n    alt_name: instance\n    groupby:\n    - id\n    - user_id\n    - project_id\n    metadata:\n    - flavor_name\n    - flavor_id\n    - vcpus\n    mutate: NUMBOOL\n    extra_args:\n      aggregation_method: mean\n      resource_type: instance\n      force_granularity: 300\n"},
		{"to_yaml({\"a\" => [[1, [2, {\"b\" => []}]], {}], \"c\" => {\"d\" => {\"e\" => undef, \"f\" => true, \"g\" => 1.0e-05}}})", "---\na:\n- - 1\n  - - 2\n    - b: []\n- {}\nc:\n  d:\n    e:\n    f: true\n    g: 1.0e-05\n"},
		{"to_yaml([{\"a\" => {\"b\" => 1}}, [{\"c\" => 2, \"d\" => [3]}]])", "---\n- a:\n    b: 1\n- - c: 2\n    d:\n    - 3\n"},
		{"to_yaml({\"url\" => \"http://x:80/y\", \"path\" => \"/etc/x\", \"glob\" => \"*.log\", \"version\" => \"1.2.3\", \"time\" => \"10:30\", \"neg\" => -5, \"str\" => \"it's\", \"pct\" => \"50%\", \"amp\" => \"&x\", \"excl\" => \"!x\", \"star\" => \"*x\", \"q\" => \"?\", \"brace\" => \"{x}\", \"pipe\" => \"|x\", \"gt\" => \">x\", \"at\" => \"a@b\", \"back\" => \"`x\", \"eq\" => \"a=b\", \"comma\" => \"a,b\", \"hash\" => \"a#b\", \"sp\" => \"a b\"})", "---\nurl: http://x:80/y\npath: \"/etc/x\"\nglob: \"*.log\"\nversion: 1.2.3\ntime: '10:30'\nneg: -5\nstr: it's\npct: 50%\namp: \"&x\"\nexcl: \"!x\"\nstar: \"*x\"\nq: \"?\"\nbrace: \"{x}\"\npipe: \"|x\"\ngt: \">x\"\nat: a@b\nback: \"`x\"\neq: a=b\ncomma: a,b\nhash: a#b\nsp: a b\n"},
	})
}

// The expected JSON is what Ruby 3.1's JSON generator writes for the same
// data, which is all stdlib's to_json and to_json_pretty do.
func TestJSONLikeRuby(t *testing.T) {
	checkStrings(t, []valueCase{
		{"to_json({a => \"\\u0001\\u001f\\u2028é\\t/\"})", "{\"a\":\"\\u0001\\u001f\u2028é\\t/\"}"},
		{"to_json([1.0, 1e20, 1.5e-7, -0.0])", "[1.0,1.0e+20,1.5e-07,-0.0]"},
		{"to_json_pretty({a => {}, b => [[]]})", "{\n  \"a\": {\n  },\n  \"b\": [\n    [\n\n    ]\n  ]\n}\n"},
	})
}

// TestYAMLFoldsLongScalars checks libyaml's line folding as Ruby 3.1's
// Psych writes it (expected text from `ruby -ryaml`): plain, single- and
// double-quoted scalars break at a space past column 80, continuing two
// further in than their key or sequence item.
func TestYAMLFoldsLongScalars(t *testing.T) {
	words := strings.TrimSpace(strings.Repeat("word ", 30))
	for _, tc := range []struct {
		name string
		in   value.Value
		want string
	}{
		{"plain in a mapping", value.NewHash(value.String("k"), value.String(words)),
			"---\nk: word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n"},
		{"double-quoted in a sequence", value.Array{value.String("{{x}} " + words)},
			"---\n- \"{{x}} word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word\"\n"},
		{"double-quoted before two spaces", value.NewHash(value.String("dq"), value.String("{{x}}  two  spaces "+words)),
			"---\ndq: \"{{x}}  two  spaces word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word word\n  word word\"\n"},
		{"plain, nested", value.NewHash(value.String("n"), value.NewHash(value.String("q"), value.String("it's "+words))),
			"---\n\"n\":\n  q: it's word word word word word word word word word word word word word word word\n    word word word word word word word word word word word word word word word\n"},
		{"single-quoted", value.NewHash(value.String("sq"), value.String("a: "+words)),
			"---\nsq: 'a: word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word'\n"},
		{"top level", value.String(words),
			"--- word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n"},
		{"a long word is not broken", value.Array{value.String(strings.Repeat("x", 90) + " tail")},
			"---\n- " + strings.Repeat("x", 90) + "\n  tail\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := toYAML(&functions.Ctx{}, []value.Value{tc.in})
			if err != nil {
				t.Fatal(err)
			}
			if string(got.(value.String)) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
