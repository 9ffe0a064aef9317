package erb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// mapScope is a Scope over a fixed set of variables; the function "double"
// doubles an integer and "boom" fails.
type mapScope map[string]value.Value

func (m mapScope) Variable(name string) (value.Value, bool) {
	v, ok := m[strings.TrimPrefix(name, "::")]
	return v, ok
}

func (m mapScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	switch name {
	case "double":
		if len(args) == 1 {
			if n, ok := args[0].(value.Integer); ok {
				return n * 2, nil
			}
		}
	case "boom":
		return nil, errors.New("boom failed")
	case "echo":
		return value.Array(args), nil
	}
	return nil, errors.New("unknown function " + name)
}

func TestRender(t *testing.T) {
	scope := mapScope{
		"name":   value.String("web"),
		"port":   value.Integer(80),
		"list":   value.Array{value.String("b"), value.String("a")},
		"hash":   value.NewHash(value.String("k"), value.Integer(1), value.String("j"), value.Undef),
		"undef":  value.Undef,
		"yes":    value.True,
		"ratio":  value.Float(0.25),
		"nested": value.NewHash(value.String("inner"), value.Array{value.Integer(1), value.Integer(2)}),
	}
	tests := []struct {
		name, src, want string
	}{
		{"text", "hello\n", "hello\n"},
		{"ivar", "<%= @name %>:<%= @port %>", "web:80"},
		{"unknown ivar is nil", "[<%= @nope %>]", "[]"},
		{"undef is nil", "<%= @undef.nil? %>", "true"},
		{"array inspect", "<%= @list %>", `["b", "a"]`},
		{"hash inspect", "<%= @hash %>", `{"k"=>1, "j"=>nil}`},
		{"float", "<%= @ratio * 2 %>", "0.5"},
		{"trim", "a\n  <%- if @yes -%>\nb\n  <%- end -%>\nc", "a\nb\nc"},
		{"no trim without dash", "<% if @yes %>\nb\n<% end %>\n", "\nb\n\n"},
		// Expected outputs from Ruby 3.1's ERB with trim_mode '-', as Puppet 7 renders.
		{"trim blanks after a tag", "a <% x = 1 %>  <%- y = 2 %> b", "a  b"},
		{"trim a tab after an output tag", "a <%= 1 %>\t<%- 2 -%>\nc", "a 1c"},
		{"no trim after text", "x <%- 1 %> y", "x  y"},
		{"trim after a comment tag", "a <%# note %>  <%- 1 %>b", "a b"},
		{"trim after a literal", "a <%%  <%- 1 %>b", "a <%b"},
		{"comment swallows a text with its newline", "<% # note %>gone\nalso gone\n<%= 'kept' %>|", "kept|"},
		{"comment swallows the tags of its line", "<% x = 1 # note %>v=<%= x %><% y = 2 %>\n<%= defined?(y).inspect %>|", "nil|"},
		{"a trimmed newline ends a comment", "<% x = 1 # note -%>\nv=<%= x %>|", "v=1|"},
		{"code after a newline runs", "<% a = 1 # note %><% b = 2\n c = 3 %>[<%= a %>,<%= defined?(b).inspect %>,<%= c %>]|", "[1,nil,3]|"},
		{"comment in the last tag", "v=<%= 1 %><% # note %>", "v=1"},
		{"literal tag", "<%%= x %>", "<%= x %>"},
		{"comment tag", "a<%# ignored %>b", "ab"},
		{"text joined across comments and <%%", "a\n<%# x -%>\nb<%%c<%# y %><%%d\n  <%- if @yes %>e<% end %>", "a\nb<%c<%d\ne"},
		{"each block across tags", "<% @list.sort.each do |x| -%>\n- <%= x %>\n<% end -%>\n", "- a\n- b\n"},
		{"brace block", "<%= @list.map { |x| x.upcase }.join(',') %>", "B,A"},
		{"hash each", "<% @hash.each do |k, v| %><%= k %>=<%= v.inspect %> <% end %>", "k=1 j=nil "},
		{"scope index", "<%= scope['name'] %><%= scope['::port'] %>", "web80"},
		{"scope lookupvar", "<%= scope.lookupvar('name') %>", "web"},
		{"scope function", "<%= scope.function_double([@port]) %>", "160"},
		{"call_function", "<%= scope.call_function('double', [2]) %>", "4"},
		{"call_function splat args", "<%= scope.call_function('echo', [1, 'a']).inspect %>", `[1, "a"]`},
		{"call_function splats a hash into pairs", "<%= scope.call_function('echo', {'a' => 1, 'b' => [2]}).inspect %>", `[["a", 1], ["b", [2]]]`},
		{"call_function splats nil into nothing", "<%= scope.call_function('echo', nil).inspect %>", `[]`},
		{"call_function single value", "<%= scope.call_function('echo', 'x').inspect %>", `["x"]`},
		{"nested", "<%= @nested['inner'].last %>", "2"},
		{"ternary", "<%= @yes ? 'on' : 'off' %>", "on"},
		{"modifier", "<%= 'x' if @undef %>|<%= 'y' unless @undef %>", "|y"},
		{"case", "<% case @port when 1..79 then %>low<% when 80 %>http<% else %>other<% end %>", "http"},
		{"string methods", "<%= 'a-b'.split('-').map(&:upcase).join('_') %>", "A_B"},
		{"gsub", `<%= 'a.b.c'.gsub('.', '\\') %>`, `a\b\c`},
		{"regexp captures", "<% if 'v1.2' =~ /v(\\d)\\.(\\d)/ %><%= $2 %><%= $1 %><% end %>", "21"},
		{"interpolation", `<%= "#{@name}:#{@port + 1}" %>`, "web:81"},
		{"symbols", "<%= :abc.inspect %> <%= {a: 1}.inspect %>", ":abc {:a=>1}"},
		{"def", "<% def twice(x) x * 2 end %><%= twice(21) %>", "42"},
		{"rescue", "<%= begin; nil.upcase; rescue; 'saved'; end %>", "saved"},
		{"setvar", "<% scope.setvar('z', 5) %><%= scope['z'] %>", "5"},
		{"defined", "<%= defined?(@name) %>|<%= defined?(@undef).inspect %>", "instance-variable|nil"},
		{"defined after reading an unset ivar", "<%= @nope.inspect %>|<%= defined?(@nope).inspect %>", "nil|nil"},
		{"defined after assigning nil", "<% @a = nil %><%= defined?(@a) %>", "instance-variable"},
		{"instance_variable_get", "<%= instance_variable_get('@name') %>|<%= instance_variable_get(:@port) %>|<%= instance_variable_get('@nope').inspect %>", "web|80|nil"},
		{"instance_variable_defined?", "<%= instance_variable_defined?('@name') %>|<%= instance_variable_defined?('@undef') %>", "true|false"},
		{"ivar symbol inspect", "<%= [:@a, :a?].inspect %>", "[:@a, :a?]"},
		{"has_variable", "<%= has_variable?('name') %><%= has_variable?('zz') %>", "truefalse"},
		{"is_a", "<%= @list.is_a?(Array) %><%= @port.is_a?(Numeric) %><%= @name.kind_of?(Hash) %>", "truetruefalse"},
		{"multiline code", "<%\n  x = [1,\n    2]\n  y = x\n    .map { |i| i * 10 }\n%><%= y.sum %>", "30"},
		{"while", "<% i = 0; while i < 3; i += 1; end %><%= i %>", "3"},
		{"format", "<%= '%-4s|%03d' % ['ab', 7] %>", "ab  |007"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := Parse(tc.name, []byte(tc.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			got, err := tmpl.Render(scope)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestErrors checks that failures name the template and line, and that
// Ruby outside the subset is reported as unsupported rather than guessed.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		parse           bool // fails at parse time
	}{
		{"unterminated tag", "a\n<% if true", "t.erb:2: unterminated ERB tag", true},
		{"missing end", "<% if true %>\nx\n", "t.erb:3: expected \"end\"", true},
		{"class variable", "<%= @@x %>", "unsupported Ruby in template t.erb:1: class variables", true},
		{"backticks", "<%= `id` %>", "unsupported Ruby in template t.erb:1: backticks (running a command) are not supported", true},
		{"comment in an output tag", "<%= 1 # c %>|", "t.erb:1: SyntaxError: a # comment in a <%= tag", true},
		{"open comment reaching an output tag's newline", "<% # c %><%= 1 +\n 2 %>", "t.erb:1: SyntaxError: a # comment of an earlier tag", true},
		{"unterminated string", "<%= 'abc %>", "unterminated string", true},
		{"nil method", "\n<%= @nope.upcase %>", "t.erb:2: NoMethodError: undefined method `upcase' for nil:NilClass", false},
		{"Range has no length", "<%= (1..3).length %>", "t.erb:1: NoMethodError: undefined method `length' for 1..3:Range", false},
		{"missing method", "<%= 'x'.frobnicate %>", "t.erb:1: NoMethodError: undefined method `frobnicate'", false},
		{"real but unsupported method", "<%= 'x'.unpack('C') %>", "unsupported Ruby in template t.erb:1: method unpack for String", false},
		{"unknown constant", "<%= IO.read('/etc/passwd') %>", "unsupported Ruby in template t.erb:1: constant IO", false},
		{"file system access", "<%= File.read('/etc/passwd') %>", "unsupported Ruby in template t.erb:1: File.read of /etc/passwd, outside the modules", false},
		{"function error", "<%= scope.function_boom([]) %>", "t.erb:1: boom failed", false},
		{"bad function call", "<%= scope.function_double(1) %>", "ArgumentError", false},
		{"zero division", "<%= 1 / 0 %>", "ZeroDivisionError", false},
		{"type error", "<%= 'a' + 1 %>", "TypeError: no implicit conversion of Integer into String", false},
		{"comparison", "<%= [1, 'a'].sort %>", "ArgumentError: comparison of", false},
		{"frozen", "<% s = 'a'.freeze %><%= s << 'x' %>", "FrozenError", false},
		{"raise", "<% raise 'stop here' %>", "t.erb:1: RuntimeError: stop here", false},
		{"endless loop", "<% while true; end %>", "rendering takes more than MaxSteps (20000000) steps (an endless loop?): a fixed limit of marionette", false},
		{"deep recursion", "<% def f(x) f(x) end %><%= f(1) %>", "calls nested more than MaxCallDepth (2000) deep: a fixed limit of marionette", false},
	}
	scope := mapScope{"s": value.String("frozen")}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := Parse("t.erb", []byte(tc.src))
			if err == nil {
				if tc.parse {
					t.Fatalf("parse succeeded, want error %q", tc.want)
				}
				_, err = tmpl.Render(scope)
			} else if !tc.parse {
				t.Fatalf("parse: %v", err)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestConcurrentRender renders one parsed template from several goroutines.
func TestConcurrentRender(t *testing.T) {
	tmpl, err := Parse("c", []byte("<% s = '' %><% @list.each do |x| s << x %><% end %><%= s %>"))
	if err != nil {
		t.Fatal(err)
	}
	scope := mapScope{"list": value.Array{value.String("a"), value.String("b")}}
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() {
			out, err := tmpl.Render(scope)
			if err != nil {
				out = err.Error()
			}
			done <- out
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != "ab" {
			t.Errorf("got %q", got)
		}
	}
}

// TestTruncatedCorpus parses every prefix-truncation of corpus templates at
// tag boundaries and renders what parses: bad input must produce errors,
// never panics or hangs.
func TestTruncatedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	files := corpusTemplates(t)
	start := time.Now()
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(corpusDir, f))
		if err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut < len(src); cut += 1 + len(src)/100 {
			tmpl, err := Parse(f, src[:cut])
			if err != nil {
				continue
			}
			tmpl.Render(mapScope{})
		}
	}
	t.Logf("took %v", time.Since(start))
}

// FuzzTemplate checks that arbitrary input parses or fails cleanly and
// renders or fails cleanly, within bounded time.
func FuzzTemplate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.erb"))
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err == nil {
			f.Add(string(src))
		}
	}
	for _, s := range []string{`<%= [1,2] * (1<<62) %>`, `<%= "x" * 100000000 %>`, `<%= "%99d" % 1 %>`, `<%= (1..9).step(2).to_a %>`, `<%= Array.new(3, "x").join.ljust(9) %>`, `<%= 2 ** 62 %>`} {
		f.Add(s)
	}
	scope := mapScope{"list": value.Array{value.String("a")}, "h": value.NewHash(value.String("k"), value.Integer(1))}
	f.Fuzz(func(t *testing.T, src string) {
		var err error
		start := time.Now()
		// A rendering may build a few strings of MaxStringSize, not more.
		if n := allocated(func() {
			var tmpl *Template
			if tmpl, err = Parse("fuzz", []byte(src)); err == nil {
				_, err = tmpl.Render(scope)
			}
		}); n > 2<<30 {
			t.Fatalf("%q allocated %d MiB", src, n>>20)
		}
		if d := time.Since(start); d > 20*time.Second*timeScale {
			t.Fatalf("%q took %v", src, d)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%q: %v", src, err)
		}
	})
}

// TestMatchDataNegativeIndex: m[-1] counts groups from the end but never
// reaches the whole match, as in Ruby (this used to panic).
func TestMatchDataNegativeIndex(t *testing.T) {
	tm, err := Parse("m", []byte(`<%= m = /(a)(b)?/.match("a"); [m[-1], m[-2], m[-3], m[-4], "ab"[/(a)(b)/, -1], "ab"[/(a)(b)/, -3], "ab"[/(a)(b)/, -2]].inspect %>`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := tm.Render(mapScope{})
	// ruby -e 'm = /(a)(b)?/.match("a"); p [m[-1], m[-2], m[-3], m[-4], "ab"[/(a)(b)/, -1], "ab"[/(a)(b)/, -3], "ab"[/(a)(b)/, -2]]'
	if want := `[nil, "a", nil, nil, "b", nil, "a"]`; err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
}
