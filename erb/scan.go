package erb

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/ruby"
)

// scanERB splits a template into segments, applying Puppet's trim mode '-':
// a tag opened with <%- drops the blanks before it when only blanks stand
// between it and the start of its line or the end of the previous tag (Ruby's
// ERB scans on from the end of each tag, where its ^ matches), and a tag
// closed with -%> drops the newline right after it. <%% is a literal <%, and
// <%# ... %> is a comment.
func scanERB(name string, src string) ([]ruby.Segment, error) {
	// Each tag gives at most a text and a tag segment.
	segs := make([]ruby.Segment, 0, 2*strings.Count(src, "<%")+1)
	var text textBuf
	// afterTag is the length of text when the last tag (or <%% literal)
	// ended; text is empty then, but for comments and literals.
	afterTag := 0
	textLine := 1
	line := 1
	flushText := func() {
		if text.Len() > 0 {
			segs = append(segs, ruby.Segment{Kind: ruby.SegText, Text: text.String(), Line: textLine})
			text.Reset()
		}
	}
	i := 0
	for i < len(src) {
		start := strings.Index(src[i:], "<%")
		if start < 0 {
			if text.Len() == 0 {
				textLine = line
			}
			text.WriteString(src[i:])
			break
		}
		if text.Len() == 0 {
			textLine = line
		}
		text.WriteString(src[i : i+start])
		line += strings.Count(src[i:i+start], "\n")
		i += start
		tagLine := line
		if strings.HasPrefix(src[i:], "<%%") {
			text.WriteString("<%")
			i += 3
			afterTag = text.Len()
			continue
		}
		i += 2
		if i < len(src) && src[i] == '-' {
			i++
			t := text.String()
			k := len(t)
			for k > afterTag && (t[k-1] == ' ' || t[k-1] == '\t') {
				k--
			}
			if k == afterTag || t[k-1] == '\n' {
				text.Reset()
				text.WriteString(t[:k])
			}
		}
		kind := ruby.SegCode
		comment := false
		if i < len(src) {
			switch src[i] {
			case '=':
				kind = ruby.SegOutput
				i++
			case '#':
				comment = true
				i++
			}
		}
		end := findTagEnd(src, i)
		if end < 0 {
			return nil, fmt.Errorf("template %s:%d: unterminated ERB tag", name, tagLine)
		}
		body := src[i:end]
		trim := false
		if strings.HasSuffix(body, "-") {
			body = body[:len(body)-1]
			trim = true
		}
		line += strings.Count(src[i:end], "\n")
		i = end + 2
		trimmed := false
		if trim {
			if strings.HasPrefix(src[i:], "\r\n") {
				i += 2
				line++
				trimmed = true
			} else if strings.HasPrefix(src[i:], "\n") {
				i++
				line++
				trimmed = true
			}
		}
		if comment {
			afterTag = text.Len()
			continue
		}
		flushText()
		afterTag = 0
		segs = append(segs, ruby.Segment{Kind: kind, Text: body, Line: tagLine, TrimmedNewline: trimmed})
		textLine = line
	}
	flushText()
	return segs, nil
}

// textBuf gathers a text segment: a single piece of the source as it is,
// several (around comments, <%%) joined.
type textBuf struct {
	one    string
	joined strings.Builder
	multi  bool // joined holds the text
}

func (t *textBuf) WriteString(s string) {
	switch {
	case t.multi:
		t.joined.WriteString(s)
	case t.one == "":
		t.one = s
	case s != "":
		t.joined.WriteString(t.one)
		t.joined.WriteString(s)
		t.multi = true
	}
}

func (t *textBuf) Len() int {
	if t.multi {
		return t.joined.Len()
	}
	return len(t.one)
}

func (t *textBuf) String() string {
	if t.multi {
		return t.joined.String()
	}
	return t.one
}

func (t *textBuf) Reset() {
	t.one = ""
	t.joined = strings.Builder{}
	t.multi = false
}

// findTagEnd finds the %> closing a tag whose body starts at i. Like Ruby's ERB
// scanner it does not look into Ruby strings: the first %> ends the tag.
func findTagEnd(src string, i int) int {
	k := strings.Index(src[i:], "%>")
	if k < 0 {
		return -1
	}
	return i + k
}
