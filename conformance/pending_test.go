package conformance

import (
	"strings"
	"testing"
)

func TestParsePendingErrors(t *testing.T) {
	tests := []struct {
		name, input, wantErr string
	}{
		{"missing issue", "node/*\n", `want "PATTERN #ISSUE"`},
		{"issue without hash", "node/* 4\n", `want "PATTERN #ISSUE"`},
		{"trailing words", "node/* #4 compiler\n", "must be a '#' comment"},
		{"bad glob", "node/[ #4\n", "syntax error in pattern"},
		{"absolute", "/node/x #4\n", "clean path"},
		{"unclean", "node//x #4\n", "clean path"},
		{"parent", "../x #4\n", "clean path"},
		{"duplicate", "node/* #4\nclass/* #4\nnode/* #5\n", "node/* already listed on line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePending(strings.NewReader(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParsePending(%q) error = %v, want one containing %q", tt.input, err, tt.wantErr)
			}
		})
	}
}

const samplePending = `# comment line

node/* #4
node/regex-captures #6   # the exact line wins over the glob
lang/*-error #4
enc/fail-* #5 # comment
hiera/gone #5
`

func TestPendingMatch(t *testing.T) {
	list, err := ParsePending(strings.NewReader(samplePending))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		caseID    string
		wantMatch bool
		wantIssue string
		wantLine  int
	}{
		{"node/exact-name", true, "#4", 3},
		{"node/regex-captures", true, "#6", 4},
		{"lang/parse-error", true, "#4", 5},
		{"lang/parse-ok", false, "", 0},
		{"enc/fail-empty-output", true, "#5", 6},
		{"enc/classes-array", false, "", 0},
		{"node/deeper/case", false, "", 0}, // '*' stays within one path segment
		{"class/include-list", false, "", 0},
	}
	for _, tt := range tests {
		rule, ok := list.Match(tt.caseID)
		if ok != tt.wantMatch || rule.Issue != tt.wantIssue || rule.Line != tt.wantLine {
			t.Errorf("Match(%q) = %+v, %v; want issue %q line %d, %v", tt.caseID, rule, ok, tt.wantIssue, tt.wantLine, tt.wantMatch)
		}
	}
}

func TestPendingUnused(t *testing.T) {
	list, err := ParsePending(strings.NewReader(samplePending))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"node/exact-name", "node/regex-captures", "enc/fail-garbage-output"}
	var unused []string
	for _, r := range list.Unused(ids) {
		unused = append(unused, r.Pattern)
	}
	want := "lang/*-error hiera/gone"
	if got := strings.Join(unused, " "); got != want {
		t.Errorf("Unused = %q, want %q", got, want)
	}
}
