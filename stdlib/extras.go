package stdlib

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// The less used stdlib functions: string helpers, conversions and the
// namespaced 4.x functions.

func addExtras(t functions.Table) {
	t["reverse"] = legacy(stringOrArray("reverse", reverseString, true))
	t["swapcase"] = legacy(stringOrArray("swapcase", swapcase, false))
	t["regexpescape"] = legacy(stringOrArray("regexpescape", regexp.QuoteMeta, false))
	t["dos2unix"] = legacy(lineEndings("dos2unix", "\r\n", "\n"))
	t["unix2dos"] = legacy(lineEndings("unix2dos", "\n", "\r\n"))
	t["squeeze"] = legacy(squeeze)
	t["convert_base"] = legacy(convertBase)
	t["clamp"] = legacy(clamp)
	t["to_bytes"] = legacy(toBytes)
	t["fqdn_uuid"] = legacy(fqdnUUID)
	t["fqdn_rand_string"] = legacy(fqdnRandString)
	t["seeded_rand_string"] = arity("seeded_rand_string", 2, 3, seededRandString)
	t["shell_split"] = legacy(shellSplit)
	t["powershell_escape"] = escaper("powershell_escape", powershellEscape)
	t["batch_escape"] = escaper("batch_escape", batchEscape)
	t["delete_regex"] = legacy(deleteRegex)
	t["try_get_value"] = legacy(tryGetValue)
	t["is_function_available"] = isFunctionAvailable
	t["type_of"] = arity("type_of", 1, 1, typeOf)
	for name, f := range map[string]functions.Func{
		"start_with": affixTest("start_with", "prefixes", strings.HasPrefix),
		"end_with":   affixTest("end_with", "suffixes", strings.HasSuffix),
		"extname":    extname,
		// Puppet checks the signature before the function runs.
		"ip_in_range": functions.Dispatch("stdlib::ip_in_range", functions.Fixed(ipInRange,
			functions.P("ipaddress", value.StringAny),
			functions.P("range", value.NewVariant(value.StringAny, value.ArrayAny)))),
		"xml_encode": xmlEncode,
	} {
		t["stdlib::"+name] = f
	}
}

// stringOrArray builds functions that transform a string, or each string
// of an array. With whole set, an array is transformed as a whole
// (reversed) instead of element-wise.
func stringOrArray(name string, f func(string) string, whole bool) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.CountArgs(args, 1, -1, "%s(): Wrong number of arguments given (%d for 1)", name); err != nil {
			return nil, err
		}
		switch v := args[0].(type) {
		case value.String:
			return value.String(f(string(v))), nil
		case value.Array:
			out := make(value.Array, len(v))
			for i, e := range v {
				switch {
				case whole:
					out[len(v)-1-i] = e
				default:
					if s, ok := e.(value.String); ok {
						out[i] = value.String(f(string(s)))
					} else {
						out[i] = e
					}
				}
			}
			return out, nil
		}
		return nil, errorf("%s(): Requires either array or string to work with", name)
	}
}

func reverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func swapcase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsUpper(r):
			return unicode.ToLower(r)
		case unicode.IsLower(r):
			return unicode.ToUpper(r)
		}
		return r
	}, s)
}

func lineEndings(name, from, to string) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		// Puppet's own arity check (both declare arity 1) answers first.
		if err := functions.Arity3(name, args, 1, false); err != nil {
			return nil, err
		}
		s, ok := arg(args, 0).(value.String)
		if !ok {
			return nil, errorf("%s(): Requires string as argument", name)
		}
		if name == "unix2dos" {
			// Ruby's /\r*\n/ also swallows carriage returns already there.
			return value.String(crlf().ReplaceAllString(string(s), "\r\n")), nil
		}
		return value.String(strings.ReplaceAll(string(s), from, to)), nil
	}
}

var crlf = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\r*\n`) })

func squeeze(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 2, "squeeze(): Wrong number of arguments given %d for 2 or 1"); err != nil {
		return nil, err
	}
	set := ""
	if len(args) == 2 && value.Truthy(args[1]) {
		set = value.RubyString(args[1])
	}
	one := func(v value.Value) (value.Value, error) {
		s, ok := v.(value.String)
		if !ok {
			return nil, errorf("undefined method `squeeze' for %s:%s", value.RubyInspect(v), value.RubyClass(v))
		}
		var b strings.Builder
		var prev rune = -1
		for _, r := range string(s) {
			if r == prev && (set == "" || strings.ContainsRune(set, r)) {
				continue
			}
			b.WriteRune(r)
			prev = r
		}
		return value.String(b.String()), nil
	}
	if arr, ok := args[0].(value.Array); ok {
		out := make(value.Array, len(arr))
		for i, e := range arr {
			v, err := one(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return one(args[0])
}

func convertBase(c *functions.Ctx, args []value.Value) (value.Value, error) {
	// Puppet's own arity check (arity 2) answers first.
	if err := functions.Arity3("convert_base", args, 2, false); err != nil {
		return nil, err
	}
	for i, what := range []string{"First", "Second"} {
		switch a := arg(args, i).(type) {
		case value.Integer:
		case value.String:
			if !allDigits(string(a)) {
				return nil, errorf("convert_base(): First argument must be an integer or a string corresponding to an integer in base 10")
			}
		default:
			return nil, errorf("convert_base(): %s argument must be either a string or an integer", what)
		}
	}
	n, _ := rubyToI(args[0])
	base, _ := rubyToI(args[1])
	if base < 2 || base > 36 {
		return nil, errorf("convert_base(): base must be at least 2 and must not be greater than 36")
	}
	return value.String(strconv.FormatInt(n, int(base))), nil
}

func clamp(c *functions.Ctx, args []value.Value) (value.Value, error) {
	// Puppet's own arity check (arity -2: at least one) answers first.
	if err := functions.Arity3("clamp", args, 1, true); err != nil {
		return nil, err
	}
	flat := flattenDeep(value.Array(args))
	if len(flat) != 3 {
		return nil, errorf("clamp(): Wrong number of arguments, need three to clamp")
	}
	nums := make([]int64, 3)
	for i, v := range flat {
		switch v := v.(type) {
		case value.String:
			if !allDigits(string(v)) {
				return nil, errorf("clamp(): Required explicit numeric (%s:String)", v)
			}
		case *value.Hash:
			return nil, errorf("clamp(): The Hash type is not allowed (%s)", value.RubyString(v))
		}
		n, err := rubyToI(v)
		if err != nil {
			return nil, err
		}
		nums[i] = n
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	return value.Integer(nums[1]), nil
}

var byteSize = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([0-9.e+-]*)\s*([^bB]?)`) })

func toBytes(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "to_bytes(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case value.Integer, value.Float:
		return v, nil
	case value.String:
		m := byteSize().FindStringSubmatch(string(v))
		f, _ := rubyStringToF(m[1])
		shift := map[string]uint{"": 0, "k": 10, "M": 20, "G": 30, "T": 40, "P": 50, "E": 60}
		s, ok := shift[m[2]]
		if !ok {
			return nil, errorf("to_bytes(): Unknown prefix %s", m[2])
		}
		return value.Integer(int64(f * float64(uint64(1)<<s))), nil
	}
	// Regexp#match of anything else: Ruby's implicit conversion fails.
	return nil, noImplicitString(args[0])
}

// noImplicitString is Ruby's TypeError for a value where a String is
// wanted and no implicit conversion exists (nil, true and false by name).
func noImplicitString(v value.Value) error {
	what := value.RubyClass(v)
	switch b := v.(type) {
	case value.Boolean:
		what = strconv.FormatBool(bool(b))
	default:
		if value.IsUndef(v) {
			what = "nil"
		}
	}
	return errorf("no implicit conversion of %s into String", what)
}

// fqdnUUID is a version 5 UUID of the name in the DNS namespace.
func fqdnUUID(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "fqdn_uuid: No arguments given"); err != nil {
		return nil, err
	}
	if err := functions.CountArgs(args, 0, 1, "fqdn_uuid: Too many arguments given (%d)"); err != nil {
		return nil, err
	}
	namespace := []byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
	h := sha1.New()
	h.Write(namespace)
	name, ok := args[0].(value.String)
	if !ok {
		// Digest's update takes a String only.
		return nil, noImplicitString(args[0])
	}
	h.Write([]byte(name))
	b := h.Sum(nil)[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	x := hex.EncodeToString(b)
	return value.String(x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]), nil
}

const defaultCharset = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func fqdnRandString(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "fqdn_rand_string(): wrong number of arguments (%d for 1)"); err != nil {
		return nil, err
	}
	n, _ := rubyToI(args[0])
	if !isIntegerValue(args[0]) || n <= 0 {
		return nil, errorf("fqdn_rand_string(): first argument must be a positive integer")
	}
	charsetArg := arg(args, 1)
	if _, ok := charsetArg.(value.String); !ok && !value.IsUndef(charsetArg) {
		return nil, errorf("fqdn_rand_string(): second argument must be undef or a string")
	}
	charset := []rune(value.RubyString(charsetArg))
	if len(charset) == 0 {
		charset = []rune(defaultCharset)
	}
	var extra value.Array
	if len(args) > 2 {
		extra = append(extra, args[2:]...)
	}
	var b strings.Builder
	for i := int64(1); i <= n; i++ {
		seed := rubyJoin(append(append(value.Array{}, extra...), value.String(strconv.FormatInt(i, 10))), ":")
		idx, err := fqdnRand(c, []value.Value{value.Integer(len(charset)), value.String(seed)})
		if err != nil {
			return nil, err
		}
		b.WriteRune(charset[idx.(value.Integer)])
	}
	return value.String(b.String()), nil
}

func seededRandString(c *functions.Ctx, args []value.Value) (value.Value, error) {
	n, ok := args[0].(value.Integer)
	if !ok || n < 1 {
		return nil, parameterError("seeded_rand_string", "length", describeArg(&value.IntegerType{Min: 1, Max: value.MaxInt}, args[0]))
	}
	seed, ok := args[1].(value.String)
	if !ok {
		return nil, parameterError("seeded_rand_string", "seed", "expects a String value, got "+describeType(args[1]))
	}
	charset := []rune("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	if len(args) == 3 && !value.IsUndef(args[2]) {
		cs, ok := args[2].(value.String)
		if !ok || len([]rune(string(cs))) < 2 {
			return nil, parameterError("seeded_rand_string", "charset", "expects a String[2] value, got "+describeType(args[2]))
		}
		charset = []rune(string(cs))
	}
	sum := sha256.Sum256([]byte(seed))
	s, _ := new(big.Int).SetString(hex.EncodeToString(sum[:]), 16)
	rng := newRubyRandom(s)
	var b strings.Builder
	for range int(n) {
		b.WriteRune(charset[rng.intn(uint64(len(charset)))])
	}
	return value.String(b.String()), nil
}

// shellSplit is Ruby's Shellwords.shellsplit.
func shellSplit(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "shell_split(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	s := value.RubyString(args[0])
	out := value.Array{}
	var word strings.Builder
	inWord := false
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v':
			if inWord {
				out = append(out, value.String(word.String()))
				word.Reset()
				inWord = false
			}
			i++
		case ch == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errorf("Unmatched quote: %s", value.RubyInspect(value.String(s)))
			}
			word.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += end + 2
		case ch == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("$`\"\\\n", s[j+1]) >= 0 {
					j++
					if s[j] != '\n' {
						word.WriteByte(s[j])
					}
					continue
				}
				word.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, errorf("Unmatched quote: %s", value.RubyInspect(value.String(s)))
			}
			inWord = true
			i = j + 1
		case ch == '\\':
			if i+1 < len(s) {
				if s[i+1] != '\n' {
					word.WriteByte(s[i+1])
				}
				i += 2
			} else {
				i++
			}
			inWord = true
		default:
			word.WriteByte(ch)
			inWord = true
			i++
		}
	}
	if inWord {
		out = append(out, value.String(word.String()))
	}
	return out, nil
}

// escaper builds the 4.x escaping functions that take Any and escape its
// string form.
func escaper(name string, f func(string) string) functions.Func {
	return arity(name, 1, 1, func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		return value.String(f(value.RubyString(args[0]))), nil
	})
}

func powershellEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case ' ', '\'', '`', '|', '\n', '$':
			b.WriteByte('`')
			b.WriteRune(r)
		case '"':
			b.WriteString("\\`\"")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func batchEscape(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`""`)
		case '$', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func deleteRegex(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "delete_regex(): Wrong number of arguments given %d for 2"); err != nil {
		return nil, err
	}
	var res []*regexp.Regexp
	for _, item := range rubyArray(args[1]) {
		re, err := regexp.Compile(`(?m)\b` + value.RubyString(item) + `\b`)
		if err != nil {
			return nil, errorf("invalid regular expression %s: %v", value.RubyInspect(item), err)
		}
		res = append(res, re)
	}
	matches := func(v value.Value) bool {
		s, ok := v.(value.String)
		if !ok {
			return false
		}
		for _, re := range res {
			if re.MatchString(string(s)) {
				return true
			}
		}
		return false
	}
	switch coll := args[0].(type) {
	case value.Array:
		out := value.Array{}
		for _, e := range coll {
			if !matches(e) {
				out = append(out, e)
			}
		}
		return out, nil
	case *value.Hash:
		// Hash#reject! yields key and value; the one-parameter block sees
		// the key, so keys that match are deleted.
		out := value.NewHashBuilder(coll.Len())
		for i := range coll.Len() {
			k, v := coll.At(i)
			if !matches(k) {
				out.Set(k, v)
			}
		}
		return out.Build(), nil
	}
	return nil, errorf("delete_regex(): First argument must be an Array, Hash, or String. Given an argument of class %s.", value.RubyClass(args[0]))
}

func tryGetValue(c *functions.Ctx, args []value.Value) (value.Value, error) {
	warn(c, "try_get_value() DEPRECATED: this function is deprecated, please use dig() instead.")
	data := arg(args, 0)
	path := arg(args, 1)
	if value.IsUndef(path) {
		path = value.String("")
	}
	dflt := arg(args, 2)
	switch data.(type) {
	case value.Array, *value.Hash:
	default:
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return data, nil
	}
	if isEmptyString(path) {
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return data, nil
	}
	sep := "/"
	if s := arg(args, 3); value.Truthy(s) {
		sep = value.RubyString(s)
	}
	cur := data
	for _, key := range strings.Split(value.RubyString(path), sep) {
		var k value.Value = value.String(key)
		if allDigits(key) {
			n, _ := strconv.ParseInt(key, 10, 64)
			k = value.Integer(n)
		}
		switch coll := cur.(type) {
		case *value.Hash:
			v, ok := coll.Get(k)
			if !ok {
				return dflt, nil
			}
			cur = v
		case value.Array:
			n, ok := k.(value.Integer)
			if !ok || int(n) >= len(coll) {
				return dflt, nil
			}
			cur = coll[n]
		default:
			return dflt, nil
		}
		if value.IsUndef(cur) {
			return dflt, nil
		}
	}
	return cur, nil
}

// isFunctionAvailable answers for the functions the compile can call;
// without services (Ctx.Services nil), for this package's functions only.
func isFunctionAvailable(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "is_function_available?(): Wrong number of arguments given %d for 1"); err != nil {
		return nil, err
	}
	name, ok := args[0].(value.String)
	if !ok {
		return value.False, nil
	}
	if c.Services != nil {
		return value.Boolean(c.Services.FunctionExists(string(name))), nil
	}
	_, found := Functions()[string(name)]
	return value.Boolean(found), nil
}

func typeOf(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return value.TypeOf(args[0]), nil
}

// affixesType is Variant[String[1], Array[String[1], 1]].
var affixesType = value.NewVariant(
	&value.StringType{Min: 1, Max: value.MaxInt},
	&value.ArrayType{Elem: &value.StringType{Min: 1, Max: value.MaxInt}, Min: 1, Max: value.MaxInt},
)

func affixTest(name, what string, test func(s, affix string) bool) functions.Func {
	return arity("stdlib::"+name, 2, 2, func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		s, ok := args[0].(value.String)
		if !ok {
			return nil, errorf("'stdlib::%s' parameter 'test_string' expects a String value, got %s", name, describeType(args[0]))
		}
		var affixes []string
		switch a := args[1].(type) {
		case value.String:
			if a != "" {
				affixes = []string{string(a)}
			}
		case value.Array:
			for _, e := range a {
				if es, ok := e.(value.String); ok && es != "" {
					affixes = append(affixes, string(es))
				} else {
					affixes = nil
					break
				}
			}
		}
		if len(affixes) == 0 {
			return nil, errorf("'stdlib::%s' parameter '%s' %s", name, what, describeArg(affixesType, args[1]))
		}
		for _, a := range affixes {
			if test(string(s), a) {
				return value.True, nil
			}
		}
		return value.False, nil
	})
}

// extname is Ruby's File.extname.
func extname(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var s string
	if err := functions.UnpackArgs("stdlib::extname", args, "filename", &s); err != nil {
		return nil, err
	}
	base := rubyBasename(s, "")
	i := strings.LastIndexByte(base, '.')
	// A leading dot starts a name, not an extension; Ruby 3 keeps a
	// trailing lone dot.
	if i <= 0 || strings.TrimLeft(base, ".") == base[i+1:] && i+1 < len(base) {
		return value.String(""), nil
	}
	return value.String(base[i:]), nil
}

func ipInRange(c *functions.Ctx, args []value.Value) (value.Value, error) {
	ip, ok := parseIPAddr(args[0])
	if !ok {
		return nil, errorf("invalid address: %s", value.RubyString(args[0]))
	}
	ranges := rubyArray(args[1])
	for _, r := range ranges {
		p, ok := parseIPRange(r)
		if !ok {
			return nil, errorf("invalid address: %s", value.RubyString(r))
		}
		if p.Contains(ip) {
			return value.True, nil
		}
	}
	return value.False, nil
}

func xmlEncode(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var s string
	var kind value.Value
	if err := functions.UnpackArgs("stdlib::xml_encode", args, "str", &s, "type?", &kind); err != nil {
		return nil, err
	}
	attr := kind == value.String("attr")
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	out := r.Replace(s)
	if attr {
		// Ruby's encode(xml: :attr) also escapes both quote characters.
		out = strings.NewReplacer(`"`, "&quot;", "'", "&apos;").Replace(out)
		return value.String(`"` + out + `"`), nil
	}
	return value.String(out), nil
}

func addFactsAndFormats(t functions.Table) {
	t["has_interface_with"] = legacy(hasInterfaceWith)
	t["has_ip_address"] = legacy(hasFactOnInterface("has_ip_address", "ipaddress"))
	t["has_ip_network"] = legacy(hasFactOnInterface("has_ip_network", "network"))
	t["parsepson"] = arity("parsepson", 1, 2, parsePSON)
	t["to_python"] = serializer("to_python", pythonLiteral)
	t["to_ruby"] = serializer("to_ruby", rubyLiteral)
	t["stdlib::str2resource"] = str2resource
}

// lookupVar is the scope's lookupvar: undef when the variable is unknown.
func lookupVar(c *functions.Ctx, name string) value.Value {
	if c.Scope == nil {
		return value.Undef
	}
	v, ok := c.Scope.Lookup(name)
	if !ok {
		return value.Undef
	}
	return v
}

// hasInterfaceWith checks the legacy interface facts: interfaces is a
// comma-separated list, and <kind>_<interface> holds each value.
func hasInterfaceWith(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 2, "has_interface_with(): Wrong number of arguments given (%d for 1 or 2)"); err != nil {
		return nil, err
	}
	ifaces, ok := lookupVar(c, "interfaces").(value.String)
	if !ok {
		return value.False, nil
	}
	names := strings.Split(string(ifaces), ",")
	if len(args) == 1 {
		for _, n := range names {
			if value.String(n) == args[0] {
				return value.True, nil
			}
		}
		return value.False, nil
	}
	kind := value.RubyString(args[0])
	if value.RubyEqual(lookupVar(c, kind), args[1]) {
		return value.True, nil
	}
	for _, n := range names {
		if value.RubyEqual(args[1], lookupVar(c, kind+"_"+strings.ToLower(n))) {
			return value.True, nil
		}
	}
	return value.False, nil
}

func hasFactOnInterface(name, kind string) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.CountArgs(args, 1, 1, "%s(): Wrong number of arguments given (%d for 1)", name); err != nil {
			return nil, err
		}
		return hasInterfaceWith(c, []value.Value{value.String(kind), args[0]})
	}
}

func parsePSON(c *functions.Ctx, args []value.Value) (value.Value, error) {
	s, ok := args[0].(value.String)
	if !ok || s == "" {
		return nil, parameterError("parsepson", "pson_string", "expects a String[1] value, got "+describeType(args[0]))
	}
	v, err := parseJSON([]byte(s))
	if err != nil {
		if len(args) == 2 {
			return args[1], nil
		}
		return nil, rubyErrorf("PSON::ParserError", "source '%s' not in PSON!", s)
	}
	return v, nil
}

func serializer(name string, f func(b *strings.Builder, v value.Value)) functions.Func {
	return arity(name, 1, 1, func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		var b strings.Builder
		f(&b, args[0])
		return value.String(b.String()), nil
	})
}

// pythonLiteral writes data as a Python literal (to_python).
func pythonLiteral(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.Boolean:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			pythonLiteral(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			pythonLiteral(b, k)
			b.WriteString(": ")
			pythonLiteral(b, e)
		}
		b.WriteByte('}')
	default:
		if value.IsUndef(v) {
			b.WriteString("None")
			return
		}
		b.WriteString(value.RubyInspect(v))
	}
}

// rubyLiteral writes data as a Ruby literal (to_ruby).
func rubyLiteral(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			rubyLiteral(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			k, e := v.At(i)
			if i > 0 {
				b.WriteString(", ")
			}
			rubyLiteral(b, k)
			b.WriteString(" => ")
			rubyLiteral(b, e)
		}
		b.WriteByte('}')
	default:
		b.WriteString(value.RubyInspect(v))
	}
}

// str2resource turns "Type[title]" into a reference to that resource,
// which must already be in the catalog.
func str2resource(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var ref value.String
	if err := functions.UnpackArgs("stdlib::str2resource", args, "res_string", &ref); err != nil {
		return nil, err
	}
	typ, title, err := splitReference(ref)
	if err != nil {
		return nil, err
	}
	// Unlike a reference in code, the string's title is taken as written:
	// Notify['x'] names a notify titled 'x' with its quotes, which
	// Puppet's message says should not be there.
	written := typ
	if m := referenceSyntax().FindStringSubmatch(string(ref)); m != nil {
		written, title = m[1], m[2]
	}
	cat, err := catalogOf(c, "stdlib::str2resource")
	if err != nil {
		return nil, err
	}
	if _, found := cat.Resource(typ, title); !found {
		return nil, errorf("stdlib::str2resource(): could not find %s[%s], this is parse order dependent and values should not be quoted", written, title)
	}
	return &value.ResourceType{Type: typ, Title: title, Reference: true}, nil
}

func addLegacyOddities(t functions.Table) {
	t["private"] = legacyStatement(privateFunc)
	t["type3x"] = legacy(type3x)
	t["sprintf_hash"] = sprintfHash
}

// privateFunc is the deprecated private(), assert_private with a warning.
func privateFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	warn(c, "private() DEPRECATED: This function will cease to function on Puppet 4; please use assert_private() before upgrading to puppet 4 for backwards-compatibility, or migrate to the new parser's typing system.")
	var msg value.Value = value.Undef
	if len(args) > 0 {
		msg = args[0]
	}
	return assertPrivate(c, []value.Value{msg})
}

// type3x names a value's Ruby class the old way: integer, boolean,
// string (or integer/float for numeric strings), array, hash, float.
func type3x(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "type3x(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case value.Integer:
		return value.String("integer"), nil
	case value.Boolean:
		return value.String("boolean"), nil
	case value.Float:
		return value.String("float"), nil
	case value.Array:
		return value.String("array"), nil
	case *value.Hash:
		return value.String("hash"), nil
	case value.String:
		n, _ := rubyToI(v)
		f, _ := rubyStringToF(string(v))
		switch string(v) {
		case strconv.FormatInt(n, 10):
			return value.String("integer"), nil
		case value.FormatFloat(f):
			return value.String("float"), nil
		}
		return value.String("string"), nil
	}
	return nil, errorf("type3x(): Unknown type")
}

// sprintfHash is the deprecated sprintf_hash(format, hash): Ruby's named
// references %<name>... (formatted) and %{name} (inserted as text). The
// references become positional and the core sprintf formats them.
func sprintfHash(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var format value.String
	var h *value.Hash
	if err := functions.UnpackArgs("sprintf_hash", args, "format", &format, "arguments", &h); err != nil {
		return nil, err
	}
	deprecate(c, "sprintf_hash", "This method is deprecated. From Puppet 4.10.10/5.3.4 please use the built-in sprintf instead")
	get := func(name string) (value.Value, error) {
		v, found := h.GetString(name)
		if !found {
			return nil, errorf("key<%s> not found", name)
		}
		return v, nil
	}
	s := string(format)
	var out strings.Builder
	positional := []value.Value{value.String("")}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			out.WriteString("%%")
			i++
			continue
		}
		// Copy the directive up to its conversion letter, taking out the
		// name reference.
		j := i + 1
		var spec strings.Builder
		spec.WriteByte('%')
		named := false
		for ; j < len(s); j++ {
			ch := s[j]
			if ch == '<' || ch == '{' {
				closer := map[byte]byte{'<': '>', '{': '}'}[ch]
				end := strings.IndexByte(s[j:], closer)
				if end < 0 {
					return nil, errorf("malformed name - unmatched parenthesis")
				}
				v, err := get(s[j+1 : j+end])
				if err != nil {
					return nil, err
				}
				j += end
				named = true
				if ch == '{' {
					out.WriteString(strings.ReplaceAll(value.RubyString(v), "%", "%%"))
					spec.Reset()
					break
				}
				positional = append(positional, v)
				continue
			}
			spec.WriteByte(ch)
			if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
				break
			}
		}
		if !named {
			// Ruby formats the hash itself (with symbol keys) here.
			var b strings.Builder
			b.WriteByte('{')
			for k := range h.Len() {
				key, v := h.At(k)
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(":" + value.RubyString(key) + "=>" + value.RubyInspect(v))
			}
			b.WriteByte('}')
			positional = append(positional, value.String(b.String()))
		}
		out.WriteString(spec.String())
		i = j
	}
	positional[0] = value.String(out.String())
	if c.Eval == nil || c.Eval.Host == nil {
		return nil, errorf("sprintf_hash() is not available here")
	}
	call := &eval.Call{Name: "sprintf", Args: positional}
	if c.Call != nil {
		call.Node = c.Call.Node
	}
	return c.Eval.Host.CallFunction(c.Eval, c.Scope, call)
}
