package validate

import "strings"

// Name rules, written out by hand: the validator checks every name of every
// parsed file, and regexp matching was three quarters of its time. The
// regular expression each function implements is in its comment (\w is
// [0-9A-Za-z_]); names_test.go checks them against those expressions.

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// isWord reports whether s is a first byte accepted by first and then only
// word bytes.
func isWord(s string, first func(byte) bool) bool {
	if s == "" || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

// isQualified reports whether every "::"-separated segment of s is a word
// starting with a byte accepted by first.
func isQualified(s string, first func(byte) bool) bool {
	for {
		seg, rest, more := strings.Cut(s, "::")
		if !isWord(seg, first) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isClassName: ^[a-z]\w*(?:::[a-z]\w*)*$ (classes, defines, functions).
func isClassName(s string) bool { return isQualified(s, isLowerByte) }

// isTypeName: ^[A-Z]\w*(?:::[A-Z]\w*)*$ (type aliases).
func isTypeName(s string) bool { return isQualified(s, isUpperByte) }

// isVarName: ^(?:::)?(?:[a-z]\w*::)*[a-z_]\w*$
// One pass over the bytes: every variable reference is checked.
func isVarName(s string) bool {
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		s = s[2:]
	}
	seg := 0 // where the current segment starts
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ':' {
			if i > seg && !isWordByte(s[i]) {
				return false
			}
			continue
		}
		if i == seg {
			return false // an empty segment
		}
		first := s[seg]
		if i == len(s) {
			return first == '_' || isLowerByte(first)
		}
		if !isLowerByte(first) || i+1 >= len(s) || s[i+1] != ':' {
			return false
		}
		i++
		seg = i + 1
	}
	return false
}

// isNumericVarName: ^(?:0|[1-9][0-9]*)$
func isNumericVarName(s string) bool {
	if s == "0" {
		return true
	}
	return isDigits(s) && s[0] != '0'
}

// isParamName: ^[a-z_]\w*$
func isParamName(s string) bool {
	return isWord(s, func(c byte) bool { return c == '_' || isLowerByte(c) })
}

// isNumericParam: ^(?:0x)?[0-9]+$
func isNumericParam(s string) bool { return isDigits(strings.TrimPrefix(s, "0x")) }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

// hasIllegalHostnameChar: [^-\w.] matches somewhere in s.
func hasIllegalHostnameChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isWordByte(c) && c != '-' && c != '.' {
			return true
		}
	}
	return false
}
