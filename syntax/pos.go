package syntax

import "github.com/marionette-dev/marionette/source"

// The parser's positions are package source's: the names below let the
// syntax tree's users keep writing syntax.Pos and syntax.Position.
type (
	// Pos is a position in a source file (source.Pos).
	Pos = source.Pos
	// Position is a Pos resolved against its file (source.Position).
	Position = source.Position
	// File is one source text with its line table (source.File).
	File = source.File
)

// NoPos is the zero Pos: the node or error has no position.
const NoPos = source.NoPos

// NewFile makes a File and builds its line table.
func NewFile(name string, src []byte) *File { return source.NewFile(name, src) }

// ErrorPos returns where Puppet places n in its messages, as its parser
// locates expressions: the operator of a binary, assignment or relationship
// expression; the '(' of a method call with parentheses, else its '.'; the
// name of a type alias; the '$' of a parameter; the start of anything else.
func ErrorPos(n Node) Pos {
	switch n := n.(type) {
	case *BinaryExpr:
		return n.OpPos
	case *AssignExpr:
		return n.OpPos
	case *RelationshipExpr:
		return n.OpPos
	case *MethodCall:
		if n.Parenthesized {
			return n.Lparen
		}
		return n.Dot
	case *TypeAlias:
		return n.NamePos
	case *Parameter:
		if n.NamePos.IsValid() {
			return n.NamePos
		}
	}
	return n.Pos()
}
