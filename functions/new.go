package functions

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// New creates a value of type t from args, as Puppet's new() and the type
// call forms (Integer('0x10'), Array($h, true), ...) do. A single argument
// that already is an instance of t is returned as is; any other result is
// checked against t.
func New(c *Ctx, t value.Type, args []value.Value) (value.Value, error) {
	// The conversion functions take no block; a block of the call (as in
	// convert_to(...) |$x| {...}) is the caller's business.
	if c.lambda() != nil {
		NoBlock := *c
		NoBlock.Call = &eval.Call{Name: c.Call.Name, Args: c.Call.Args, Node: c.Call.Node}
		c = &NoBlock
	}
	if len(args) == 1 && value.IsInstance(t, args[0]) {
		return args[0], nil
	}
	v, err := newValue(c, t, args)
	if err != nil {
		return nil, err
	}
	if !value.IsInstance(t, v) {
		return nil, fmt.Errorf("Converted value from %s.new() has wrong type, %s", value.TypeString(t), describeValueMismatch(t, v))
	}
	return v, nil
}

func newValue(c *Ctx, t value.Type, args []value.Value) (value.Value, error) {
	switch t := value.Resolve(t).(type) {
	case *value.IntegerType:
		return newInteger(c, args)
	case *value.FloatType:
		return newFloat(c, args)
	case *value.StringType:
		return newString(c, args)
	case *value.BooleanType:
		return newBoolean(c, args)
	case *value.ArrayType, *value.TupleType:
		return newArray(c, args)
	case *value.HashType, *value.StructType:
		return newHash(c, args)
	case *value.RegexpType:
		return newRegexp(c, args)
	case *value.SensitiveType:
		return Dispatch("new_Sensitive", Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			return &value.Sensitive{Value: args[0]}, nil
		}, P("value", tAny)))(c, args)
	case *value.TypeType:
		return Dispatch("new_type", Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			return parseType(c, string(args[0].(value.String)))
		}, P("type_string", &value.StringType{Min: 1, Max: value.MaxInt})))(c, args)
	case *value.OptionalType:
		if t.Type != nil {
			return newValue(c, t.Type, args)
		}
	case *value.NotUndefType:
		if t.Type != nil {
			return newValue(c, t.Type, args)
		}
		return Dispatch("new_unit", Fixed(func(c *Ctx, args []value.Value) (value.Value, error) { return args[0], nil }, P("from", tAny)))(c, args)
	default:
		switch t {
		case value.NumericType:
			return newNumeric(c, args)
		case value.TimestampType:
			return newTimestamp(c, args)
		case value.TimespanType:
			return newTimespan(c, args)
		case value.BinaryType:
			return newBinary(c, args)
		case value.SemVerType:
			return newSemVer(c, args)
		case value.SemVerRangeType:
			return newSemVerRange(c, args)
		case value.DeferredType:
			return newDeferred(c, args)
		}
	}
	return nil, fmt.Errorf("Creation of new instance of type '%s' is not supported", value.TypeString(t))
}

// Patterns of the strings Integer, Float and Numeric accept (Puppet's
// INTEGER_PATTERN_LENIENT and FLOAT_PATTERN).
var (
	integerLenient = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)$`) })
	floatPattern   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[+-]?\s*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)$`)
	})
	// numericString is Puppet's Patterns::NUMERIC, used by Numeric.new.
	numericString = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?\d+)((?:\.\d+)?(?:[eE]-?\d+)?))[ \t]*$`)
	})
	// wsAfterSign finds whitespace between a sign and a number.
	wsAfterSign = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([+-])[ \t]+(.*)$`) })
)

func patternType(re *regexp.Regexp) value.Type {
	return &value.PatternType{Regexps: []*value.Regexp{value.RegexpOf(re.String(), re)}}
}

func newInteger(c *Ctx, args []value.Value) (value.Value, error) {
	convertible := variant(tNumeric, tBoolean, patternType(integerLenient()), value.TimespanType, value.TimestampType)
	radix := variant(value.DefaultType, &value.IntegerType{Min: 2, Max: 2}, &value.IntegerType{Min: 8, Max: 8},
		&value.IntegerType{Min: 10, Max: 10}, &value.IntegerType{Min: 16, Max: 16})
	named := &value.StructType{Elements: []value.StructElement{
		{Name: "from", Value: convertible},
		{Name: "radix", Optional: true, KeyType: optionalKey("radix"), Value: radix},
		{Name: "abs", Optional: true, KeyType: optionalKey("abs"), Value: tBoolean},
	}}
	fromArgs := func(c *Ctx, args []value.Value) (value.Value, error) {
		r := 0
		if len(args) > 1 {
			if n, ok := args[1].(value.Integer); ok {
				r = int(n)
			}
		}
		n, err := integerFrom(args[0], r)
		if err != nil {
			return nil, err
		}
		if len(args) > 2 && args[2] == value.True && n < 0 {
			if n == math.MinInt64 {
				return nil, errors.New("integer overflow")
			}
			n = -n
		}
		return value.Integer(n), nil
	}
	onError := func(c *Ctx, args []value.Value) (value.Value, error) {
		if len(args) > 1 && !value.IsDefault(args[1]) {
			if err := assertRadix(args[1]); err != nil {
				return nil, err
			}
		}
		return nil, conversionError("new", args[0], "Integer")
	}
	return Dispatch("new",
		Signature{Params: []Param{P("from", convertible), P("radix", radix), P("abs", tBoolean)}, Required: 1, Impl: fromArgs},
		Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			h := args[0].(*value.Hash)
			return fromArgs(c, hashArgs(h, "from", "radix", "abs"))
		}, P("hash_args", named)),
		Signature{Params: []Param{P("hash_args", tHash)}, Required: 1, ArgumentMismatch: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			h := args[0].(*value.Hash)
			if r, ok := h.GetString("radix"); ok && !value.IsDefault(r) {
				if err := assertRadix(r); err != nil {
					return nil, err
				}
			}
			if from, ok := h.GetString("from"); ok && !value.IsInstance(convertible, from) {
				return nil, conversionError("new", from, "Integer")
			}
			return nil, fmt.Errorf("Integer.new %s", describeValueMismatch(named, h))
		}},
		Signature{Params: []Param{P("from", tAny), P("radix", tInteger), P("abs", tBoolean)}, Required: 1, ArgumentMismatch: true, Impl: onError},
	)(c, args)
}

// hashArgs turns named arguments into positional ones (undef for missing,
// trailing missing ones dropped).
func hashArgs(h *value.Hash, names ...string) []value.Value {
	out := make([]value.Value, len(names))
	last := 0
	for i, n := range names {
		if v, ok := h.GetString(n); ok {
			out[i] = v
			last = i + 1
		} else {
			out[i] = value.Default
		}
	}
	return out[:last]
}

func assertRadix(r value.Value) error {
	switch r {
	case value.Integer(2), value.Integer(8), value.Integer(10), value.Integer(16):
		return nil
	}
	return fmt.Errorf("Illegal radix: %s, expected 2, 8, 10, 16, or default", value.RubyString(r))
}

// conversionError is the message of a failed conversion, prefixed by the
// name of Puppet's conversion function.
func conversionError(fn string, from value.Value, to string) error {
	if s, ok := from.(value.String); ok {
		return fmt.Errorf("'%s' The string '%s' cannot be converted to %s", fn, string(s), to)
	}
	return fmt.Errorf("'%s' Value of type %s cannot be converted to %s", fn, generalizedTypeString(from), to)
}

// generalizedTypeString names the generalized type of v as Puppet's
// conversion errors do (an empty array is an Array[Unit]).
func generalizedTypeString(v value.Value) string {
	switch v := v.(type) {
	case *value.Regexp:
		// Puppet's generalization keeps a regexp's pattern.
		return value.TypeString(value.TypeOf(v))
	case value.Array:
		if len(v) == 0 {
			return "Array[Unit]"
		}
	}
	return value.TypeString(generalizeReduced(reduceValue(v)))
}

// integerFrom converts a convertible value; strings follow Ruby's
// Integer(str[, radix]).
func integerFrom(from value.Value, radix int) (int64, error) {
	switch v := from.(type) {
	case value.Integer:
		return int64(v), nil
	case value.Float:
		f := math.Trunc(float64(v))
		if f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 || math.IsNaN(f) {
			return 0, fmt.Errorf("%s cannot be converted to an Integer", value.FormatFloat(float64(v)))
		}
		return int64(f), nil
	case value.Boolean:
		if v {
			return 1, nil
		}
		return 0, nil
	case value.String:
		s := string(v)
		if n, ok := parseRubyInteger(trimRubySpace(s), radix); ok {
			return n, nil
		}
		if m := wsAfterSign().FindStringSubmatch(s); m != nil {
			if n, ok := parseRubyInteger(trimRubySpace(m[1]+m[2]), radix); ok {
				return n, nil
			}
		}
		return 0, fmt.Errorf("invalid value for Integer(): %s", value.RubyInspect(v))
	}
	return 0, conversionError("new", from, "Integer")
}

func newFloat(c *Ctx, args []value.Value) (value.Value, error) {
	convertible := variant(tNumeric, tBoolean, patternType(floatPattern()), value.TimespanType, value.TimestampType)
	return numberNew(c, args, "new_float", "Float", convertible, func(from value.Value) (value.Value, error) {
		switch v := from.(type) {
		case value.Float:
			return v, nil
		case value.Integer:
			return value.Float(v), nil
		case value.Boolean:
			if v {
				return value.Float(1), nil
			}
			return value.Float(0), nil
		case value.String:
			s := string(v)
			if f, ok := floatFromString(s); ok {
				return value.Float(f), nil
			}
			if m := wsAfterSign().FindStringSubmatch(s); m != nil {
				if f, ok := floatFromString(m[1] + m[2]); ok {
					return value.Float(f), nil
				}
			}
			return nil, fmt.Errorf("invalid value for Float(): %s", value.RubyInspect(v))
		}
		return nil, conversionError("new_float", from, "Float")
	})
}

// floatFromString is Ruby's Float(str), with binary integers (0b) allowed.
func floatFromString(s string) (float64, bool) {
	t := trimRubySpace(s)
	if len(t) > 1 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B') {
		n, ok := parseRubyInteger(t, 0)
		return float64(n), ok
	}
	return rubyFloat(t)
}

func newNumeric(c *Ctx, args []value.Value) (value.Value, error) {
	convertible := variant(tInteger, value.FloatAny, tBoolean, patternType(floatPattern()), value.TimespanType, value.TimestampType)
	return numberNew(c, args, "new_numeric", "Numeric", convertible, func(from value.Value) (value.Value, error) {
		switch v := from.(type) {
		case value.Float, value.Integer:
			return v, nil
		case value.Boolean:
			if v {
				return value.Integer(1), nil
			}
			return value.Integer(0), nil
		case value.String:
			s := string(v)
			if len(s) > 1 && s[0] == '0' && strings.ContainsRune("bBxX", rune(s[1])) {
				n, ok := parseRubyInteger(trimRubySpace(s), 0)
				if !ok {
					return nil, fmt.Errorf("invalid value for Integer(): %s", value.RubyInspect(v))
				}
				return value.Integer(n), nil
			}
			m := numericString().FindStringSubmatch(s)
			if m == nil {
				return value.Undef, nil
			}
			if m[5] != "" {
				f, ok := rubyFloat(m[2])
				if !ok {
					return value.Undef, nil
				}
				if m[1] == "-" {
					f = -f
				}
				return value.Float(f), nil
			}
			n, ok := parseRubyInteger(m[2], 0)
			if !ok {
				return value.Undef, nil
			}
			if m[1] == "-" {
				n = -n
			}
			return value.Integer(n), nil
		}
		return nil, conversionError("new_numeric", from, "Numeric")
	})
}

// numberNew dispatches Float.new and Numeric.new: (from, abs?), a hash of
// named arguments, or an error naming what could not be converted.
func numberNew(c *Ctx, args []value.Value, fn, typeName string, convertible value.Type, convert func(value.Value) (value.Value, error)) (value.Value, error) {
	named := &value.StructType{Elements: []value.StructElement{
		{Name: "from", Value: convertible},
		{Name: "abs", Optional: true, KeyType: optionalKey("abs"), Value: tBoolean},
	}}
	fromArgs := func(c *Ctx, args []value.Value) (value.Value, error) {
		v, err := convert(args[0])
		if err != nil || len(args) < 2 || args[1] != value.True {
			return v, err
		}
		switch n := v.(type) {
		case value.Integer:
			if n < 0 {
				return -n, nil
			}
		case value.Float:
			return value.Float(math.Abs(float64(n))), nil
		}
		return v, nil
	}
	return Dispatch(fn,
		Signature{Params: []Param{P("from", convertible), P("abs", tBoolean)}, Required: 1, Impl: fromArgs},
		Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			return fromArgs(c, hashArgs(args[0].(*value.Hash), "from", "abs"))
		}, P("hash_args", named)),
		Signature{Params: []Param{P("from", tAny), P("abs", tBoolean)}, Required: 1, ArgumentMismatch: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			return nil, conversionError(fn, args[0], typeName)
		}},
	)(c, args)
}

func newBoolean(c *Ctx, args []value.Value) (value.Value, error) {
	words := value.NewEnum([]string{"false", "true", "yes", "no", "y", "n"}, true)
	return Dispatch("new_boolean",
		Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			switch v := args[0].(type) {
			case value.Float:
				return value.Boolean(v != 0), nil
			case value.Integer:
				return value.Boolean(v != 0), nil
			case value.Boolean:
				return v, nil
			case value.String:
				switch strings.ToLower(string(v)) {
				case "false", "no", "n":
					return value.False, nil
				}
			}
			return value.True, nil
		}, P("from", variant(tInteger, value.FloatAny, tBoolean, words))),
		Signature{Params: []Param{P("from", tAny)}, Required: 1, ArgumentMismatch: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			return nil, conversionError("new_boolean", args[0], "Boolean")
		}},
	)(c, args)
}

func newArray(c *Ctx, args []value.Value) (value.Value, error) {
	f := false
	tr := true
	return Dispatch("new_array",
		Signature{Params: []Param{
			P("from", variant(tArray, tHash, value.BinaryType, tIterable)),
			P("wrap", &value.BooleanType{Value: &f}),
		}, Required: 1, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			elems, err := iterElements(args[0])
			if err != nil {
				return nil, err
			}
			if elems == nil {
				elems = value.Array{}
			}
			return elems, nil
		}},
		Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			if a, ok := args[0].(value.Array); ok {
				return a, nil
			}
			return value.Array{args[0]}, nil
		}, P("from", tAny), P("wrap", &value.BooleanType{Value: &tr})),
		Signature{Params: []Param{P("from", tAny), P("wrap", tBoolean)}, Required: 1, ArgumentMismatch: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			return nil, fmt.Errorf("'new_array' Value of type %s cannot be converted to Array", generalizedTypeString(args[0]))
		}},
	)(c, args)
}

func newHash(c *Ctx, args []value.Value) (value.Value, error) {
	pair := &value.TupleType{Types: []value.Type{tAny, tAny}, Min: 2, Max: 2}
	tuples := func(c *Ctx, args []value.Value) (value.Value, error) {
		b := value.NewHashBuilder(0)
		for _, e := range args[0].(value.Array) {
			kv := e.(value.Array)
			b.Set(kv[0], kv[1])
		}
		return b.Build(), nil
	}
	treeArray := &value.ArrayType{Elem: &value.TupleType{Types: []value.Type{tArray, tAny}, Min: 2, Max: 2}, Min: 1, Max: value.MaxInt}
	return Dispatch("new_hash",
		Signature{Params: []Param{P("from", treeArray), P("build_option", value.NewEnum([]string{"hash_tree", "tree"}, false))},
			Required: 1, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
				if len(args) == 1 {
					return tuples(c, args)
				}
				return hashFromTree(args[0].(value.Array), args[1] == value.String("hash_tree")), nil
			}},
		Fixed(tuples, P("from", &value.ArrayType{Elem: pair, Min: 1, Max: value.MaxInt})),
		Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
			switch from := args[0].(type) {
			case *value.Hash:
				return from, nil
			case value.Array:
				return hashFromFlat(from)
			}
			if value.IsInstance(tIterable, args[0]) {
				elems, err := iterElements(args[0])
				if err != nil {
					return nil, err
				}
				return hashFromFlat(elems)
			}
			return nil, fmt.Errorf("Value of type %s cannot be converted to Hash", generalizedTypeString(args[0]))
		}, P("from", tAny)),
	)(c, args)
}

func hashFromFlat(a value.Array) (value.Value, error) {
	if len(a)%2 != 0 {
		return nil, errors.New("odd number of arguments for Hash")
	}
	b := value.NewHashBuilder(len(a) / 2)
	for i := 0; i < len(a); i += 2 {
		b.Set(a[i], a[i+1])
	}
	return b.Build(), nil
}

func newRegexp(c *Ctx, args []value.Value) (value.Value, error) {
	// Puppet 7 names Regexp's conversion function new_float.
	return Dispatch("new_float",
		Signature{Params: []Param{P("pattern", tString), P("escape", tBoolean)}, Required: 1, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			src := string(args[0].(value.String))
			if len(args) > 1 && args[1] == value.True {
				src = rubyRegexpEscape(src)
			}
			r, err := value.NewRegexp(src)
			if err != nil {
				return nil, rubyRegexpError(src, err)
			}
			return r, nil
		}},
	)(c, args)
}

// rubyRegexpEscape is Ruby's Regexp.escape.
func rubyRegexpEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '.', '*', '?', '+', '^', '$', '|', '(', ')', '[', ']', '{', '}', '\\', '/', '-':
			b.WriteByte('\\')
			b.WriteRune(r)
		case ' ':
			b.WriteString(`\ `)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// newString converts a value to a String: by default strings as they are,
// numbers in decimal (floats with %f), collections with their elements
// quoted. A format string (as in String(12, '%x')) applies to the value.
func newString(c *Ctx, args []value.Value) (value.Value, error) {
	return Dispatch("new_string",
		Signature{Params: []Param{P("from", tAny), P("string_formats", variant(value.DefaultType, &value.StringType{Min: 1, Max: value.MaxInt}, tHash))},
			Required: 1, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
				if err := c.checkSize(args[0], "String conversion"); err != nil {
					return nil, err
				}
				format := ""
				if len(args) > 1 {
					switch f := args[1].(type) {
					case value.String:
						format = string(f)
					case *value.Hash:
						// Formats per type: the first type the value is an
						// instance of picks the format. Container formats
						// (given as hashes) are not supported.
						for i := 0; i < f.Len(); i++ {
							k, e := f.At(i)
							t, isType := k.(value.Type)
							if !isType || !value.IsInstance(t, args[0]) {
								continue
							}
							fs, isString := e.(value.String)
							if !isString {
								return nil, errors.New("String.new: container formats are not supported")
							}
							format = string(fs)
							break
						}
					}
				}
				s, err := formatValue(args[0], format)
				if err != nil {
					return nil, err
				}
				return value.String(s), nil
			}},
	)(c, args)
}

// puppetLiteral is Puppet's %p rendering: strings quoted as puppetQuote
// does, everything else as a literal.
func puppetLiteral(v value.Value) string {
	var b strings.Builder
	var write func(v value.Value)
	write = func(v value.Value) {
		switch v := v.(type) {
		case value.String:
			b.WriteString(puppetQuote(string(v)))
		case value.Array:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteString(", ")
				}
				write(e)
			}
			b.WriteByte(']')
		case *value.Hash:
			b.WriteByte('{')
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				if i > 0 {
					b.WriteString(", ")
				}
				write(k)
				b.WriteString(" => ")
				write(e)
			}
			b.WriteByte('}')
		case *value.Sensitive:
			b.WriteString("#<Sensitive [value redacted]>")
		default:
			b.WriteString(value.Literal(v))
		}
	}
	write(v)
	return b.String()
}

// puppetQuote single-quotes s (escaping ' and a trailing backslash), or
// double-quotes it with escapes when it has control characters.
func puppetQuote(s string) string {
	for _, r := range s {
		if r < 0x20 {
			return puppetDoubleQuote(s)
		}
	}
	var b strings.Builder
	b.WriteByte('\'')
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			b.WriteByte('\\')
			b.WriteRune(r)
			escaped = false
		case r == '\'':
			b.WriteString(`\'`)
		case r == '\\':
			escaped = true
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		b.WriteByte('\\')
	}
	b.WriteByte('\'')
	return b.String()
}

func puppetDoubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '$':
			b.WriteString(`\$`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u{%X}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
