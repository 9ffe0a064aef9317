package value

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// NewRegexp compiles a Puppet (Ruby-flavoured) regular expression.
//
// Most expressions compile with Go's linear-time engine (after translating
// the Ruby-only escapes); in Ruby ^ and $ always match at line boundaries,
// hence (?m). Expressions RE2 cannot express — lookahead, lookbehind,
// backreferences, common in real modules' validation patterns — fall back to
// a backtracking engine with a match timeout, so a pathological pattern
// fails instead of hanging the compile.
func NewRegexp(src string) (*Regexp, error) {
	expr := "(?m)" + translateRubyRegexp(src)
	// Parsing finds every error regexp.Compile reports (it returns the
	// parser's), for a fraction of the compile's cost and allocations.
	_, err := syntax.Parse(expr, syntax.Perl)
	if err == nil {
		return &Regexp{Source: src, expr: expr}, nil
	}
	ext, err2 := compileExt(src)
	if err2 != nil {
		return nil, err // Go's message: it names the construct
	}
	return &Regexp{Source: src, ext: ext}, nil
}

// RegexpOf is a Regexp of an expression already compiled, whose Ruby source
// is src.
func RegexpOf(src string, re *regexp.Regexp) *Regexp {
	return &Regexp{Source: src, re: re}
}

// compileExt compiles for the backtracking engine.
func compileExt(src string) (*regexp2.Regexp, error) {
	ext, err := regexp2.Compile(translateRubyRegexp(src), regexp2.Multiline)
	if err != nil {
		return nil, err
	}
	ext.MatchTimeout = regexpTimeout
	return ext, nil
}

// compiled compiles a lazily built expression; after it, re or ext is set
// (neither for the impossible case of an expression that parsed but does
// not compile with either engine: it never matches).
func (r *Regexp) compiled() {
	if r.expr == "" {
		return
	}
	r.once.Do(func() {
		re, err := regexp.Compile(r.expr)
		if err == nil {
			r.re = re
			return
		}
		r.ext, _ = compileExt(r.Source)
	})
}

// Go returns the expression compiled for Go's regexp package, or nil when
// only the backtracking engine runs it (lookaround, backreferences).
func (r *Regexp) Go() *regexp.Regexp {
	r.compiled()
	return r.re
}

// regexpTimeout bounds one match of the backtracking engine.
const regexpTimeout = 2 * time.Second

// MatchString reports whether s contains a match.
func (r *Regexp) MatchString(s string) bool {
	r.compiled()
	if r.re != nil {
		return r.re.MatchString(s)
	}
	if r.ext == nil {
		return false
	}
	ok, err := r.ext.MatchString(s)
	return err == nil && ok
}

// FindStringSubmatch returns the leftmost match and its groups ("" for a
// group that did not take part), or nil.
func (r *Regexp) FindStringSubmatch(s string) []string {
	r.compiled()
	if r.re != nil {
		return r.re.FindStringSubmatch(s)
	}
	idx := r.FindStringSubmatchIndex(s)
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx)/2)
	for i := range out {
		if idx[2*i] >= 0 {
			out[i] = s[idx[2*i]:idx[2*i+1]]
		}
	}
	return out
}

// FindStringIndex returns the byte offsets of the leftmost match, or nil.
func (r *Regexp) FindStringIndex(s string) []int {
	idx := r.FindStringSubmatchIndex(s)
	if idx == nil {
		return nil
	}
	return idx[:2]
}

// FindStringSubmatchIndex returns byte offsets of the leftmost match and
// its groups (-1 for groups that did not take part), or nil.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	r.compiled()
	if r.re != nil {
		return r.re.FindStringSubmatchIndex(s)
	}
	if r.ext == nil {
		return nil
	}
	m, err := r.ext.FindStringMatch(s)
	if err != nil || m == nil {
		return nil
	}
	// regexp2 counts runes; convert to byte offsets.
	byteOff := runeToByteOffsets(s)
	groups := m.Groups()
	out := make([]int, 2*len(groups))
	for i, g := range groups {
		if len(g.Captures) == 0 {
			out[2*i], out[2*i+1] = -1, -1
			continue
		}
		out[2*i] = byteOff(g.Index)
		out[2*i+1] = byteOff(g.Index + g.Length)
	}
	return out
}

// runeToByteOffsets returns a converter from rune index to byte offset in s.
func runeToByteOffsets(s string) func(int) int {
	if isASCII(s) {
		return func(i int) int { return i }
	}
	offs := make([]int, 0, utf8.RuneCountInString(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	offs = append(offs, len(s))
	return func(i int) int {
		if i < 0 || i >= len(offs) {
			return len(s)
		}
		return offs[i]
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// translateRubyRegexp maps Ruby regexp syntax onto Go's: \A and \z are the same,
// \Z (end or before final newline) and \h (hex digit) differ.
func translateRubyRegexp(src string) string {
	if !strings.ContainsRune(src, '\\') {
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
		b.WriteByte(c)
	}
	return b.String()
}
