package ruby

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

func (in *interp) frozenError(line int, v any) error {
	return in.errorf(line, "FrozenError", "can't modify frozen %s: %s", className(v), inspect(v))
}

func (in *interp) strArg(line int, args []any, i int) (string, error) {
	if i >= len(args) {
		return "", in.errorf(line, "ArgumentError", "wrong number of arguments")
	}
	switch a := args[i].(type) {
	case *rstr:
		return a.s, nil
	}
	what := className(args[i])
	if args[i] == nil {
		what = "nil"
	}
	return "", in.errorf(line, "TypeError", "no implicit conversion of %s into String", what)
}

// strMethod dispatches a call of one of String's methods through strMethods.
func (in *interp) strMethod(line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
	if m := in.methods.str[name]; m != nil {
		return m(in, line, s, name, args, blk)
	}
	if name == "^" && in.pbkdf2 {
		return in.pbkdf2Xor(line, s, args)
	}
	return nil, false, nil
}

// strResult is a method's String result.
func strResult(v string) (any, bool, error) { return newStr(v), true, nil }

// mutateStr implements the bang methods: they change s and return nil when
// nothing changed.
func (in *interp) mutateStr(line int, s *rstr, v string) (any, bool, error) {
	if s.frozen {
		return nil, true, in.frozenError(line, s)
	}
	if v == s.s {
		return nil, true, nil
	}
	s.s = v
	return s, true, nil
}

// strMethods are String's methods, by name.
func strMethods() methodTable[*rstr] {
	t := methodTable[*rstr]{}
	t.def("+", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		if len(str)+len(o) > in.maxString {
			return nil, true, in.stringTooLarge(line)
		}
		return strResult(str + o)
	})
	t.def("*", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) == 1 {
			n, ok := args[0].(int64)
			if f, isFloat := args[0].(float64); isFloat && f > math.MinInt64 && f < math.MaxInt64 {
				n, ok = int64(f), true // Ruby truncates a Float count
			}
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", className(args[0]))
			}
			size, err := in.repeatSize(line, int64(len(str)), n, math.MaxInt64)
			if err != nil {
				return nil, true, err
			}
			if size > int64(in.maxString) {
				return nil, true, in.stringTooLarge(line)
			}
			return strResult(strings.Repeat(str, int(n)))
		}
		return nil, false, nil
	})
	t.def("%", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			fargs := []any{args[0]}
			if a, ok := args[0].(*rarray); ok {
				fargs = a.a
			}
			r, err := in.format(line, s, fargs)
			var re *rubyError
			if errors.As(err, &re) && re.class == "KeyError" {
				// Puppet loads fast_gettext, whose String#% answers a
				// missing %{key} with the string itself (Kernel#format
				// still raises).
				return s, true, nil
			}
			return newStr(r), true, err
		}
		return nil, false, nil
	})
	t.def("crypt", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.strCrypt(line, s, args)
	})
	t.def("<< concat", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if s.frozen {
			return nil, true, in.frozenError(line, s)
		}
		for _, a := range args {
			if len(s.s) > in.maxString {
				return nil, true, in.stringTooLarge(line)
			}
			switch a := a.(type) {
			case *rstr:
				s.s += a.s
			case int64:
				s.s += string(rune(a))
			default:
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(a))
			}
		}
		return s, true, nil
	})
	t.def("=~", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) == 1 {
			re, ok := args[0].(*rregexp)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "wrong argument type %s (expected Regexp)", className(args[0]))
			}
			m, err := in.matchRegexp(line, re, str)
			if err != nil {
				return nil, true, err
			}
			if m == nil {
				return nil, true, nil
			}
			return int64(utf8.RuneCountInString(str[:m.groups[0]])), true, nil
		}
		return nil, false, nil
	})
	t.def("match match?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) == 1 {
			// A string pattern is a regexp's source here (Regexp.new), not
			// a literal as in sub or index.
			var re *rregexp
			var err error
			if p, ok := args[0].(*rstr); ok {
				re, err = in.compileRegexp(line, p.s, "")
			} else {
				re, err = in.toRegexp(line, args[0])
			}
			if err != nil {
				return nil, true, err
			}
			if name == "match?" {
				ok, err := re.matchString(str)
				if err != nil {
					return nil, true, in.regexpFailed(line, err)
				}
				return ok, true, nil
			}
			m, err := in.matchRegexp(line, re, str)
			if err != nil {
				return nil, true, err
			}
			if m == nil {
				return nil, true, nil
			}
			return m, true, nil
		}
		return nil, false, nil
	})
	t.def("< > <= >= <=> between?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.comparison(line, s, name, args)
	})
	t.def("length size", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return int64(utf8.RuneCountInString(str)), true, nil
	})
	t.def("bytesize", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return int64(len(str)), true, nil
	})
	t.def("empty?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return str == "", true, nil
	})
	t.def("to_s to_str", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		return s, true, nil
	})
	t.def("to_sym intern", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return symbol(str), true, nil
	})
	t.def("to_i", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		base := int64(10)
		if len(args) == 1 {
			if b, ok := args[0].(int64); ok && b >= 2 && b <= 36 {
				base = b
			}
		}
		return leadingInt(str, int(base)), true, nil
	})
	t.def("hex", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(str), "0x"), "0X")
		return leadingInt(t, 16), true, nil
	})
	t.def("oct", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return leadingInt(str, 8), true, nil
	})
	t.def("to_f", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return leadingFloat(str), true, nil
	})
	// -str is the string frozen (a frozen one itself).
	t.def("-@", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if s.frozen {
			return s, true, nil
		}
		return &rstr{s: s.s, frozen: true}, true, nil
	})
	t.def("upcase", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.ToUpper(str))
	})
	t.def("downcase", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.ToLower(str))
	})
	t.def("capitalize", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(capitalize(str))
	})
	t.def("swapcase", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, str))
	})
	t.def("upcase!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.mutateStr(line, s, strings.ToUpper(str))
	})
	t.def("downcase!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.mutateStr(line, s, strings.ToLower(str))
	})
	t.def("capitalize!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.mutateStr(line, s, capitalize(str))
	})
	t.def("strip", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.Trim(str, rubySpace))
	})
	t.def("lstrip", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.TrimLeft(str, rubySpace))
	})
	t.def("rstrip", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return strResult(strings.TrimRight(str, rubySpace))
	})
	t.def("strip!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.mutateStr(line, s, strings.Trim(str, rubySpace))
	})
	t.def("chomp chomp!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		var r string
		if len(args) == 1 {
			suf, err := in.strArg(line, args, 0)
			if err != nil {
				return nil, true, err
			}
			r = strings.TrimSuffix(str, suf)
		} else if strings.HasSuffix(str, "\r\n") {
			r = str[:len(str)-2]
		} else if strings.HasSuffix(str, "\n") || strings.HasSuffix(str, "\r") {
			r = str[:len(str)-1]
		} else {
			r = str
		}
		if name == "chomp!" {
			return in.mutateStr(line, s, r)
		}
		return strResult(r)
	})
	t.def("chop", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if str == "" {
			return strResult("")
		}
		if strings.HasSuffix(str, "\r\n") {
			return strResult(str[:len(str)-2])
		}
		_, size := utf8.DecodeLastRuneInString(str)
		return strResult(str[:len(str)-size])
	})
	t.def("chars", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		var out []any
		for _, r := range str {
			out = append(out, newStr(string(r)))
		}
		return &rarray{a: out}, true, nil
	})
	t.def("bytes", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		var out []any
		for i := 0; i < len(str); i++ {
			out = append(out, int64(str[i]))
		}
		return &rarray{a: out}, true, nil
	})
	t.def("lines each_line", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		var out []any
		rest := str
		for rest != "" {
			k := strings.IndexByte(rest, '\n')
			if k < 0 {
				out = append(out, newStr(rest))
				break
			}
			out = append(out, newStr(rest[:k+1]))
			rest = rest[k+1:]
		}
		if name == "each_line" && blk != nil {
			for _, l := range out {
				if _, err := in.yield(line, blk, l); err != nil {
					return loopResult(err)
				}
			}
			return s, true, nil
		}
		return &rarray{a: out}, true, nil
	})
	t.def("each_char", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if blk != nil {
			for _, r := range str {
				if _, err := in.yield(line, blk, newStr(string(r))); err != nil {
					return loopResult(err)
				}
			}
			return s, true, nil
		}
		return nil, false, nil
	})
	t.def("split", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.split(line, str, args)
	})
	t.def("start_with? end_with?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		for _, a := range args {
			if re, ok := a.(*rregexp); ok && name == "start_with?" {
				loc, err := re.findIndex(str)
				if err != nil {
					return nil, true, in.regexpFailed(line, err)
				}
				if loc != nil && loc[0] == 0 {
					return true, true, nil
				}
				continue
			}
			ps, ok := a.(*rstr)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(a))
			}
			p := ps.s
			if name == "start_with?" && strings.HasPrefix(str, p) || name == "end_with?" && strings.HasSuffix(str, p) {
				return true, true, nil
			}
		}
		return false, true, nil
	})
	t.def("include?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return strings.Contains(str, o), true, nil
	})
	t.def("index rindex", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) == 1 {
			var k int
			switch a := args[0].(type) {
			case *rstr:
				if name == "index" {
					k = strings.Index(str, a.s)
				} else {
					k = strings.LastIndex(str, a.s)
				}
			case *rregexp:
				if name == "rindex" {
					return nil, false, nil
				}
				loc, err := a.findIndex(str)
				if err != nil {
					return nil, true, in.regexpFailed(line, err)
				}
				k = -1
				if loc != nil {
					k = loc[0]
				}
			default:
				return nil, false, nil
			}
			if k < 0 {
				return nil, true, nil
			}
			return int64(utf8.RuneCountInString(str[:k])), true, nil
		}
		return nil, false, nil
	})
	t.def("count", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.trLike(line, s.s, "count", args)
	})
	t.def("reverse", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		r := []rune(str)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return strResult(string(r))
	})
	t.def("ljust rjust center", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) >= 1 {
			w, ok := args[0].(int64)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", className(args[0]))
			}
			pad := " "
			if len(args) == 2 {
				p, err := in.strArg(line, args, 1)
				if err != nil {
					return nil, true, err
				}
				if p == "" {
					return nil, true, in.errorf(line, "ArgumentError", "zero width padding")
				}
				pad = p
			}
			if w > int64(in.maxString) || w*int64(min(len(pad), utf8.UTFMax)) > int64(in.maxString) {
				return nil, true, in.stringTooLarge(line)
			}
			return strResult(justify(str, int(w), pad, name))
		}
		return nil, false, nil
	})
	t.def("tr delete squeeze", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.trLike(line, str, name, args)
	})
	t.def("sub gsub sub! gsub!", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		r, err := in.substitute(line, str, strings.TrimSuffix(name, "!") == "gsub", args, blk)
		if err != nil {
			return nil, true, err
		}
		if strings.HasSuffix(name, "!") {
			return in.mutateStr(line, s, r)
		}
		return strResult(r)
	})
	t.def("scan", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if len(args) == 1 {
			re, err := in.toRegexp(line, args[0])
			if err != nil {
				return nil, true, err
			}
			var out []any
			locs, err := rubyMatches(re, str, -1)
			if err != nil {
				return nil, true, in.regexpFailed(line, err)
			}
			names := re.subexpNames()
			for _, loc := range locs {
				m := &matchData{str: str, groups: loc, names: names}
				var v any
				if len(loc) == 2 {
					v = m.group(0)
				} else {
					var groups []any
					for g := 1; 2*g < len(loc); g++ {
						groups = append(groups, m.group(g))
					}
					v = &rarray{a: groups}
				}
				if blk == nil {
					out = append(out, v)
					continue
				}
				// With a block, each match is yielded ($~ set) and scan
				// returns the string.
				in.match = m
				if _, err := in.yield(line, blk, v); err != nil {
					return nil, true, err
				}
			}
			if blk != nil {
				return s, true, nil
			}
			return &rarray{a: out}, true, nil
		}
		return nil, false, nil
	})
	t.def("[] slice", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		return in.strIndex(line, str, args)
	})
	t.def("dump", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 0 {
			return nil, false, nil
		}
		return newStr(dumpString(s.s)), true, nil
	})
	t.def("ord", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		if str == "" {
			return nil, true, in.errorf(line, "ArgumentError", "empty string")
		}
		r, _ := utf8.DecodeRuneInString(str)
		return int64(r), true, nil
	})
	t.def("casecmp?", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return strings.EqualFold(str, o), true, nil
	})
	t.def("casecmp", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return int64(strings.Compare(strings.ToLower(str), strings.ToLower(o))), true, nil
	})
	t.def("force_encoding encode unicode_normalize b scrub", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if name == "encode" && len(args) > 0 {
			// encode(enc, universal_newline: true) turns CRLF and CR into LF
			// (govuk's govuk::app::envvar).
			if opts, ok := args[len(args)-1].(*rhash); ok {
				if v, _ := opts.get(symbol("universal_newline")); v == true {
					return newStr(strings.ReplaceAll(strings.ReplaceAll(s.s, "\r\n", "\n"), "\r", "\n")), true, nil
				}
			}
		}
		return s, true, nil
	})
	// Strings are UTF-8 here: encoding names it (Encoding#to_s).
	t.def("encoding", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) > 0 {
			return nil, false, nil
		}
		return newStr("UTF-8"), true, nil
	})
	t.def("succ next", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		r, ok := succ(str)
		if !ok {
			return nil, true, in.unsupported(line, "String#succ of %s", quoteString(str))
		}
		return strResult(r)
	})
	t.def("replace", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		if s.frozen {
			return nil, true, in.frozenError(line, s)
		}
		s.s = o
		return s, true, nil
	})
	t.def("prepend", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		if s.frozen {
			return nil, true, in.frozenError(line, s)
		}
		s.s = o + s.s
		return s, true, nil
	})
	t.def("delete_prefix", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return strResult(strings.TrimPrefix(str, o))
	})
	t.def("delete_suffix", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		str := s.s
		o, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return strResult(strings.TrimSuffix(str, o))
	})
	t.def("hash", func(in *interp, line int, s *rstr, name string, args []any, blk *blockVal) (any, bool, error) {
		return nil, true, in.unsupported(line, "String#hash")
	})
	return t
}

// rubySpace is what strip removes: whitespace and NUL.
const rubySpace = " \t\n\v\f\r\x00"

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + strings.ToLower(s[size:])
}

func justify(s string, width int, pad, how string) string {
	n := utf8.RuneCountInString(s)
	if width <= n {
		return s
	}
	fill := func(k int) string {
		var b strings.Builder
		pr := []rune(pad)
		for i := 0; i < k; i++ {
			b.WriteRune(pr[i%len(pr)])
		}
		return b.String()
	}
	total := width - n
	switch how {
	case "ljust":
		return s + fill(total)
	case "rjust":
		return fill(total) + s
	}
	left := total / 2
	return fill(left) + s + fill(total-left)
}

// split implements String#split.
func (in *interp) split(line int, str string, args []any) (any, bool, error) {
	limit := 0
	if len(args) == 2 {
		l, ok := args[1].(int64)
		if !ok {
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion into Integer")
		}
		limit = int(l)
	}
	var parts []string
	var sep any
	if len(args) >= 1 {
		sep = args[0]
	}
	switch p := sep.(type) {
	case nil:
		parts = awkSplit(str, limit)
	case *rstr:
		if p.s == " " {
			parts = awkSplit(str, limit)
		} else if p.s == "" {
			for _, r := range str {
				parts = append(parts, string(r))
			}
			if limit > 0 && len(parts) > limit {
				parts = append(parts[:limit-1], strings.Join(parts[limit-1:], ""))
			}
		} else {
			n := -1
			if limit > 0 {
				n = limit
			}
			parts = strings.SplitN(str, p.s, n)
		}
	case *rregexp:
		var err error
		if parts, err = regexpSplit(p, str, limit); err != nil {
			return nil, true, in.regexpFailed(line, err)
		}
	default:
		return nil, true, in.errorf(line, "TypeError", "wrong argument type %s (expected Regexp)", className(sep))
	}
	if limit == 0 {
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = newStr(p)
	}
	return &rarray{a: out}, true, nil
}

func awkSplit(s string, limit int) []string {
	var parts []string
	i := 0
	for {
		for i < len(s) && strings.IndexByte(" \t\n\v\f\r\x00", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			return parts
		}
		if limit > 0 && len(parts) == limit-1 {
			return append(parts, s[i:])
		}
		j := i
		for j < len(s) && strings.IndexByte(" \t\n\v\f\r\x00", s[j]) < 0 {
			j++
		}
		parts = append(parts, s[i:j])
		i = j
	}
}

func regexpSplit(re *rregexp, s string, limit int) ([]string, error) {
	var parts []string
	start := 0
	locs, err := rubyMatches(re, s, -1)
	if err != nil {
		return nil, err
	}
	for _, loc := range locs {
		if limit > 0 && len(parts) == limit-1 {
			break
		}
		ms, me := loc[0], loc[1]
		if me == ms && (ms == 0 || ms >= len(s)) {
			continue // empty matches split between characters only
		}
		parts = append(parts, s[start:ms])
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 {
				parts = append(parts, s[loc[2*g]:loc[2*g+1]])
			}
		}
		start = me
	}
	return append(parts, s[start:]), nil
}

// strIndex implements String#[] for integers, ranges, strings and regexps.
func (in *interp) strIndex(line int, str string, args []any) (any, bool, error) {
	runes := []rune(str)
	n := len(runes)
	switch len(args) {
	case 1:
		switch a := args[0].(type) {
		case int64:
			i := int(a)
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return nil, true, nil
			}
			return newStr(string(runes[i])), true, nil
		case *rrange:
			start, length, ok := rangeBounds(a, n)
			if !ok {
				return nil, true, nil
			}
			return newStr(string(runes[start : start+length])), true, nil
		case *rstr:
			if strings.Contains(str, a.s) {
				return newStr(a.s), true, nil
			}
			return nil, true, nil
		case *rregexp:
			m, err := in.matchRegexp(line, a, str)
			if err != nil {
				return nil, true, err
			}
			if m == nil {
				return nil, true, nil
			}
			return m.group(0), true, nil
		case nil, symbol, bool, *rarray, *rhash:
			what := className(a)
			if a == nil {
				what = "nil"
			}
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", what)
		}
	case 2:
		if re, ok := args[0].(*rregexp); ok {
			m, err := in.matchRegexp(line, re, str)
			if err != nil {
				return nil, true, err
			}
			if m == nil {
				return nil, true, nil
			}
			if g, ok := args[1].(int64); ok {
				if g < 0 {
					if g += int64(len(m.groups) / 2); g <= 0 {
						return nil, true, nil
					}
				}
				return m.group(int(g)), true, nil
			}
			return nil, false, nil
		}
		s, ok1 := args[0].(int64)
		l, ok2 := args[1].(int64)
		if ok1 && ok2 {
			start := int(s)
			if start < 0 {
				start += n
			}
			if start < 0 || start > n || l < 0 {
				return nil, true, nil
			}
			end := start + int(l)
			if end > n {
				end = n
			}
			return newStr(string(runes[start:end])), true, nil
		}
	}
	return nil, false, nil
}

// rangeBounds resolves a range against a sequence of length n.
func rangeBounds(r *rrange, n int) (start, length int, ok bool) {
	lo, ok1 := r.lo.(int64)
	if !ok1 {
		return 0, 0, false
	}
	var hi int64
	if r.hi == nil {
		hi = int64(n) - 1
	} else {
		h, ok2 := r.hi.(int64)
		if !ok2 {
			return 0, 0, false
		}
		hi = h
		if hi < 0 {
			hi += int64(n)
		}
		if r.excl {
			hi--
		}
	}
	if lo < 0 {
		lo += int64(n)
	}
	if lo < 0 || lo > int64(n) {
		return 0, 0, false
	}
	if hi >= int64(n) {
		hi = int64(n) - 1
	}
	l := hi - lo + 1
	if l < 0 {
		l = 0
	}
	return int(lo), int(l), true
}

// trLike implements tr, delete, squeeze and count for simple character sets.
func (in *interp) trLike(line int, str, name string, args []any) (any, bool, error) {
	expand := func(set string) ([]rune, bool, error) {
		neg := false
		if strings.HasPrefix(set, "^") && len(set) > 1 {
			neg = true
			set = set[1:]
		}
		rs := []rune(set)
		var out []rune
		for i := 0; i < len(rs); i++ {
			if rs[i] == '\\' && i+1 < len(rs) {
				i++
				out = append(out, rs[i])
				continue
			}
			if i+2 < len(rs) && rs[i+1] == '-' {
				if rs[i+2] < rs[i] {
					return nil, false, in.errorf(line, "ArgumentError", "invalid range in string transliteration")
				}
				for c := rs[i]; c <= rs[i+2]; c++ {
					out = append(out, c)
				}
				i += 2
				continue
			}
			out = append(out, rs[i])
		}
		return out, neg, nil
	}
	contains := func(set []rune, neg bool, r rune) bool {
		for _, c := range set {
			if c == r {
				return !neg
			}
		}
		return neg
	}
	switch name {
	case "count":
		// The characters in every one of the sets (ranges, ^negation and
		// escapes as tr reads them).
		if len(args) == 0 {
			return nil, true, in.errorf(line, "ArgumentError", "wrong number of arguments (given 0, expected 1+)")
		}
		type charSet struct {
			runes []rune
			neg   bool
		}
		sets := make([]charSet, len(args))
		for i := range args {
			s, err := in.strArg(line, args, i)
			if err != nil {
				return nil, true, err
			}
			if sets[i].runes, sets[i].neg, err = expand(s); err != nil {
				return nil, true, err
			}
		}
		n := int64(0)
		for _, r := range str {
			hit := true
			for _, set := range sets {
				hit = hit && contains(set.runes, set.neg, r)
			}
			if hit {
				n++
			}
		}
		return n, true, nil
	case "tr":
		if len(args) != 2 {
			return nil, false, nil
		}
		from, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		to, err := in.strArg(line, args, 1)
		if err != nil {
			return nil, true, err
		}
		fs, neg, err := expand(from)
		if err != nil {
			return nil, true, err
		}
		ts, _, err := expand(to)
		if err != nil {
			return nil, true, err
		}
		var b strings.Builder
		for _, r := range str {
			if neg {
				if contains(fs, true, r) && len(ts) > 0 {
					b.WriteRune(ts[len(ts)-1])
				} else {
					b.WriteRune(r)
				}
				continue
			}
			idx := -1
			for i, c := range fs {
				if c == r {
					idx = i
				}
			}
			switch {
			case idx < 0:
				b.WriteRune(r)
			case len(ts) == 0:
			case idx < len(ts):
				b.WriteRune(ts[idx])
			default:
				b.WriteRune(ts[len(ts)-1])
			}
		}
		return newStr(b.String()), true, nil
	case "delete", "squeeze":
		if name == "delete" && len(args) != 1 || len(args) > 1 {
			return nil, false, nil
		}
		var set []rune
		neg := false
		all := len(args) == 0
		if !all {
			s, err := in.strArg(line, args, 0)
			if err != nil {
				return nil, true, err
			}
			if set, neg, err = expand(s); err != nil {
				return nil, true, err
			}
		}
		var b strings.Builder
		var prev rune = -1
		for _, r := range str {
			hit := all || contains(set, neg, r)
			if name == "delete" {
				if !hit {
					b.WriteRune(r)
				}
				continue
			}
			if hit && r == prev {
				continue
			}
			b.WriteRune(r)
			prev = r
		}
		return newStr(b.String()), true, nil
	}
	return nil, false, nil
}

// Regexps ---------------------------------------------------------------------

func (in *interp) compileRegexp(line int, src, opts string) (*rregexp, error) {
	re, err := compileRubyRegexp(src, opts)
	if err != nil {
		return nil, in.unsupported(line, "regexp /%s/: %v", src, err)
	}
	return re, nil
}

// compileRubyRegexp translates a Ruby regexp and its options to Go's
// engine; constructs RE2 lacks (backreferences, lookaround) are errors.
func compileRubyRegexp(src, opts string) (*rregexp, error) {
	body := src
	if strings.Contains(opts, "x") {
		body = stripExtended(body)
	}
	flags := ""
	if strings.Contains(opts, "i") {
		flags += "i"
	}
	if strings.Contains(opts, "m") {
		flags += "s" // Ruby's /m lets . match newlines
	}
	if flags != "" {
		body = "(?" + flags + ")" + body
	}
	re, err := value.NewRegexp(body)
	if err != nil {
		return nil, err
	}
	goRE := re.Go()
	if goRE == nil || mixesNamedGroups(goRE.SubexpNames()) {
		// Lookaround, backreferences, atomic groups: see regexp.go. With
		// named groups Ruby's plain groups do not capture, which only
		// regexp2 can say (ExplicitCapture).
		bt, err := compileBacktracking(body)
		if err != nil && goRE != nil {
			return &rregexp{src: src, opts: opts, re: goRE}, nil
		}
		if err != nil {
			return nil, err
		}
		return &rregexp{src: src, opts: opts, bt: bt}, nil
	}
	return &rregexp{src: src, opts: opts, re: goRE}, nil
}

// mixesNamedGroups tells whether a regexp has both named and plain groups.
func mixesNamedGroups(names []string) bool {
	named, plain := false, false
	for _, n := range names[1:] {
		if n == "" {
			plain = true
		} else {
			named = true
		}
	}
	return named && plain
}

// stripExtended removes the whitespace and comments of an /x regexp.
func stripExtended(src string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			b.WriteByte(c)
			b.WriteByte(src[i+1])
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (in *interp) toRegexp(line int, v any) (*rregexp, error) {
	switch v := v.(type) {
	case *rregexp:
		return v, nil
	case *rstr:
		return in.compileRegexp(line, rubyRegexpEscape(v.s), "")
	}
	return nil, in.errorf(line, "TypeError", "wrong argument type %s (expected Regexp)", className(v))
}

// phantomLineStart reports a match Go finds but Ruby does not: Go's
// multi-line ^ matches at the very end of a text ending in a newline,
// Ruby's does not (there is no line there).
func phantomLineStart(re *rregexp, s string, loc []int) bool {
	return loc[0] == len(s) && loc[1] == len(s) && strings.HasSuffix(s, "\n") && strings.Contains(re.src, "^")
}

// rubyMatches finds up to n (all if n < 0) matches like Ruby would.
func rubyMatches(re *rregexp, s string, n int) ([][]int, error) {
	var locs [][]int
	if re.re != nil {
		locs = re.re.FindAllStringSubmatchIndex(s, n)
	} else {
		var err error
		if locs, err = re.btMatches(s, n); err != nil {
			return nil, err
		}
	}
	if k := len(locs); k > 0 && phantomLineStart(re, s, locs[k-1]) {
		locs = locs[:k-1]
	}
	return locs, nil
}

// matchRegexp matches and records $~ like Ruby.
func (in *interp) matchRegexp(line int, re *rregexp, s string) (*matchData, error) {
	locs, err := rubyMatches(re, s, 1)
	if err != nil {
		return nil, in.regexpFailed(line, err)
	}
	if len(locs) == 0 {
		in.match = nil
		return nil, nil
	}
	m := &matchData{str: s, groups: locs[0], names: re.subexpNames()}
	in.match = m
	return m, nil
}

// regexpMethod dispatches a call of one of Regexp's methods through regexpMethods.
func (in *interp) regexpMethod(line int, re *rregexp, name string, args []any) (any, bool, error) {
	if m := in.methods.regexp[name]; m != nil {
		return m(in, line, re, name, args, nil)
	}
	return nil, false, nil
}

// regexpMethods are Regexp's methods, by name.
func regexpMethods() methodTable[*rregexp] {
	t := methodTable[*rregexp]{}
	t.def("source", func(in *interp, line int, re *rregexp, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr(re.src), true, nil
	})
	t.def("=~ match match?", func(in *interp, line int, re *rregexp, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		var s string
		switch a := args[0].(type) {
		case nil:
			in.match = nil
			if name == "match?" {
				return false, true, nil
			}
			return nil, true, nil
		case *rstr:
			s = a.s
		case symbol:
			s = string(a)
		default:
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[0]))
		}
		if name == "match?" {
			ok, err := re.matchString(s)
			if err != nil {
				return nil, true, in.regexpFailed(line, err)
			}
			return ok, true, nil
		}
		m, err := in.matchRegexp(line, re, s)
		if err != nil {
			return nil, true, err
		}
		if m == nil {
			return nil, true, nil
		}
		if name == "match" {
			return m, true, nil
		}
		return int64(utf8.RuneCountInString(s[:m.groups[0]])), true, nil
	})
	return t
}

// matchDataMethod dispatches a call of one of MatchData's methods through matchDataMethods.
func (in *interp) matchDataMethod(line int, m *matchData, name string, args []any) (any, bool, error) {
	if meth := in.methods.matchData[name]; meth != nil {
		return meth(in, line, m, name, args, nil)
	}
	return nil, false, nil
}

// matchDataMethods are MatchData's methods, by name.
func matchDataMethods() methodTable[*matchData] {
	t := methodTable[*matchData]{}
	t.def("[]", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			switch a := args[0].(type) {
			case int64:
				if a < 0 {
					// m[-1] is the last group; counting back never reaches $&.
					if a += int64(len(m.groups) / 2); a <= 0 {
						return nil, true, nil
					}
				}
				return m.group(int(a)), true, nil
			case *rrange:
				var all []any
				for i := 0; 2*i < len(m.groups); i++ {
					all = append(all, m.group(i))
				}
				v, _, err := in.arrayIndex(line, all, []any{a})
				return v, true, err
			case *rstr, symbol:
				for i, n := range m.names {
					if n != "" && n == toS(a) {
						return m.group(i), true, nil
					}
				}
				return nil, true, in.errorf(line, "IndexError", "undefined group name reference: %s", toS(a))
			}
		}
		if len(args) == 2 {
			// m[start, length], as Array#[] over $~ and the groups.
			all := make([]any, 0, len(m.groups)/2)
			for i := 0; 2*i < len(m.groups); i++ {
				all = append(all, m.group(i))
			}
			v, _, err := in.arrayIndex(line, all, args)
			return v, true, err
		}
		return nil, false, nil
	})
	t.def("length size", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(len(m.groups) / 2), true, nil
	})
	t.def("captures", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		var out []any
		for i := 1; 2*i < len(m.groups); i++ {
			out = append(out, m.group(i))
		}
		return &rarray{a: out}, true, nil
	})
	t.def("to_a", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		var out []any
		for i := 0; 2*i < len(m.groups); i++ {
			out = append(out, m.group(i))
		}
		return &rarray{a: out}, true, nil
	})
	t.def("names", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 0 {
			return nil, false, nil
		}
		out := []any{}
		for _, n := range m.names {
			if n != "" {
				out = append(out, newStr(n))
			}
		}
		return &rarray{a: out}, true, nil
	})
	t.def("pre_match", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr(m.str[:m.groups[0]]), true, nil
	})
	t.def("post_match", func(in *interp, line int, m *matchData, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr(m.str[m.groups[1]:]), true, nil
	})
	return t
}

// substitute implements sub and gsub.
func (in *interp) substitute(line int, str string, global bool, args []any, blk *blockVal) (string, error) {
	if len(args) < 1 || len(args) > 2 || len(args) == 1 && blk == nil {
		return "", in.unsupported(line, "gsub/sub with %d arguments", len(args))
	}
	re, err := in.toRegexp(line, args[0])
	if err != nil {
		return "", err
	}
	var b strings.Builder
	pos := 0
	n := 1
	if global {
		n = -1
	}
	// Matching the whole string at once keeps anchors such as ^ and \b
	// seeing the text around each match.
	locs, err := rubyMatches(re, str, n)
	if err != nil {
		return "", in.regexpFailed(line, err)
	}
	in.match = nil
	names := re.subexpNames()
	for _, loc := range locs {
		m := &matchData{str: str, groups: loc, names: names}
		in.match = m
		ms, me := loc[0], loc[1]
		b.WriteString(str[pos:ms])
		var rep string
		if len(args) == 2 {
			switch r := args[1].(type) {
			case *rstr:
				rep = expandReplacement(r.s, m)
			case *rhash:
				v, _ := r.get(newStr(str[ms:me]))
				rep = toS(v)
			default:
				return "", in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[1]))
			}
		} else {
			v, err := in.yield(line, blk, newStr(str[ms:me]))
			if err != nil {
				return "", err
			}
			if rep, err = in.callToS(line, v); err != nil {
				return "", err
			}
			in.match = m
		}
		b.WriteString(rep)
		pos = me
		if b.Len() > in.maxString {
			return "", in.stringTooLarge(line)
		}
	}
	if pos < len(str) {
		b.WriteString(str[pos:])
	}
	return b.String(), nil
}

// expandReplacement substitutes \0-\9, \&, \k<name> and \\ in a replacement.
func expandReplacement(rep string, m *matchData) string {
	if !strings.Contains(rep, `\`) {
		return rep
	}
	var b strings.Builder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c != '\\' || i+1 >= len(rep) {
			b.WriteByte(c)
			continue
		}
		n := rep[i+1]
		switch {
		case n >= '0' && n <= '9':
			b.WriteString(toS(m.group(int(n - '0'))))
			i++
		case n == '&':
			b.WriteString(toS(m.group(0)))
			i++
		case n == '\\':
			b.WriteByte('\\')
			i++
		case n == '`':
			b.WriteString(m.str[:m.groups[0]])
			i++
		case n == '\'':
			b.WriteString(m.str[m.groups[1]:])
			i++
		case n == 'k' && i+2 < len(rep) && rep[i+2] == '<':
			end := strings.IndexByte(rep[i+3:], '>')
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			name := rep[i+3 : i+3+end]
			for g, gn := range m.names {
				if gn == name {
					b.WriteString(toS(m.group(g)))
				}
			}
			i += 3 + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// format implements Kernel#format and String#% for the common directives.
func (in *interp) format(line int, fmtv any, args []any) (string, error) {
	f, ok := fmtv.(*rstr)
	if !ok {
		return "", in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(fmtv))
	}
	s := f.s
	var b strings.Builder
	argi := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			// %{name}: the value of a Hash argument's :name, as to_s.
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", in.errorf(line, "ArgumentError", "malformed name - unmatched parenthesis")
			}
			key := s[i+2 : i+2+end]
			h, isHash := any(nil), false
			if len(args) == 1 {
				h, isHash = args[0].(*rhash)
			}
			if !isHash {
				return "", in.errorf(line, "ArgumentError", "one hash required")
			}
			v, found := h.(*rhash).get(symbol(key))
			if !found {
				return "", in.errorf(line, "KeyError", "key{%s} not found", key)
			}
			str, err := in.callToS(line, v)
			if err != nil {
				return "", err
			}
			b.WriteString(str)
			i += 2 + end
			continue
		}
		j := i + 1
		for j < len(s) && strings.IndexByte("-+ 0#", s[j]) >= 0 {
			j++
		}
		spec := s[i+1 : j]
		if j < len(s) && s[j] == '*' {
			// The width is the next argument; a negative one left-justifies.
			if argi >= len(args) {
				return "", in.errorf(line, "ArgumentError", "too few arguments")
			}
			w, ok := args[argi].(int64)
			if !ok {
				return "", in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", className(args[argi]))
			}
			argi++
			if w < 0 {
				spec, w = spec+"-", -w
			}
			spec += strconv.FormatInt(w, 10)
			j++
		}
		start := j
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		if j >= len(s) {
			return "", in.errorf(line, "ArgumentError", "incomplete format specifier")
		}
		spec += s[start:j]
		verb := s[j]
		i = j
		if err := in.checkFormatSpec(line, spec); err != nil {
			return "", err
		}
		if b.Len() > in.maxString {
			return "", in.stringTooLarge(line)
		}
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if argi >= len(args) {
			return "", in.errorf(line, "ArgumentError", "too few arguments")
		}
		a := args[argi]
		argi++
		switch verb {
		case 's':
			str, err := in.callToS(line, a)
			if err != nil {
				return "", err
			}
			b.WriteString(fmt.Sprintf("%"+spec+"s", str))
		case 'p':
			b.WriteString(fmt.Sprintf("%"+spec+"s", inspect(a)))
		case 'd', 'i', 'x', 'X', 'o', 'b':
			var n int64
			switch v := a.(type) {
			case int64:
				n = v
			case float64:
				n = int64(v)
			case *rstr:
				v2, err := in.kernelNumber(line, "Integer", v)
				if err != nil {
					return "", err
				}
				n = v2.(int64)
			default:
				return "", in.errorf(line, "TypeError", "can't convert %s into Integer", className(a))
			}
			if verb == 'i' {
				verb = 'd'
			}
			b.WriteString(fmt.Sprintf("%"+spec+string(verb), n))
		case 'f', 'e', 'E', 'g', 'G':
			var x float64
			switch v := a.(type) {
			case int64:
				x = float64(v)
			case float64:
				x = v
			case *rstr:
				v2, err := in.kernelNumber(line, "Float", v)
				if err != nil {
					return "", err
				}
				x = v2.(float64)
			default:
				return "", in.errorf(line, "TypeError", "can't convert %s into Float", className(a))
			}
			b.WriteString(fmt.Sprintf("%"+spec+string(verb), x))
		default:
			return "", in.unsupported(line, "format directive %%%c", verb)
		}
	}
	if b.Len() > in.maxString {
		return "", in.stringTooLarge(line)
	}
	return b.String(), nil
}

// checkFormatSpec checks the width and precision of a format directive:
// Ruby's ArgumentError past a C int, the MaxFormatWidth limit below that
// (Go's fmt would print a wrong "%!(BADWIDTH)" instead).
func (in *interp) checkFormatSpec(line int, spec string) error {
	for k, part := range strings.SplitN(strings.TrimLeft(spec, "-+ 0#"), ".", 2) {
		what := "width"
		if k == 1 {
			what = "precision"
		}
		n := int64(0)
		for _, c := range part {
			if c < '0' || c > '9' {
				break
			}
			if n = n*10 + int64(c-'0'); n > math.MaxInt32 {
				return in.errorf(line, "ArgumentError", "%s too big", what)
			}
		}
		if n > MaxFormatWidth {
			return in.tooLarge(line, "format "+what, "MaxFormatWidth", MaxFormatWidth, "")
		}
	}
	return nil
}

// succ is String#succ for strings of ASCII letters and digits: the
// rightmost alphanumeric increments, carrying leftwards.
func succ(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	b := []byte(s)
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c == '9':
			b[i] = '0'
		case c == 'z':
			b[i] = 'a'
		case c == 'Z':
			b[i] = 'A'
		default:
			b[i]++
			return string(b), true
		}
	}
	// Carried past the first character: prepend like Ruby ("zz" -> "aaa").
	var first byte
	switch c := s[0]; {
	case c >= '0' && c <= '9':
		first = '1'
	case c >= 'a' && c <= 'z':
		first = 'a'
	default:
		first = 'A'
	}
	return string(first) + string(b), true
}

// dumpString is String#dump: a double-quoted literal of ASCII only, with
// \" \\ \n \t \r \f \v \b \a \e, \# before $ @ {, \uXXXX or \u{X}
// for each other character (upper-case hex) and \xHH for a byte that is no
// UTF-8.
func dumpString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				fmt.Fprintf(&b, "\\x%02X", c)
				i++
			case r > 0xFFFF:
				fmt.Fprintf(&b, "\\u{%X}", r)
				i += size
			default:
				fmt.Fprintf(&b, "\\u%04X", r)
				i += size
			}
			continue
		}
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString("\\n")
		case '\r':
			b.WriteString("\\r")
		case '\t':
			b.WriteString("\\t")
		case '\f':
			b.WriteString("\\f")
		case '\v':
			b.WriteString("\\v")
		case '\b':
			b.WriteString("\\b")
		case '\a':
			b.WriteString("\\a")
		case 033:
			b.WriteString("\\e")
		case '#':
			if i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '@' || s[i+1] == '{') {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\x%02X", c)
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}
