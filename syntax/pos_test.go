package syntax

import (
	"reflect"
	"testing"
)

// TestErrorPos: the parser records where Puppet places an expression in
// its messages (an operator, a method call's '(' or '.', a type alias's
// name, a parameter's '$', a hash entry's "=>"), so that no one scans the
// source again to find it. want marks the place with '^' under src.
func TestErrorPos(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		// find picks the node of interest: the first of its type.
		node Node
	}{
		{"binary", "$x = 1 /* c */ +\n 2", "               ^", &BinaryExpr{}},
		{"assignment", "$x   = 1", "     ^", &AssignExpr{}},
		{"relationship", "File['a'] ->\n File['b']", "          ^", &RelationshipExpr{}},
		{"method call with parentheses", "$a . each ($x) |$v| { }", "          ^", &MethodCall{}},
		{"method call without", "$a .each |$v| { }", "   ^", &MethodCall{}},
		{"type alias", "type   Foo = Integer", "       ^", &TypeAlias{}},
		{"parameter", "class c(Integer * $rest) {}", "                  ^", &Parameter{}},
		{"other expressions: their start", "notice(1)", "^", &CallExpr{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := ParseFile("t.pp", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var found Node
			Inspect(prog, func(n Node) bool {
				if found == nil && reflect.TypeOf(n) == reflect.TypeOf(tt.node) {
					found = n
				}
				return found == nil
			})
			if found == nil {
				t.Fatalf("no %T in %q", tt.node, tt.src)
			}
			want := len(tt.want) - 1
			if got := ErrorPos(found).Offset(); got != want {
				t.Errorf("ErrorPos at offset %d, want %d\n%s\n%*s^", got, want, tt.src, got, "")
			}
		})
	}
}

// TestHashArrowPos: each hash entry, and each attribute of a resource body,
// knows where its "=>" is.
func TestHashArrowPos(t *testing.T) {
	src := "$h = {'a'  =>  1, 'b'=>2}\nnotify { 'x': message   => 'm' }"
	prog, err := ParseFile("t.pp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var arrows []int
	Inspect(prog, func(n Node) bool {
		switch n := n.(type) {
		case *HashEntry:
			arrows = append(arrows, n.Arrow.Offset())
		case *AttributeOp:
			arrows = append(arrows, n.OpPos.Offset())
		}
		return true
	})
	if want := []int{11, 21, 50}; !reflect.DeepEqual(arrows, want) {
		t.Errorf("arrows at %v, want %v", arrows, want)
	}
}
