package conformance

import (
	"strings"
	"testing"
)

func TestMainError(t *testing.T) {
	tests := []struct{ output, want string }{
		{"Error: Evaluation Error: boom (file: site.pp, line: 1) on node n1\nError: Could not call 'find' on 'catalog': Evaluation Error: boom (file: site.pp, line: 1) on node n1\n",
			"Evaluation Error: boom (file: site.pp, line: 1)"},
		{"Warning: x\nError: Could not call 'find' on 'catalog': Could not find node 'n1'; cannot compile\n", "Could not find node 'n1'; cannot compile"},
		{"Error: A (file: a.pp, line: 2, column: 1)\nError: B\nError: Language validation logged 2 errors. Giving up on node n1\n", "A (file: a.pp, line: 2, column: 1)"},
		{"no errors here\n", ""},
	}
	for _, tt := range tests {
		if got := mainError(tt.output, "n1"); got != tt.want {
			t.Errorf("mainError(%q) = %q, want %q", tt.output, got, tt.want)
		}
	}
}

func TestParseWordingList(t *testing.T) {
	list, err := ParseWordingList(strings.NewReader("# comment\nlang/a  # why\n\nenc/b\n"))
	if err != nil || len(list.Lines) != 2 || list.Lines["lang/a"] != 2 || list.Lines["enc/b"] != 4 {
		t.Errorf("got %v, %v", list, err)
	}
	for _, bad := range []string{"lang/a\nlang/a\n", "lang/a enc/b\n"} {
		if _, err := ParseWordingList(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
