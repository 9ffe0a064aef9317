package validate

import (
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/syntax"
)

// label names the kind of a node the way Puppet's messages do.
func label(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Program:
		return "Program"
	case *syntax.Block:
		return "Block Expression"
	case *syntax.StringLit:
		return "String"
	case *syntax.InterpolatedString:
		return "Double Quoted String"
	case *syntax.Heredoc:
		return "'@(" + n.Syntax + ")' expression"
	case *syntax.IntegerLit:
		return "Literal Integer"
	case *syntax.FloatLit:
		return "Literal Float"
	case *syntax.BoolLit:
		return "Boolean"
	case *syntax.UndefLit:
		return "'undef' expression"
	case *syntax.DefaultLit:
		return "'default' expression"
	case *syntax.RegexLit:
		return "Regular Expression"
	case *syntax.Variable:
		return "Variable"
	case *syntax.QualifiedName:
		return "Name"
	case *syntax.TypeReference:
		return "Type-Name"
	case *syntax.ArrayLit:
		return "Array Expression"
	case *syntax.HashLit:
		return "Hash Expression"
	case *syntax.HashEntry:
		return "Hash Entry"
	case *syntax.AccessExpr:
		return "'[]' expression"
	case *syntax.CallExpr:
		return "Function Call"
	case *syntax.MethodCall:
		return "Method call"
	case *syntax.Lambda:
		return "Lambda"
	case *syntax.Parameter:
		return "Parameter Definition"
	case *syntax.UnaryExpr:
		switch n.Op {
		case syntax.SUB:
			return "Unary Minus"
		case syntax.NOT:
			return "'not' expression"
		}
		return "Unfold"
	case *syntax.BinaryExpr:
		return "'" + n.Op.String() + "' expression"
	case *syntax.AssignExpr:
		return "'=' expression"
	case *syntax.RelationshipExpr:
		return "'" + n.Op.String() + "' expression"
	case *syntax.ParenExpr:
		return "Parenthesized Expression"
	case *syntax.IfExpr:
		return "'if' statement"
	case *syntax.UnlessExpr:
		return "'unless' Statement"
	case *syntax.CaseExpr:
		return "'case' statement"
	case *syntax.CaseOption:
		return "Case Option"
	case *syntax.SelectorExpr:
		return "Selector Expression"
	case *syntax.SelectorOption:
		return "Selector Option"
	case *syntax.ResourceExpr:
		return "Resource Statement"
	case *syntax.ResourceBody:
		return "Resource Instance Definition"
	case *syntax.AttributeOp:
		return "'" + n.Op.String() + "' expression"
	case *syntax.ResourceDefaultsExpr:
		return "Resource Defaults Expression"
	case *syntax.ResourceOverrideExpr:
		return "Resource Override"
	case *syntax.CollectExpr:
		if n.Exported {
			return "Exported Query"
		}
		return "Virtual Query"
	case *syntax.ClassDef:
		return "Host Class Definition"
	case *syntax.DefineDef:
		return "'define' expression"
	case *syntax.NodeDef:
		return "Node Definition"
	case *syntax.FunctionDef:
		return "Function Definition"
	case *syntax.TypeAlias:
		return "Type Alias"
	case *syntax.EPPProgram:
		return "Epp Template"
	case *syntax.RenderString:
		return "Epp Text"
	case *syntax.RenderExpr:
		return "Epp Interpolated Expression"
	}
	return "Expression"
}

// article returns "a" or "an" for a label, looking past a leading quote.
func article(s string) string {
	s = strings.TrimLeft(s, `'"`)
	if s != "" && strings.ContainsRune("aeiouyAEIOUY", rune(s[0])) {
		return "an"
	}
	return "a"
}

// aAn returns the label with its article: "a Host Class Definition".
func aAn(label string) string { return article(label) + " " + label }

// aAnUpper returns the label with its article capitalized: "An Array
// Expression".
func aAnUpper(label string) string {
	a := article(label)
	return strings.ToUpper(a[:1]) + a[1:] + " " + label
}

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
