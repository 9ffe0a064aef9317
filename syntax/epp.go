package syntax

import (
	"strings"

	"github.com/marionette-dev/marionette/diag"
)

// scanTemplateText scans EPP template text up to the next tag. It returns
// false when there is no text token to return (empty text before a tag).
func (s *scanner) scanTemplateText() (token, bool) {
	start := s.off
	src := s.src
	if start >= len(src) {
		s.epp = eppText
		return token{}, false
	}
	var b strings.Builder
	i := start
	for i < len(src) {
		j := strings.Index(src[i:], "<%")
		partEnd := len(src)
		if j >= 0 {
			partEnd = i + j + 2
		}
		part := src[i:partEnd]
		i = partEnd
		if s.skipLead {
			s.skipLead = false
			part = trimLeadingLine(part)
		}
		b.WriteString(strings.ReplaceAll(part, "%%>", "%>"))
		if j < 0 {
			break
		}
		text := b.String()
		var next byte
		if i < len(src) {
			next = src[i]
		}
		switch next {
		case 0:
			s.error(i, diag.EPPUnbalancedExpression, "Unbalanced embedded expression - opening <% and reaching end of input")
			return token{}, false
		case '%':
			i++ // <%% is a literal <%
			continue
		case '#':
			b.Reset()
			b.WriteString(text[:len(text)-2])
			k := strings.Index(src[i:], "%>")
			for k == 0 || k > 0 && src[i+k-1] == '%' {
				// A comment ends at %> not preceded by %.
				k2 := strings.Index(src[i+k+1:], "%>")
				if k2 < 0 {
					k = -1
					break
				}
				k = k + 1 + k2
			}
			if k < 0 {
				s.error(i, diag.EPPUnbalancedComment, "Reaching end after opening <%# without seeing %>")
				return token{}, false
			}
			if i+1 < len(src) && src[i+1] == '-' {
				t := strings.TrimRight(b.String(), " \t")
				b.Reset()
				b.WriteString(t)
			}
			if src[i+k-1] == '-' {
				s.skipLead = true
			}
			i += k + 2
			continue
		case '-':
			s.off = i + 1
			s.epp = eppCode
			s.lineDirty = true
			return s.textToken(start, i-2, strings.TrimRight(text[:len(text)-2], " \t"), false)
		case '=':
			s.off = i + 1
			s.epp = eppExpr
			s.lineDirty = true
			// Puppet places <%= where the text before it starts.
			s.pending = token{kind: RENDEREXPR, off: start, end: i + 1}
			if t, ok := s.textToken(start, i-2, text[:len(text)-2], false); ok {
				s.hasPend = true
				return t, true
			}
			return s.pending, true
		default:
			s.off = i
			s.epp = eppCode
			s.lineDirty = true
			return s.textToken(start, i-2, text[:len(text)-2], false)
		}
	}
	s.off = len(src)
	s.epp = eppText
	return s.textToken(start, len(src), b.String(), true)
}

func (s *scanner) textToken(start, end int, text string, always bool) (token, bool) {
	if text == "" && !always {
		return token{}, false
	}
	return token{kind: RENDERSTRING, off: start, end: end, text: text}, true
}

// trimLeadingLine drops blanks and one line break from the start of s, as
// -%> asks.
func trimLeadingLine(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '\r' {
		i++
	}
	if i < len(s) && s[i] == '\n' {
		i++
	}
	return s[i:]
}
