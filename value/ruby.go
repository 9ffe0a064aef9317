package value

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Puppet's messages (and stdlib's results) often show values the way Ruby
// prints them: to_s, inspect, class names. These reproduce Ruby 3.1's
// notation for the values Puppet works with.

// RubyString is Ruby's to_s: strings raw, nil empty, arrays and hashes in
// inspect form.
func RubyString(v Value) string {
	switch v := v.(type) {
	case String:
		return string(v)
	case Array, *Hash:
		return RubyInspect(v)
	}
	if IsUndef(v) {
		return ""
	}
	return rubyScalar(v)
}

// RubyInspect is Ruby's inspect: strings double-quoted, nil as "nil",
// hashes as {"k"=>v}.
func RubyInspect(v Value) string {
	var b strings.Builder
	writeRubyInspect(&b, v)
	return b.String()
}

func writeRubyInspect(b *strings.Builder, v Value) {
	switch v := v.(type) {
	case String:
		writeRubyQuoted(b, string(v))
	case Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRubyInspect(b, e)
		}
		b.WriteByte(']')
	case *Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			writeRubyInspect(b, k)
			b.WriteString("=>")
			writeRubyInspect(b, e)
		}
		b.WriteByte('}')
	default:
		if IsUndef(v) {
			b.WriteString("nil")
			return
		}
		if IsDefault(v) {
			b.WriteString(":default")
			return
		}
		b.WriteString(rubyScalar(v))
	}
}

// rubyScalar is to_s of the remaining values: numbers, booleans, types.
func rubyScalar(v Value) string {
	switch v := v.(type) {
	case Integer:
		return strconv.FormatInt(int64(v), 10)
	case Float:
		return FormatFloat(float64(v))
	case Boolean:
		if v {
			return "true"
		}
		return "false"
	case *Regexp:
		return "(?-mix:" + v.Source + ")"
	case *Sensitive:
		return "Sensitive [value redacted]"
	}
	if IsDefault(v) {
		return "default"
	}
	return ToString(v)
}

// writeRubyQuoted writes s as Ruby's String#inspect does.
func writeRubyQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, "\\x%02X", s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '#' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '$' || s[i+1] == '@'):
			b.WriteString("\\#")
		case r == '\n':
			b.WriteString("\\n")
		case r == '\t':
			b.WriteString("\\t")
		case r == '\r':
			b.WriteString("\\r")
		case r == '\f':
			b.WriteString("\\f")
		case r == '\v':
			b.WriteString("\\v")
		case r == '\a':
			b.WriteString("\\a")
		case r == '\b':
			b.WriteString("\\b")
		case r == 0x1b:
			b.WriteString("\\e")
		case !rubyPrintable(r):
			if r < 0x10000 {
				fmt.Fprintf(b, "\\u%04X", r)
			} else {
				fmt.Fprintf(b, "\\u{%X}", r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// rubyPrintable is what Ruby 3.1's String#inspect writes as it is in UTF-8
// text (recorded with Ruby: U+0085 and format characters such as U+200B
// stay, line and paragraph separators and unassigned code points are
// escaped): everything but the ASCII control characters, U+2028, U+2029
// and code points Unicode does not assign.
func rubyPrintable(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return false
	case r < 0x80:
		return true
	case unicode.In(r, unicode.Zl, unicode.Zp):
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cc, unicode.Cf, unicode.Co)
}

// RubyQuote is Ruby's String#inspect of s.
func RubyQuote(s string) string {
	var b strings.Builder
	writeRubyQuoted(&b, s)
	return b.String()
}

// RubyClass is the Ruby class name of the object Puppet uses for v.
func RubyClass(v Value) string {
	switch v := v.(type) {
	case String:
		return "String"
	case Integer:
		return "Integer"
	case Float:
		return "Float"
	case Boolean:
		if v {
			return "TrueClass"
		}
		return "FalseClass"
	case Array:
		return "Array"
	case *Hash:
		return "Hash"
	case *Regexp:
		return "Regexp"
	case *Sensitive:
		return "Puppet::Pops::Types::PSensitiveType::Sensitive"
	case *Timestamp:
		return "Puppet::Pops::Time::Timestamp"
	case *Timespan:
		return "Puppet::Pops::Time::Timespan"
	case *SemVer:
		return "SemanticPuppet::Version"
	case *SemVerRange:
		return "SemanticPuppet::VersionRange"
	case *Binary:
		return "Puppet::Pops::Types::PBinaryType::Binary"
	case *Deferred:
		return "Deferred"
	case Type:
		return "Puppet::Pops::Types::P" + v.TypeName() + "Type"
	}
	if IsUndef(v) {
		return "NilClass"
	}
	if IsDefault(v) {
		return "Symbol"
	}
	return "Object"
}

// RubyEqual is Ruby's ==: strings compare case-sensitively, an Integer and
// a Float by value, arrays and hashes element by element.
func RubyEqual(a, b Value) bool {
	switch a := a.(type) {
	case Integer:
		if f, ok := b.(Float); ok {
			return Float(a) == f
		}
	case Float:
		if i, ok := b.(Integer); ok {
			return a == Float(i)
		}
	case Array, *Hash:
		var m equalMemo
		return m.collections(a, b, RubyEqual)
	}
	return Identical(a, b)
}
