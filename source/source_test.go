package source

import "testing"

func TestPositionAndLine(t *testing.T) {
	f := NewFile("m.pp", []byte("ab\n\té x\r\n\nlast"))
	tests := []struct {
		off        int
		line, col  int
		lineText   string
		positioned string
	}{
		{0, 1, 1, "ab", "m.pp:1:1"},
		{2, 1, 3, "ab", "m.pp:1:3"}, // the line break belongs to its line
		{3, 2, 1, "\té x", "m.pp:2:1"},
		{7, 2, 4, "\té x", "m.pp:2:4"}, // é is two bytes, one column
		{10, 3, 1, "", "m.pp:3:1"},
		{14, 4, 4, "last", "m.pp:4:4"},
		{99, 4, 5, "last", "m.pp:4:5"}, // past the end: the end
	}
	for _, tt := range tests {
		p := f.Position(PosOf(tt.off))
		if p.Line != tt.line || p.Column != tt.col || p.String() != tt.positioned {
			t.Errorf("offset %d: %v (line %d, column %d), want %s", tt.off, p, p.Line, p.Column, tt.positioned)
		}
		if got := string(f.Line(p.Line)); got != tt.lineText {
			t.Errorf("Line(%d) = %q, want %q", p.Line, got, tt.lineText)
		}
	}
	if f.Line(0) != nil || f.Line(5) != nil {
		t.Error("Line out of range is not nil")
	}
	if p := f.Position(NoPos); p.IsValid() || p.String() != "m.pp" {
		t.Errorf("Position(NoPos) = %v", p)
	}
	if (Position{}).String() != "-" {
		t.Error("the zero Position does not print as -")
	}
}
