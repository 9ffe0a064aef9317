package value

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
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
	if plainRE2(expr) {
		return &Regexp{Source: src, expr: expr}, nil
	}
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

// plainRE2 reports, without building anything, that expr is in a plain
// subset of the syntax RE2 surely accepts: literals, escapes of
// punctuation and of classes, simple bracket classes, plain and
// non-capturing groups, alternation, and the quantifiers *, + and ? with
// their lazy forms. Anything else (counted repetition, flags, named groups,
// POSIX classes, non-ASCII bytes, long expressions) is left to the parser,
// which also finds the errors.
func plainRE2(expr string) bool {
	if len(expr) > 500 {
		return false
	}
	depth := 0
	atom := false // a quantifier may follow
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if c >= utf8.RuneSelf || c < ' ' && c != '\t' && c != '\n' || c == 0x7f {
			return false
		}
		switch c {
		case '\\':
			if i+1 >= len(expr) || !plainEscape(expr[i+1], false) {
				return false
			}
			i++
			atom = strings.IndexByte("bBAz", expr[i]) < 0 // no quantified assertions
		case '(':
			if strings.HasPrefix(expr[i:], "(?m)") && i == 0 {
				i += 3
				atom = false
				continue
			}
			if strings.HasPrefix(expr[i:], "(?:") {
				i += 2
			} else if i+1 < len(expr) && expr[i+1] == '?' {
				return false
			}
			depth++
			atom = false
		case ')':
			if depth == 0 {
				return false
			}
			depth--
			atom = true
		case '|', '^', '$':
			atom = false
		case '*', '+', '?':
			if !atom {
				return false
			}
			if i+1 < len(expr) && expr[i+1] == '?' {
				i++ // lazy
			}
			atom = false
		case '{', '}', ']':
			return false
		case '[':
			end, ok := plainClass(expr, i+1)
			if !ok {
				return false
			}
			i = end
			atom = true
		default:
			atom = true
		}
	}
	return depth == 0
}

// plainClass checks a bracket class whose body starts at i and returns the
// index of its closing ]: word characters and a few punctuation marks,
// escapes, and ranges of two literals in order.
func plainClass(expr string, i int) (int, bool) {
	if i < len(expr) && expr[i] == '^' {
		i++
	}
	start := i
	for ; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == ']' && i > start:
			return i, true
		case c == '\\':
			if i+1 >= len(expr) || !plainEscape(expr[i+1], true) {
				return 0, false
			}
			i++
		case c == '-':
			// A range needs literal ends in order; a - first or last is
			// itself.
			if i == start || i+1 < len(expr) && expr[i+1] == ']' {
				continue
			}
			lo, hi := expr[i-1], byte(0)
			if i+1 < len(expr) {
				hi = expr[i+1]
			}
			if !isClassLiteral(lo) || !isClassLiteral(hi) || lo > hi || i >= 2 && expr[i-2] == '\\' {
				return 0, false
			}
			i++
		case isClassLiteral(c) || strings.IndexByte(" .*+?(){}|$/,;:=!@#%&'\"<>~`", c) >= 0:
		default:
			return 0, false
		}
	}
	return 0, false
}

func isClassLiteral(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// plainEscape reports an escape RE2 accepts: punctuation, the Perl classes
// and, outside brackets, the anchors.
func plainEscape(c byte, inClass bool) bool {
	switch {
	case c < utf8.RuneSelf && !isClassLiteral(c) && c > ' ' && c != 0x7f:
		return true // punctuation
	case strings.IndexByte("dDsSwWntrfv", c) >= 0:
		return true
	case !inClass && strings.IndexByte("bBAz", c) >= 0:
		return true
	}
	return false
}

// RegexpOf is a Regexp of an expression already compiled, whose Ruby source
// is src.
func RegexpOf(src string, re *regexp.Regexp) *Regexp {
	return &Regexp{Source: src, re: re}
}

// compileExt compiles for the backtracking engine.
func compileExt(src string) (*regexp2.Regexp, error) {
	ext, err := regexp2.Compile(AtomicPossessive(translateRubyRegexp(src)), regexp2.Multiline)
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
		if re := goRegexps.get(r.expr); re != nil {
			r.re = re
			return
		}
		re, err := regexp.Compile(r.expr)
		if err == nil {
			r.re = re
			goRegexps.put(r.expr, re)
			return
		}
		r.ext, _ = compileExt(r.Source)
	})
}

// goRegexps keeps compiled expressions by their RE2 source for the whole
// process: a pattern in a define or a validation function is built anew
// at every evaluation or call, and compiling it each time cost ~4% of a
// large catalog's compile. A compiled regexp.Regexp is immutable and safe
// for concurrent use, so compiles share them.
var goRegexps regexpCache

// regexpCache is a bounded map of compiled expressions: past
// maxCachedRegexps it starts over, so hostile code making endless distinct
// patterns cannot grow it without bound; long sources are not kept.
type regexpCache struct {
	mu sync.Mutex
	m  map[string]*regexp.Regexp
}

const (
	maxCachedRegexps     = 4096
	maxCachedRegexpBytes = 1024
)

func (c *regexpCache) get(expr string) *regexp.Regexp {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[expr]
}

func (c *regexpCache) put(expr string, re *regexp.Regexp) {
	if len(expr) > maxCachedRegexpBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedRegexps {
		c.m = make(map[string]*regexp.Regexp)
	}
	c.m[expr] = re
}

// Go returns the expression compiled for Go's regexp package, or nil when
// only the backtracking engine runs it (lookaround, backreferences).
func (r *Regexp) Go() *regexp.Regexp {
	r.compiled()
	return r.re
}

// regexpTimeout bounds one match of the backtracking engine.
const regexpTimeout = 2 * time.Second

// RegexpMatchTimeout is regexpTimeout, for `marionette help limits`.
const RegexpMatchTimeout = regexpTimeout

// RegexpTimeout is the error of a match the backtracking engine gave up
// after regexpTimeout: it is neither a match nor a non-match, so callers
// must fail rather than take either branch.
type RegexpTimeout struct{ Source string }

func (e *RegexpTimeout) Error() string {
	return fmt.Sprintf("Matching the regular expression /%s/ took longer than %v (the regexp match timeout, a fixed limit of marionette)", e.Source, regexpTimeout)
}

// MatchString reports whether s contains a match; a match that timed out
// counts as none. Code that decides on the result uses Match.
func (r *Regexp) MatchString(s string) bool {
	ok, _ := r.Match(s)
	return ok
}

// Match reports whether s contains a match, or a *RegexpTimeout.
func (r *Regexp) Match(s string) (bool, error) {
	r.compiled()
	if r.re != nil {
		return r.re.MatchString(s), nil
	}
	if r.ext == nil {
		return false, nil
	}
	ok, err := r.ext.MatchString(s)
	if err != nil {
		return false, &RegexpTimeout{Source: r.Source}
	}
	return ok, nil
}

// FindStringSubmatch returns the leftmost match and its groups ("" for a
// group that did not take part), or nil; a match that timed out counts as
// none. Code that decides on the result uses FindSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	m, _ := r.FindSubmatch(s)
	return m
}

// FindSubmatch is FindStringSubmatch, or a *RegexpTimeout.
func (r *Regexp) FindSubmatch(s string) ([]string, error) {
	r.compiled()
	if r.re != nil {
		return r.re.FindStringSubmatch(s), nil
	}
	idx, err := r.FindSubmatchIndex(s)
	if idx == nil {
		return nil, err
	}
	out := make([]string, len(idx)/2)
	for i := range out {
		if idx[2*i] >= 0 {
			out[i] = s[idx[2*i]:idx[2*i+1]]
		}
	}
	return out, nil
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
// its groups (-1 for groups that did not take part), or nil; a match that
// timed out counts as none. Code that decides on the result uses
// FindSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	m, _ := r.FindSubmatchIndex(s)
	return m
}

// FindSubmatchIndex is FindStringSubmatchIndex, or a *RegexpTimeout.
func (r *Regexp) FindSubmatchIndex(s string) ([]int, error) {
	r.compiled()
	if r.re != nil {
		return r.re.FindStringSubmatchIndex(s), nil
	}
	if r.ext == nil {
		return nil, nil
	}
	m, err := r.ext.FindStringMatch(s)
	if err != nil {
		return nil, &RegexpTimeout{Source: r.Source}
	}
	if m == nil {
		return nil, nil
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
	return out, nil
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
	src = FillRepeatMinimum(src)
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

// FillRepeatMinimum rewrites Ruby's repetition without a minimum, {,n}
// (zero to n times), as {0,n}: Go's engine and regexp2 read {,n} as literal
// text. Braces inside a bracket class or escaped stay as they are.
func FillRepeatMinimum(src string) string {
	if !strings.Contains(src, "{,") {
		return src
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			b.WriteByte(c)
			i++
			c = src[i]
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '{' && i > 0 && strings.HasPrefix(src[i+1:], ","):
			j := i + 2
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j > i+2 && j < len(src) && src[j] == '}' {
				b.WriteString("{0")
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// AtomicPossessive rewrites Ruby's possessive quantifiers (a?+, a*+, a++),
// which regexp2 lacks, as the atomic groups they are in Onigmo: (?>a?).
// An interval followed by + is not possessive in Ruby but repeated,
// a{2}+ being (?:a{2})+, which regexp2 would refuse as a nested
// quantifier. Anything else is kept as it is.
func AtomicPossessive(src string) string {
	if !strings.Contains(src, "+") {
		return src
	}
	var b strings.Builder
	var groups []int // where each open group starts in b
	atom := -1       // where the last atom starts in b, or -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\\':
			atom = b.Len()
			end := escapeEnd(src, i)
			b.WriteString(src[i:end])
			i = end - 1
		case '[':
			atom = b.Len()
			end := classEnd(src, i)
			b.WriteString(src[i:end])
			i = end - 1
		case '(':
			groups = append(groups, b.Len())
			b.WriteByte(c)
			atom = -1
		case ')':
			b.WriteByte(c)
			atom = -1
			if n := len(groups); n > 0 {
				atom = groups[n-1]
				groups = groups[:n-1]
			}
		case '*', '+', '?', '{':
			end := i + 1
			if c == '{' {
				end = intervalEnd(src, i)
				if end < 0 {
					// A literal brace.
					atom = b.Len()
					b.WriteByte(c)
					continue
				}
			}
			if atom < 0 {
				b.WriteString(src[i:end])
				i = end - 1
				continue
			}
			quantified := b.String()[atom:] + src[i:end]
			switch {
			case end < len(src) && src[end] == '+' && c == '{':
				quantified = "(?:" + quantified + ")+"
				end++
			case end < len(src) && src[end] == '+':
				quantified = "(?>" + quantified + ")"
				end++
			case end < len(src) && src[end] == '?':
				quantified += "?"
				end++
			}
			rest := b.String()[:atom]
			b.Reset()
			b.WriteString(rest)
			b.WriteString(quantified)
			i = end - 1
			atom = -1
		default:
			atom = b.Len()
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeEnd is the index just past the escape starting at src[i] ('\'):
// its letter and what belongs to it (\x41, \p{Alpha}, \k<name>, \123).
func escapeEnd(src string, i int) int {
	j := i + 2
	if j > len(src) {
		return len(src)
	}
	switch e := src[i+1]; {
	case e == 'x' || e == 'u' || e == 'p' || e == 'P' || e == 'k' || e == 'g':
		if j < len(src) && (src[j] == '{' || src[j] == '<' || src[j] == '\'') {
			closer := map[byte]byte{'{': '}', '<': '>', '\'': '\''}[src[j]]
			if k := strings.IndexByte(src[j+1:], closer); k >= 0 {
				return j + 1 + k + 1
			}
			return j
		}
		max := map[byte]int{'x': 2, 'u': 4}[e]
		for n := 0; n < max && j < len(src) && strings.IndexByte("0123456789abcdefABCDEF", src[j]) >= 0; n++ {
			j++
		}
	case e >= '0' && e <= '9':
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
	}
	return j
}

// classEnd is the index just past the bracket class starting at src[i],
// nested classes and escapes included (a ] first in a class is itself).
func classEnd(src string, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			depth++
			if j+1 < len(src) && src[j+1] == '^' {
				j++
			}
			if j+1 < len(src) && src[j+1] == ']' {
				j++
			}
		case ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// intervalEnd is the index just past an interval {n}, {n,}, {,m} or
// {n,m} starting at src[i], or -1 when the brace is literal text.
func intervalEnd(src string, i int) int {
	k := strings.IndexByte(src[i:], '}')
	if k < 0 {
		return -1
	}
	body := src[i+1 : i+k]
	lo, hi, comma := strings.Cut(body, ",")
	digits := func(s string) bool {
		for j := 0; j < len(s); j++ {
			if s[j] < '0' || s[j] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(lo) || !digits(hi) || (lo == "" && (!comma || hi == "")) {
		return -1
	}
	return i + k + 1
}
