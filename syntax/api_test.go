package syntax

import (
	"strings"
	"testing"
)

func TestParseExpr(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"1 + 2 * 3", "(+ (int 1) (* (int 2) (int 3)))"},
		{"$a = 1\n$b = 2", "(block (= (var \"a\") (int 1)) (= (var \"b\") (int 2)))"},
		{"Integer[1]", "(access (type Integer) (int 1))"},
		{`"${x}"`, `(istr (var "x"))`},
	}
	for _, tt := range tests {
		x, err := ParseExpr(tt.src)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tt.src, err)
			continue
		}
		var b strings.Builder
		Dump(&b, x)
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
	if _, err := ParseExpr("1 +"); err == nil {
		t.Error("ParseExpr(\"1 +\") succeeded")
	}
}

func TestPosition(t *testing.T) {
	f := NewFile("f.pp", []byte("ab\n\tcé d\n"))
	tests := []struct {
		off  int
		want string
	}{
		{0, "f.pp:1:1"},
		{2, "f.pp:1:3"},
		{3, "f.pp:2:1"},
		{4, "f.pp:2:2"},  // after a tab
		{8, "f.pp:2:5"},  // é is one character of two bytes
		{10, "f.pp:3:1"}, // end of file
	}
	for _, tt := range tests {
		if got := f.Position(Pos(tt.off + 1)).String(); got != tt.want {
			t.Errorf("Position(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
	if got := f.Position(NoPos).String(); got != "f.pp" {
		t.Errorf("Position(NoPos) = %s, want f.pp", got)
	}
}

// Puppet rejects a manifest or template that is not valid UTF-8 before
// parsing it, with Ruby's message and no position; control characters in
// valid UTF-8 stay a syntax error at their position.
func TestParseInvalidUTF8(t *testing.T) {
	tests := []struct {
		name, src string
		epp       bool
		want      string
	}{
		{"byte 0xff in a string", "notify { \"a\xffb\": }\n", false, "invalid byte sequence in UTF-8"},
		{"truncated sequence on line 2", "$a = 1\n$b = \"\xc3(\"\n", false, "invalid byte sequence in UTF-8"},
		{"binary garbage", "\x00\x01\xfe\xff\x89PNG\r\n\x1a\n", false, "invalid byte sequence in UTF-8"},
		{"EPP text", "x: <%= 1 %>\xff\n", true, "invalid byte sequence in UTF-8"},
		{"control characters", "\x00\x01\x02abc\n", false, "Syntax error at '' (file: m.pp, line: 1, column: 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.epp {
				_, err = ParseEPP("m.epp", []byte(tt.src))
			} else {
				_, err = ParseFile("m.pp", []byte(tt.src))
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := ParseExpr("'\xff'"); err == nil || err.Error() != InvalidUTF8Message {
		t.Errorf("ParseExpr: err = %v", err)
	}
}
