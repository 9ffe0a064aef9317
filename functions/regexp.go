package functions

import (
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// Ruby's regexp searches (String#split, #sub, #gsub, #index) on top of
// value.Regexp, whose patterns run on Go's engine or, for lookaround and
// backreferences, on a backtracking one.

// emptyRegexp is the empty pattern, what the bare Regexp type stands for.
func emptyRegexp() *value.Regexp {
	r, _ := value.NewRegexp("")
	return r
}

// regexpOfType is the regexp of a Regexp[/re/] type; the bare Regexp type
// stands for the empty regexp.
func regexpOfType(t *value.RegexpType) *value.Regexp {
	if t.Pattern == nil {
		return emptyRegexp()
	}
	return t.Pattern
}

// matchAll returns the offsets (with groups) of successive matches of r in
// s, at most n of them (all when n < 0), found the way Ruby's gsub finds
// them: after a non-empty match the search goes on where it ended, and an
// empty match there counts; after an empty match it goes on one character
// later.
// A match the backtracking engine gave up on is an error.
func matchAll(r *value.Regexp, s string, n int) ([][]int, error) {
	if re := r.Go(); re != nil {
		return withAbuttingEmpty(r, s, re.FindAllStringSubmatchIndex(s, n), n)
	}
	var out [][]int
	for pos := 0; pos <= len(s) && (n < 0 || len(out) < n); {
		m, err := findFrom(r, s, pos)
		if err != nil {
			return nil, err
		}
		if m == nil {
			break
		}
		out = append(out, m)
		if m[1] > m[0] {
			pos = m[1]
			continue
		}
		if m[1] == len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[m[1]:])
		pos = m[1] + size
	}
	return out, nil
}

// findFrom finds the first match at or after pos. Matching a suffix loses
// what precedes pos, which only anchors and lookbehind can see.
func findFrom(r *value.Regexp, s string, pos int) ([]int, error) {
	if pos == 0 {
		return r.FindSubmatchIndex(s)
	}
	m, err := r.FindSubmatchIndex(s[pos:])
	for i := range m {
		if m[i] >= 0 {
			m[i] += pos
		}
	}
	return m, err
}

// contextFree reports whether a pattern's matches never depend on the text
// before the match (no line/text anchors or word boundaries), so that
// matching a suffix finds what matching in the whole string would.
func contextFree(src string) bool {
	return !strings.ContainsAny(src, "^") && !strings.Contains(src, `\b`) &&
		!strings.Contains(src, `\B`) && !strings.Contains(src, `\A`) && !strings.Contains(src, `\G`)
}

// withAbuttingEmpty adds to Go's matches the empty matches Ruby finds right
// after a non-empty match, which Go's FindAll skips (only for patterns whose
// matches do not depend on the preceding text, where a suffix search is
// exact).
func withAbuttingEmpty(r *value.Regexp, s string, ms [][]int, n int) ([][]int, error) {
	if !contextFree(r.Source) {
		return ms, nil
	}
	var out [][]int
	for i, m := range ms {
		out = append(out, m)
		if n >= 0 && len(out) >= n {
			break
		}
		if m[1] == m[0] || (i+1 < len(ms) && ms[i+1][0] == m[1]) {
			continue
		}
		e, err := findFrom(r, s, m[1])
		if err != nil {
			return nil, err
		}
		if e != nil && e[0] == m[1] && e[1] == m[1] {
			out = append(out, e)
		}
	}
	if n >= 0 && len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// compileRuby compiles a pattern given as a string, with Ruby's wording
// for errors.
func compileRuby(src string) (*value.Regexp, error) {
	r, err := value.NewRegexp(src)
	if err != nil {
		return nil, rubyRegexpError(src, err)
	}
	return r, nil
}

// subexpIndex is the group number of a named group, -1 if unknown.
func subexpIndex(r *value.Regexp, name string) int {
	if re := r.Go(); re != nil {
		return re.SubexpIndex(name)
	}
	return -1
}
