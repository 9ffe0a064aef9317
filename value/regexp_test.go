package value

import "testing"

// TestRegexpRepeatWithoutMinimum checks Ruby's {,n} (zero to n times),
// which Stdlib::Base32 and Stdlib::Base64 use for their padding: Go's
// engine and regexp2 would read it as literal text.
func TestRegexpRepeatWithoutMinimum(t *testing.T) {
	tests := []struct {
		pattern, input string
		want           bool
	}{
		{`^a{,2}b$`, "b", true},
		{`^a{,2}b$`, "aab", true},
		{`^a{,2}b$`, "aaab", false},
		{`^a{,2}b$`, "a{,2}b", false},
		{`^[{,2}]+$`, "{,2}", true},  // in a class: characters
		{`^a\{,2}$`, "a{,2}", true},  // escaped: literal
		{`^{,2}$`, "{,2}", true},     // nothing to repeat: literal
		{`^a{,x}$`, "a{,x}", true},   // no count: literal
		{`^(?=a)a{,2}$`, "aa", true}, // the backtracking engine too
		{`^(?=a)a{,2}$`, "aaa", false},
		{`^(?:[a-z2-7]{8})*(?:[a-z2-7]{2}={,6})?$`, "mz======", true},
	}
	for _, tt := range tests {
		re, err := NewRegexp(tt.pattern)
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
			continue
		}
		if got := re.MatchString(tt.input); got != tt.want {
			t.Errorf("%q =~ /%s/ = %v, want %v", tt.input, tt.pattern, got, tt.want)
		}
	}
}
