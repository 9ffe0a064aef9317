package ruby

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/value"
)

// funcScope is the calling scope of the function tests; it matches the stub
// scope of testdata/functions/run-function.rb.
type funcScope struct{}

func (funcScope) Variable(name string) (value.Value, bool) {
	switch strings.TrimPrefix(name, "::") {
	case "greeting":
		return value.String("hello"), true
	case "count":
		return value.Integer(3), true
	case "list":
		return value.Array{value.String("a"), value.String("b")}, true
	}
	return nil, false
}

func (funcScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	switch name {
	case "double":
		if len(args) == 1 {
			if n, ok := args[0].(value.Integer); ok {
				return n * 2, nil
			}
		}
		return nil, errors.New("double(): expects an Integer")
	case "echo":
		return value.Array(args), nil
	}
	return nil, errors.New("unknown function " + name)
}

// funcCases are calls of the test functions in testdata/functions with
// their results under Ruby, as run-function.rb prints them.
var funcCases = []struct{ file, args, want string }{
	{"constructs3.rb", `[[1,2,3,4,5]]`, `{"result":[[5,4,3,2,1],[["a",null],["b",1]],8,1,-4,512,1.4142135623730951,1000000000000000000,6.25,"constant",4]}`},
	{"constructs3.rb", `["abcd",3]`, `{"result":[["d","c","b","a"],[["a",null],["b",1]],27,1,-4,512,1.4142135623730951,1000000000000000000,6.25,"constant",4]}`},
	{"constructs3.rb", `[1,2,3,4,5]`, `{"error":"constructs3(): at most 4 arguments","class":"Puppet::ParseError"}`},
	{"constructs4.rb", `["arg","type","nomethod","zero","key","own","parse","runtime","reraise","splat","nilsplat","x"]`, `{"result":[["ArgumentError:argument or type: bad","ensure arg"],["TypeError:argument or type: TypeError","ensure type"],["name error NoMethodError","ensure nomethod"],["standard ZeroDivisionError","ensure zero"],["own or index KeyError","ensure key"],["own or index ConstructsError","ensure own"],["outer Puppet::ParseError: parse","ensure parse"],["standard RuntimeError","ensure runtime"],["own or index KeyError","ensure reraise"],["ArgumentError:argument or type: {\"x\"=>1, \"y\"=>2}","ensure splat"],["TypeError:argument or type: no implicit conversion of nil into Hash","ensure nilsplat"],["none","ensure x"]]}`},
	{"class_uniq.rb", `[{"a":1},{"b":2}]`, `{"result":[1,true,1]}`},
	{"class_uniq.rb", `[{"a":1},[2]]`, `{"result":[2,false,1]}`},
	{"describe.rb", `["abc"]`, `{"result":"ABC"}`},
	{"describe.rb", `[[1,{"a":null}]]`, `{"result":"Array: [1, {\"a\"=>nil}]"}`},
	{"describe.rb", `[null]`, `{"result":"nil"}`},
	{"describe.rb", `[2.5]`, `{"result":"Float: 2.5"}`},
	{"describe.rb", `[1,2]`, `{"error":"'mytest::describe' expects 1 argument, got 2","class":"ArgumentError"}`},
	{"if_do_block.rb", `[["a","b"]]`, `{"result":"a,b,each returned the array"}`},
	{"helper_after_module.rb", `[{"a":{"x":1},"b":2},{"a":{"y":2},"b":3}]`, `{"result":[["a",[["x",1],["y",2]]],["b",3]]}`},
	{"join_all.rb", `[" a ",["b",null,""],3]`, `{"result":"a,b,3"}`},
	{"join_all.rb", `[]`, `{"error":"join_all(): needs at least one argument","class":"ArgumentError"}`},
	{"pad.rb", `["ab"]`, `{"result":"ab..."}`},
	{"pad.rb", `[4,6,"*"]`, `{"result":"8*****"}`},
	{"pad.rb", `[true]`, `{"error":"pad(): expected a String or Integer, got TrueClass","class":"Puppet::ParseError"}`},
	{"pad.rb", `[]`, `{"error":"'pad' expects between 1 and 3 arguments, got 0","class":"ArgumentError"}`},
	{"defaults.rb", `[{"b":1,"a":null}]`, `{"result":[["b",1],["enabled",true]]}`},
	{"defaults.rb", `[{"x":""},{"enabled":false,"z":[1]}]`, `{"result":[["enabled",false],["z",[1]]]}`},
	{"defaults.rb", `["str"]`, `{"error":"merge_defaults(): expected a Hash, got String","class":"Puppet::ParseError"}`},
	{"prefixed_var.rb", `["greeting"]`, `{"result":"x-hello"}`},
	{"prefixed_var.rb", `["count","n"]`, `{"result":"n-3"}`},
	{"prefixed_var.rb", `["nope"]`, `{"result":"none"}`},
	{"prefixed_var.rb", `[1]`, `{"error":"prefixed_var(): name must be a String","class":"Puppet::ParseError"}`},
	{"prefixed_var.rb", `[]`, `{"error":"prefixed_var(): Wrong number of arguments given (0 for minimum 1)","class":"ArgumentError"}`},
	{"prefixed_var.rb", `["list",null]`, `{"result":"x-[\"a\", \"b\"]"}`},
	{"double_all.rb", `[[1,2]]`, `{"result":[2,4]}`},
	{"double_all.rb", `[5]`, `{"result":[10]}`},
	{"double_all.rb", `[["a"]]`, `{"result":"not numbers"}`},
	{"double_all.rb", `[1,2]`, `{"error":"double_all(): Wrong number of arguments given (2 for 1)","class":"ArgumentError"}`},
	{"mark_empty.rb", `[null,"x",[null]]`, `{"result":["empty","x",[null]]}`},
	{"count_chars.rb", `["hello world","lo"]`, `{"result":5}`},
	{"count_chars.rb", `["hello world","a-y"]`, `{"result":10}`},
	{"count_chars.rb", `["hello world","^l"]`, `{"result":8}`},
	{"count_chars.rb", `["hello world","lo","o"]`, `{"result":2}`},
	{"count_chars.rb", `["a-b\\c","\\-"]`, `{"result":1}`},
	{"count_chars.rb", `["hello","^"]`, `{"result":0}`},
	{"count_chars.rb", `["héllo","é"]`, `{"result":1}`},
	{"match_frames.rb", `["a + b - c"]`, `{"result":["\"a\"/true/nil + \"b\"/true/nil - \"c\"/true/nil"]}`},
	{"match_frames.rb", `["x\"y\\z\n\t#{z}#$w#@v #u\u0001\u007fé😀"]`, `{"result":["\"x\\\"y\\\\z\\n\\t\\#{z}\\#$w\\#@v #u\\x01\\x7F\\u00E9\\u{1F600}\"/true/nil"]}`},
	{"site_api.rb", `[{"a":1,"b":2,"c":3},{}]`, `{"result":[[["a",1],["b",2],[["c",3]]],[null,null,[]]]}`},
	{"site_api.rb", `["https://u:p@puppet.example.com:8140/path?q=1#f","http://[::1]:80/x","ldap://h:389","x://h"]`, `{"result":[["https","puppet.example.com",8140,"/path","q=1","f","u","u:p","puppet.example.com","https://u:p@puppet.example.com:8140/path?q=1#f","https://u:p@puppet.example.com:8140/path?q=1#f","URI::HTTPS"],["http","[::1]",80,"/x",null,null,null,null,"::1","http://[::1]/x","http://[::1]/x","URI::HTTP"],["ldap","h",389,"",null,null,null,null,"h","ldap://h","ldap://h","URI::LDAP"],["x","h",null,"",null,null,null,null,"h","x://h","x://h","URI::Generic"]]}`},
	{"site_api.rb", `["/pkgs/tool-1.2.tar.gz","/a/b./","/a/.bashrc","/x/../y/./z.d/"]`, `{"result":[[".gz","tool-1.2.tar","tool-1.2.tar","/pkgs/tool-1.2.tar.gz","/pkgs/x","tool-1.2.tar.gz"],[".","b.","b","/a/b.","/a/x","b."],["",".bashrc",".bashrc","/a/.bashrc","/a/x",".bashrc"],[".d","z.d","z","/y/z.d","/y/x","z.d"]]}`},
	{"site_api.rb", `["debian >= bookworm","ubuntu","??"]`, `{"result":[["debian",">=","bookworm","12"],["ubuntu","",null,null],["local-variable",null]]}`},
	{"site_api.rb", `["a b://x"]`, `{"error":"bad URI(is not URI?): \"a b://x\"","class":"URI::InvalidURIError"}`},
	{"block_rescue.rb", `["1", "x", null, "3"]`, `{"result":[1,1,"ok","done \"1\"","bad x","done \"x\"","bad ","done \"\"",3,"ok","done \"3\""]}`},
	{"block_rescue.rb", `[]`, `{"result":[-1]}`},
	{"count_chars.rb", `["hello"]`, `{"error":"wrong number of arguments (given 0, expected 1+)","class":"ArgumentError"}`},
}

// pairs is run-function.rb's plain: hashes become arrays of [key, value]
// pairs, so that JSON keeps their order.
func pairs(v value.Value) value.Value {
	switch v := v.(type) {
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = pairs(e)
		}
		return out
	case *value.Hash:
		out := make(value.Array, v.Len())
		for i := range out {
			k, x := v.At(i)
			out[i] = value.Array{pairs(k), pairs(x)}
		}
		return out
	}
	return v
}

// generateJSON is run-function.rb's JSON.generate of a hash of entries
// (key, value, key, value, ...).
func generateJSON(entries ...value.Value) string {
	h := value.NewHashBuilder(len(entries) / 2)
	for i := 0; i+1 < len(entries); i += 2 {
		h.Set(entries[i], entries[i+1])
	}
	text, err := dataformat.WriteJSON(h.Build(), dataformat.JSONStyle{})
	if err != nil {
		return "ERROR " + err.Error()
	}
	return text
}

func loadTestFunction(t *testing.T, name string) *RubyFunction {
	t.Helper()
	path := filepath.Join("testdata", "functions", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadRubyFunction(path, src)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return f
}

func TestRubyFunctionCall(t *testing.T) {
	for _, c := range funcCases {
		f := loadTestFunction(t, c.file)
		args, err := dataformat.FromJSON([]byte(c.args), "args")
		if err != nil {
			t.Fatalf("%s %s: %v", c.file, c.args, err)
		}
		got, err := callForJSON(f, args)
		if err != nil {
			t.Errorf("%s %s: %v", c.file, c.args, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.file, c.args, got, c.want)
		}
	}
}

// callForJSON calls a function and gives its result, or the Ruby error it
// raised, as run-function.rb prints them; err is any other error.
func callForJSON(f *RubyFunction, args value.Value) (string, error) {
	r, err := f.Call(funcScope{}, args.(value.Array))
	if err == nil {
		return generateJSON(value.String("result"), pairs(r)), nil
	}
	var re *RubyError
	if !errors.As(err, &re) {
		return "", fmt.Errorf("unexpected error %w", err)
	}
	if err.Error() != re.Message {
		return "", fmt.Errorf("error text %q, want the message %q", err.Error(), re.Message)
	}
	return generateJSON(value.String("error"), value.String(re.Message), value.String("class"), value.String(re.Class)), nil
}

// TestRubyFunctionOracle checks the expected results against real Ruby.
func TestRubyFunctionOracle(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("ruby is not installed")
	}
	for _, c := range funcCases {
		cmd := exec.Command("ruby", "run-function.rb", c.file, c.args)
		cmd.Dir = filepath.Join("testdata", "functions")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ruby %s %s: %v", c.file, c.args, err)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("ruby %s %s:\n got %s\nwant %s", c.file, c.args, got, c.want)
		}
	}
}

func TestRubyFunctionLoad(t *testing.T) {
	for _, c := range []struct {
		file, name string
		api        int
		typ        string
	}{
		{"describe.rb", "mytest::describe", 4, "rvalue"},
		{"join_all.rb", "join_all", 4, "rvalue"},
		{"prefixed_var.rb", "prefixed_var", 3, "rvalue"},
		{"double_all.rb", "double_all", 3, "rvalue"},
	} {
		f := loadTestFunction(t, c.file)
		if f.Name != c.name || f.API != c.api || f.Type != c.typ {
			t.Errorf("%s: got %s %d.x %s, want %s %d.x %s", c.file, f.Name, f.API, f.Type, c.name, c.api, c.typ)
		}
	}
}

func TestRubyFunctionErrors(t *testing.T) {
	f := loadTestFunction(t, "clock.rb")
	_, err := f.Call(funcScope{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "unsupported Ruby in function testdata/functions/clock.rb:4:") || !errors.Is(err, ErrUnsupported) {
		t.Errorf("clock: got %v, want an unsupported Ruby error at line 4 (ErrUnsupported)", err)
	}

	loadErrors := []struct{ name, src, want string }{
		{"two.rb", "", "no Puppet::Functions.create_function or newfunction call found"},
		{"two.rb", "x = (", "unsupported Ruby in function two.rb:1"},
		{"two.rb", "Puppet::Functions.create_function(:f) do\n  def g\n  end\nend\n", "defines no method f"},
		{"two.rb", "Puppet::Functions.create_function(:f) do\n  def f(a = 1, b)\n  end\nend\n", "unsupported Ruby in function two.rb:2"},
		{"two.rb", "module Puppet::Parser::Functions\n  newfunction(:f, :type => :rvalue, :doc => <<-EOS\n  x\n", "heredoc EOS is not terminated"},
	}
	for _, c := range loadErrors {
		_, err := LoadRubyFunction(c.name, []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load %q: got %v, want an error containing %q", c.src, err, c.want)
		}
		// Ruby beyond the subset, and only that, is ErrUnsupported.
		if err != nil && errors.Is(err, ErrUnsupported) != strings.HasPrefix(err.Error(), "unsupported Ruby") {
			t.Errorf("load %q: errors.Is(%v, ErrUnsupported) = %v", c.src, err, errors.Is(err, ErrUnsupported))
		}
	}
	// Several dispatches: Call refuses, CallDispatch runs the one chosen.
	f = loadTestFunction(t, "two_dispatch.rb")
	want := []Dispatch{
		{Method: "from_string", Params: []DispatchParam{{Kind: "param", Type: "String", Name: "s"}}},
		{Method: "from_int", Params: []DispatchParam{{Kind: "param", Type: "Integer", Name: "i"}}},
	}
	if len(f.Dispatches) != len(want) {
		t.Fatalf("two_dispatch: %d dispatches, want %d", len(f.Dispatches), len(want))
	}
	for i, d := range f.Dispatches {
		if d.Method != want[i].Method || fmt.Sprint(d.Params) != fmt.Sprint(want[i].Params) {
			t.Errorf("dispatch %d: got %s %v, want %s %v", i, d.Method, d.Params, want[i].Method, want[i].Params)
		}
	}
	if _, err := f.Call(funcScope{}, []value.Value{value.Integer(1)}); err == nil || !strings.Contains(err.Error(), "use CallDispatch") {
		t.Errorf("two_dispatch Call: got %v", err)
	}
	if r, err := f.CallDispatch(funcScope{}, 1, []value.Value{value.Integer(7)}); err != nil || r != value.String("7") {
		t.Errorf("two_dispatch CallDispatch: got %v, %v", r, err)
	}
	if _, err := f.CallDispatch(funcScope{}, 2, nil); err == nil {
		t.Error("CallDispatch with a bad index succeeded")
	}
	if _, err := LoadRubyFunction("d.rb", []byte("Puppet::Functions.create_function(:d) do\n  dispatch :nope do\n  end\nend\n")); err == nil || !strings.Contains(err.Error(), "does not define") {
		t.Errorf("dispatch to a missing method: got %v", err)
	}

	// A heredoc with interpolation loads, but fails if evaluated.
	f, err = LoadRubyFunction("h.rb", []byte("Puppet::Functions.create_function(:h) do\n  def h(x)\n    <<-EOS\n    v=#{x}\n    EOS\n  end\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Call(funcScope{}, []value.Value{value.String("a")}); err == nil || !strings.Contains(err.Error(), "unsupported Ruby in function h.rb:3") {
		t.Errorf("heredoc: got %v", err)
	}

	// Errors from functions the Ruby code calls keep their cause.
	f, err = LoadRubyFunction("c.rb", []byte("Puppet::Functions.create_function(:c) do\n  def c\n    call_function('nosuch')\n  end\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Call(funcScope{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "function c.rb:3: unknown function nosuch") || errors.Is(err, ErrUnsupported) {
		t.Errorf("call_function error: got %v (an error of the code, not ErrUnsupported)", err)
	}
}

// TestRubyFunctionDefaults covers optional def parameters and splats in
// helper methods, checked against Ruby.
func TestRubyFunctionDefaults(t *testing.T) {
	src := `Puppet::Functions.create_function(:opt) do
  def opt(a, b = a * 2, *rest, c)
    [a, b, rest, c, h(1), h(1, 2, 3)]
  end

  def h(x, y = 10, *z)
    [x, y, z]
  end
end
`
	f, err := LoadRubyFunction("opt.rb", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// Expected results from Ruby: opt(1, 2) binds a=1, c=2 and b to its
	// default a*2; opt(1, 5, 6, 7, 8) binds a=1, b=5, rest=[6, 7], c=8.
	for _, c := range []struct {
		args []value.Value
		want string
	}{
		{[]value.Value{value.Integer(1), value.Integer(2)}, "[1, 2, [], 2, [1, 10, []], [1, 2, [3]]]"},
		{[]value.Value{value.Integer(1), value.Integer(5), value.Integer(6), value.Integer(7), value.Integer(8)}, "[1, 5, [6, 7], 8, [1, 10, []], [1, 2, [3]]]"},
	} {
		r, err := f.Call(funcScope{}, c.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := value.ToString(r); got != c.want {
			t.Errorf("opt%v: got %s, want %s", c.args, got, c.want)
		}
	}
	if _, err := f.Call(funcScope{}, []value.Value{value.Integer(1)}); err == nil || err.Error() != "'opt' expects at least 2 arguments, got 1" {
		t.Errorf("opt(1): got %v", err)
	}
}

// TestFunctionNamedLikeItsFile checks that of several functions one file
// defines, the one named like the file is loaded, whatever the order.
func TestFunctionNamedLikeItsFile(t *testing.T) {
	src := []byte("module Puppet::Parser::Functions\n  newfunction(:'m::inner', type: :rvalue) do |args|\n    1\n  end\n  newfunction(:outer, type: :rvalue) do |args|\n    2\n  end\nend\n")
	for file, want := range map[string]string{"lib/puppet/parser/functions/outer.rb": "outer", "lib/puppet/parser/functions/other.rb": "m::inner"} {
		f, err := LoadRubyFunction(file, src)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != want {
			t.Errorf("%s: loaded %s, want %s", file, f.Name, want)
		}
	}
}

// TestOperatorAt checks the lexer's operator table: the longest operator
// at the start wins, and anything else is no operator.
func TestOperatorAt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"**=1", "**="}, {"**2", "**"}, {"*2", "*"}, {"<=>b", "<=>"}, {"<=b", "<="}, {"<<=x", "<<="},
		{"<<x", "<<"}, {"...", "..."}, {"..x", ".."}, {".x", "."}, {"&.x", "&."}, {"&&=", "&&="},
		{"&&", "&&"}, {"&", "&"}, {"::A", "::"}, {":a", ":"}, {"->", "->"}, {"=>", "=>"}, {"===", "==="},
		{"=~", "=~"}, {"!~", "!~"}, {"!", "!"}, {"}", "}"}, {"", ""}, {"@", ""}, {"#", ""}, {"a", ""}, {"\\", ""},
	} {
		if got := operatorAt(c.in); got != c.want {
			t.Errorf("operatorAt(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
