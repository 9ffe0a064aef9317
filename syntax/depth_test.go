package syntax

import (
	"strings"
	"testing"
)

// deepInputs are manifests nested past MaxExpressionDepth by every kind of
// construct that nests: each must fail with the limit named, never exhaust
// the stack of a later pass.
func deepInputs() []struct{ name, src string } {
	n := MaxExpressionDepth + 10
	nested := "1"
	for range 3 {
		nested = "(" + nested + strings.Repeat(" + 1", n/2) + ")"
	}
	return []struct{ name, src string }{
		{"operator chain", "$x = 1" + strings.Repeat(" + 1", n) + "\n"},
		{"chains nested in parentheses", "$x = " + nested + "\n"},
		{"parentheses", "$x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n"},
		{"unary minus", "$x = " + strings.Repeat("-", n) + "1\n"},
		{"assignment chain", strings.Repeat("$a = ", n) + "1\n"},
		{"relationship chain", "notify{a:}" + strings.Repeat(" -> Notify[a]", n) + "\n"},
		{"call chain", "$x = f" + strings.Repeat("()", n) + "\n"},
		{"access chain", "$x = $y" + strings.Repeat("[0]", n) + "\n"},
		{"method chain", "$x = $y" + strings.Repeat(".f", n) + "\n"},
		{"arrays", "$x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"},
		{"hashes", "$x = " + strings.Repeat("{a => ", n) + "1" + strings.Repeat("}", n) + "\n"},
		{"selectors", "$x = " + strings.Repeat("$y ? { 1 => ", n) + "1" + strings.Repeat("}", n) + "\n"},
		{"ifs", strings.Repeat("if $y { ", n) + strings.Repeat("}", n) + "\n"},
		{"interpolation", "$x = \"" + strings.Repeat("${[", n) + strings.Repeat("]}", n) + "\"\n"},
		{"selector chain", "$x = 1" + strings.Repeat(" ? { default => 1 }", n) + "\n"},
	}
}

func TestDepthLimit(t *testing.T) {
	for _, c := range deepInputs() {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFile("deep.pp", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), "MaxExpressionDepth (10000)") {
				t.Fatalf("err = %v, want the MaxExpressionDepth error", err)
			}
			if !strings.Contains(err.Error(), "line: 1, column: ") {
				t.Errorf("err = %v, want a position", err)
			}
		})
	}
}

func TestDepthWithinLimit(t *testing.T) {
	src := "$x = 1" + strings.Repeat(" + 1", MaxExpressionDepth/2) + "\n"
	prog, err := ParseFile("ok.pp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := tooDeep(prog); n != nil {
		t.Fatalf("tooDeep = %v, want nil", n)
	}
}

// FuzzDepth builds inputs nested by a construct the fuzzer picks, deeper
// than the limit or not: the parser must return, with an error or a tree
// no deeper than MaxExpressionDepth.
func FuzzDepth(f *testing.F) {
	f.Add("(", ")", 20000, "1")
	f.Add("", " + 1", 20000, "1")
	f.Add("[", "]", 9000, "")
	f.Add("$y ? { 1 => ", "}", 12000, "1")
	f.Fuzz(func(t *testing.T, open, close string, n int, middle string) {
		if n < 0 || n > 3*MaxExpressionDepth || len(open)+len(close) > 20 {
			return
		}
		src := "$x = " + strings.Repeat(open, n) + middle + strings.Repeat(close, n) + "\n"
		prog, err := ParseFile("fuzz.pp", []byte(src))
		if err == nil && tooDeep(prog) != nil {
			t.Fatalf("a tree deeper than MaxExpressionDepth parsed without error")
		}
	})
}

// TestDepthCheckAllocatesNothing checks that the depth walk after each
// parse reuses its stack: a compile parses a file per class and define.
func TestDepthCheckAllocatesNothing(t *testing.T) {
	prog, err := ParseFile("m.pp", []byte("class m($a = 1) {\n  if $a { notify { 'x': message => [1, [2, {'k' => $a + 1}]] } }\n  $b = $a ? { 1 => 'one', default => 'other' }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tooDeep(prog)
	if allocs := testing.AllocsPerRun(20, func() { tooDeep(prog) }); allocs != 0 {
		t.Errorf("tooDeep allocates %v objects per walk, want 0", allocs)
	}
}
