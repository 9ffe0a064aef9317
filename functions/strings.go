package functions

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

func addStrings(t Table) {
	t["split"] = Dispatch("split",
		Fixed(splitImpl, P("str", tString), P("pattern", tString)),
		Fixed(splitImpl, P("str", tString), P("pattern", tRegexp)),
		Fixed(splitImpl, P("str", tString), P("pattern", &value.TypeType{Type: value.RegexpAny})))
	t["join"] = Dispatch("join", Signature{Params: []Param{P("arg", tArray), P("delimiter", tString)}, Required: 1, Impl: joinImpl})

	// upcase and downcase recurse into arrays and hashes of string data.
	stringData := &value.AliasType{Name: "StringData"}
	stringData.Resolved = variant(tString, tNumeric,
		&value.ArrayType{Elem: stringData, Min: 0, Max: value.MaxInt},
		&value.HashType{Key: stringData, Value: stringData, Min: 0, Max: value.MaxInt})
	deepSigs := func(conv func(string) string) []Signature {
		impl := func(c *Ctx, args []value.Value) (value.Value, error) { return mapStringsDeep(args[0], conv), nil }
		return []Signature{
			Fixed(impl, P("arg", tNumeric)),
			Fixed(impl, P("arg", tString)),
			Fixed(impl, P("arg", &value.ArrayType{Elem: stringData, Min: 0, Max: value.MaxInt})),
			Fixed(impl, P("arg", &value.HashType{Key: stringData, Value: stringData, Min: 0, Max: value.MaxInt})),
		}
	}
	t["upcase"] = Dispatch("upcase", deepSigs(rubyUpcase)...)
	t["downcase"] = Dispatch("downcase", deepSigs(rubyDowncase)...)

	// These convert a string, or each string of an iterable, leaving numbers.
	shallow := func(name string, conv func(string) string) {
		impl := func(c *Ctx, args []value.Value) (value.Value, error) { return mapStringsShallow(args[0], conv) }
		t[name] = Dispatch(name,
			Fixed(impl, P("arg", tNumeric)),
			Fixed(impl, P("arg", tString)),
			Fixed(impl, iterableOf("arg", variant(tString, tNumeric))))
	}
	shallow("capitalize", rubyCapitalize)
	shallow("camelcase", camelcase)
	shallow("chomp", rubyChomp)
	shallow("chop", rubyChop)
	shallow("strip", func(s string) string { return rubyRstrip(rubyLstrip(s)) })
	shallow("lstrip", rubyLstrip)
	shallow("rstrip", rubyRstrip)

	t["regsubst"] = Dispatch("regsubst",
		Signature{Params: []Param{
			P("target", variant(&value.ArrayType{Elem: tString, Min: 0, Max: value.MaxInt}, tString)),
			P("pattern", tString),
			P("replacement", variant(tString, &value.HashType{Key: tString, Value: tString, Min: 0, Max: value.MaxInt})),
			P("flags", optional(&value.PatternType{Regexps: []*value.Regexp{mustRegexp(`^[GEIM]*$`)}})),
			P("encoding", value.NewEnum([]string{"E", "N", "S", "U"}, false)),
		}, Required: 3, Impl: regsubstImpl},
		Signature{Params: []Param{
			P("target", variant(&value.ArrayType{Elem: tString, Min: 0, Max: value.MaxInt}, tString)),
			P("pattern", variant(tRegexp, &value.TypeType{Type: value.RegexpAny})),
			P("replacement", variant(tString, &value.HashType{Key: tString, Value: tString, Min: 0, Max: value.MaxInt})),
			P("flags", &value.PatternType{Regexps: []*value.Regexp{mustRegexp(`^G?$`)}}),
		}, Required: 3, Impl: regsubstImpl})
	t["match"] = Dispatch("match",
		Fixed(matchImpl, P("string", tString), P("pattern", variant(tAny, tType))),
		Fixed(matchImpl, P("string", &value.ArrayType{Elem: tString, Min: 0, Max: value.MaxInt}), P("pattern", variant(tAny, tType))))

	t["versioncmp"] = Dispatch("versioncmp",
		Signature{Params: []Param{P("a", tString), P("b", tString), P("ignore_trailing_zeroes", tBoolean)}, Required: 2, Impl: versioncmpImpl})

	t["md5"] = legacy(digestFunc("md5", func(b []byte) []byte { s := md5.Sum(b); return s[:] }))
	t["sha1"] = legacy(digestFunc("sha1", func(b []byte) []byte { s := sha1.Sum(b); return s[:] }))
	t["sha256"] = legacy(digestFunc("sha256", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }))
	// digest() uses the digest_algorithm setting, sha256 by default.
	t["digest"] = legacy(digestFunc("digest", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }))
	t["shellquote"] = legacy(shellquote)
	t["sprintf"] = legacy(sprintfFunc)
}

// iterableOf is a parameter of type Iterable[elem]. Puppet checks such a
// value by the common type of its elements, so ['a', 1.5] (common type
// ScalarData) is not an Iterable[Variant[String, Numeric]].
func iterableOf(name string, elem value.Type) Param {
	return Param{Name: name, Type: &value.IterableType{Type: elem}, Accepts: func(v value.Value) bool {
		if !value.IsInstance(value.IterableAny, v) || checkIterationSize(v) != nil {
			return false
		}
		if _, isHash := v.(*value.Hash); isHash {
			// A hash iterates as [key, value] pairs, even when empty.
			return value.IsInstance(elem, value.Array{})
		}
		if _, ok := v.(value.Array); !ok {
			return value.IsInstance(&value.IterableType{Type: elem}, v)
		}
		elems, _ := value.ToArray(v)
		var common value.Type
		for _, e := range elems {
			common = commonType(common, reduceValue(e))
		}
		return common == nil || value.IsAssignable(elem, finishReduced(common))
	}}
}

func mustRegexp(src string) *value.Regexp {
	r, err := value.NewRegexp(src)
	if err != nil {
		panic(err) // only called with constant, valid patterns
	}
	return r
}

func splitImpl(c *Ctx, args []value.Value) (value.Value, error) {
	s := string(args[0].(value.String))
	var re *value.Regexp
	switch pat := args[1].(type) {
	case value.String:
		r, err := compileRuby(string(pat))
		if err != nil {
			return nil, err
		}
		re = r
	case *value.Regexp:
		re = pat
	case *value.RegexpType:
		re = regexpOfType(pat)
	}
	parts, err := rubySplit(s, re)
	if err != nil {
		return nil, err
	}
	out := make(value.Array, len(parts))
	for i, part := range parts {
		out[i] = value.String(part)
	}
	return out, nil
}

// rubySplit splits like Ruby's String#split with a regexp: captured groups
// are kept, an empty match at the start of a field does not split, and
// trailing empty fields are dropped.
func rubySplit(s string, re *value.Regexp) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	beg := 0
	matches, err := matchAll(re, s, -1)
	if err != nil {
		return nil, err
	}
	for _, m := range matches {
		if m[0] == m[1] && (m[0] == beg || m[0] >= len(s)) {
			continue
		}
		out = append(out, s[beg:m[0]])
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				out = append(out, s[m[g]:m[g+1]])
			}
		}
		beg = m[1]
	}
	out = append(out, s[beg:])
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, nil
}

// rubyRegexpError words a pattern compile error as Ruby does.
func rubyRegexpError(src string, err error) error {
	msg := err.Error()
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrMissingParen:
			msg = "end pattern with unmatched parenthesis"
		case syntax.ErrUnexpectedParen:
			msg = "unmatched close parenthesis"
		case syntax.ErrMissingBracket:
			msg = "premature end of char-class"
		case syntax.ErrMissingRepeatArgument:
			msg = "target of repeat operator is not specified"
		case syntax.ErrTrailingBackslash:
			msg = "too short escape sequence"
		case syntax.ErrInvalidRepeatSize:
			msg = "too big number for repeat range"
		case syntax.ErrInvalidCharRange:
			msg = "empty range in char class"
		default:
			msg = se.Code.String()
		}
	}
	return fmt.Errorf("%s: /%s/", msg, src)
}

func joinImpl(c *Ctx, args []value.Value) (value.Value, error) {
	sep := ""
	if len(args) > 1 {
		sep = string(args[1].(value.String))
	}
	var b strings.Builder
	first := true
	// Ruby's Array#join flattens nested arrays and uses to_s on the rest.
	var write func(a value.Array)
	write = func(a value.Array) {
		for _, e := range a {
			if nested, ok := e.(value.Array); ok {
				write(nested)
				continue
			}
			if !first {
				b.WriteString(sep)
			}
			first = false
			b.WriteString(value.RubyString(e))
		}
	}
	write(args[0].(value.Array))
	return value.String(b.String()), nil
}

// mapStringsDeep applies conv to every string in v, recursing into arrays
// and hashes (keys too).
func mapStringsDeep(v value.Value, conv func(string) string) value.Value {
	switch v := v.(type) {
	case value.String:
		return value.String(conv(string(v)))
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = mapStringsDeep(e, conv)
		}
		return out
	case *value.Hash:
		b := value.NewHashBuilder(v.Len())
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			b.Set(mapStringsDeep(k, conv), mapStringsDeep(e, conv))
		}
		return b.Build()
	}
	return v
}

// mapStringsShallow applies conv to a string, or to each string element of
// an iterable (returning an array); numbers pass unchanged.
func mapStringsShallow(v value.Value, conv func(string) string) (value.Value, error) {
	switch v := v.(type) {
	case value.String:
		return value.String(conv(string(v))), nil
	case value.Integer, value.Float:
		return v, nil
	}
	elems, err := iterElements(v)
	if err != nil {
		return nil, err
	}
	out := make(value.Array, len(elems))
	for i, e := range elems {
		if s, ok := e.(value.String); ok {
			e = value.String(conv(string(s)))
		}
		out[i] = e
	}
	return out, nil
}

// rubyUpcase is Ruby's full Unicode upcase (ß becomes SS).
func rubyUpcase(s string) string {
	return strings.ToUpper(strings.ReplaceAll(s, "ß", "SS"))
}

func rubyDowncase(s string) string { return strings.ToLower(s) }

// rubyCapitalize upcases the first character and downcases the rest.
func rubyCapitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToTitle(r)) + strings.ToLower(s[n:])
}

// camelcase capitalizes each _-separated segment and drops the underscores.
func camelcase(s string) string {
	var b strings.Builder
	for _, seg := range strings.Split(s, "_") {
		b.WriteString(rubyCapitalize(seg))
	}
	return b.String()
}

// rubyChomp removes one trailing \r\n, \n or \r.
func rubyChomp(s string) string {
	switch {
	case strings.HasSuffix(s, "\r\n"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "\n"), strings.HasSuffix(s, "\r"):
		return s[:len(s)-1]
	}
	return s
}

// rubyChop removes the last character, or a trailing \r\n.
func rubyChop(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	_, n := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-n]
}

// Ruby's strip removes ASCII whitespace, and NUL at the end.
func rubyLstrip(s string) string { return strings.TrimLeft(s, " \t\n\v\f\r") }
func rubyRstrip(s string) string { return strings.TrimRight(s, " \t\n\v\f\r\x00") }

// regsubstImpl replaces the first (or, with flag G, every) match of pattern
// in the target string or in each string of a target array.
func regsubstImpl(c *Ctx, args []value.Value) (value.Value, error) {
	var re *value.Regexp
	flags := ""
	if len(args) > 3 {
		if s, ok := args[3].(value.String); ok {
			flags = string(s)
		}
	}
	global := strings.Contains(flags, "G")
	switch pat := args[1].(type) {
	case value.String:
		src := string(pat)
		prefix := ""
		if strings.Contains(flags, "I") {
			prefix += "i"
		}
		if strings.Contains(flags, "M") {
			prefix += "s"
		}
		if strings.Contains(flags, "E") {
			src = stripExtended(src)
		}
		if prefix != "" {
			src = "(?" + prefix + ")" + src
		}
		r, err := value.NewRegexp(src)
		if err != nil {
			return nil, rubyRegexpError(string(pat), err)
		}
		re = r
	case *value.Regexp:
		re = pat
	case *value.RegexpType:
		re = regexpOfType(pat)
	}
	switch target := args[0].(type) {
	case value.String:
		r, err := rubySub(string(target), re, args[2], global)
		return value.String(r), err
	case value.Array:
		out := make(value.Array, len(target))
		for i, e := range target {
			r, err := rubySub(string(e.(value.String)), re, args[2], global)
			if err != nil {
				return nil, err
			}
			out[i] = value.String(r)
		}
		return out, nil
	}
	return args[0], nil
}

// stripExtended removes the whitespace and #-comments of a Ruby extended
// (x flag) regexp, which Go's syntax does not support.
func stripExtended(src string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case ch == '\\' && i+1 < len(src):
			b.WriteByte(ch)
			b.WriteByte(src[i+1])
			i++
		case inClass:
			if ch == ']' {
				inClass = false
			}
			b.WriteByte(ch)
		case ch == '[':
			inClass = true
			b.WriteByte(ch)
		case ch == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v':
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// rubySub is Ruby's sub/gsub: the replacement is a string with \0-\9, \&,
// \k<name>, \`, \' and \\ references, or a hash from matched text to its
// replacement.
func rubySub(s string, re *value.Regexp, replacement value.Value, global bool) (string, error) {
	n := 1
	if global {
		n = -1
	}
	matches, err := matchAll(re, s, n)
	if err != nil {
		return "", err
	}
	if len(matches) == 0 {
		return s, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(s[last:m[0]])
		switch r := replacement.(type) {
		case value.String:
			expandRubyReplacement(&b, string(r), s, m, re)
		case *value.Hash:
			if v, ok := r.Get(value.String(s[m[0]:m[1]])); ok {
				b.WriteString(value.RubyString(v))
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

func expandRubyReplacement(b *strings.Builder, repl, s string, m []int, re *value.Regexp) {
	group := func(g int) {
		if 2*g+1 < len(m) && m[2*g] >= 0 {
			b.WriteString(s[m[2*g]:m[2*g+1]])
		}
	}
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		if ch != '\\' || i+1 == len(repl) {
			b.WriteByte(ch)
			continue
		}
		next := repl[i+1]
		switch {
		case next >= '0' && next <= '9':
			group(int(next - '0'))
		case next == '&':
			group(0)
		case next == '`':
			b.WriteString(s[:m[0]])
		case next == '\'':
			b.WriteString(s[m[1]:])
		case next == '\\':
			b.WriteByte('\\')
		case next == 'k' && i+2 < len(repl) && repl[i+2] == '<':
			end := strings.IndexByte(repl[i+3:], '>')
			if end < 0 {
				b.WriteString(`\k`)
				break
			}
			name := repl[i+3 : i+3+end]
			if g := subexpIndex(re, name); g >= 0 {
				group(g)
			}
			i += 2 + end + 1
			continue
		default:
			b.WriteByte('\\')
			b.WriteByte(next)
		}
		i++
	}
}

// matchImpl returns the match and its groups, undef when there is none; for
// an array of strings, one such result per string.
func matchImpl(c *Ctx, args []value.Value) (value.Value, error) {
	if a, ok := args[0].(value.Array); ok {
		out := make(value.Array, len(a))
		for i, e := range a {
			r, err := matchOne(string(e.(value.String)), args[1])
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return matchOne(string(args[0].(value.String)), args[1])
}

func matchOne(s string, pattern value.Value) (value.Value, error) {
	switch pat := pattern.(type) {
	case value.String:
		r, err := compileRuby(string(pat))
		if err != nil {
			return nil, err
		}
		return matchRegexp(s, r)
	case *value.Regexp:
		return matchRegexp(s, pat)
	case *value.RegexpType:
		if pat.Pattern == nil {
			return nil, fmt.Errorf("Given Regexp Type has no regular expression")
		}
		return matchRegexp(s, pat.Pattern)
	case *value.PatternType:
		for _, r := range pat.Regexps {
			m, err := matchRegexp(s, r)
			if err != nil || !value.IsUndef(m) {
				return m, err
			}
		}
		return value.Undef, nil
	case *value.VariantType:
		for _, t := range pat.Types {
			m, err := matchOne(s, t)
			if err != nil {
				return nil, err
			}
			if !value.IsUndef(m) {
				return m, nil
			}
		}
		return value.Undef, nil
	case *value.AliasType:
		return matchOne(s, value.Resolve(pat))
	case value.Array:
		for _, e := range flattenArray(pat) {
			m, err := matchOne(s, e)
			if err != nil {
				return nil, err
			}
			if !value.IsUndef(m) {
				return m, nil
			}
		}
		return value.Undef, nil
	}
	return nil, fmt.Errorf("match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got %s", value.RubyClass(pattern))
}

func matchRegexp(s string, re *value.Regexp) (value.Value, error) {
	m, err := re.FindSubmatchIndex(s)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return value.Undef, nil
	}
	out := make(value.Array, len(m)/2)
	for g := range out {
		if m[2*g] < 0 {
			out[g] = value.Undef
		} else {
			out[g] = value.String(s[m[2*g]:m[2*g+1]])
		}
	}
	return out, nil
}

// digestFunc builds md5/sha1/sha256/digest (3.x functions: the argument
// must be a string, Ruby's conversion error otherwise).
func digestFunc(name string, sum func([]byte) []byte) Func {
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		if err := Arity3(name, args, 1, false); err != nil {
			return nil, err
		}
		s, ok := args[0].(value.String)
		if !ok {
			return nil, fmt.Errorf("no implicit conversion of %s into String", rubyTypeForError(args[0]))
		}
		return value.String(hex.EncodeToString(sum([]byte(s)))), nil
	}
}

// versioncmpImpl compares version strings the way Puppet does: runs of
// digits numerically, other runs as strings, with '-' and '.' as separators.
func versioncmpImpl(c *Ctx, args []value.Value) (value.Value, error) {
	a, b := string(args[0].(value.String)), string(args[1].(value.String))
	if len(args) > 2 && args[2] == value.True {
		a, b = trimTrailingZeroes(a), trimTrailingZeroes(b)
	}
	return value.Integer(versionCompare(a, b)), nil
}

// trimTrailingZeroes drops the trailing run of '.' and '0' characters of the
// part before the first '-' (so "1.10" becomes "1.1", as in Puppet).
func trimTrailingZeroes(v string) string {
	head, tail, dash := strings.Cut(v, "-")
	head = strings.TrimRight(head, ".0")
	if dash {
		return head + "-" + tail
	}
	return head
}

// versionToken splits a version into tokens: digit runs, other runs and
// the separators . and -.
var versionToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-.]|[0-9]+|[^-.0-9]+`) })

func versionCompare(a, b string) int {
	ta := versionToken().FindAllString(a, -1)
	tb := versionToken().FindAllString(b, -1)
	for len(ta) > 0 && len(tb) > 0 {
		x, y := ta[0], tb[0]
		ta, tb = ta[1:], tb[1:]
		switch {
		case x == y:
			continue
		case x == "-", x == ".":
			return -1
		case y == "-", y == ".":
			return 1
		case isDigits(x) && isDigits(y) && !strings.HasPrefix(x, "0") && !strings.HasPrefix(y, "0"):
			return compareDigits(x, y)
		}
		return strings.Compare(rubyUpcase(x), rubyUpcase(y))
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// compareDigits compares two digit strings numerically, whatever their length.
func compareDigits(x, y string) int {
	x = strings.TrimLeft(x, "0")
	y = strings.TrimLeft(y, "0")
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}

// shellquote quotes its arguments (arrays are flattened) for a Bourne shell,
// as Puppet's shellquote does.
func shellquote(c *Ctx, args []value.Value) (value.Value, error) {
	const dangerous = "!\"`$\\"
	isSafe := func(r rune) bool {
		return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%_+=:,./-", r))
	}
	var words []string
	for _, a := range flattenArray(value.Array(args)) {
		ws, isString := a.(value.String)
		if !isString {
			// Puppet's shellquote works on strings only; Ruby fails on
			// anything else.
			if _, isHash := a.(*value.Hash); isHash {
				return nil, errors.New("no implicit conversion of Hash into String")
			}
			return nil, fmt.Errorf("undefined method `length' for %s:%s", value.RubyInspect(a), value.RubyClass(a))
		}
		w := string(ws)
		switch {
		case w != "" && strings.IndexFunc(w, func(r rune) bool { return !isSafe(r) }) < 0:
			words = append(words, w)
		case !strings.ContainsAny(w, dangerous):
			words = append(words, `"`+w+`"`)
		case !strings.Contains(w, "'"):
			words = append(words, "'"+w+"'")
		default:
			var b strings.Builder
			b.WriteByte('"')
			for i := 0; i < len(w); i++ {
				if strings.IndexByte(dangerous, w[i]) >= 0 {
					b.WriteByte('\\')
				}
				b.WriteByte(w[i])
			}
			b.WriteByte('"')
			words = append(words, b.String())
		}
	}
	return value.String(strings.Join(words, " ")), nil
}
