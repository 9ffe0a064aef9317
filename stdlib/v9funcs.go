package stdlib

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// The stdlib 9 functions whose signatures or behaviour differ from their
// 8.5 ancestors.

var positiveInteger = &value.IntegerType{Min: 1, Max: value.MaxInt}

// fqdnRandString9 is stdlib::fqdn_rand_string: typed parameters, otherwise
// 8.5's fqdn_rand_string (an empty or undef charset means the default one).
func fqdnRandString9() functions.Func {
	return functions.Dispatch("stdlib::fqdn_rand_string", functions.Signature{
		Params: []functions.Param{
			functions.P("length", positiveInteger),
			functions.P("charset", &value.OptionalType{Type: value.StringAny}),
			functions.P("seed", value.AnyType),
		},
		Required: 1, Repeated: true, Impl: fqdnRandString,
	})
}

// fqdnRotate9 is stdlib::fqdn_rotate: the seed is the networking.fqdn fact
// (8.5 used the top-scope $fqdn) and the extra seeds must be integers or
// strings.
func fqdnRotate9() functions.Func {
	seeds := functions.P("seeds", value.NewVariant(value.IntegerAny, value.StringAny))
	impl := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		var elems value.Array
		str, isString := args[0].(value.String)
		if isString {
			for _, r := range string(str) {
				elems = append(elems, value.String(string(r)))
			}
		} else {
			elems = args[0].(value.Array)
		}
		if len(elems) <= 1 {
			return args[0], nil
		}
		var fqdn value.Value = value.Undef
		if net, ok := topFact(c, "networking"); ok {
			if h, ok := net.(*value.Hash); ok {
				if v, ok := h.GetString("fqdn"); ok {
					fqdn = v
				}
			}
		}
		return rotateByNode(fqdn, args[1:], elems, isString), nil
	}
	return functions.Dispatch("stdlib::fqdn_rotate",
		functions.Signature{Params: []functions.Param{functions.P("input", value.StringAny), seeds}, Required: 1, Repeated: true, Impl: impl},
		functions.Signature{Params: []functions.Param{functions.P("input", value.ArrayAny), seeds}, Required: 1, Repeated: true, Impl: impl},
	)
}

// seededRand9 is stdlib::seeded_rand(Integer[1] max, String seed).
func seededRand9() functions.Func {
	return functions.Dispatch("stdlib::seeded_rand", functions.Fixed(func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		n := int64(args[0].(value.Integer))
		return value.Integer(deterministicRand(md5Seed(string(args[1].(value.String))), n)), nil
	}, functions.P("max", positiveInteger), functions.P("seed", value.StringAny)))
}

// hasInterfaceWith9 is stdlib::has_interface_with, which reads the
// structured networking.interfaces fact (8.5 read the legacy interfaces
// facts): has_interface_with(name), or has_interface_with(kind, value)
// with kind ipaddress/macaddress meaning ip/mac.
func hasInterfaceWith9() functions.Func {
	str1 := &value.StringType{Min: 1, Max: value.MaxInt}
	kinds := &value.EnumType{Values: []string{"ip", "ipaddress", "mac", "macaddress", "netmask", "network"}}
	interfaces := func(c *functions.Ctx) (*value.Hash, error) {
		var net value.Value = value.Undef
		if f, ok := topFact(c, "networking"); ok {
			net = f
		}
		h, ok := net.(*value.Hash)
		if !ok {
			return nil, errorf("undefined method `[]' for nil:NilClass")
		}
		ifs, ok := h.GetString("interfaces")
		if ih, isHash := ifs.(*value.Hash); ok && isHash {
			return ih, nil
		}
		return nil, nil
	}
	return functions.Dispatch("stdlib::has_interface_with",
		functions.Fixed(func(c *functions.Ctx, args []value.Value) (value.Value, error) {
			ifs, err := interfaces(c)
			if err != nil {
				return nil, err
			}
			if ifs == nil {
				return nil, errorf("undefined method `key?' for nil:NilClass")
			}
			_, found := ifs.Get(args[0])
			return value.Boolean(found), nil
		}, functions.P("interface", str1)),
		functions.Fixed(func(c *functions.Ctx, args []value.Value) (value.Value, error) {
			ifs, err := interfaces(c)
			if err != nil {
				return nil, err
			}
			if ifs == nil {
				return nil, errorf("undefined method `any?' for nil:NilClass")
			}
			kind := string(args[0].(value.String))
			switch kind {
			case "ipaddress":
				kind = "ip"
			case "macaddress":
				kind = "mac"
			}
			for i := range ifs.Len() {
				_, params := ifs.At(i)
				if p, ok := params.(*value.Hash); ok {
					if v, ok := p.GetString(kind); ok && value.RubyEqual(v, args[1]) {
						return value.True, nil
					}
				}
			}
			return value.False, nil
		}, functions.P("kind", kinds), functions.P("value", str1)),
	)
}

// Stdlib::Fqdn, Stdlib::Dns::Zone and Stdlib::Email, as stdlib 9's
// validate_domain_name and validate_email_address check their arguments
// (each pattern with the text Puppet shows for the alias).
var (
	fqdnPattern  = `\A(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9])\z`
	zonePattern  = `\A((([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)+|\.)\z`
	emailPattern = `\A[a-zA-Z0-9.!#$%&'*+\/=?^_` + "`" + `{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\z`
)

// patternValidator is stdlib 9's validate_domain_name and
// validate_email_address: every argument must be a string matching one of
// the patterns (typeText is how Puppet shows the expected type); at least
// one argument is required.
func patternValidator(name, typeText string, patterns ...string) functions.Func {
	res := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		// Go's RE2 reads these Ruby patterns the same way ("\/" is "/").
		res[i] = regexp.MustCompile(p)
	}
	return functions.Dispatch(name, functions.Arity(0, -1, func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		for _, a := range args {
			s, ok := a.(value.String)
			matched := false
			for _, re := range res {
				if ok && re.MatchString(string(s)) {
					matched = true
				}
			}
			if matched {
				continue
			}
			got := describeType(a)
			if ok {
				got = value.RubyInspect(s)
				got = "'" + strings.ReplaceAll(got[1:len(got)-1], `\"`, `"`) + "'"
			}
			return nil, errorf("'%s' parameter 'values' expects a match for %s, got %s", name, typeText, got)
		}
		if len(args) == 0 {
			return nil, errorf("%s(): Wrong number of arguments need at least one", name)
		}
		return value.Undef, nil
	}, "values"))
}

// sortBy is stdlib::sort_by: the elements sorted by what the block
// returns for each, compared as Ruby's <=> compares them (a string's
// characters joined again; a hash's entries as [key, value] pairs, given to
// the block as one argument, back into a hash).
func sortBy() functions.Func {
	sortElems := func(c *functions.Ctx, elems []value.Value) ([]value.Value, error) {
		keys := make([]value.Value, len(elems))
		for i, e := range elems {
			k, err := c.Eval.CallLambda(c.Call.Lambda, []value.Value{e})
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
		idx := make([]int, len(elems))
		for i := range idx {
			idx[i] = i
		}
		var cmpErr error
		sort.SliceStable(idx, func(a, b int) bool {
			n, ok := rubyCompare(keys[idx[a]], keys[idx[b]])
			if !ok && cmpErr == nil {
				// Ruby names the earlier element's class first.
				x, y := keys[min(idx[a], idx[b])], keys[max(idx[a], idx[b])]
				cmpErr = errorf("comparison of %s with %s failed", value.RubyClass(x), value.RubyInspect(y))
			}
			return n < 0
		})
		if cmpErr != nil {
			return nil, cmpErr
		}
		out := make([]value.Value, len(elems))
		for i, j := range idx {
			out[i] = elems[j]
		}
		return out, nil
	}
	array := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		out, err := sortElems(c, args[0].(value.Array))
		if err != nil {
			return nil, err
		}
		return value.Array(out), nil
	}
	str := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		var chars []value.Value
		for _, r := range string(args[0].(value.String)) {
			chars = append(chars, value.String(string(r)))
		}
		out, err := sortElems(c, chars)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, ch := range out {
			b.WriteString(string(ch.(value.String)))
		}
		return value.String(b.String()), nil
	}
	hash := func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		h := args[0].(*value.Hash)
		pairs := make([]value.Value, h.Len())
		for i := range h.Len() {
			k, v := h.At(i)
			pairs[i] = value.Array{k, v}
		}
		out, err := sortElems(c, pairs)
		if err != nil {
			return nil, err
		}
		b := value.NewHashBuilder(len(out))
		for _, p := range out {
			kv := p.(value.Array)
			b.Set(kv[0], kv[1])
		}
		return b.Build(), nil
	}
	block := func(impl functions.Func, p functions.Param, lo, hi int, bt string) functions.Signature {
		return functions.Signature{Params: []functions.Param{p}, Required: 1, Block: functions.RequiredBlock,
			BlockMin: lo, BlockMax: hi, BlockType: bt, Impl: impl}
	}
	return functions.Dispatch("stdlib::sort_by",
		block(array, functions.P("ary", value.ArrayAny), 1, 1, "Callable[1, 1]"),
		block(str, functions.P("str", value.StringAny), 1, 1, "Callable[1, 1]"),
		// Ruby gives the block each [key, value] pair as one argument, so
		// a two-parameter lambda passes dispatch and then fails.
		functions.Signature{Params: []functions.Param{functions.P("hsh", value.HashAny)}, Required: 1,
			Block: functions.RequiredBlock, AnyBlock: true, BlockType: "Variant[Callable[1, 1], Callable[2, 2]]", Impl: hash},
	)
}

// rubyCompare is Ruby's <=> for the values a sort key can be: numbers
// with numbers, strings with strings, arrays element by element.
func rubyCompare(a, b value.Value) (int, bool) {
	switch x := a.(type) {
	case value.Integer, value.Float:
		fa, _ := toFloat(a)
		fb, ok := toFloat(b)
		if !ok {
			return 0, false
		}
		if ia, ok := x.(value.Integer); ok {
			if ib, ok := b.(value.Integer); ok {
				return cmp3(int64(ia), int64(ib)), true
			}
		}
		switch {
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		}
		return 0, true
	case value.String:
		y, ok := b.(value.String)
		if !ok {
			return 0, false
		}
		return strings.Compare(string(x), string(y)), true
	case value.Array:
		y, ok := b.(value.Array)
		if !ok {
			return 0, false
		}
		for i := range min(len(x), len(y)) {
			n, ok := rubyCompare(x[i], y[i])
			if !ok || n != 0 {
				return n, ok
			}
		}
		return cmp3(int64(len(x)), int64(len(y))), true
	}
	return 0, false
}

func cmp3(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func toFloat(v value.Value) (float64, bool) {
	switch n := v.(type) {
	case value.Integer:
		return float64(n), true
	case value.Float:
		return float64(n), true
	}
	return 0, false
}

// toTOML is stdlib::to_toml, writing TOML the way stdlib's TomlDumper
// does: each table's keys sorted, plain values first (written as Ruby's
// inspect writes them), then nested tables, then arrays of tables.
func toTOML(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var b strings.Builder
	tomlTable(&b, args[0].(*value.Hash), nil, false)
	return value.String(b.String()), nil
}

type tomlPair struct {
	key string
	val value.Value
}

func tomlSortPairs(h *value.Hash) (simple, nested, tableArrays []tomlPair) {
	pairs := make([]tomlPair, h.Len())
	for i := range h.Len() {
		k, v := h.At(i)
		pairs[i] = tomlPair{value.RubyString(k), v}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].key < pairs[j].key })
	for _, p := range pairs {
		switch v := p.val.(type) {
		case *value.Hash:
			nested = append(nested, p)
		case value.Array:
			if len(v) > 0 {
				if _, ok := v[0].(*value.Hash); ok {
					tableArrays = append(tableArrays, p)
					continue
				}
			}
			simple = append(simple, p)
		default:
			simple = append(simple, p)
		}
	}
	return simple, nested, tableArrays
}

func tomlTable(b *strings.Builder, h *value.Hash, prefix []string, extraBrackets bool) {
	simple, nested, tableArrays := tomlSortPairs(h)
	if len(prefix) > 0 && (len(simple) > 0 || h.Len() == 0) {
		tomlPrefix(b, prefix, extraBrackets)
	}
	tomlPairs(b, simple, nested, tableArrays, prefix)
}

func tomlPairs(b *strings.Builder, simple, nested, tableArrays []tomlPair, prefix []string) {
	for _, p := range simple {
		b.WriteString(tomlKey(p.key) + " = " + tomlValue(p.val) + "\n")
	}
	for _, p := range nested {
		tomlTable(b, p.val.(*value.Hash), append(append([]string{}, prefix...), tomlKey(p.key)), false)
	}
	for _, p := range tableArrays {
		sub := append(append([]string{}, prefix...), tomlKey(p.key))
		for _, child := range p.val.(value.Array) {
			tomlPrefix(b, sub, true)
			if h, ok := child.(*value.Hash); ok {
				s, n, ta := tomlSortPairs(h)
				tomlPairs(b, s, n, ta, sub)
			}
		}
	}
}

func tomlPrefix(b *strings.Builder, prefix []string, extraBrackets bool) {
	p := strings.Join(prefix, ".")
	if extraBrackets {
		p = "[" + p + "]"
	}
	b.WriteString("[" + p + "]\n")
}

var tomlBareKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]*$`) })

func tomlKey(k string) string {
	if tomlBareKey().MatchString(k) {
		return k
	}
	return `"` + strings.ReplaceAll(k, `"`, `\"`) + `"`
}

func tomlValue(v value.Value) string {
	if s, ok := v.(value.String); ok {
		// Ruby's String#inspect escapes "#{", "#$" and "#@"; the dumper
		// takes those backslashes out again.
		out := value.RubyInspect(s)
		for _, seq := range []string{`\#{`, `\#$`, `\#@`} {
			out = strings.ReplaceAll(out, seq, seq[1:])
		}
		return out
	}
	return value.RubyInspect(v)
}
