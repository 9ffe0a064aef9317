package ruby

import (
	"hash/crc32"
	"strings"
)

// shellEscape is Shellwords.escape: every byte outside a safe set gets a
// backslash, a newline becomes '\n' in single quotes, and the empty string
// becomes a pair of single quotes.
func shellEscape(s string) string {
	if s == "" {
		return "''"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			b.WriteString("'\n'")
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80, strings.IndexByte("_-.,:+/@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// shellSplit is Shellwords.split: words separated by blanks, with single
// quotes, double quotes (where a backslash escapes $ ` " \ and newline) and
// backslash escapes; ok is false for an unmatched quote.
func shellSplit(s string) (words []string, ok bool) {
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			i++
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 2
		case c == '"':
			i++
			for {
				if i >= len(s) {
					return nil, false
				}
				if s[i] == '"' {
					i++
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					w.WriteByte(s[i+1])
					i += 2
					continue
				}
				w.WriteByte(s[i])
				i++
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				w.WriteByte(s[i+1])
				i += 2
			} else {
				i++
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
			i++
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, true
}

// shellwordsMethod implements Shellwords.escape, .split and .join (and
// their aliases).
func (in *interp) shellwordsMethod(line int, name string, args []any) (any, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	switch name {
	case "escape", "shellescape":
		s, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return newStr(shellEscape(s)), true, nil
	case "split", "shellsplit", "shellwords":
		s, err := in.strArg(line, args, 0)
		if err != nil {
			return nil, true, err
		}
		return in.shellSplitValue(line, s)
	case "join", "shelljoin":
		a, ok := args[0].(*rarray)
		if !ok {
			return nil, false, nil
		}
		return newStr(in.shellJoin(a)), true, nil
	}
	return nil, false, nil
}

func (in *interp) shellSplitValue(line int, s string) (any, bool, error) {
	words, ok := shellSplit(s)
	if !ok {
		return nil, true, in.errorf(line, "ArgumentError", "Unmatched quote: %s", inspect(newStr(s)))
	}
	out := make([]any, len(words))
	for i, w := range words {
		out[i] = newStr(w)
	}
	return &rarray{a: out}, true, nil
}

func (in *interp) shellJoin(a *rarray) string {
	parts := make([]string, len(a.a))
	for i, e := range a.a {
		parts[i] = shellEscape(toS(e))
	}
	return strings.Join(parts, " ")
}

// zlibMethod implements Zlib.crc32(string, start = 0).
func (in *interp) zlibMethod(line int, name string, args []any) (any, bool, error) {
	if name != "crc32" || len(args) > 2 {
		return nil, false, nil
	}
	if len(args) == 0 {
		return int64(0), true, nil
	}
	s, err := in.strArg(line, args, 0)
	if err != nil {
		return nil, true, err
	}
	var start uint32
	if len(args) == 2 {
		n, ok := args[1].(int64)
		if !ok {
			return nil, false, nil
		}
		start = uint32(n)
	}
	return int64(crc32.Update(start, crc32.IEEETable, []byte(s))), true, nil
}

// hashFromArgs is Hash[...]: a hash's copy, an array of pairs, or keys and
// values alternating.
func (in *interp) hashFromArgs(line int, args []any) (any, error) {
	h := newHash()
	if len(args) == 1 {
		switch a := args[0].(type) {
		case *rhash:
			return a.copy(), nil
		case *rarray:
			for _, e := range a.a {
				p, ok := e.(*rarray)
				if !ok || len(p.a) < 1 || len(p.a) > 2 {
					return nil, in.errorf(line, "ArgumentError", "invalid number of elements (%d for 1..2)", pairLen(e))
				}
				var v any
				if len(p.a) == 2 {
					v = p.a[1]
				}
				h.set(p.a[0], v)
			}
			return h, nil
		}
	}
	if len(args)%2 != 0 {
		return nil, in.errorf(line, "ArgumentError", "odd number of arguments for Hash")
	}
	for i := 0; i < len(args); i += 2 {
		h.set(args[i], args[i+1])
	}
	return h, nil
}

func pairLen(v any) int {
	if a, ok := v.(*rarray); ok {
		return len(a.a)
	}
	return 0
}
