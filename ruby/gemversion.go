package ruby

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// rubyVersion is RUBY_VERSION as Puppet 7.23 sees it on Debian 12 (the
// oracle): module code compares it, often through Gem::Version.
const rubyVersion = "3.1.2"

// gemVersion is a Gem::Version: a version string and its segments
// (int64 for numeric parts, string for letters).
type gemVersion struct {
	s    string
	segs []any
}

// gemVersionPattern is the shape RubyGems accepts for a version string.
var gemVersionPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([0-9]+(?:\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)?\s*$`)
})

// gemSegment matches one segment: a run of digits or a run of letters.
var gemSegment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+|[a-zA-Z]+`) })

// parseGemVersion builds a Gem::Version from a version string, or reports
// false when RubyGems would call the string malformed.
func parseGemVersion(s string) (*gemVersion, bool) {
	if !gemVersionPattern().MatchString(s) {
		return nil, false
	}
	s = strings.TrimSpace(s)
	if s == "" {
		s = "0"
	}
	s = strings.ReplaceAll(s, "-", ".pre.")
	v := &gemVersion{s: s}
	for _, p := range gemSegment().FindAllString(s, -1) {
		switch n, err := strconv.ParseInt(p, 10, 64); {
		case err == nil:
			v.segs = append(v.segs, n)
		case p[0] >= '0' && p[0] <= '9':
			// A numeric segment past int64 (a Bignum in Ruby): the
			// largest Integer orders it after any real one.
			v.segs = append(v.segs, int64(math.MaxInt64))
		default:
			v.segs = append(v.segs, p)
		}
	}
	return v, true
}

// canonical drops trailing zeros of the numeric part and of the part from
// the first letter segment on, so that 1.0 equals 1 and 1.a.0 equals 1.a.
func (v *gemVersion) canonical() []any {
	first := len(v.segs)
	for i, s := range v.segs {
		if _, ok := s.(string); ok {
			first = i
			break
		}
	}
	trim := func(p []any) []any {
		for len(p) > 0 && p[len(p)-1] == int64(0) {
			p = p[:len(p)-1]
		}
		return p
	}
	num := trim(append([]any(nil), v.segs[:first]...))
	return append(num, trim(append([]any(nil), v.segs[first:]...))...)
}

// compareGemVersions is Gem::Version#<=> between two versions.
func compareGemVersions(a, b *gemVersion) int {
	if a.s == b.s {
		return 0
	}
	l, r := a.canonical(), b.canonical()
	for i := 0; i < len(l) || i < len(r); i++ {
		var x, y any = int64(0), int64(0)
		if i < len(l) {
			x = l[i]
		}
		if i < len(r) {
			y = r[i]
		}
		xs, xStr := x.(string)
		ys, yStr := y.(string)
		switch {
		case xStr && !yStr:
			return -1
		case !xStr && yStr:
			return 1
		case xStr && yStr:
			if c := strings.Compare(xs, ys); c != 0 {
				return c
			}
		default:
			if c := cmp3(x.(int64) < y.(int64), x.(int64) > y.(int64)); c != 0 {
				return c
			}
		}
	}
	return 0
}

// newGemVersion is Gem::Version.new: from a version string, an Integer, a
// Float or another Gem::Version.
func (in *interp) newGemVersion(line int, args []any) (any, error) {
	if len(args) != 1 {
		return nil, in.errorf(line, "ArgumentError", "wrong number of arguments (given %d, expected 1)", len(args))
	}
	var s string
	switch a := args[0].(type) {
	case *gemVersion:
		return a, nil
	case nil:
		s = ""
	case *rstr:
		s = a.s
	case int64, float64:
		s = toS(a)
	default:
		return nil, in.errorf(line, "ArgumentError", "Malformed version number string %s", toS(a))
	}
	v, ok := parseGemVersion(s)
	if !ok {
		return nil, in.errorf(line, "ArgumentError", "Malformed version number string %s", s)
	}
	return v, nil
}

// gemVersionMethod dispatches a call of one of Gem::Version's methods through gemVersionMethods.
func (in *interp) gemVersionMethod(line int, v *gemVersion, name string, args []any) (any, bool, error) {
	if m := in.methods.gemVersion[name]; m != nil {
		return m(in, line, v, name, args, nil)
	}
	return nil, false, nil
}

// gemVersionMethods are Gem::Version's methods, by name.
func gemVersionMethods() methodTable[*gemVersion] {
	t := methodTable[*gemVersion]{}
	t.def("to_s version", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr(v.s), true, nil
	})
	t.def("inspect", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr("#<Gem::Version " + quoteString(v.s) + ">"), true, nil
	})
	t.def("segments", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rarray{a: gemSegs(v.segs)}, true, nil
	})
	t.def("canonical_segments", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rarray{a: gemSegs(v.canonical())}, true, nil
	})
	t.def("prerelease?", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		for _, s := range v.segs {
			if _, ok := s.(string); ok {
				return true, true, nil
			}
		}
		return false, true, nil
	})
	t.def("release", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		for i, s := range v.segs {
			if _, ok := s.(string); ok {
				parts := make([]string, i)
				for j := range parts {
					parts[j] = toS(v.segs[j])
				}
				r, _ := parseGemVersion(strings.Join(parts, "."))
				return r, true, nil
			}
		}
		return v, true, nil
	})
	t.def("hash", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		return nil, false, nil
	})
	t.def("<=> < <= > >= == eql? between?", func(in *interp, line int, v *gemVersion, name string, args []any, blk *blockVal) (any, bool, error) {
		if name == "between?" {
			if len(args) != 2 {
				return nil, false, nil
			}
			lo, ok1 := gemCompare(v, args[0])
			hi, ok2 := gemCompare(v, args[1])
			if !ok1 || !ok2 {
				return nil, true, in.errorf(line, "ArgumentError", "comparison of Gem::Version with %s failed", inspect(args[0]))
			}
			return lo >= 0 && hi <= 0, true, nil
		}
		if len(args) != 1 {
			return nil, false, nil
		}
		if name == "eql?" {
			o, ok := args[0].(*gemVersion)
			return ok && o.s == v.s, true, nil
		}
		c, ok := gemCompare(v, args[0])
		switch {
		case name == "<=>" && !ok:
			return nil, true, nil
		case name == "<=>":
			return int64(c), true, nil
		case name == "==":
			return ok && c == 0, true, nil
		case !ok:
			what := inspect(args[0])
			if _, isStr := args[0].(*rstr); isStr {
				what = "String"
			}
			return nil, true, in.errorf(line, "ArgumentError", "comparison of Gem::Version with %s failed", what)
		case name == "<":
			return c < 0, true, nil
		case name == "<=":
			return c <= 0, true, nil
		case name == ">":
			return c > 0, true, nil
		}
		return c >= 0, true, nil
	})
	return t
}

// gemCompare compares a version with another version or a well-formed
// version string (RubyGems converts those), else reports false.
func gemCompare(v *gemVersion, other any) (int, bool) {
	switch o := other.(type) {
	case *gemVersion:
		return compareGemVersions(v, o), true
	case *rstr:
		if ov, ok := parseGemVersion(o.s); ok {
			return compareGemVersions(v, ov), true
		}
	}
	return 0, false
}

// gemSegs copies segments as Ruby values (letters become Strings).
func gemSegs(segs []any) []any {
	out := make([]any, len(segs))
	for i, s := range segs {
		if str, ok := s.(string); ok {
			out[i] = newStr(str)
		} else {
			out[i] = s
		}
	}
	return out
}
