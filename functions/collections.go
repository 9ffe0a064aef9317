package functions

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/value"
)

func addCollections(t Table) {
	t["size"] = Dispatch("size", Fixed(lengthImpl, P("arg", variant(value.CollectionAny, tString, value.BinaryType))))
	t["length"] = Dispatch("length",
		Fixed(lengthImpl, P("arg", value.CollectionAny)),
		Fixed(lengthImpl, P("arg", tString)),
		Fixed(lengthImpl, P("arg", value.BinaryType)))
	t["keys"] = Dispatch("keys", Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
		return append(value.Array{}, args[0].(*value.Hash).Keys()...), nil
	}, P("hsh", tHash)))
	t["values"] = Dispatch("values", Fixed(func(c *Ctx, args []value.Value) (value.Value, error) {
		return append(value.Array{}, args[0].(*value.Hash).Values()...), nil
	}, P("hsh", tHash)))
	t["flatten"] = Dispatch("flatten", Signature{Params: []Param{P("args", tAny)}, Repeated: true,
		Impl: func(c *Ctx, args []value.Value) (value.Value, error) { return flattenArray(value.Array(args)), nil }})
	t["empty"] = Dispatch("empty",
		Fixed(emptyImpl, P("coll", value.CollectionAny)),
		Fixed(emptyImpl, P("str", &value.SensitiveType{Type: value.StringAny})),
		Fixed(emptyImpl, P("str", tString)),
		Fixed(emptyImpl, P("num", tNumeric)),
		Fixed(emptyImpl, P("bin", value.BinaryType)),
		Fixed(emptyImpl, P("x", value.UndefType)))
	t["dig"] = Dispatch("dig", Signature{Params: []Param{P("data", optional(value.CollectionAny)), P("arg", tAny)},
		Required: 1, Repeated: true, Impl: digImpl})
	t["get"] = Dispatch("get", Signature{Params: []Param{P("value", tAny), P("dotted_string", tString), P("default_value", tAny)},
		Required: 2, Block: OptionalBlock, BlockMin: 1, BlockMax: 1, Impl: getImpl})

	sortBlock := func(ps ...Param) Signature {
		return Signature{Params: ps, Required: len(ps), Block: OptionalBlock, BlockMin: 2, BlockMax: 2, Impl: sortImpl}
	}
	t["sort"] = Dispatch("sort", sortBlock(P("string_value", tString)), sortBlock(P("array_value", tArray)))

	uniq := func(blockType string, ps ...Param) Signature {
		return Signature{Params: ps, Required: len(ps), Block: OptionalBlock, BlockMin: 1, BlockMax: 1,
			BlockType: blockType, Impl: uniqueImpl}
	}
	t["unique"] = Dispatch("unique", uniq("Callable[String]", P("string", tString)), uniq("Callable[Any]", P("hash", tHash)),
		uniq("Callable[Any]", P("array", tArray)), uniq("Callable[Any]", P("iterable", tIterable)))

	t["min"] = minMax("min", -1)
	t["max"] = minMax("max", 1)

	t["compare"] = compareFunc
}

func lengthImpl(c *Ctx, args []value.Value) (value.Value, error) {
	switch v := args[0].(type) {
	case value.String:
		return value.Integer(utf8.RuneCountInString(string(v))), nil
	case value.Array:
		return value.Integer(len(v)), nil
	case *value.Hash:
		return value.Integer(v.Len()), nil
	}
	return value.Integer(0), nil
}

// flattenArray flattens nested arrays into one.
func flattenArray(a value.Array) value.Array {
	out := value.Array{}
	var add func(a value.Array)
	add = func(a value.Array) {
		for _, e := range a {
			if nested, ok := e.(value.Array); ok {
				add(nested)
			} else {
				out = append(out, e)
			}
		}
	}
	add(a)
	return out
}

func emptyImpl(c *Ctx, args []value.Value) (value.Value, error) {
	switch v := args[0].(type) {
	case value.String:
		return value.Boolean(v == ""), nil
	case value.Array:
		return value.Boolean(len(v) == 0), nil
	case *value.Hash:
		return value.Boolean(v.Len() == 0), nil
	case *value.Sensitive:
		s, _ := v.Value.(value.String)
		return value.Boolean(s == ""), nil
	case value.Integer, value.Float:
		return value.False, nil
	}
	return value.True, nil
}

// digImpl walks into nested arrays and hashes; undef along the way (or an
// undef key) gives undef.
func digImpl(c *Ctx, args []value.Value) (value.Value, error) {
	d := args[0]
	var walked value.Array
	for _, k := range args[1:] {
		if value.IsUndef(d) || value.IsUndef(k) {
			return value.Undef, nil
		}
		switch coll := d.(type) {
		case *value.Hash:
			walked = append(walked, k)
			v, ok := coll.Get(k)
			if !ok {
				v = value.Undef
			}
			d = v
		case value.Array:
			walked = append(walked, k)
			i, ok := k.(value.Integer)
			if !ok {
				return nil, diag.New(diag.ExpectedIntegerIndex, diag.Range{}, fmt.Sprintf("The given data requires an Integer index at %s, got '%s'", value.RubyInspect(walked), value.TypeString(value.TypeOf(k))))
			}
			if i < 0 {
				i += value.Integer(len(coll))
			}
			if i < 0 || int64(i) >= int64(len(coll)) {
				d = value.Undef
			} else {
				d = coll[i]
			}
		default:
			return nil, diag.New(diag.ExpectedCollection, diag.Range{}, fmt.Sprintf("The given data does not contain a Collection at %s, got '%s'", value.RubyInspect(walked), value.TypeString(value.TypeOf(d))))
		}
	}
	return d, nil
}

// getImpl digs into a value along a dotted path ("a.0.'b.c'"); numeric
// segments index arrays. A missing value gives the default.
func getImpl(c *Ctx, args []value.Value) (value.Value, error) {
	var dflt value.Value = value.Undef
	if len(args) > 2 {
		dflt = args[2]
	}
	if value.IsUndef(args[0]) {
		return dflt, nil
	}
	path := string(args[1].(value.String))
	if path == "" {
		return args[0], nil
	}
	segments, err := splitDottedKey(path)
	if err != nil {
		return nil, err
	}
	// get() hands the value to dig(), whose parameter check applies.
	if digData := optional(value.CollectionAny); !value.IsInstance(digData, args[0]) {
		return nil, fmt.Errorf("'dig' parameter 'data' %s", typeMismatchText([]value.Type{digData}, args[0]))
	}
	v, err := digImpl(c, append(value.Array{args[0]}, segments...))
	if err != nil {
		if c.lambda() != nil {
			// Puppet hands the block an Error object; its message is what
			// Puppet code mostly uses.
			r, berr := callBlock(c, value.NewHash(value.String("msg"), value.String(err.Error()),
				value.String("issue_code"), value.String(issueCode(err))))
			return r, berr
		}
		return nil, err
	}
	if value.IsUndef(v) {
		return dflt, nil
	}
	return v, nil
}

// issueCode is the issue code of the Error object getvar and dig hand
// their block.
func issueCode(err error) string {
	if d := diag.Coded(err); d != nil {
		return string(d.Code)
	}
	return string(diag.ExpectedCollection)
}

// dottedSegment matches one segment of a dotted key: quoted, or up to a dot.
var dottedSegment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)`) })

// splitDottedKey splits "a.b.'c.d'.0" into its segments; digit segments
// become Integers, as in Puppet's sub-lookups.
func splitDottedKey(key string) (value.Array, error) {
	syntaxErr := errors.New("Syntax error in dotted-navigation string")
	var out value.Array
	rest := key
	for {
		m := dottedSegment().FindString(rest)
		if m == "" {
			return nil, syntaxErr
		}
		seg := strings.TrimSpace(m)
		rest = rest[len(m):]
		switch {
		case strings.HasPrefix(seg, `"`) || strings.HasPrefix(seg, "'"):
			out = append(out, value.String(seg[1:len(seg)-1]))
		default:
			if n, err := strconv.ParseInt(seg, 10, 64); err == nil && seg != "" && strings.Trim(seg, "+-0123456789") == "" {
				out = append(out, value.Integer(n))
			} else {
				out = append(out, value.String(seg))
			}
		}
		if rest == "" {
			return out, nil
		}
		if rest[0] != '.' || len(rest) == 1 {
			return nil, syntaxErr
		}
		rest = rest[1:]
	}
}

// sortImpl sorts a string's characters or an array, with Ruby's <=> or with
// the block as comparator.
func sortImpl(c *Ctx, args []value.Value) (value.Value, error) {
	var elems value.Array
	s, isString := args[0].(value.String)
	if isString {
		for _, r := range string(s) {
			elems = append(elems, value.String(string(r)))
		}
	} else {
		elems = append(value.Array{}, args[0].(value.Array)...)
	}
	var err error
	less := func(i, j int) bool {
		if err != nil {
			return false
		}
		// The sort asks about a later element (i) against an earlier one
		// (j); compare them in list order, as Ruby reports failures so.
		var n int
		n, err = compareWith(c, elems[j], elems[i])
		return n > 0
	}
	sort.SliceStable(elems, less)
	if err != nil {
		return nil, err
	}
	if isString {
		var b strings.Builder
		for _, e := range elems {
			b.WriteString(string(e.(value.String)))
		}
		return value.String(b.String()), nil
	}
	return elems, nil
}

// compareWith orders two values with the call's block if it has one, else
// with Ruby's <=>.
func compareWith(c *Ctx, a, b value.Value) (int, error) {
	if c.lambda() != nil {
		v, err := callBlock(c, a, b)
		if err != nil {
			return 0, err
		}
		switch n := v.(type) {
		case value.Integer:
			return sign(int64(n)), nil
		case value.Float:
			return sign64(float64(n)), nil
		}
		return 0, fmt.Errorf("comparison of %s with %s failed", value.RubyClass(a), value.RubyClass(b))
	}
	return rubyCompare(a, b)
}

func sign(n int64) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func sign64(f float64) int {
	switch {
	case f < 0:
		return -1
	case f > 0:
		return 1
	}
	return 0
}

// rubyCompare is Ruby's <=> on Puppet values: numbers by value, strings
// case-sensitively, arrays element-wise; anything else fails.
func rubyCompare(a, b value.Value) (int, error) {
	if aa, ok := a.(value.Array); ok {
		if ba, ok := b.(value.Array); ok {
			for i := 0; i < len(aa) && i < len(ba); i++ {
				n, err := rubyCompare(aa[i], ba[i])
				if err != nil || n != 0 {
					return n, err
				}
			}
			return sign(int64(len(aa) - len(ba))), nil
		}
	}
	switch a.(type) {
	case value.String, value.Integer, value.Float, *value.SemVer:
		if n, ok := value.CompareStrict(a, b); ok {
			return n, nil
		}
	}
	return 0, fmt.Errorf("comparison of %s with %s failed", value.RubyClass(a), value.RubyClass(b))
}

// uniqueImpl removes duplicates (compared strictly, or by the block's
// result). For a hash, entries are grouped by value: the result maps each
// group's keys to its distinct values.
func uniqueImpl(c *Ctx, args []value.Value) (value.Value, error) {
	keyOf := func(v value.Value) (value.Value, error) {
		if c.lambda() == nil {
			return v, nil
		}
		k, err := callBlock(c, v)
		return k, err
	}
	switch v := args[0].(type) {
	case value.String:
		var chars value.Array
		for _, r := range string(v) {
			chars = append(chars, value.String(string(r)))
		}
		kept, err := uniqueValues(chars, keyOf)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, e := range kept {
			b.WriteString(string(e.(value.String)))
		}
		return value.String(b.String()), nil
	case *value.Hash:
		groups := value.NewHashBuilder(0)
		var order []value.Value
		keys := map[int][]value.Value{}
		vals := map[int][]value.Value{}
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			gk, err := keyOf(e)
			if err != nil {
				return nil, err
			}
			idx := -1
			for j, o := range order {
				if value.Identical(o, gk) {
					idx = j
					break
				}
			}
			if idx < 0 {
				idx = len(order)
				order = append(order, gk)
			}
			keys[idx] = append(keys[idx], k)
			vals[idx] = append(vals[idx], e)
		}
		for i := range order {
			distinct, _ := uniqueValues(vals[i], func(v value.Value) (value.Value, error) { return v, nil })
			groups.Set(value.Array(keys[i]), distinct)
		}
		return groups.Build(), nil
	}
	elems, err := iterElements(args[0])
	if err != nil {
		return nil, err
	}
	return uniqueValues(elems, keyOf)
}

func uniqueValues(elems value.Array, keyOf func(value.Value) (value.Value, error)) (value.Array, error) {
	out := value.Array{}
	var seen []value.Value
	for _, e := range elems {
		k, err := keyOf(e)
		if err != nil {
			return nil, err
		}
		dup := false
		for _, s := range seen {
			if value.Identical(s, k) {
				dup = true
				break
			}
		}
		if !dup {
			seen = append(seen, k)
			out = append(out, e)
		}
	}
	return out, nil
}

// minMax builds min (dir -1) or max (dir 1).
func minMax(name string, dir int) Func {
	pick := func(c *Ctx, vals value.Array, cmp func(a, b value.Value) (int, error)) (value.Value, error) {
		if len(vals) == 0 {
			return nil, fmt.Errorf("%s(): Wrong number of arguments need at least one", name)
		}
		best := vals[0]
		for _, v := range vals[1:] {
			n, err := cmp(v, best)
			if err != nil {
				return nil, err
			}
			if n*dir > 0 {
				best = v
			}
		}
		return best, nil
	}
	withBlockCmp := func(c *Ctx) func(a, b value.Value) (int, error) {
		return func(a, b value.Value) (int, error) { return compareWith(c, a, b) }
	}
	numeric := func(c *Ctx, args []value.Value) (value.Value, error) {
		return pick(c, args, rubyCompare)
	}
	strs := func(c *Ctx, args []value.Value) (value.Value, error) {
		return pick(c, args, numericStringCompare(false))
	}
	anyCmp := func(c *Ctx, args []value.Value) (value.Value, error) {
		return pick(c, args, numericStringCompare(true))
	}
	withBlockImpl := func(c *Ctx, args []value.Value) (value.Value, error) {
		return pick(c, args, withBlockCmp(c))
	}
	single := func(impl Func) Func {
		return func(c *Ctx, args []value.Value) (value.Value, error) {
			elems := args[0].(value.Array)
			if c.lambda() != nil {
				return withBlockImpl(c, elems)
			}
			return impl(c, elems)
		}
	}
	arrayBlock := func(impl Func, elem value.Type) Signature {
		return Signature{Params: []Param{P("values", &value.ArrayType{Elem: elem, Min: 0, Max: value.MaxInt})}, Required: 1,
			Block: OptionalBlock, BlockMin: 2, BlockMax: 2, Impl: single(impl)}
	}
	return Dispatch(name,
		Signature{Params: []Param{P("values", tNumeric)}, Repeated: true, Impl: numeric},
		Signature{Params: []Param{P("values", tString)}, Repeated: true, Impl: strs},
		arrayBlock(numeric, tNumeric),
		arrayBlock(strs, tString),
		arrayBlock(anyCmp, tAny),
		Signature{Params: []Param{P("values", tAny)}, Repeated: true, Block: RequiredBlock, BlockMin: 2, BlockMax: 2, Impl: withBlockImpl},
		Signature{Params: []Param{P("values", tAny)}, Repeated: true, Impl: anyCmp})
}

// numericLooking is the pattern min and max use to compare strings as numbers.
var numericLooking = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?\d+([._eE]\d+)?$`) })

// numericStringCompare compares as Puppet's min/max do: strings that look
// like numbers by value, others as strings (with toS, of any value).
func numericStringCompare(toS bool) func(a, b value.Value) (int, error) {
	return func(a, b value.Value) (int, error) {
		as, bs := value.RubyString(a), value.RubyString(b)
		if !toS {
			as, bs = string(a.(value.String)), string(b.(value.String))
		}
		if numericLooking().MatchString(as) && numericLooking().MatchString(bs) {
			return sign64(rubyToF(as) - rubyToF(bs)), nil
		}
		return strings.Compare(as, bs), nil
	}
}

// rubyToF is Ruby's String#to_f for the numeric-looking strings above.
func rubyToF(s string) float64 {
	s = strings.ReplaceAll(s, "_", "")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return f
}

// compareFunc is Puppet's compare(): -1, 0 or 1.
func compareFunc(c *Ctx, args []value.Value) (value.Value, error) {
	if c.lambda() != nil {
		return nil, errors.New("'compare' does not expect a block")
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("'compare' expects between 2 and 3 arguments, got %s", rangeText(len(args), len(args), "none"))
	}
	a, b := args[0], args[1]
	isNum := func(v value.Value) bool {
		switch v.(type) {
		case value.Integer, value.Float:
			return true
		}
		return false
	}
	as, aStr := a.(value.String)
	bs, bStr := b.(value.String)
	if !(isNum(a) || aStr) || !(isNum(b) || bStr) {
		return nil, fmt.Errorf("'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got %s and %s", typeLabel(a), typeLabel(b))
	}
	ignoreCase := true
	if len(args) > 2 {
		switch {
		case !aStr || !bStr:
			return nil, errors.New("'compare' compare(): The third argument (ignore case) can only be used when comparing strings")
		case len(args) > 3:
			return nil, fmt.Errorf("'compare' compare(): Accepts at most 3 arguments, got %d", len(args))
		}
		flag, ok := args[2].(value.Boolean)
		if !ok {
			return nil, fmt.Errorf("'compare' compare(): The third argument (ignore case) must be a Boolean. Got %s", typeLabel(args[2]))
		}
		ignoreCase = bool(flag)
	}
	switch {
	case isNum(a) && isNum(b):
		n, _ := value.CompareStrict(a, b)
		return value.Integer(n), nil
	case aStr && bStr && ignoreCase:
		return value.Integer(strings.Compare(asciiLower(string(as)), asciiLower(string(bs)))), nil
	case aStr && bStr:
		return value.Integer(strings.Compare(string(as), string(bs))), nil
	}
	return nil, fmt.Errorf("'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got %s and %s", typeLabel(a), typeLabel(b))
}

// asciiLower is Ruby's casecmp folding: ASCII letters only.
func asciiLower(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if ch >= 'A' && ch <= 'Z' {
			b[i] = ch + 'a' - 'A'
		}
	}
	return string(b)
}

// typeLabel is Puppet's label for a value's type in compare()'s messages:
// the name of its generalized type ("Integer", "Array").
func typeLabel(v value.Value) string {
	switch t := v.(type) {
	case value.Type:
		return t.TypeName() + "-Type"
	}
	if value.IsUndef(v) {
		return "Undef Value"
	}
	if value.IsDefault(v) {
		return "Object" // Puppet labels the default symbol so
	}
	return value.Generalize(value.TypeOf(v)).TypeName()
}
