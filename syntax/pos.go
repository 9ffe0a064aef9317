package syntax

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// Pos is a position in a source file: the byte offset plus one, so that the
// zero value NoPos means "no position".
type Pos int

// NoPos is the zero Pos: the node or error has no position.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Offset returns the byte offset that p denotes; it is -1 for NoPos.
func (p Pos) Offset() int { return int(p) - 1 }

// Position is a Pos resolved against its file.
type Position struct {
	Filename string
	Offset   int // byte offset, starting at 0
	Line     int // line number, starting at 1
	Column   int // column number in characters, starting at 1
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "file:line:column", leaving out the parts that are unknown.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// File is one source text with its line table.
type File struct {
	Name  string
	Src   []byte
	lines []int // byte offset of the start of each line
}

// NewFile makes a File and builds its line table.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lines: make([]int, 1, len(src)/32+1)}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// LineCount returns the number of lines in the file.
func (f *File) LineCount() int { return len(f.lines) }

// Position resolves p. Like Puppet, the column counts characters, not bytes:
// a tab or a multibyte character counts as one.
func (f *File) Position(p Pos) Position {
	if !p.IsValid() {
		return Position{Filename: f.Name}
	}
	off := p.Offset()
	if off > len(f.Src) {
		off = len(f.Src)
	}
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	start := f.lines[i]
	return Position{
		Filename: f.Name,
		Offset:   off,
		Line:     i + 1,
		Column:   utf8.RuneCount(f.Src[start:off]) + 1,
	}
}
