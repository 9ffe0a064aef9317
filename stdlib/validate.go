package stdlib

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// validator is a legacy 3.x validation function: an error means the
// value is invalid.
type validator func(c *functions.Ctx, args []value.Value) error

// The legacy validators and predicates. stdlib 8 ships a 4.x shim for
// some of them that logs a deprecation and calls the 3.x version with the
// arguments unconverted (undef stays nil); shimmed says which.
var legacyValidators = []struct {
	name    string
	check   validator
	shimmed bool
}{
	{"validate_string", validateString, true},
	{"validate_bool", validateBool, true},
	{"validate_hash", validateEach("validate_hash", "is not a Hash", isHash), true},
	{"validate_array", validateEach("validate_array", "is not an Array", isArray), true},
	{"validate_re", validateRe, true},
	{"validate_absolute_path", validateAbsolutePath, true},
	{"validate_integer", validateNumber("validate_integer", true), true},
	{"validate_numeric", validateNumber("validate_numeric", false), true},
	{"validate_slength", validateSlength, true},
	{"validate_ip_address", validateIP("validate_ip_address", "IP", func(a ipKind) bool { return a != ipInvalid }), true},
	{"validate_ipv4_address", validateIP("validate_ipv4_address", "IPv4", func(a ipKind) bool { return a == ipV4 }), true},
	{"validate_ipv6_address", validateIP("validate_ipv6_address", "IPv6", func(a ipKind) bool { return a == ipV6 }), true},
	{"validate_domain_name", validateDomainName, false},
	{"validate_email_address", validateEmailAddress, false},
}

var predicates = []struct {
	name    string
	test    func(c *functions.Ctx, args []value.Value) (value.Value, error)
	shimmed bool
}{
	{"is_array", predicate("is_array", "Stdlib::Compat::Array", 0, func(v value.Value) bool { return isArray(v) }), true},
	{"is_hash", predicate("is_hash", "", 1, func(v value.Value) bool { return isHash(v) }), false},
	{"is_string", predicate("is_string", "Stdlib::Compat::String", 0, isStringValue), true},
	{"is_bool", predicate("is_bool", "Stdlib::Compat::Bool", 1, func(v value.Value) bool { _, ok := v.(value.Boolean); return ok }), true},
	{"is_integer", predicate("is_integer", "Stdlib::Compat::Integer", 2, isIntegerValue), false},
	{"is_numeric", predicate("is_numeric", "Stdlib::Compat::Numeric", 2, isNumericValue), true},
	{"is_float", predicate("is_float", "Stdlib::Compat::Float", 2, isFloatValue), true},
	{"is_absolute_path", isAbsolutePathFunc, true},
	{"is_ip_address", predicate("is_ip_address", "Stdlib::Compat::Ip_address", 2, func(v value.Value) bool { return ipAddressKind(v) != ipInvalid }), true},
	{"is_ipv4_address", predicate("is_ipv4_address", "Stdlib::Compat::Ipv4", 2, func(v value.Value) bool { return ipAddressKind(v) == ipV4 }), true},
	{"is_ipv6_address", predicate("is_ipv6_address", "Stdlib::Compat::Ipv6", 2, func(v value.Value) bool { return ipAddressKind(v) == ipV6 }), true},
	{"is_domain_name", predicate("is_domain_name", "", 2, isDomainName), false},
	{"is_mac_address", predicate("is_mac_address", "", 2, isMACAddress), false},
	{"is_email_address", predicate("is_email_address", "", 2, isEmailAddress), false},
}

func addValidators(t functions.Table) {
	for _, v := range legacyValidators {
		check := v.check
		impl := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
			return value.Undef, check(c, args)
		}
		if v.shimmed {
			t[v.name] = impl
		} else {
			t[v.name] = legacy(impl)
		}
	}
	for _, p := range predicates {
		if p.shimmed {
			t[p.name] = p.test
		} else {
			t[p.name] = legacy(p.test)
		}
	}
	t["validate_legacy"] = validateLegacy
	t["deprecation"] = arity("deprecation", 2, 2, deprecationFunc)
	t["is_a"] = isA
}

// deprecate logs a stdlib deprecation warning once per key and compile,
// as Puppet does; without services (Ctx.Services nil) every call logs.
func deprecate(c *functions.Ctx, key, msg string) {
	if c.Services != nil {
		c.Services.WarnOnce(key, msg)
		return
	}
	if c.Log != nil {
		c.Log(functions.Warning, msg)
	}
}

// deprecationFunc is stdlib's deprecation(key, message).
func deprecationFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	for i, name := range []string{"key", "message"} {
		if _, ok := args[i].(value.String); !ok {
			return nil, errorf("'deprecation' parameter '%s' expects a String value, got %s", name, describeType(args[i]))
		}
	}
	deprecate(c, string(args[0].(value.String)), string(args[1].(value.String)))
	return value.Undef, nil
}

// deprecationMessage is the warning of the legacy validators and
// predicates, naming the type to use instead.
func deprecationMessage(replacement string) string {
	return "This method is deprecated, please use the stdlib validate_legacy function, with " + replacement + ". There is further documentation for validate_legacy function in the README."
}

func isHash(v value.Value) bool  { _, ok := v.(*value.Hash); return ok }
func isArray(v value.Value) bool { _, ok := v.(value.Array); return ok }

func validateString(c *functions.Ctx, args []value.Value) error {
	deprecate(c, "validate_string", deprecationMessage("Stdlib::Compat::String"))
	if err := functions.CountArgs(args, 1, -1, "validate_string(): wrong number of arguments (0; must be > 0)"); err != nil {
		return err
	}
	for _, a := range args {
		if _, ok := a.(value.String); !ok && !value.IsUndef(a) {
			return errorf("%s is not a string.  It looks to be a %s", value.RubyInspect(a), value.RubyClass(a))
		}
	}
	return nil
}

func validateBool(c *functions.Ctx, args []value.Value) error {
	if err := functions.CountArgs(args, 1, -1, "validate_bool(): wrong number of arguments (0; must be > 0)"); err != nil {
		return err
	}
	for _, a := range args {
		if _, ok := a.(value.Boolean); !ok {
			return errorf("%s is not a boolean.  It looks to be a %s", value.RubyInspect(a), value.RubyClass(a))
		}
	}
	return nil
}

// validateEach builds validate_hash and validate_array: every argument
// must pass test.
func validateEach(name, what string, test func(value.Value) bool) validator {
	replacement := "Stdlib::Compat::Hash"
	if name == "validate_array" {
		replacement = "Stdlib::Compat::Array"
	}
	return func(c *functions.Ctx, args []value.Value) error {
		deprecate(c, name, deprecationMessage(replacement))
		if err := functions.CountArgs(args, 1, -1, "%s(): wrong number of arguments (%d; must be > 0)", name); err != nil {
			return err
		}
		for _, a := range args {
			if !test(a) {
				return errorf("%s %s.  It looks to be a %s", value.RubyInspect(a), what, value.RubyClass(a))
			}
		}
		return nil
	}
}

func validateRe(c *functions.Ctx, args []value.Value) error {
	deprecate(c, "validate_re", deprecationMessage("Stdlib::Compat::Re"))
	if err := functions.CountArgs(args, 2, 3, "validate_re(): wrong number of arguments (%d; must be 2 or 3)"); err != nil {
		return err
	}
	s, ok := args[0].(value.String)
	if !ok {
		return errorf("validate_re(): input needs to be a String, not a %s", value.RubyClass(args[0]))
	}
	for _, p := range flattenDeep(value.Array{args[1]}) {
		var re *value.Regexp
		switch p := p.(type) {
		case *value.Regexp:
			re = p
		default:
			r, err := rubyRegexp(p)
			if err != nil {
				return err
			}
			re = r
		}
		if re.MatchString(string(s)) {
			return nil
		}
	}
	if msg := arg(args, 2); value.Truthy(msg) {
		return errorf("%s", value.RubyString(msg))
	}
	return errorf("validate_re(): %s does not match %s", value.RubyInspect(args[0]), value.RubyInspect(args[1]))
}

var (
	windowsAbsolutePath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^(?:(?:[A-Z]:[\\/])|(?:[\\/][\\/][^\\/]+[\\/][^\\/]+)|(?:[\\/][\\/]\?[\\/][^\\/]+))`)
	})
	posixAbsolutePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^/`) })
)

// isAbsolutePath is Puppet::Util.absolute_path? for POSIX or Windows.
func isAbsolutePath(v value.Value) bool {
	s, ok := v.(value.String)
	return ok && (posixAbsolutePath().MatchString(string(s)) || windowsAbsolutePath().MatchString(string(s)))
}

func validateAbsolutePath(c *functions.Ctx, args []value.Value) error {
	if err := functions.CountArgs(args, 1, -1, "validate_absolute_path(): wrong number of arguments (0; must be > 0)"); err != nil {
		return err
	}
	for _, a := range args {
		candidates, ok := a.(value.Array)
		if !ok {
			candidates = value.Array{a}
		}
		for _, p := range candidates {
			if !isAbsolutePath(p) {
				return errorf("%s is not an absolute path.", value.RubyInspect(p))
			}
		}
	}
	return nil
}

func isAbsolutePathFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	deprecate(c, "is_absolute_path", deprecationMessage("Stdlib::Compat::Absolute_path"))
	if err := functions.CountArgs(args, 1, 1, "is_absolute_path(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	return value.Boolean(isAbsolutePath(args[0])), nil
}

// validateNumber builds validate_integer and validate_numeric, which share
// their structure: the input (or each element of an input array) must
// convert with Integer()/Float() and lie within the optional max and min.
func validateNumber(name string, integer bool) validator {
	what, replacement := "a Numeric", "Stdlib::Compat::Numeric"
	if integer {
		what, replacement = "an Integer", "Stdlib::Compat::Integer"
	}
	convert := func(v value.Value) (float64, bool) {
		s := value.RubyString(v)
		if integer {
			n, ok := rubyInteger(value.String(s))
			if !ok || !rubyIntegerSyntax(s) {
				return 0, false
			}
			return float64(n), true
		}
		f, err := rubyFloatParse(s)
		return f, err == nil
	}
	// Ruby shows bounds in their converted form (2 or 2.0).
	show := func(f float64) string {
		if integer {
			return strconv.FormatInt(int64(f), 10)
		}
		return value.FormatFloat(f)
	}
	return func(c *functions.Ctx, args []value.Value) error {
		deprecate(c, name, deprecationMessage(replacement))
		if err := functions.CountArgs(args, 1, 3, "%s(): Wrong number of arguments; must be 1, 2 or 3, got %d", name); err != nil {
			return err
		}
		input := args[0]
		var hasMax, hasMin bool
		var max, min float64
		if len(args) > 1 {
			m := value.RubyString(args[1])
			if !(len(args) > 2 && m == "") {
				f, ok := convert(value.String(m))
				if !ok {
					return errorf("%s(): Expected second argument to be unset or %s, got %s:String", name, what, m)
				}
				max, hasMax = f, true
			}
		}
		if len(args) > 2 {
			m := value.RubyString(args[2])
			f, ok := convert(value.String(m))
			if !ok {
				return errorf("%s(): Expected third argument to be unset or %s, got %s:%s", name, what, value.RubyString(args[2]), value.RubyClass(args[2]))
			}
			min, hasMin = f, true
		}
		if hasMin && hasMax && min > max {
			return errorf("%s(): Expected second argument to be larger than third argument, got %s < %s", name, show(max), show(min))
		}
		check := func(n float64) error {
			if hasMax && n > max {
				return errorf("%s(): Expected %s to be smaller or equal to %s, got %s.", name, value.RubyInspect(input), show(max), value.RubyInspect(input))
			}
			if hasMin && n < min {
				return errorf("%s(): Expected %s to be greater or equal to %s, got %s.", name, value.RubyInspect(input), show(min), value.RubyInspect(input))
			}
			return nil
		}
		switch in := input.(type) {
		case value.Array:
			for pos, e := range in {
				n, ok := convert(e)
				if _, isHash := e.(*value.Hash); isHash || !ok {
					return errorf("%s(): Expected element at array position %d to be %s, got %s", name, pos, what, value.RubyClass(e))
				}
				if err := check(n); err != nil {
					return err
				}
			}
			return nil
		case *value.Hash:
			// stdlib's validate_numeric reports this under validate_integer's name.
			return errorf("validate_integer(): Expected first argument to be %s or Array, got Hash", what)
		}
		n, ok := convert(input)
		if !ok {
			return errorf("%s(): Expected first argument to be %s or Array, got %s", name, what, value.RubyClass(input))
		}
		return check(n)
	}
}

var integerSyntax = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*[+-]?(0[xX][0-9a-fA-F]+(_[0-9a-fA-F]+)*|0[bB][01]+(_[01]+)*|0[oO]?[0-7]+(_[0-7]+)*|[1-9]\d*(_\d+)*|0)\s*$`)
})

// rubyIntegerSyntax reports whether Ruby's Integer(s) accepts s.
func rubyIntegerSyntax(s string) bool { return integerSyntax().MatchString(s) }

func validateSlength(c *functions.Ctx, args []value.Value) error {
	deprecate(c, "validate_slength", deprecationMessage("String[]"))
	if err := functions.CountArgs(args, 2, 3, "validate_slength(): Wrong number of arguments (%d; must be 2 or 3)"); err != nil {
		return err
	}
	input := args[0]
	maxLen, ok := strictInteger(args[1])
	if !ok || maxLen <= 0 {
		return errorf("validate_slength(): Expected second argument to be a positive Numeric, got %s:%s", value.RubyString(args[1]), value.RubyClass(args[1]))
	}
	var minLen int64
	if m := arg(args, 2); value.Truthy(m) {
		n, ok := strictInteger(m)
		if !ok || n < 0 {
			return errorf("validate_slength(): Expected third argument to be unset or a positive Numeric, got %s:%s", value.RubyString(m), value.RubyClass(m))
		}
		minLen = n
	}
	if maxLen < minLen {
		return errorf("validate_slength(): Expected second argument to be equal to or larger than third argument")
	}
	check := func(s value.String) error {
		n := int64(len([]rune(string(s))))
		if n > maxLen || n < minLen {
			return errorf("validate_slength(): Expected length of %s to be between %d and %d, was %d", value.RubyInspect(input), minLen, maxLen, len([]rune(value.RubyString(input))))
		}
		return nil
	}
	switch in := input.(type) {
	case value.String:
		return check(in)
	case value.Array:
		for pos, e := range in {
			s, ok := e.(value.String)
			if !ok {
				return errorf("validate_slength(): Expected element at array position %d to be a String, got %s", pos, value.RubyClass(e))
			}
			if err := check(s); err != nil {
				return err
			}
		}
		return nil
	}
	return errorf("validate_slength(): Expected first argument to be a String or Array, got %s", value.RubyClass(input))
}

// strictInteger is Ruby's Integer(x) without to_s first: integers, floats
// truncated, strings in integer syntax.
func strictInteger(v value.Value) (int64, bool) {
	if s, ok := v.(value.String); ok && !rubyIntegerSyntax(string(s)) {
		return 0, false
	}
	return rubyInteger(v)
}

type ipKind int

const (
	ipInvalid ipKind = iota
	ipV4
	ipV6
)

// ipAddressKind is what Ruby's IPAddr.new makes of v.
func ipAddressKind(v value.Value) ipKind {
	ip, ok := parseIPAddr(v)
	switch {
	case !ok:
		return ipInvalid
	case ip.Is4():
		return ipV4
	}
	return ipV6
}

func validateIP(name, what string, accept func(ipKind) bool) validator {
	replacement := map[string]string{"IP": "Stdlib::Compat::Ip_address", "IPv4": "Stdlib::Compat::Ipv4", "IPv6": "Stdlib::Compat::Ipv6"}[what]
	return func(c *functions.Ctx, args []value.Value) error {
		deprecate(c, name, deprecationMessage(replacement))
		if err := functions.CountArgs(args, 1, -1, "%s(): wrong number of arguments (%d; must be > 0)", name); err != nil {
			return err
		}
		for _, a := range args {
			if _, ok := a.(value.String); !ok {
				return errorf("%s is not a string.", value.RubyInspect(a))
			}
			if !accept(ipAddressKind(a)) {
				return errorf("%s is not a valid %s address.", value.RubyInspect(a), what)
			}
		}
		return nil
	}
}

func validateDomainName(c *functions.Ctx, args []value.Value) error {
	if err := functions.CountArgs(args, 1, -1, "validate_domain_name(): wrong number of arguments (0; must be > 0)"); err != nil {
		return err
	}
	for _, a := range args {
		if _, ok := a.(value.String); !ok {
			return errorf("%s is not a string.", value.RubyInspect(a))
		}
		if !isDomainName(a) {
			return errorf("%s is not a syntactically correct domain name", value.RubyInspect(a))
		}
	}
	return nil
}

func validateEmailAddress(c *functions.Ctx, args []value.Value) error {
	if err := functions.CountArgs(args, 1, -1, "validate_email_address(): wrong number of arguments (0; must be > 0)"); err != nil {
		return err
	}
	for _, a := range args {
		if _, ok := a.(value.String); !ok {
			return errorf("%s is not a string.", value.RubyInspect(a))
		}
		if !isEmailAddress(a) {
			return errorf("%s is not a valid email address", value.RubyInspect(a))
		}
	}
	return nil
}

// predicate builds an is_* function; those with a replacement type log a
// deprecation naming it. countRule is how the Ruby checks the
// argument count: 0 "at least one" (message "(n for 1)"), 1 exactly one
// ("(n for 1)"), 2 exactly one ("n for 1").
func predicate(name, replacement string, countRule int, test func(value.Value) bool) func(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if replacement != "" {
			deprecate(c, name, deprecationMessage(replacement))
		}
		hi, format := 1, "%s(): Wrong number of arguments given (%d for 1)"
		switch countRule {
		case 0:
			hi = -1
		case 2:
			format = "%s(): Wrong number of arguments given %d for 1"
		}
		if err := functions.CountArgs(args, 1, hi, format, name); err != nil {
			return nil, err
		}
		return value.Boolean(test(args[0])), nil
	}
}

// isStringValue is stdlib's is_string: a string (or nil) that does not
// read back as a number.
func isStringValue(v value.Value) bool {
	if value.IsUndef(v) {
		return true
	}
	s, ok := v.(value.String)
	if !ok {
		return false
	}
	str := string(s)
	f, _ := rubyStringToF(str)
	n, _ := rubyToI(s)
	return str != value.FormatFloat(f) && str != strconv.FormatInt(n, 10)
}

// rubyStringToF is Ruby's String#to_f: the leading float, 0.0 if none.
func rubyStringToF(s string) (float64, bool) {
	m := leadingFloat().FindString(strings.TrimLeft(s, " \t\n\v\f\r"))
	if m == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(m, "_", ""), 64)
	return f, err == nil
}

var leadingFloat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?\d+(_\d+)*(\.\d+(_\d+)*)?([eE][+-]?\d+)?`) })

var (
	integerText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^-?(?:(?:[1-9]\d*)|0)$`) })
	numericText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^-?(?:(?:[1-9]\d*)|0)(?:\.\d+)?(?:[eE]-?\d+)?$`) })
)

func isIntegerValue(v value.Value) bool {
	switch v := v.(type) {
	case value.Integer:
		return true
	case value.String:
		return integerText().MatchString(string(v))
	}
	return false
}

func isNumericValue(v value.Value) bool {
	switch v := v.(type) {
	case value.Integer, value.Float:
		return true
	case value.String:
		return numericText().MatchString(string(v))
	}
	return false
}

func isFloatValue(v value.Value) bool {
	switch v := v.(type) {
	case value.Float:
		return true
	case value.String:
		f, _ := rubyStringToF(string(v))
		return string(v) == value.FormatFloat(f)
	}
	return false
}

var domainTLD = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.[A-Za-z]+$`) })
var domainLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z\d-]+$`) })

func isDomainName(v value.Value) bool {
	s, ok := v.(value.String)
	if !ok {
		return false
	}
	domain := string(s)
	if domain == "." {
		return true
	}
	domain = strings.TrimSuffix(domain, ".")
	if domain == "" || len(domain) > 255 {
		return false
	}
	if strings.Contains(domain, ".") && !domainTLD().MatchString(domain) {
		return false
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") || !domainLabel().MatchString(label) {
			return false
		}
	}
	return true
}

var macAddress = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[a-f0-9]{1,2}(:[a-f0-9]{1,2}){5}$|^[a-f0-9]{1,2}(:[a-f0-9]{1,2}){19}$`)
})

func isMACAddress(v value.Value) bool {
	s, ok := v.(value.String)
	return ok && macAddress().MatchString(string(s))
}

var emailAddress = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([\w+\-].?)+@[a-z\d\-]+(\.[a-z]+)*\.[a-z]+$`) })

func isEmailAddress(v value.Value) bool {
	s, ok := v.(value.String)
	return ok && emailAddress().MatchString(string(s))
}

// isA is stdlib's is_a(value, type).
func isA(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var v value.Value
	var t value.Type
	if err := functions.UnpackArgs("is_a", args, "value", &v, "type", &t); err != nil {
		return nil, err
	}
	ok, err := value.CheckInstance(t, v)
	return value.Boolean(ok), err
}

// validateLegacy is validate_legacy(type, function_name, value, *args):
// the value must match the type; when it does not, but the named legacy
// validator still accepts it, Puppet only warns.
func validateLegacy(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) < 3 {
		// Puppet counts the scope it passes first as an argument.
		return nil, errorf("'validate_legacy' expects at least 4 arguments, got %d", len(args)+1)
	}
	var target value.Type
	switch t := args[0].(type) {
	case value.Type:
		target = t
	case value.String:
		parsed, err := parseType(c, string(t))
		if err != nil {
			return nil, err
		}
		target = parsed
	default:
		return nil, validateLegacyMismatch("target_type", "expects a Type value", args[0])
	}
	fname, ok := args[1].(value.String)
	if !ok {
		return nil, validateLegacyMismatch("function_name", "expects a String value", args[1])
	}
	val := args[2]
	passes, err := previousValidation(c, string(fname), args[2:])
	if err != nil {
		return nil, err
	}
	if ok, err := value.CheckInstance(target, val); err != nil {
		return nil, err
	} else if ok {
		if !passes && c.Log != nil {
			c.Log(functions.Notice, "Accepting previously invalid value for target type '"+value.TypeString(target)+"'")
		}
		return value.Undef, nil
	}
	msg := "validate_legacy(" + string(fname) + ") " + value.DescribeMismatch(target, val)
	if passes {
		deprecate(c, "validate_legacy", msg)
		return value.Undef, nil
	}
	return nil, errorf("%s", msg)
}

// validateLegacyMismatch is Puppet's message when no signature of
// validate_legacy accepts the arguments.
func validateLegacyMismatch(param, expects string, got value.Value) error {
	return errorf("The function 'validate_legacy' was called with arguments it does not accept. It expects one of:\n"+
		"  (Any scope, Type target_type, String function_name, Any value, Any args*)\n"+
		"    rejected: parameter '%s' %s, got %s\n"+
		"  (Any scope, String type_string, String function_name, Any value, Any args*)\n"+
		"    rejected: parameter '%s' %s, got %s", param, expects, describeType(got), param, expects, describeType(got))
}

// previousValidation runs the named 3.x function on the arguments as
// given (validate_legacy calls it directly, without converting undef),
// reporting whether it accepted them.
func previousValidation(c *functions.Ctx, name string, args []value.Value) (bool, error) {
	for _, v := range legacyValidators {
		if v.name == name {
			return v.check(c, args) == nil, nil
		}
	}
	for _, p := range predicates {
		if p.name == name {
			// A predicate "passes" unless it raises; its result is ignored.
			_, err := p.test(c, args)
			return err == nil, nil
		}
	}
	return false, errorf("undefined method `function_%s' for Scope", name)
}

// parseType evaluates a type written as a string ('Optional[String]').
func parseType(c *functions.Ctx, text string) (value.Type, error) {
	prog, err := syntax.ParseFile("", []byte(text))
	if err != nil || len(prog.Body) != 1 || c.Eval == nil {
		return nil, errorf("The expression <%s> is not a valid type specification.", text)
	}
	sc := c.Scope
	if sc == nil {
		sc = eval.NewScope(eval.TopScope, "", nil, prog.File)
	}
	v, err := c.Eval.Eval(prog.Body[0], sc)
	if err != nil {
		return nil, err
	}
	t, ok := v.(value.Type)
	if !ok {
		return nil, errorf("The expression <%s> is not a valid type specification.", text)
	}
	return t, nil
}
