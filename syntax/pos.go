package syntax

import (
	"bytes"
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

// SkipSpace returns the offset of the first byte at or after off that is
// not white space or a comment.
func (f *File) SkipSpace(off int) int {
	src := f.Src
	for off < len(src) {
		switch c := src[off]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			off++
		case c == '#':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		case c == '/' && off+1 < len(src) && src[off+1] == '*':
			end := bytes.Index(src[off+2:], []byte("*/"))
			if end < 0 {
				return len(src)
			}
			off += 2 + end + 2
		default:
			return off
		}
	}
	return off
}

// ErrorOffset returns the offset where Puppet places n in its messages, as
// its parser locates expressions: the operator of a binary, assignment or
// relationship expression; the '(' of a method call with parentheses, else
// its '.'; the start of anything else.
func (f *File) ErrorOffset(n Node) int {
	switch n := n.(type) {
	case *BinaryExpr:
		return f.SkipSpace(n.Left.End().Offset())
	case *AssignExpr:
		return f.SkipSpace(n.Left.End().Offset())
	case *RelationshipExpr:
		return f.SkipSpace(n.Left.End().Offset())
	case *MethodCall:
		dot := f.SkipSpace(n.Receiver.End().Offset())
		if !n.Parenthesized {
			return dot
		}
		return f.SkipSpace(f.SkipSpace(dot+1) + len(n.Name))
	}
	return n.Pos().Offset()
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
