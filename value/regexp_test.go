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

// TestRegexpPossessive checks Ruby's possessive quantifiers (a?+, a*+,
// a++), which give back nothing they matched (mysql::db's check of its
// sql paths uses \/?+), and that an interval followed by + repeats it, as
// in Ruby. The answers are Ruby's own.
func TestRegexpPossessive(t *testing.T) {
	tests := []struct {
		pattern, input string
		want           bool
	}{
		{`^a?+a$`, "a", false},
		{`^a?+b$`, "ab", true},
		{`^a*+a$`, "aaa", false},
		{`^a++$`, "aaa", true},
		{`^(?:ab)++c$`, "ababc", true},
		{`^(ab)*+ab$`, "abab", false},
		{`^[ab]++b$`, "aab", false},
		{`^\d++x$`, "12x", true},
		{`^a{2}+$`, "aaaa", true},
		{`^a{2}+$`, "aaa", false},
		{`^a+?b$`, "aab", true},
		{`^\/(?:.[.A-Za-z0-9_-]+\/?+)+(?:\.[.A-Za-z0-9]+)+$`, "/foo/test/test-1.2.3/schema/test.sql", true},
		{`^\/(?:.[.A-Za-z0-9_-]+\/?+)+(?:\.[.A-Za-z0-9]+)+$`, "/foo.test", true},
		{`^\/(?:.[.A-Za-z0-9_-]+\/?+)+(?:\.[.A-Za-z0-9]+)+$`, "/foo/bar", false},
		{`^\x41++$`, "AA", true},
		{`^(?=a)a?+$`, "a", true},
		{`^[+]+$`, "++", true},
		{`^a\++$`, "a++", true},
	}
	for _, tt := range tests {
		re, err := NewRegexp(tt.pattern)
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
			continue
		}
		got, err := re.Match(tt.input)
		if err != nil || got != tt.want {
			t.Errorf("%q =~ /%s/ = %v (%v), want %v", tt.input, tt.pattern, got, err, tt.want)
		}
	}
}
