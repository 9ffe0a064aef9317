package ruby

import (
	"fmt"
	"strings"
	"testing"
)

// tokenKindNames are the short names the tests write kinds with.
var tokenKindNames = map[TokenKind]string{
	Ident: "id", Keyword: "kw", Constant: "const", InstanceVar: "ivar", ClassVar: "cvar",
	GlobalVar: "gvar", Number: "num", String: "str", Symbol: "sym", Regexp: "re",
	Label: "label", Operator: "op",
}

// formatTokens writes tokens as kind(text), a regexp's flags after a
// slash, a * for interpolation and a ^ before the first of a line.
func formatTokens(toks []Token) string {
	var b strings.Builder
	for k, t := range toks {
		if k > 0 {
			b.WriteByte(' ')
		}
		if t.LineStart && k > 0 {
			b.WriteByte('^')
		}
		fmt.Fprintf(&b, "%s(%s", tokenKindNames[t.Kind], t.Text)
		if t.Flags != "" {
			b.WriteString("/" + t.Flags)
		}
		if t.Interpolated {
			b.WriteByte('*')
		}
		b.WriteByte(')')
	}
	return b.String()
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"call with symbol and label", "newparam(:name, namevar: true)", "id(newparam) op(() sym(name) op(,) label(namevar) kw(true) op())"},
		{"lines and semicolons", "a = 1; b\nc", "id(a) op(=) num(1) op(;) id(b) ^id(c)"},
		{"heredoc", "desc <<-EOT\n  text #{x}\n  EOT\nnext_line", "id(desc) str(  text \n*) ^id(next_line)"},
		{"squiggly heredoc", "x = <<~EOS.strip\n    a\n      b\n  EOS\ny", "id(x) op(=) str(a\n  b\n) op(.) id(strip) ^id(y)"},
		{"quoted heredoc ids", "f(<<-'A', <<\"B\")\n#{a}\\n\nA\nb\nB\nz", `id(f) op(() str(#{a}\n` + "\n" + `) op(,) str(b` + "\n" + `) op()) ^id(z)`},
		{"heredoc line numbers", "a <<~X\n1\n2\nX\nb", "id(a) str(1\n2\n) ^id(b)"},
		{"shift is not a heredoc", "a << b\nc <<x", "id(a) op(<<) id(b) ^id(c) op(<<) id(x)"},
		{"percent literals", "f %q(a (b)), %Q[#{c}], %w{d e}, %i<f g>, %r!h/i!mx, %x(ls), %s(sym), %(plain)",
			"id(f) str(a (b)) op(,) str(*) op(,) op([) str(d) op(,) str(e) op(]) op(,) op([) sym(f) op(,) sym(g) op(]) op(,) re(h/i/mx) op(,) str(ls) op(,) sym(sym) op(,) str(plain)"},
		{"percent is modulo after a value", "a % b\n'%s' % c", "id(a) op(%) id(b) ^str(%s) op(%) id(c)"},
		{"class variables", "@@count += 1", "cvar(count) op(+=) num(1)"},
		{"instance and global variables", "@a $stderr $! $: $-w $1", "ivar(a) gvar(stderr) gvar(!) gvar(:) gvar(-w) gvar(1)"},
		{"character literals", "[?a, ?\\n] x ? y : z", "op([) str(a) op(,) str(\n) op(]) id(x) op(?) id(y) op(:) id(z)"},
		{"begin end comment", "=begin\nnot code 'x\n=end\na\n=begin doc\n=end trailer\nb", "id(a) ^id(b)"},
		{"__END__ ends the code", "a\n__END__\n'not code", "id(a)"},
		{"numbers", "0x1F 0b10 0o17 017 1_000 1.5e3 0xFFFFFFFFFFFFFFFFFF 3r 2i 0d19 0D09", "num(31) num(2) num(15) num(15) num(1000) num(1.5e3) num(0xffffffffffffffffff) num(3r) num(2i) num(19) num(9)"},
		{"line continuation", "a = 1 +\\\n  2 \\\r\n + 3", "id(a) op(=) num(1) op(+) num(2) op(+) num(3)"},
		{"nested interpolation", `"a#{b.map { |c| "#{c}}" }}d" e`, "str(ad*) id(e)"},
		{"interpolation with braces in literals", `"#{x.gsub(%r{"}, '\"')}" y`, "str(*) id(y)"},
		{"bare variable interpolation", `"#@a #@@b #$c #@ ok"`, "str(   #@ ok*)"},
		{"operator methods", "def -@; end\ndef / r; end\ndef % r; end\nundef :-@, :+@", "kw(def) op(-@) op(;) kw(end) ^kw(def) op(/) id(r) op(;) kw(end) ^kw(def) op(%) id(r) op(;) kw(end) ^id(undef) sym(-@) op(,) sym(+@)"},
		{"regexps", "x =~ /a\\/b/i\nsplit /,/", `id(x) op(=~) re(a/b/i) ^id(split) re(,)`},
		{"regexp encoding flags", "/a/n", "re(a/n)"},
		{"leading dot continues a line", "a\n  .b", "id(a) ^op(.) id(b)"},
		{"symbols", `:a :b? :"c#{d}" :'e' :@f :@@g A::B`, "sym(a) sym(b?) sym(c*) sym(e) sym(@f) sym(@@g) const(A) op(::) const(B)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks, err := Tokens(tc.src)
			if err != nil {
				t.Fatalf("Tokens(%q): %v", tc.src, err)
			}
			if got := formatTokens(toks); got != tc.want {
				t.Errorf("Tokens(%q)\n got %s\nwant %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestTokensLines(t *testing.T) {
	src := "a = <<~X, <<~Y\n  one\nX\n  two\nY\nb = %w(\nc\n)\nd \"\n\"\ne"
	toks, err := Tokens(src)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tok := range toks {
		if tok.Kind == Ident {
			got[tok.Text] = tok.Line
		}
	}
	want := map[string]int{"a": 1, "b": 6, "d": 9, "e": 11}
	for name, line := range want {
		if got[name] != line {
			t.Errorf("%s on line %d, want %d", name, got[name], line)
		}
	}
}

func TestTokensErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unterminated string", "a\n'b", "line 2: unterminated string"},
		{"unterminated heredoc", "a\nb = <<~EOS\nc\n", "line 2: heredoc EOS is not terminated"},
		{"unterminated interpolation", "\"#{a\n", "line 1: unterminated"},
		{"=begin without =end", "a\n=begin\nb\n", "line 2: =begin without =end"},
		{"bare 0x", "x = 0x", `line 1: bad number "0x"`},
		{"stray backslash", "a \\ b", `line 1: unexpected character '\\'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Tokens(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Tokens(%q) = %v, want an error with %q", tc.src, err, tc.want)
			}
		})
	}
}

// TestTemplateLexing checks what the lexer's new forms do in templates:
// constructs the subset does not run keep their parser errors, the others
// now work as in Ruby.
func TestTemplateLexing(t *testing.T) {
	tests := []struct {
		name, code string
		want       string // the output, or the error's start
		fails      bool
	}{
		{"class variable", "@@x", "unsupported Ruby in template t.erb:1: class variables (@@) are not supported", true},
		{"class variable assigned", "@@x = 1", "unsupported Ruby in template t.erb:1: class variables (@@) are not supported", true},
		{"bare variable interpolation", `"a #@x"`, "unsupported Ruby in template t.erb:1: #@var interpolation is not supported", true},
		{"hash sign that interpolates nothing", `"#@ #$ #"`, "#@ #$ #", false},
		{"heredoc", "<<~EOS.upcase\n  a\n  b\nEOS\n", "A\nB\n", false},
		{"percent symbol", "%s(a).to_s + %q(b)", "ab", false},
		{"character literal", "?a + ?b", "ab", false},
		{"ternary stays a ternary", "1 > 0 ?'y':'n'", "y", false},
		{"ternary on a local", "x = true; x ?\" \": \"\"", " ", false},
		{"append to a local", "s = ''; s <<\"A\"; s", "A", false},
		{"unterminated string", "'abc", "unsupported Ruby in template t.erb:1: unterminated string", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := ParseTemplate("t.erb", []Segment{{Kind: SegOutput, Text: tc.code, Line: 1}})
			var out string
			if err == nil {
				out, err = tmpl.Render(nil)
			}
			switch {
			case tc.fails && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Errorf("%q: got %q, %v; want the error %q", tc.code, out, err, tc.want)
			case !tc.fails && (err != nil || out != tc.want):
				t.Errorf("%q: got %q, %v; want %q", tc.code, out, err, tc.want)
			}
		})
	}
}

// FuzzTokens checks that no input makes the lexer panic or lose a line:
// every token's line is within the source.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"desc <<-EOT\n  a #{b}\n  EOT\n", "x = <<~A, <<'B'\nA\nB\n", "%w(a b) %r{c}i ?d @@e $f",
		"=begin\n=end\n__END__\n", `"#{a.map { |b| "#{b}}" }}"`, "0x1F 1r 2i 0d9 ?\\n :-@ def / r; end",
		"<<-EOT\"0\nEOT\n0\"0",             // a string from the heredoc's line runs over its body
		"f(<<A, \"\nA\n\n\", <<B)\nA\nB\n", // and on to a second heredoc
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		toks, err := Tokens(src)
		if err != nil {
			return
		}
		lines := strings.Count(src, "\n") + 1
		for _, tok := range toks {
			if tok.Line < 1 || tok.Line > lines {
				t.Fatalf("token %q on line %d of %d", tok.Text, tok.Line, lines)
			}
		}
	})
}
