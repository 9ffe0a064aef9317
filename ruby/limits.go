package ruby

// Limits that keep a bad template or Ruby function from hanging or
// exhausting memory. Where Ruby itself raises (an argument whose size
// overflows, "argument too big"), the error has Ruby's class and words;
// past these limits, where Ruby would go on allocating, the error names the
// limit, says it is marionette's and how to raise it (or that it is fixed).
// `marionette help limits` lists them.
const (
	// MaxStringSize bounds the output of one template and any one string
	// a template builds (String#*, +, <<, ljust/rjust/center, %, join).
	// RenderOptions.MaxSize (TemplateSizeFlag) raises it, up to
	// MaxTemplateSizeCeiling.
	MaxStringSize = 64 << 20

	// MaxTemplateSizeCeiling is the most RenderOptions.MaxSize may raise
	// MaxStringSize to.
	MaxTemplateSizeCeiling = 1 << 30

	// TemplateSizeFlag is the marionette flag that sets
	// RenderOptions.MaxSize, for error messages.
	TemplateSizeFlag = "--max-template-size"

	// MaxParseDepth bounds the nesting of expressions in a template.
	MaxParseDepth = 500

	// MaxArraySize bounds the elements of one array a template builds
	// (Array#*, Array.new, Range#to_a, Range#step, flatten, concat, <<).
	MaxArraySize = 1 << 20

	// MaxFormatWidth bounds a width or precision in a format directive
	// (String#%, format, sprintf).
	MaxFormatWidth = 1_000_000

	// MaxSteps bounds the evaluation steps of one rendering.
	MaxSteps = 20_000_000

	// MaxCallDepth bounds nested method and block calls.
	MaxCallDepth = 2000

	// MaxNesting bounds recursion into nested (possibly self-containing)
	// arrays and hashes, and MaxVisits the elements one walk may visit.
	MaxNesting = 100
	MaxVisits  = 1 << 20
)
