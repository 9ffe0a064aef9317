package erb

// Limits that keep a bad template or Ruby function from hanging or
// exhausting memory. Where Ruby itself raises (an argument whose size
// overflows, "argument too big"), the error has Ruby's class and words;
// past these limits, where Ruby would go on allocating, the error names the
// limit. A later `help limits` page lists these constants by name.
const (
	// MaxStringSize bounds the output of one template and any one string
	// a template builds (String#*, +, <<, ljust/rjust/center, %, join).
	MaxStringSize = 64 << 20

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
