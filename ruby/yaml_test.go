package ruby

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestYAMLStringMatchesRuby emits strings with yamlString and with Ruby's
// own to_yaml (Psych, as Puppet runs it), and requires the same text for
// every string yamlString accepts.
func TestYAMLStringMatchesRuby(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		if os.Getenv("MARIONETTE_CORPUS") == "1" {
			t.Fatal("ruby not found (puppet-agent installs it)")
		}
		t.Skip("ruby not found")
	}
	inputs := []string{
		"", "0", "1", "-1", "+1", "0.5", "1e3", "0x1F", "0o17", "017", "019", "1_000", "1:30", ".5", ".",
		"y", "n", "Y", "yes", "No", "true", "False", "on", "OFF", "null", "Null", "~", "nan", ".nan", ".inf", "-.inf",
		"<<", "=", "-", "--", "---", "...", "-x", "- x", "/", "/etc/passwd", "/a b", "./x", "../x", "*", "*x", "&x", "!x",
		"%x", "@x", "`x", "#x", "x #y", "x#y", "x: y", "x:y", "x:", ":x", "? x", "?x", "[x", "x]", "{x", "x}", "x, y", ",x",
		"'x", "x'", "it's", `"x"`, `x"y`, `\`, `a\b`, "|", ">", "|x", ">x", " x", "x ", "  ", "x  y", "a b c",
		"2024-01-02", "2024-01-02 03:04:05", "12:30:45", "1.2.3", "1.2", "v1.2", "http://example.com/x?y=1&z=2",
		"foo_bar", "Foo-Bar.baz", "héllo", "日本", "_x", "x_", "0.0.0.0", "127.0.0.1:80", "*.log", "%{x}", "${x}",
		"x\ty", "tab\t", strings.Repeat("word ", 20), strings.Repeat("x", 100),
	}
	var script strings.Builder
	script.WriteString("require 'yaml'\n")
	for _, s := range inputs {
		script.WriteString("print [" + rubyLiteral(s) + "].to_yaml.sub(/\\A---\\n- /, '').chomp, \"\\x00\"\n")
	}
	out, err := exec.Command(ruby, "-e", script.String()).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	want := strings.Split(string(out), "\x00")
	accepted := 0
	for i, s := range inputs {
		got, ok := yamlString(s)
		if !ok {
			continue
		}
		accepted++
		if got != want[i] {
			t.Errorf("%q: got %s, Ruby emits %s", s, got, want[i])
		}
	}
	if accepted < len(inputs)*3/4 {
		t.Errorf("yamlString accepts only %d of %d strings", accepted, len(inputs))
	}
	t.Logf("%d of %d strings accepted", accepted, len(inputs))
}

// rubyLiteral writes s as a Ruby double-quoted string literal.
func rubyLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
