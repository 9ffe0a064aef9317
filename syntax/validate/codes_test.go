package validate

import (
	"strconv"
	"testing"

	"github.com/marionette-dev/marionette/diag"
)

// TestCodes: every problem the scanner, the parser and the validator find
// has Puppet's issue code, and a range from where Puppet places it to the
// end of what it is about (a point for the scanner's errors).
func TestCodes(t *testing.T) {
	tests := []struct {
		src        string
		code       diag.Code
		start, end string // line:column
	}{
		// Scanner and parser.
		{"$x = 'a", diag.UnclosedQuote, "1:7", "1:7"},
		{"/* x", diag.UnclosedMLComment, "1:1", "1:1"},
		{"$x = 0x", diag.IllegalNumber, "1:6", "1:6"},
		{"$x = 08", diag.InvalidOctalNumber, "1:6", "1:6"},
		{"notice(1 +)", diag.SyntaxError, "1:11", "1:12"},
		{"class {", diag.SyntaxError, "1:8", "1:8"}, // at the end of input,
		{"$x += 1", diag.AppendsDeletesNoLongerSupported, "1:4", "1:4"},
		{"$x = 99999999999999999999", diag.NumericOverflow, "1:6", "1:6"},
		{"$x = @(END", diag.HeredocUnclosedParenthesis, "1:6", "1:6"},
		{"$x = @(END)", diag.HeredocWithoutText, "1:12", "1:12"},
		// Validator.
		{"$1 = 2", diag.IllegalNumericAssignment, "1:1", "1:3"},
		{"$a::b = 2", diag.CrossScopeAssignment, "1:1", "1:6"},
		{"class A {}", diag.IllegalDefinitionName, "1:1", "1:11"},
		{"if true { class b {} }", diag.NotTopLevel, "1:11", "1:21"},
		{"class a($x, $x) {}", diag.DuplicateParameter, "1:13", "1:15"},
		{"class a($title) {}", diag.ReservedParameter, "1:9", "1:15"},
		{"define d(*$r) {}", diag.CapturesRestNotSupported, "1:11", "1:13"},
		{"case 1 { default: {} default: {} }", diag.DuplicateDefault, "1:22", "1:29"},
		{"@File { mode => '0644' }", diag.NotVirtualizeable, "1:1", "1:25"},
		{"node 'a b' {}", diag.IllegalHostnameChars, "1:6", "1:11"},
		{"1 = 3", diag.IllegalAssignment, "1:1", "1:2"},
		{"class a { 1 }", diag.IdemNotAllowedLast, "1:11", "1:12"},
		{"File <| a < 1 |>", diag.IllegalQueryExpression, "1:11", "1:14"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, _, err := ParseFile("t.pp", []byte(tt.src))
			list, ok := err.(diag.List)
			if !ok || len(list) == 0 {
				t.Fatalf("error %v (%T), want a diag.List", err, err)
			}
			d := list[0]
			if d.Code != tt.code {
				t.Errorf("code %s, want %s (%v)", d.Code, tt.code, d)
			}
			at := func(line, col int) string { return strconv.Itoa(line) + ":" + strconv.Itoa(col) }
			if got := at(d.Range.Start.Line, d.Range.Start.Column); got != tt.start {
				t.Errorf("starts at %s, want %s (%v)", got, tt.start, d)
			}
			if got := at(d.Range.End.Line, d.Range.End.Column); got != tt.end {
				t.Errorf("ends at %s, want %s", got, tt.end)
			}
		})
	}
}

// TestWarningCodes: the validator's warnings have codes too; a repeated
// key's runs from its "=>" to the end of the entry.
func TestWarningCodes(t *testing.T) {
	_, warnings, err := ParseFile("t.pp", []byte("$h = {'a' => 1, 'a'  =>  2}\nnode n inherits m {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		code diag.Code
		from string
		to   string
	}{
		{diag.DuplicateKey, "1:22", "1:27"},
		{diag.IllegalNodeInheritance, "2:17", "2:18"},
	}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %v", warnings)
	}
	for i, w := range want {
		d := warnings[i]
		from := strconv.Itoa(d.Range.Start.Line) + ":" + strconv.Itoa(d.Range.Start.Column)
		to := strconv.Itoa(d.Range.End.Line) + ":" + strconv.Itoa(d.Range.End.Column)
		if d.Code != w.code || d.Severity != diag.Warning || from != w.from || to != w.to {
			t.Errorf("warning %d: %s %s %s..%s, want %s %s..%s", i, d.Severity, d.Code, from, to, w.code, w.from, w.to)
		}
	}
	if !warnings[0].Matches(diag.DuplicateKey, "key", "a") {
		t.Errorf("duplicate key argument: %v", warnings[0].Args)
	}
}
