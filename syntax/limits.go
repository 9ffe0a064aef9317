package syntax

// Limits on what the parser accepts; a later `help limits` page lists these
// constants by name. Sources must also be valid UTF-8 (InvalidUTF8Message).
const (
	// MaxExpressionDepth bounds the nesting of expressions, so that deeply
	// nested input gets an error ("Expressions are nested too deeply")
	// rather than exhausting the stack.
	MaxExpressionDepth = 10000
)
