package value

import "strings"

// stringsEqualFold compares with ASCII-only case folding, as Ruby's casecmp (and
// so Puppet's == on strings) does: 'É' and 'é' are different.
func stringsEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// lowerString lowercases ASCII letters only (Ruby's casecmp ordering).
func lowerString(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

// ContainsFold reports whether sub occurs in s ignoring case, as Puppet's `in`
// operator does for strings (a Unicode downcase of both sides).
func ContainsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func lowerUnicode(s string) string { return strings.ToLower(s) }
