package psych

import (
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// Builders for the test data.
func str(s string) Node       { return Node{Kind: String, Str: s} }
func sym(s string) Node       { return Node{Kind: Symbol, Str: s} }
func num(i int64) Node        { return Node{Kind: Int, Int: i} }
func flt(f float64) Node      { return Node{Kind: Float, Float: f} }
func seq(items ...Node) Node  { return Node{Kind: Seq, Items: items} }
func hash(items ...Node) Node { return Node{Kind: Map, Items: items} }

var null = Node{Kind: Null}

// rubyLiteral writes a node as Ruby source.
func rubyLiteral(n Node) string {
	switch n.Kind {
	case Null:
		return "nil"
	case Bool:
		return strconv.FormatBool(n.Bool)
	case Int:
		return strconv.FormatInt(n.Int, 10)
	case Float:
		switch {
		case math.IsNaN(n.Float):
			return "Float::NAN"
		case math.IsInf(n.Float, 1):
			return "Float::INFINITY"
		case math.IsInf(n.Float, -1):
			return "-Float::INFINITY"
		}
		return strconv.FormatFloat(n.Float, 'e', -1, 64)
	case String:
		return rubyString(n.Str)
	case Symbol:
		return ":" + rubyString(n.Str)
	case Seq:
		parts := make([]string, len(n.Items))
		for i, e := range n.Items {
			parts[i] = rubyLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var parts []string
	for i := 0; i+1 < len(n.Items); i += 2 {
		parts = append(parts, rubyLiteral(n.Items[i])+" => "+rubyLiteral(n.Items[i+1]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rubyString writes s as a Ruby double-quoted string literal.
func rubyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// strings the tests write in several places: every style Psych picks.
var testStrings = []string{
	"", "0", "1", "-1", "+1", "0.5", "1e3", "0x1F", "0o17", "017", "019", "1_000", "1:30", ".5", ".",
	"y", "n", "Y", "yes", "No", "true", "False", "on", "OFF", "null", "Null", "~", "nan", ".nan", ".inf", "-.inf",
	"<<", "=", "-", "--", "---", "...", "-x", "- x", "/", "/etc/passwd", "/a b", "./x", "../x", "*", "*x", "&x", "!x",
	"%x", "@x", "`x", "#x", "x #y", "x#y", "x: y", "x:y", "x:", ":x", "? x", "?x", "[x", "x]", "{x", "x}", "x, y", ",x",
	"'x", "x'", "it's", `"x"`, `x"y`, `\`, `a\b`, "|", ">", "|x", ">x", " x", "x ", "  ", "x  y", "a b c",
	"2024-01-02", "2024-01-02 03:04:05", "12:30:45", "1.2.3", "1.2", "v1.2", "http://example.com/x?y=1&z=2",
	"foo_bar", "Foo-Bar.baz", "héllo", "日本", "_x", "x_", "0.0.0.0", "127.0.0.1:80", "*.log", "%{x}", "${x}",
	"x\ty", "tab\t", "bell\a", "nul\x00", "esc\x1b[0m", "bom\ufeff",
	"two\nlines", "final\n", "finals\n\n", "\nlead", " lead\nx", "a\n\nb\n", "lead\n  two",
}

// longStrings fold at column 80, differently by style and start column.
var longStrings = []string{
	strings.Repeat("word ", 20), strings.Repeat("word ", 30) + "end", strings.Repeat("x", 100),
	strings.Repeat("x", 100) + " " + strings.Repeat("y", 10),
	"/" + strings.Repeat("path segment ", 10), strings.Repeat("a  b ", 25), strings.Repeat("key: value ", 12),
	strings.Repeat("yes ", 30) + "'", strings.Repeat("é ", 60), "-" + strings.Repeat(" two  spaces", 10) + " ",
	// Folded blocks (with a line_width): final breaks, leading blanks,
	// runs of spaces at the fold, a comment-like start, numbers.
	strings.Repeat("ab cd ", 15) + "\n", strings.Repeat("ab cd ", 15) + "\n\n", "  " + strings.Repeat("lead ", 20),
	strings.Repeat("a  b  c   ", 10), "#" + strings.Repeat(" not a comment", 8), strings.Repeat("1234567 ", 12) + "9",
	"tab\t" + strings.Repeat(" word", 20), strings.Repeat("x", 40) + " " + strings.Repeat("y", 40),
}

func documents() []Node {
	var docs []Node
	for _, s := range append(append([]string{}, testStrings...), longStrings...) {
		docs = append(docs, str(s), seq(str(s)), hash(str("key"), str(s)), hash(str("outer"), hash(str("inner"), seq(str(s)))))
	}
	for _, s := range testStrings[:40] {
		docs = append(docs, hash(str(s), num(1)))
	}
	docs = append(docs,
		null, seq(), hash(), Node{Kind: Bool, Bool: true}, num(-5), flt(1.5), flt(1e20), flt(1e-5), flt(-0.0),
		flt(math.Inf(1)), flt(math.Inf(-1)), flt(math.NaN()), flt(100),
		sym("sym"), sym("a b"), sym("1"), sym("-"), sym("x_y?"), sym("a: b"), sym("x "), sym("tab\t"), sym("a #b"),
		hash(sym("a: b"), sym("c d")), hash(str("multi\nline key"), num(1)), hash(str(strings.Repeat("k", 129)), num(1), str(strings.Repeat("k", 128)), num(2)),
		hash(str(strings.Repeat("long key ", 20)), seq(num(1))), seq(hash(str("a\nb"), hash(str("c"), num(1)))), hash(str("a\tb"), str("x")),
		str("nel\u0085x"), str("ls\u2028x"), str("nbsp\u00a0x"), str("vt\vff\f"), str("astral\U0001F600"),
		seq(null, seq(), hash(), seq(seq(num(1), num(2)), seq()), hash(str("a"), seq(num(1), hash(str("b"), null)))),
		hash(sym("a"), seq(num(1), hash(sym("b"), null)), str("k"), seq()),
		hash(str("a"), seq(seq(num(1), seq(num(2), hash(str("b"), seq()))), hash()), str("c"), hash(str("d"), hash(str("e"), null, str("f"), Node{Kind: Bool}, str("g"), flt(1e-5)))),
		hash(seq(num(1), num(2)), num(3)),
		hash(hash(str("a"), num(1)), seq(num(1), num(2))),
		hash(seq(), num(1), hash(), num(2), null, num(3), num(1), null, flt(1.5), num(2), Node{Kind: Bool, Bool: true}, Node{Kind: Bool}),
		hash(str("x"), hash(seq(num(1)), hash(str("b"), num(2)))),
		seq(hash(seq(num(1)), num(2))),
		seq(hash(str("a"), hash(str("b"), num(1))), seq(hash(str("c"), num(2), str("d"), seq(num(3))))),
		hash(str("text"), str("line one\nline two\n"), str("list"), seq(str("a\nb"), str(" indented\nblock"))),
	)
	// Deep nesting moves the fold's start column.
	deep := str(strings.Repeat("deep text ", 12))
	for i := 0; i < 6; i++ {
		deep = hash(str(fmt.Sprintf("level%d", i)), seq(deep))
	}
	return append(docs, deep)
}

// TestDumpMatchesRuby writes every document with Dump and with Ruby's own
// to_yaml (Psych, as Puppet runs it), and requires the same text.
func TestDumpMatchesRuby(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		corpus.Absent(t, errors.New("ruby is not on PATH (apt-get install puppet-agent installs it)"))
	}
	docs := documents()
	var script strings.Builder
	script.WriteString("require 'yaml'\n")
	for _, d := range docs {
		script.WriteString("print((" + rubyLiteral(d) + ").to_yaml, \"\\x00\")\n")
	}
	out, err := exec.Command(ruby, "-e", script.String()).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	want := strings.Split(string(out), "\x00")
	unsupported := 0
	for i, d := range docs {
		got, err := Dump(d)
		if err != nil {
			unsupported++
			t.Logf("%s: %v (Ruby: %q)", rubyLiteral(d), err, want[i])
			continue
		}
		if got != want[i] {
			t.Errorf("%s:\n got %q\nwant %q", rubyLiteral(d), got, want[i])
		}
	}
	if unsupported > 0 {
		t.Errorf("%d documents unsupported", unsupported)
	}
	t.Logf("%d documents", len(docs))
}

// TestDumpLimits: data nested too deep is an error, not a stack overflow.
func TestDumpLimits(t *testing.T) {
	deep := seq()
	for i := 0; i < MaxDepth+5; i++ {
		deep = seq(deep)
	}
	if _, err := Dump(deep); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep: got %v", err)
	}
}

// TestDumpWithOptionsMatchesRuby writes every document with to_yaml's
// indentation and line_width options, with DumpWith and with Ruby, and
// requires the same text (a string longer than a line_width given takes a
// folded block).
func TestDumpWithOptionsMatchesRuby(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		corpus.Absent(t, errors.New("ruby is not on PATH (apt-get install puppet-agent installs it)"))
	}
	tests := []struct {
		opts Options
		ruby string
	}{
		{Options{Indentation: 4}, "indentation: 4"},
		{Options{Indentation: 3}, "indentation: 3"},
		{Options{Indentation: 9}, "indentation: 9"},
		{Options{Indentation: 1}, "indentation: 1"},
		{Options{Indentation: 10}, "indentation: 10"},
		{Options{LineWidth: -1}, "line_width: -1"},
		{Options{Indentation: 4, LineWidth: -1}, "indentation: 4, line_width: -1"},
		{Options{LineWidth: 200}, "line_width: 200"},
		{Options{Indentation: 5, LineWidth: 150}, "indentation: 5, line_width: 150"},
		{Options{LineWidth: 20}, "line_width: 20"},
		{Options{LineWidth: 7}, "line_width: 7"},
		{Options{LineWidth: 3}, "line_width: 3"},
		{Options{Indentation: 4, LineWidth: 40}, "indentation: 4, line_width: 40"},
		{Options{Indentation: 3, LineWidth: 1}, "indentation: 3, line_width: 1"},
	}
	docs := documents()
	for _, tt := range tests {
		t.Run(tt.ruby, func(t *testing.T) {
			var script strings.Builder
			script.WriteString("require 'yaml'\n")
			for _, d := range docs {
				script.WriteString("print((" + rubyLiteral(d) + ").to_yaml(" + tt.ruby + "), \"\\x00\")\n")
			}
			out, err := exec.Command(ruby, "-e", script.String()).Output()
			if err != nil {
				t.Fatalf("ruby: %v", err)
			}
			want := strings.Split(string(out), "\x00")
			refused := 0
			for i, d := range docs {
				got, err := DumpWith(d, tt.opts)
				if errors.Is(err, ErrUnsupported) && lineSeparated(d, tt.opts.LineWidth) != "" {
					refused++
					continue
				}
				if err != nil {
					t.Errorf("%s: %v (Ruby: %q)", rubyLiteral(d), err, want[i])
					continue
				}
				if got != want[i] {
					t.Errorf("%s:\n got %q\nwant %q", rubyLiteral(d), got, want[i])
				}
			}
			t.Logf("%d documents, %d refused", len(docs), refused)
		})
	}
}
