// Package source is positions in source files, in the spirit of go/token: a
// Pos is an integer offset, cheap to keep on every syntax node and every
// diagnostic; a File turns it into a Position (file, line, column) only when
// one is printed. It is a leaf: the parser, the diagnostics and the
// evaluator all use it without depending on one another.
package source

import (
	"bytes"
	"sort"
	"strconv"
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

// PosOf returns the Pos of byte offset off.
func PosOf(off int) Pos { return Pos(off + 1) }

// Position is a Pos resolved against its file.
type Position struct {
	Filename string
	Offset   int // byte offset, starting at 0
	Line     int // line number, starting at 1; 0 when unknown
	Column   int // column number in characters, starting at 1; 0 when unknown
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
		s += strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
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
	// bytes.IndexByte is vectorized: much faster than a byte loop.
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return f
		}
		off += i + 1
		f.lines = append(f.lines, off)
	}
}

// LineCount returns the number of lines in the file.
func (f *File) LineCount() int { return len(f.lines) }

// Position resolves p. Like Puppet, the column counts characters, not bytes:
// a tab or a multibyte character counts as one.
func (f *File) Position(p Pos) Position {
	if !p.IsValid() {
		return Position{Filename: f.Name}
	}
	off := min(p.Offset(), len(f.Src))
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	start := f.lines[i]
	return Position{
		Filename: f.Name,
		Offset:   off,
		Line:     i + 1,
		Column:   utf8.RuneCount(f.Src[start:off]) + 1,
	}
}

// Line returns the text of line n (counted from 1) without its line break,
// or nil when the file has no such line.
func (f *File) Line(n int) []byte {
	if n < 1 || n > len(f.lines) {
		return nil
	}
	start, end := f.lines[n-1], len(f.Src)
	if n < len(f.lines) {
		end = f.lines[n] - 1
	}
	return bytes.TrimSuffix(f.Src[start:end], []byte("\r"))
}
