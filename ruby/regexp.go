package ruby

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/marionette-dev/marionette/value"
)

// Ruby's regexps (Onigmo) have lookbehind, lookahead, atomic groups and
// backreferences; Go's engine (RE2) has none of them. A regexp RE2 can run
// runs there, in linear time; one it cannot (extlib's has_module takes
// the part after a dash with (?<=-).+) runs on regexp2, a backtracking
// engine, bounded by regexpTimeout so that a hostile pattern or input
// cannot hang a compile.

// regexpTimeout bounds one match of the backtracking engine.
const regexpTimeout = 2 * time.Second

// compileBacktracking compiles a Ruby regexp body (flags already inline)
// for regexp2. Ruby's \d, \w and \s are ASCII (the RE2 option), ^ and $
// match at lines (Multiline), and when a regexp names groups its plain
// groups do not capture (ExplicitCapture), as in Ruby.
func compileBacktracking(body string) (*regexp2.Regexp, error) {
	src, err := backtrackingSource(body)
	if err != nil {
		return nil, err
	}
	opts := regexp2.RegexOptions(regexp2.Multiline | regexp2.RE2)
	if strings.Contains(src, "(?<") && strings.Contains(strings.ReplaceAll(strings.ReplaceAll(src, "(?<=", ""), "(?<!", ""), "(?<") {
		opts |= regexp2.ExplicitCapture
	}
	re, err := regexp2.Compile(src, opts)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = regexpTimeout
	return re, nil
}

// backtrackingSource rewrites the escapes whose meaning differs between
// Ruby and regexp2: \h (a hex digit in Ruby) and \H; regexp2 has the
// others (\A, \z, \Z, \b, \G, \k<name>) with Ruby's meaning. Possessive
// quantifiers (a++) and \K are refused, as regexp2 has no equivalent.
func backtrackingSource(src string) (string, error) {
	src = value.FillRepeatMinimum(src)
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			switch e := src[i+1]; {
			case e == 'h' && inClass:
				b.WriteString("0-9a-fA-F")
			case e == 'h':
				b.WriteString("[0-9a-fA-F]")
			case e == 'H' && !inClass:
				b.WriteString("[^0-9a-fA-F]")
			case e == 'H' || e == 'K' || e == 'R' || e == 'X':
				return "", fmt.Errorf(`\%c is not supported`, e)
			default:
				b.WriteByte(c)
				b.WriteByte(e)
			}
			i++
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if i+1 < len(src) && src[i+1] == '^' {
				b.WriteString("[^")
				i++
				c = 0
			}
			if i+1 < len(src) && src[i+1] == ']' {
				// A ] first in a class is a literal.
				if c != 0 {
					b.WriteByte('[')
				}
				b.WriteString(`\]`)
				i++
				continue
			}
		case (c == '+') && i > 0 && (src[i-1] == '*' || src[i-1] == '+' || src[i-1] == '?' || src[i-1] == '}') && (i < 2 || src[i-2] != '\\'):
			return "", fmt.Errorf("possessive quantifiers are not supported")
		}
		if c != 0 {
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// regexpTimedOut reports a backtracking match past regexpTimeout.
type regexpTimedOut struct{ src string }

func (e *regexpTimedOut) Error() string {
	return fmt.Sprintf("regexp /%s/ takes longer than %v to match", e.src, regexpTimeout)
}

// regexpFailed reports a match that could not finish, at a line.
func (in *interp) regexpFailed(line int, err error) error {
	return fmt.Errorf("template %s:%d: %v: %s", in.tmpl.name, line, err, limitOfMarionette(""))
}

// subexpNames names the groups by number ("" for an unnamed group).
func (re *rregexp) subexpNames() []string {
	if re.re != nil {
		return re.re.SubexpNames()
	}
	nums := re.bt.GetGroupNumbers()
	names := make([]string, len(nums))
	for _, n := range nums {
		if n >= 0 && n < len(names) {
			if name := re.bt.GroupNameFromNumber(n); name != fmt.Sprint(n) {
				names[n] = name
			}
		}
	}
	return names
}

// matchString tells whether s contains a match.
func (re *rregexp) matchString(s string) (bool, error) {
	locs, err := rubyMatches(re, s, 1)
	return len(locs) > 0, err
}

// findIndex gives the byte offsets of the first match, or nil.
func (re *rregexp) findIndex(s string) ([]int, error) {
	locs, err := rubyMatches(re, s, 1)
	if len(locs) == 0 {
		return nil, err
	}
	return locs[0][:2], nil
}

// btMatches is FindAllStringSubmatchIndex on the backtracking engine:
// byte offsets of up to n (all if n < 0) matches and their groups.
func (re *rregexp) btMatches(s string, n int) ([][]int, error) {
	var out [][]int
	runes := []rune(s)
	var off []int // rune index to byte offset, when s is not ASCII
	if len(runes) != len(s) {
		off = make([]int, 0, len(runes)+1)
		for i := range s {
			off = append(off, i)
		}
		off = append(off, len(s))
	}
	at := func(i int) int {
		if off == nil {
			return i
		}
		if i < 0 || i >= len(off) {
			return len(s)
		}
		return off[i]
	}
	m, err := re.bt.FindRunesMatch(runes)
	for ; err == nil && m != nil && (n < 0 || len(out) < n); m, err = re.bt.FindNextMatch(m) {
		groups := m.Groups()
		loc := make([]int, 2*len(groups))
		for i, g := range groups {
			if len(g.Captures) == 0 {
				loc[2*i], loc[2*i+1] = -1, -1
				continue
			}
			loc[2*i], loc[2*i+1] = at(g.Index), at(g.Index+g.Length)
		}
		out = append(out, loc)
	}
	if err != nil {
		return nil, &regexpTimedOut{re.src}
	}
	return out, nil
}
