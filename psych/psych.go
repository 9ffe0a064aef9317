// Package psych writes YAML as Ruby's Psych (over libyaml) writes plain
// data with Object#to_yaml: the style it picks for each string (plain,
// quoted, literal block), the block layout of sequences and mappings, and
// libyaml's folding of long scalars at column 80. Puppet values (stdlib's
// to_yaml, --render-as yaml: see dataformat.YAML) and Ruby code in
// templates and functions both write through it, so that they agree with
// each other and with Ruby.
package psych

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// Kind is the kind of a Node.
type Kind uint8

// The kinds of node.
const (
	Null   Kind = iota // nil (Puppet's undef)
	Bool               // true, false
	Int                // an Integer
	Float              // a Float
	String             // a String
	Symbol             // a Ruby Symbol, written :name
	Seq                // an Array
	Map                // a Hash
)

// Node is a value to write: a scalar, or a collection of nodes.
type Node struct {
	Kind  Kind
	Bool  bool
	Int   int64
	Float float64
	Str   string // String's text, Symbol's name
	// Items are a Seq's elements; a Map's keys and values alternate.
	Items []Node
}

// ErrUnsupported is wrapped by Dump's errors for data Psych writes in a
// form this package does not follow (a Symbol that needs quotes).
var ErrUnsupported = errors.New("unsupported by psych")

// MaxDepth bounds the nesting Dump writes, as a caller's data may be
// deeper than is sane (Ruby code can build it).
const MaxDepth = 1000

// Dump writes a YAML document as to_yaml does: "---", the node, a final
// newline.
func Dump(n Node) (string, error) {
	return DumpWith(n, Options{})
}

// Options are the options of Ruby's to_yaml that change how Psych writes
// (stdlib::to_yaml passes them on); the zero Options are its defaults.
type Options struct {
	// Indentation is the step of nested collections: 2 to 9, as libyaml
	// takes it; another value means 2.
	Indentation int
	// LineWidth is where scalars fold, 0 for the default (80) and -1 for
	// never. Psych asks for a folded block scalar (">") for a one-line
	// string longer than a LineWidth given.
	LineWidth int
}

// DumpWith is Dump with to_yaml's options.
func DumpWith(n Node, o Options) (string, error) {
	e := &emitter{step: 2, width: defaultWidth}
	if o.Indentation >= 2 && o.Indentation <= 9 {
		e.step = o.Indentation
	}
	switch {
	case o.LineWidth < 0:
		e.width = math.MaxInt / 2
	case o.LineWidth > 0:
		if long := lineSeparated(n, o.LineWidth); long != "" {
			return "", fmt.Errorf("%w: a folded block scalar of a string with a Unicode line or paragraph separator, longer than line_width %d", ErrUnsupported, o.LineWidth)
		}
		e.foldAbove = o.LineWidth
		// libyaml ignores a width within twice the indentation.
		if o.LineWidth > 2*e.step {
			e.width = o.LineWidth
		}
	}
	e.b.WriteString("---")
	if err := e.node(n, 0, atTop, 0); err != nil {
		return "", err
	}
	if e.openEnded {
		// libyaml ends a document whose last block scalar keeps its
		// trailing line breaks ("+") with an explicit end marker.
		e.b.WriteString("...\n")
	}
	return e.b.String(), nil
}

// lineSeparated returns a string of n (keys included) that Psych would
// write as a folded block and that holds U+2028 or U+2029, which libyaml
// folds as line breaks and this package does not follow; "" when there
// is none.
func lineSeparated(n Node, width int) string {
	switch n.Kind {
	case String:
		if utf8.RuneCountInString(n.Str) > width && !multiLine(n.Str) && strings.ContainsAny(n.Str, "\u2028\u2029") {
			return n.Str
		}
	case Seq, Map:
		for _, item := range n.Items {
			if s := lineSeparated(item, width); s != "" {
				return s
			}
		}
	}
	return ""
}

// position says where a node is written, which decides how a collection
// starts.
type position int

const (
	atTop position = iota // after "---"
	inSeq                 // after "-" (or "?" and ":" of a complex key)
	inMap                 // after "key:"
)

type emitter struct {
	b strings.Builder
	// step is the indentation of a nested collection (libyaml's
	// best_indent), width the column past which scalars fold.
	step, width int
	// foldAbove is the line_width given to to_yaml (0 when none): Psych
	// asks for a folded block for a one-line string longer than it.
	foldAbove int
	// openEnded is set when the last block scalar written keeps its
	// trailing breaks, which makes libyaml end the document with "...".
	openEnded bool
}

func (e *emitter) node(n Node, indent int, pos position, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("to_yaml of data nested more than %d deep", MaxDepth)
	}
	pad := strings.Repeat(" ", indent)
	switch n.Kind {
	case Seq:
		if len(n.Items) == 0 {
			e.b.WriteString(" []\n")
			return nil
		}
		for i, item := range n.Items {
			if i == 0 && pos == inSeq {
				e.b.WriteString(strings.Repeat(" ", e.step-1) + "-")
			} else {
				if i == 0 {
					e.b.WriteByte('\n')
				}
				e.b.WriteString(pad + "-")
			}
			if err := e.node(item, indent+e.step, inSeq, depth+1); err != nil {
				return err
			}
		}
		return nil
	case Map:
		if len(n.Items) == 0 {
			e.b.WriteString(" {}\n")
			return nil
		}
		for i := 0; i+1 < len(n.Items); i += 2 {
			k, v := n.Items[i], n.Items[i+1]
			if i == 0 && pos == inSeq {
				e.b.WriteString(strings.Repeat(" ", e.step-1))
			} else {
				if i == 0 {
					e.b.WriteByte('\n')
				}
				e.b.WriteString(pad)
			}
			key, err := e.keyText(k)
			if err != nil {
				return err
			}
			if (k.Kind == Seq || k.Kind == Map) && len(k.Items) > 0 || strings.Contains(key, "\n") || keyLength(k, key) > maxSimpleKey {
				// A complex key: "? key" then ": value", both laid out
				// as a sequence item is.
				e.b.WriteByte('?')
				if k.Kind == Seq || k.Kind == Map {
					if err := e.node(k, indent+e.step, inSeq, depth+1); err != nil {
						return err
					}
				} else {
					text, err := e.scalar(k, indent+e.step)
					if err != nil {
						return err
					}
					e.b.WriteString(" " + e.fold(text, e.column()+1, indent+e.step) + "\n")
				}
				e.b.WriteString(pad + ":")
				if err := e.node(v, indent+e.step, inSeq, depth+1); err != nil {
					return err
				}
				continue
			}
			e.b.WriteString(key + ":")
			// Psych does not indent a sequence under a mapping key.
			child := indent + e.step
			if v.Kind == Seq {
				child = indent
			}
			if err := e.node(v, child, inMap, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	text, err := e.scalar(n, indent)
	if err != nil {
		return err
	}
	if text != "" {
		e.b.WriteByte(' ')
		// A scalar at the top continues on lines indented by two, as one
		// in a sequence or mapping continues two further in.
		e.b.WriteString(e.fold(text, e.column(), max(indent, e.step)))
	}
	e.b.WriteByte('\n')
	return nil
}

// column is the column the text written so far ends at, in characters.
func (e *emitter) column() int {
	s := e.b.String()
	return utf8.RuneCountInString(s[strings.LastIndexByte(s, '\n')+1:])
}

// maxSimpleKey is the longest key libyaml writes as "key:"; a longer one
// takes the "? key" form.
const maxSimpleKey = 128

// keyText writes a scalar (or empty collection) mapping key.
func (e *emitter) keyText(k Node) (string, error) {
	switch k.Kind {
	case Null:
		return "! ''", nil
	case Seq:
		return "[]", nil
	case Map:
		return "{}", nil
	}
	openEnded := e.openEnded
	text, err := e.scalar(k, 0)
	if err == nil && strings.HasPrefix(text, ">") && keyLength(k, text) <= maxSimpleKey {
		// libyaml writes no block scalar as a simple key: the folded
		// style Psych asks for becomes double quotes.
		e.openEnded = openEnded
		return doubleQuoted(k.Str), nil
	}
	return text, err
}

// keyLength is the length libyaml weighs to write a key as "key:": its
// value's, not its quoted text's.
func keyLength(k Node, text string) int {
	switch k.Kind {
	case String:
		return utf8.RuneCountInString(k.Str)
	case Symbol:
		n := utf8.RuneCountInString(k.Str) + 1
		if strings.HasPrefix(text, "! ") {
			n++ // the tag
		}
		return n
	}
	return utf8.RuneCountInString(text)
}

// scalar writes a scalar node ("" for nil, which Psych leaves empty).
func (e *emitter) scalar(n Node, indent int) (string, error) {
	switch n.Kind {
	case Null:
		return "", nil
	case Bool:
		return strconv.FormatBool(n.Bool), nil
	case Int:
		return strconv.FormatInt(n.Int, 10), nil
	case Float:
		switch f := n.Float; {
		case math.IsNaN(f):
			return ".nan", nil
		case math.IsInf(f, 1):
			return ".inf", nil
		case math.IsInf(f, -1):
			return "-.inf", nil
		}
		return value.FormatFloat(n.Float), nil
	case String:
		return e.quote(n.Str, indent), nil
	case Symbol:
		// Psych asks for any style, which libyaml makes plain when it can;
		// quoted, the symbol needs the non-specific tag "!" to stay one.
		s := ":" + n.Str
		switch a := analyze(s); {
		case a.plain:
			return s, nil
		case a.single:
			return "! " + e.singleQuoted(s, indent), nil
		}
		return "! " + doubleQuoted(s), nil
	}
	return "", fmt.Errorf("%w: node kind %d", ErrUnsupported, n.Kind)
}

// defaultWidth is libyaml's preferred line width: past it, a scalar
// breaks at the next space it may break at.
const defaultWidth = 80

// fold breaks a plain, single-quoted or double-quoted scalar written at
// column col as libyaml does: at a single space once the line is past
// width (not at a quoted scalar's first or last character, nor, but in
// double quotes, before another space), continuing on a new line indented
// by indent. In double quotes a break before a space is escaped with \.
func (e *emitter) fold(text string, col, indent int) string {
	if col+utf8.RuneCountInString(text) <= e.width || text == "" || strings.Contains(text, "\n") {
		return text
	}
	style := text[0]
	if i := strings.IndexByte(text, ' '); style == '!' && i > 0 {
		// A tag, then the scalar it tags.
		return text[:i+1] + e.fold(text[i+1:], col+i+1, indent)
	}
	body := text
	switch style {
	case '"', '\'':
		body = text[1 : len(text)-1]
	case '|', '>', '!', '[', '{':
		return text
	default:
		style = 0
	}
	var out strings.Builder
	column := col
	if style != 0 {
		out.WriteByte(style)
		column++
	}
	spaces := false
	last := len(body) - 1
	for i, r := range body {
		if r != ' ' {
			out.WriteRune(r)
			column++
			spaces = false
			continue
		}
		nextSpace := i < last && body[i+1] == ' '
		breakable := !spaces && column > e.width
		if style != 0 {
			breakable = breakable && i != 0 && i != last
		}
		if style != '"' {
			breakable = breakable && !nextSpace
		}
		if breakable {
			out.WriteByte('\n')
			out.WriteString(strings.Repeat(" ", indent))
			column = indent
			if style == '"' && nextSpace {
				out.WriteByte('\\')
				column++
			}
		} else {
			out.WriteByte(' ')
			column++
		}
		spaces = true
	}
	if style != 0 {
		out.WriteByte(style)
	}
	return out.String()
}

// nonString matches the plain scalars Psych's scalar scanner reads as
// something other than a string (booleans, null, numbers with _ and ,
// separators, sexagesimals, dates); Psych single-quotes them.
var nonString = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:yes|true|on|no|false|off|null)$` +
		`|^[-+]?(0|[1-9][0-9_,]*)$|^[-+]?0b[01_,]+$|^[-+]?0[0-7_,]+$|^[-+]?0x[0-9a-fA-F_,]+$` +
		`|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+$` +
		`|^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$|^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*$` +
		`|^\d{4}-\d{1,2}-\d{1,2}` +
		`|^0[0-7]*[89]`)
})

// quote writes a string in the style Psych asks for and libyaml grants.
// Psych asks for a literal block for text with a line break before its
// last line, double quotes for "y", "n" and text with a line starting with
// a non-word character and no '"' to the end of a line, single quotes for
// text its scalar scanner would read as another type, else plain; libyaml
// then falls back from plain to single quotes, and from single quotes or a
// block to double quotes, when its analysis of the text forbids them.
func (e *emitter) quote(s string, indent int) string {
	if s == "" {
		return "''"
	}
	if s == "<<" {
		return "!!str '<<'"
	}
	var style byte = 'p'
	switch {
	case multiLine(s):
		style = '|'
	case s == "y" || s == "n":
		style = '"'
	case e.wantsFolded(s):
		style = '>'
	case nonWordLine(s):
		style = '"'
	case nonString().MatchString(s):
		style = '\''
	}
	a := analyze(s)
	if style == 'p' && !a.plain {
		style = '\''
	}
	if style == '\'' && !a.single {
		style = '"'
	}
	if (style == '|' || style == '>') && !a.block {
		style = '"'
	}
	switch style {
	case 'p':
		return s
	case '\'':
		return e.singleQuoted(s, indent)
	case '|':
		return e.literal(s, indent)
	case '>':
		return e.folded(s, indent)
	}
	return doubleQuoted(s)
}

// wantsFolded is Psych's choice of a folded block: a line_width was given
// and the string, not multi-line (that takes a literal block), is longer.
func (e *emitter) wantsFolded(s string) bool {
	return e.foldAbove > 0 && utf8.RuneCountInString(s) > e.foldAbove
}

// multiLine is Psych's test for a literal block, /\n(?!\Z)/: a line break
// that is not the last character, nor the one before a final newline.
func multiLine(s string) bool {
	i := strings.IndexByte(s, '\n')
	return i >= 0 && i < len(s)-1 && !(i == len(s)-2 && s[len(s)-1] == '\n')
}

// nonWordLine is Psych's /^[^[:word:]][^"]*$/ with Ruby's line anchors: a
// line (not the empty one after a final newline) starts with a non-word
// character, a line break included, and a line ends before any '"'.
func nonWordLine(s string) bool {
	for p := 0; p < len(s); {
		if !wordStart(s[p:]) {
			_, size := utf8.DecodeRuneInString(s[p:])
			rest := s[p+size:]
			end := strings.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			if !strings.Contains(rest[:end], `"`) {
				return true
			}
		}
		next := strings.IndexByte(s[p:], '\n')
		if next < 0 {
			return false
		}
		p += next + 1
	}
	return false
}

// analysis is what libyaml's emitter allows for a scalar in block context.
type analysis struct{ plain, single, block bool }

// analyze is libyaml's scalar analysis: indicators, leading and trailing
// spaces and breaks, spaces next to breaks, characters it only writes
// escaped.
func analyze(s string) analysis {
	a := analysis{plain: true, single: true, block: true}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		a.plain = false
	}
	var leadSpace, leadBreak, trailSpace, trailBreak, breakSpace, spaceBreak, breaks, specials bool
	prevSpace, prevBreak := false, false
	precededByBlank := true
	for i, r := range s {
		_, size := utf8.DecodeRuneInString(s[i:])
		first, last := i == 0, i+size == len(s)
		followedByBlank := last || isBlankOrBreak(s[i+size:])
		if first {
			switch {
			case strings.ContainsRune("#,[]{}&*!|>'\"%@`", r):
				a.plain = false
			case (r == '?' || r == ':' || r == '-') && followedByBlank:
				a.plain = false
			}
		} else if r == ':' && followedByBlank || r == '#' && precededByBlank {
			a.plain = false
		}
		if !printable(r) || r == 0xfeff {
			specials = true
		}
		switch {
		case r == ' ':
			leadSpace = leadSpace || first
			trailSpace = trailSpace || last
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak(r):
			breaks = true
			leadBreak = leadBreak || first
			trailBreak = trailBreak || last
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByBlank = r == ' ' || r == '\t' || isBreak(r)
	}
	if leadSpace || leadBreak || trailSpace || trailBreak || breaks {
		a.plain = false
	}
	if trailSpace {
		a.block = false
	}
	if breakSpace {
		a.plain, a.single = false, false
	}
	if spaceBreak || specials {
		a.plain, a.single, a.block = false, false, false
	}
	return a
}

func isBreak(r rune) bool { return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029 }

func isBlankOrBreak(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == ' ' || r == '\t' || isBreak(r)
}

// printable is libyaml's IS_PRINTABLE (with unicode output, as Psych
// sets it): it knows no character past U+FFFF. NEL, printable there, is
// still only written escaped.
func printable(r rune) bool {
	return r == '\n' || r >= 0x20 && r <= 0x7e || r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd
}

func wordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r)
}

// singleQuoted writes single quotes; libyaml writes a line break as two,
// and indents what follows it (the closing quote, when it ends the text).
func (e *emitter) singleQuoted(s string, indent int) string {
	var b strings.Builder
	b.WriteByte('\'')
	breaks := false
	for _, r := range s {
		if isBreak(r) {
			if !breaks && r == '\n' {
				b.WriteByte('\n')
			}
			b.WriteRune(r)
			breaks = true
			continue
		}
		if breaks {
			b.WriteString(strings.Repeat(" ", max(indent, e.step)))
			breaks = false
		}
		if r == '\'' {
			b.WriteByte('\'')
		}
		b.WriteRune(r)
	}
	if breaks {
		b.WriteString(strings.Repeat(" ", max(indent, e.step)))
	}
	b.WriteByte('\'')
	return b.String()
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0x1b:
			b.WriteString(`\e`)
		case 0:
			b.WriteString(`\0`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case printable(r) && r != 0xfeff:
				b.WriteRune(r)
			case r <= 0xff:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// literal writes multi-line text as a literal block.
func (e *emitter) literal(s string, indent int) string {
	head, body, pad := e.blockHead('|', s, indent)
	var b strings.Builder
	b.WriteString(head)
	for _, line := range strings.Split(body, "\n") {
		b.WriteByte('\n')
		if line != "" {
			b.WriteString(pad + line)
		}
	}
	return b.String()
}

// folded writes one-line text as a folded block (">"), as libyaml does:
// a line breaks at the last space of a run once it is past the width,
// and the space it breaks at is not written.
func (e *emitter) folded(s string, indent int) string {
	head, body, pad := e.blockHead('>', s, indent)
	var b strings.Builder
	b.WriteString(head)
	for _, line := range strings.Split(body, "\n") {
		b.WriteByte('\n')
		if line == "" {
			continue
		}
		b.WriteString(pad)
		column := len(pad)
		for i, r := range line {
			if i > 0 && r == ' ' && column > e.width && (i+1 == len(line) || line[i+1] != ' ') {
				b.WriteString("\n" + pad)
				column = len(pad)
				continue
			}
			b.WriteRune(r)
			column++
		}
	}
	return b.String()
}

// blockHead returns a block scalar's header (the style, an indentation
// hint when the text starts with a blank or a break, "-" when there is no
// final newline and "+" when there are several), the text its lines
// come from, and their indentation.
func (e *emitter) blockHead(style byte, s string, indent int) (head, body, pad string) {
	chomp := ""
	body = s
	switch {
	case !strings.HasSuffix(s, "\n"):
		chomp = "-"
	case strings.HasSuffix(s, "\n\n"):
		chomp = "+"
		body = s[:len(s)-1]
	default:
		body = strings.TrimSuffix(s, "\n")
	}
	e.openEnded = chomp == "+"
	head = string(style) + chomp
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
		head = string(style) + strconv.Itoa(e.step) + chomp
	}
	return head, body, strings.Repeat(" ", max(indent, e.step))
}
