package value

import (
	"regexp"
	"strings"
)

// NewRegexp compiles a Puppet (Ruby-flavoured) regular expression. The common
// Ruby-only escapes are translated to their RE2 equivalents; constructs RE2
// cannot express (backreferences, lookaround) are reported as errors.
// In Ruby ^ and $ always match at line boundaries, hence (?m).
func NewRegexp(src string) (*Regexp, error) {
	re, err := regexp.Compile("(?m)" + translateRubyRegexp(src))
	if err != nil {
		return nil, err
	}
	return &Regexp{Source: src, RE: re}, nil
}

// translateRubyRegexp maps Ruby regexp syntax onto Go's: \A and \z are the same,
// \Z (end or before final newline) and \h (hex digit) differ.
func translateRubyRegexp(src string) string {
	if !strings.ContainsRune(src, '\\') && !strings.Contains(src, "(?<") {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			switch src[i+1] {
			case 'Z':
				b.WriteString(`(?:\n?\z)`)
				i++
				continue
			case 'h':
				b.WriteString(`[0-9a-fA-F]`)
				i++
				continue
			case 'H':
				b.WriteString(`[^0-9a-fA-F]`)
				i++
				continue
			}
			b.WriteByte(c)
			b.WriteByte(src[i+1])
			i++
			continue
		}
		// Ruby's named groups (?<name>...) are (?P<name>...) in older Go syntax;
		// Go accepts both since 1.22, so nothing to do.
		b.WriteByte(c)
	}
	return b.String()
}
