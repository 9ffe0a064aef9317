package syntax

import (
	"strings"

	"github.com/marionette-dev/marionette/diag"
)

// scanHeredoc scans a heredoc header @(TAG:syntax/escapes) and cuts the
// heredoc's text out of the following lines. Scanning of the current line
// then goes on after the header; the newline that ends it jumps past the
// end tag (or a second heredoc on the same line takes the lines after the
// first one's end tag).
func (s *scanner) scanHeredoc() token {
	start := s.off
	src := s.src
	closing := strings.IndexByte(src[start:], ')')
	if closing < 0 {
		s.error(start, diag.HeredocUnclosedParenthesis, "Unclosed parenthesis after '@(' followed by '"+followedBy(src[start:])+"'")
		return token{kind: EOF}
	}
	afterHeader := start + closing + 1
	header := src[start+2 : afterHeader-1]
	tag, syntaxName, escapes, hasEscapes, ok := parseHeredocHeader(header)
	if !ok {
		s.error(afterHeader, diag.HeredocInvalidSyntax, "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])")
		return token{kind: EOF}
	}
	tag = strings.Trim(tag, " \t\r\n\f\v")
	interp := false
	if len(tag) >= 2 && tag[0] == '"' && tag[len(tag)-1] == '"' {
		interp = true
		tag = strings.Trim(tag[1:len(tag)-1], " \t\r\n\f\v")
	}
	if tag == "" {
		s.error(afterHeader, diag.HeredocEmptyEndtag, "Heredoc with an empty endtag")
		return token{kind: EOF}
	}
	var set escapeSet
	if hasEscapes {
		if escapes == "" {
			escapes = "trnsuL$"
		}
		set = escBackslash
		for i := 0; i < len(escapes); i++ {
			e := escapes[i]
			if strings.IndexByte(escapes[i+1:], e) >= 0 {
				s.error(afterHeader, diag.HeredocMultipleAtEscapes, "An escape char for @() may only appear once. Got '"+strings.Join(strings.Split(escapes, ""), ", ")+"'")
				return token{kind: EOF}
			}
			switch e {
			case 't':
				set |= escT
			case 'r':
				set |= escR
			case 'n':
				set |= escN
			case 's':
				set |= escS
			case 'u':
				set |= escU
			case '$':
				set |= escDollar
			case 'L':
				set |= escNewline
			default:
				s.error(afterHeader, diag.HeredocInvalidEscape, "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got '"+string(e)+"'")
				return token{kind: EOF}
			}
		}
	}

	// The text starts on the line after the header, or after the end tag of
	// an earlier heredoc on the same line.
	textStart := s.jump
	if textStart < 0 {
		nl := strings.IndexByte(src[afterHeader:], '\n')
		if nl < 0 {
			s.error(afterHeader, diag.HeredocWithoutText, "Heredoc without any following lines of text")
			return token{kind: EOF}
		}
		textStart = afterHeader + nl + 1
	}
	var lineStarts []int
	for i := textStart; i < len(src); {
		lineEnd := strings.IndexByte(src[i:], '\n')
		next := len(src)
		if lineEnd >= 0 {
			next = i + lineEnd + 1
		}
		line := src[i:next]
		if leading, margin, trim, ok := matchEndTag(line, tag); ok {
			hd := buildHeredoc(src, lineStarts, i, leading, margin, trim)
			hd.escapes = set
			hd.interp = interp
			s.jump = next
			s.off = afterHeader
			// Like Puppet, scan the text now: its errors come first.
			hd.tokens = scanHeredocText(hd, s.errh)
			if hd.tokens == nil {
				s.dead = true
				return token{kind: EOF}
			}
			return token{kind: HEREDOC, off: start, end: afterHeader, text: syntaxName, hd: hd}
		}
		lineStarts = append(lineStarts, i)
		i = next
	}
	s.error(textStart, diag.HeredocWithoutEndTaggedLine, "Heredoc without end-tagged line")
	return token{kind: EOF}
}

// parseHeredocHeader splits TAG[:syntax][/escapes] (the text between "@("
// and ")").
func parseHeredocHeader(h string) (tag, syntaxName, escapes string, hasEscapes, ok bool) {
	i := 0
	for i < len(h) && strings.IndexByte(":/\r\n", h[i]) < 0 {
		i++
	}
	if i == 0 {
		return "", "", "", false, false
	}
	tag = h[:i]
	skipBlanks := func() {
		for i < len(h) && (h[i] == ' ' || h[i] == '\t') {
			i++
		}
	}
	if i < len(h) && h[i] == ':' {
		i++
		skipBlanks()
		j := i
		if j < len(h) && isLower(h[j]) {
			j++
			for j < len(h) && (isWordChar(h[j]) || h[j] == '+') {
				j++
			}
		}
		if j-i < 2 {
			return "", "", "", false, false
		}
		syntaxName = h[i:j]
		i = j
		skipBlanks()
	}
	if i < len(h) && h[i] == '/' {
		i++
		j := i
		for j < len(h) && (isWordChar(h[j]) || h[j] == '$') {
			j++
		}
		escapes, hasEscapes = h[i:j], true
		i = j
		skipBlanks()
	}
	return tag, syntaxName, escapes, hasEscapes, i == len(h)
}

// matchEndTag reports whether line ends a heredoc with the given tag: the
// tag, then only blanks to the end of the line, optionally preceded by '-'
// (trim the last line break) and '|' (the margin to remove), each with
// blanks around. Like Puppet, it looks for the tag at the end of the line,
// whatever precedes it.
func matchEndTag(line, tag string) (leading string, margin, trim, ok bool) {
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
	}
	if end > 0 && line[end-1] == '\r' {
		end--
	}
	for end > 0 && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	if !strings.HasSuffix(line[:end], tag) {
		return "", false, false, false
	}
	i := end - len(tag)
	back := func() {
		for i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
			i--
		}
	}
	back()
	if i > 0 && line[i-1] == '-' {
		trim = true
		i--
		back()
	}
	if i > 0 && line[i-1] == '|' {
		margin = true
		i--
		blanksEnd := i
		back()
		leading = line[i:blanksEnd]
	}
	return leading, margin, trim, true
}

// buildHeredoc joins the text lines (starting at the given offsets, the
// last one ending at end), removing the margin and, with trim, the final
// line break.
func buildHeredoc(src string, lineStarts []int, end int, leading string, margin, trim bool) *heredoc {
	hd := &heredoc{lines: make([]lineSpan, 0, len(lineStarts)+1)}
	var b strings.Builder
	for k, ls := range lineStarts {
		le := end
		if k+1 < len(lineStarts) {
			le = lineStarts[k+1]
		}
		line := src[ls:le]
		cut := 0
		if margin && leading != "" && strings.HasPrefix(line, leading) {
			cut = len(leading)
		}
		hd.lines = append(hd.lines, lineSpan{local: b.Len(), global: ls + cut})
		b.WriteString(line[cut:])
	}
	text := b.String()
	if trim {
		text = strings.TrimSuffix(text, "\n")
		text = strings.TrimSuffix(text, "\r")
	}
	if len(hd.lines) == 0 {
		hd.lines = append(hd.lines, lineSpan{local: 0, global: end})
	}
	hd.text = text
	return hd
}

// scanHeredocText scans the text of a heredoc as one unquoted string and
// returns its tokens, ending with EOF, or nil after an error.
func scanHeredocText(hd *heredoc, errh func(off int, code diag.Code, msg string)) []token {
	s := newScanner(hd.text, errh)
	s.lines = hd.lines
	s.strs = append(s.strs, strFrame{escapes: hd.escapes, interp: hd.interp})
	s.resume = true
	s.resumeFirst = true
	var toks []token
	for {
		t := s.next()
		if s.dead {
			return nil
		}
		// Map the offsets to the file now: the parser of the text reads
		// the tokens from this list.
		t.off, t.end = s.globalOffset(t.off), s.globalOffset(t.end)
		toks = append(toks, t)
		if t.kind == EOF {
			return toks
		}
	}
}
