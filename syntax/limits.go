package syntax

// Limits on what the parser accepts; a later `help limits` page lists these
// constants by name. Sources must also be valid UTF-8 (InvalidUTF8Message).
const (
	// MaxExpressionDepth bounds the nesting of expressions, so that deeply
	// nested input gets an error naming it rather than exhausting the stack
	// (`marionette help limits` lists it).
	MaxExpressionDepth = 10000
)
