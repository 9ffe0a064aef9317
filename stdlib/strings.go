package stdlib

import (
	"encoding/base64"
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

func addStrings(t functions.Table) {
	t["str2bool"] = legacy(str2bool)
	t["bool2str"] = legacy(bool2str)
	t["bool2num"] = legacy(bool2num)
	t["num2bool"] = legacy(num2bool)
	t["any2bool"] = legacy(any2bool)
	t["base64"] = legacy(base64Func)
	t["dirname"] = legacy(dirname)
	t["basename"] = legacy(basename)
	t["uriescape"] = legacy(uriescape)
	t["shell_join"] = legacy(shellJoin)
	t["shell_escape"] = arity("shell_escape", 1, 1, shellEscape)
	t["enclose_ipv6"] = legacy(encloseIPv6)
}

var (
	trueWords  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(1|t|y|true|yes)$`) })
	falseWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(0|f|n|false|no)$`) })
)

func str2bool(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "str2bool(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	if b, ok := args[0].(value.Boolean); ok {
		return b, nil
	}
	s, ok := args[0].(value.String)
	if !ok {
		return nil, errorf("str2bool(): Requires string to work with")
	}
	switch str := string(s); {
	case str == "":
		return value.False, nil
	case trueWords().MatchString(str):
		return value.True, nil
	case falseWords().MatchString(str), str == "undef", str == "undefined":
		return value.False, nil
	}
	return nil, errorf("str2bool(): Unknown type of boolean given")
}

func bool2str(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) != 1 && len(args) != 3 {
		return nil, errorf("bool2str(): Wrong number of arguments given (%d for 3)", len(args))
	}
	b, ok := args[0].(value.Boolean)
	if !ok {
		return nil, errorf("bool2str(): Requires a boolean to work with")
	}
	trueText, falseText := value.Value(value.String("true")), value.Value(value.String("false"))
	if len(args) == 3 {
		// Ruby's `x || 'true'` keeps false and replaces only nil.
		if !value.IsUndef(args[1]) {
			trueText = args[1]
		}
		if !value.IsUndef(args[2]) {
			falseText = args[2]
		}
	}
	_, ok1 := trueText.(value.String)
	_, ok2 := falseText.(value.String)
	if !ok1 || !ok2 {
		return nil, errorf("bool2str(): Requires strings to convert to")
	}
	if b {
		return trueText, nil
	}
	return falseText, nil
}

func bool2num(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "bool2num(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	b, err := str2bool(c, args[:1])
	if err != nil {
		return nil, err
	}
	if b == value.True {
		return value.Integer(1), nil
	}
	return value.Integer(0), nil
}

func num2bool(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "num2bool(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	var n int64
	switch v := args[0].(type) {
	case value.Integer:
		n = int64(v)
	case value.Float:
		n = int64(v)
	case value.String:
		f, err := rubyFloatParse(string(v))
		if err != nil {
			return nil, errorf("num2bool(): '%s' does not look like a number: %v", v, err)
		}
		n = int64(f)
	default:
		// Ruby converts anything else with to_s and then to_i.
		n, _ = rubyToI(value.String(value.RubyString(v)))
	}
	return value.Boolean(n > 0), nil
}

var rubyFloatSyntax = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?(\d+(_\d+)*)(\.\d+(_\d+)*)?([eE][+-]?\d+(_\d+)*)?$`)
})

// rubyFloatParse is Ruby's Float(string): decimal or hexadecimal syntax,
// surrounding whitespace allowed, anything else an error.
func rubyFloatParse(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if rubyFloatSyntax().MatchString(t) {
		f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
		if err == nil {
			return f, nil
		}
	}
	if n, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 0, 64); err == nil && strings.Contains(strings.ToLower(t), "0x") {
		return float64(n), nil
	}
	return 0, fmt.Errorf("invalid value for Float(): %s", value.RubyInspect(value.String(s)))
}

func any2bool(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "any2bool(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case value.Boolean:
		return v, nil
	case value.Integer, value.Float:
		return num2bool(c, args[:1])
	case value.String:
		if _, err := rubyFloatParse(string(v)); err == nil {
			return num2bool(c, args[:1])
		}
		return str2bool(c, args[:1])
	}
	if value.IsUndef(args[0]) {
		return value.False, nil
	}
	return value.True, nil
}

func base64Func(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "base64(): Wrong number of arguments (%d; must be >= 2)"); err != nil {
		return nil, err
	}
	action, _ := args[0].(value.String)
	if _, isString := args[0].(value.String); !isString || (action != "encode" && action != "decode") {
		return nil, errorf("base64(): the first argument must be one of 'encode' or 'decode'")
	}
	text, ok := args[1].(value.String)
	if !ok {
		return nil, errorf("base64(): the second argument must be a string to base64")
	}
	method := value.Value(value.String("default"))
	if len(args) > 2 {
		method = args[2]
	}
	m, _ := method.(value.String)
	if _, isString := method.(value.String); !isString || (m != "default" && m != "strict" && m != "urlsafe") {
		return nil, errorf("base64(): the third argument must be one of 'default', 'strict', or 'urlsafe'")
	}
	s := string(text)
	if action == "encode" {
		switch m {
		case "default":
			return value.String(encode64Lines(s)), nil
		case "strict":
			return value.String(base64.StdEncoding.EncodeToString([]byte(s))), nil
		default:
			return value.String(base64.URLEncoding.EncodeToString([]byte(s))), nil
		}
	}
	switch m {
	case "default":
		return value.String(decode64Lenient(s)), nil
	case "strict":
		// Go's decoder skips line breaks, which Ruby's strict_decode64
		// rejects.
		out, err := base64.StdEncoding.Strict().DecodeString(s)
		if err != nil || strings.ContainsAny(s, "\r\n") {
			return nil, errorf("invalid base64")
		}
		return value.String(out), nil
	}
	// Ruby's urlsafe_decode64 adds missing padding before decoding strictly.
	if len(s)%4 != 0 && !strings.HasSuffix(s, "=") {
		s += strings.Repeat("=", 4-len(s)%4)
	}
	out, err := base64.URLEncoding.Strict().DecodeString(s)
	if err != nil || strings.ContainsAny(s, "\r\n") {
		return nil, errorf("invalid base64")
	}
	return value.String(out), nil
}

// encode64Lines is Ruby's Base64.encode64: lines of 60 characters, each
// ending in a newline.
func encode64Lines(s string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60])
		b.WriteByte('\n')
		enc = enc[60:]
	}
	if enc != "" {
		b.WriteString(enc)
		b.WriteByte('\n')
	}
	return b.String()
}

// decode64Lenient is Ruby's Base64.decode64: characters outside the
// alphabet are skipped, decoding stops at padding, and a trailing partial
// group yields what bytes it holds.
func decode64Lenient(s string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var sextets []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			break
		}
		if j := strings.IndexByte(alphabet, s[i]); j >= 0 {
			sextets = append(sextets, byte(j))
		}
	}
	var out []byte
	for i := 0; i+1 < len(sextets); i += 4 {
		group := sextets[i:min(i+4, len(sextets))]
		out = append(out, group[0]<<2|group[1]>>4)
		if len(group) > 2 {
			out = append(out, group[1]<<4|group[2]>>2)
		}
		if len(group) > 3 {
			out = append(out, group[2]<<6|group[3])
		}
	}
	return string(out)
}

func dirname(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "dirname(): No arguments given"); err != nil {
		return nil, err
	}
	if err := functions.CountArgs(args, 0, 1, "dirname(): Too many arguments given (%d)"); err != nil {
		return nil, err
	}
	s, ok := args[0].(value.String)
	if !ok {
		return nil, errorf("dirname(): Requires string as argument")
	}
	if s == "" {
		return nil, errorf("dirname(): Requires a non-empty string as argument")
	}
	return value.String(rubyDirname(string(s))), nil
}

// rubyDirname is Ruby's File.dirname on Unix.
func rubyDirname(p string) string {
	trimmed := strings.TrimRight(p, "/")
	if trimmed == "" {
		return "/"
	}
	i := strings.LastIndexByte(trimmed, '/')
	if i < 0 {
		return "."
	}
	dir := strings.TrimRight(trimmed[:i], "/")
	if dir == "" {
		return "/"
	}
	// Ruby folds leading slashes into one.
	if strings.HasPrefix(dir, "//") {
		dir = "/" + strings.TrimLeft(dir, "/")
	}
	return dir
}

func basename(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "basename(): No arguments given"); err != nil {
		return nil, err
	}
	if err := functions.CountArgs(args, 0, 2, "basename(): Too many arguments given (%d)"); err != nil {
		return nil, err
	}
	s, ok := args[0].(value.String)
	if !ok {
		return nil, errorf("basename(): Requires string as first argument")
	}
	suffix := ""
	if len(args) == 2 {
		sfx, ok := args[1].(value.String)
		if !ok {
			return nil, errorf("basename(): Requires string as second argument")
		}
		suffix = string(sfx)
	}
	return value.String(rubyBasename(string(s), suffix)), nil
}

// rubyBasename is Ruby's File.basename on Unix; suffix ".*" removes any
// extension.
func rubyBasename(p, suffix string) string {
	trimmed := strings.TrimRight(p, "/")
	if trimmed == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	switch {
	case suffix == ".*":
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			return base[:i]
		}
	case suffix != "" && base != suffix && strings.HasSuffix(base, suffix):
		return strings.TrimSuffix(base, suffix)
	}
	return base
}

func uriescape(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "uriescape(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case value.String:
		return value.String(uriEscape(string(v))), nil
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			if s, ok := e.(value.String); ok {
				out[i] = value.String(uriEscape(string(s)))
			} else {
				out[i] = e
			}
		}
		return out, nil
	}
	return nil, errorf("uriescape(): Requires either array or string to work with")
}

// uriEscape is Ruby's URI::DEFAULT_PARSER.escape (RFC 2396): every byte
// outside the unreserved and reserved characters becomes %XX.
func uriEscape(s string) string {
	const keep = "-_.!~*'();/?:@&=+$,[]"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func shellJoin(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "shell_join(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	arr, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("First argument is not an Array: %s", value.RubyInspect(args[0]))
	}
	words := make([]string, len(arr))
	for i, e := range arr {
		words[i] = shellEscapeString(value.RubyString(e))
	}
	return value.String(strings.Join(words, " ")), nil
}

// shellEscape is the 4.x shell_escape(Any): the value's string form,
// escaped for a POSIX shell.
func shellEscape(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return value.String(shellEscapeString(value.RubyString(args[0]))), nil
}

// shellEscapeString is Ruby's Shellwords.shellescape: a backslash before
// every character outside [A-Za-z0-9_\-.,:+/@\n], newlines quoted, and ”
// for the empty string.
func shellEscapeString(s string) string {
	if s == "" {
		return "''"
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("'\n'")
		case r < 0x80 && (r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.,:+/@", r)):
			b.WriteRune(r)
		default:
			b.WriteByte('\\')
			b.WriteRune(r)
		}
	}
	return b.String()
}

func encloseIPv6(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "enclose_ipv6(): Wrong number of arguments given %d for 1"); err != nil {
		return nil, err
	}
	var input value.Array
	switch v := args[0].(type) {
	case value.String:
		input = value.Array{v}
	case value.Array:
		input = flattenDeep(v)
	default:
		return nil, errorf("enclose_ipv6(): Wrong argument type given %s expected String or Array", value.RubyClass(args[0]))
	}
	out := value.Array{}
	for _, e := range input {
		if value.IsUndef(e) {
			continue
		}
		result := e
		if s, _ := e.(value.String); s != "*" {
			ip, ok := parseIPAddr(e)
			if !ok {
				return nil, errorf("enclose_ipv6(): Wrong argument given %s is not an ip address.", value.RubyString(e))
			}
			if ip.Is6() && !ip.Is4In6() || ip.Is4In6() && strings.Contains(string(s), ":") {
				result = value.String("[" + ip.String() + "]")
			}
		}
		if !containsIdentical(out, result) {
			out = append(out, result)
		}
	}
	return out, nil
}

// parseIPAddr is Ruby's IPAddr.new for strings: an IPv4 or IPv6 address,
// optionally with a /prefix (the address is then masked), IPv6 optionally
// in brackets.
func parseIPAddr(v value.Value) (netip.Addr, bool) {
	s, ok := v.(value.String)
	if !ok {
		return netip.Addr{}, false
	}
	text := string(s)
	if strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") {
		text = text[1 : len(text)-1]
	}
	addrText, prefixText, hasPrefix := strings.Cut(text, "/")
	ip, err := netip.ParseAddr(addrText)
	if err != nil || ip.Zone() != "" {
		return netip.Addr{}, false
	}
	if !hasPrefix {
		return ip, true
	}
	bits, err := strconv.Atoi(prefixText)
	if err != nil {
		// Ruby also accepts a netmask in address form.
		mask, err := netip.ParseAddr(prefixText)
		if err != nil || mask.Is4() != ip.Is4() {
			return netip.Addr{}, false
		}
		bits = maskBits(mask)
		if bits < 0 {
			return netip.Addr{}, false
		}
	}
	p, err := ip.Prefix(bits)
	if err != nil {
		return netip.Addr{}, false
	}
	return p.Addr(), true
}

// maskBits is the prefix length of a contiguous netmask, or -1.
func maskBits(mask netip.Addr) int {
	bits := 0
	ended := false
	for _, by := range mask.AsSlice() {
		for i := 7; i >= 0; i-- {
			set := by&(1<<i) != 0
			switch {
			case set && ended:
				return -1
			case set:
				bits++
			default:
				ended = true
			}
		}
	}
	return bits
}

// parseIPRange is IPAddr.new for a network: "10.0.0.0/8" or a single
// address.
func parseIPRange(v value.Value) (netip.Prefix, bool) {
	ip, ok := parseIPAddr(v)
	if !ok {
		return netip.Prefix{}, false
	}
	bits := ip.BitLen()
	if _, prefix, found := strings.Cut(string(v.(value.String)), "/"); found {
		n, err := strconv.Atoi(prefix)
		if err != nil {
			mask, err := netip.ParseAddr(prefix)
			if err != nil {
				return netip.Prefix{}, false
			}
			n = maskBits(mask)
		}
		bits = n
	}
	p, err := ip.Prefix(bits)
	return p, err == nil
}
