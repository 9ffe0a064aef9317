package stdlib

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

func addCollections(t functions.Table) {
	t["pick"] = legacy(pick)
	t["pick_default"] = legacy(pickDefault)
	t["any2array"] = legacy(any2array)
	t["concat"] = legacy(concat)
	t["merge"] = merge
	t["deep_merge"] = legacy(deepMerge)
	t["has_key"] = legacy(hasKey)
	t["delete_undef_values"] = legacy(deleteUndefValues)
	t["delete_values"] = legacy(deleteValues)
	t["delete"] = legacy(deleteItems)
	t["delete_at"] = legacy(deleteAt)
	t["prefix"] = legacy(affix("prefix", true))
	t["suffix"] = legacy(affix("suffix", false))
	t["member"] = legacy(member)
	t["join_keys_to_values"] = legacy(joinKeysToValues)
	t["zip"] = legacy(zip)
	t["count"] = legacy(count)
	t["hash"] = legacy(arrayToHash)
	t["grep"] = legacy(grepFunc(false))
	t["reject"] = legacy(grepFunc(true))
	t["values_at"] = legacy(valuesAt)
	t["range"] = legacy(rangeFunc)
	t["union"] = legacy(union)
	t["difference"] = legacy(difference)
	t["intersection"] = legacy(intersection)
	t["dig44"] = legacy(dig44)
}

// isNothing reports whether a 3.x argument stands for "no value": undef
// (which arrives as "" at the top level, nil inside collections) or "".
func isNothing(v value.Value) bool {
	return value.IsUndef(v) || isEmptyString(v)
}

func pick(c *functions.Ctx, args []value.Value) (value.Value, error) {
	for _, a := range args {
		if !isNothing(a) {
			return a, nil
		}
	}
	return nil, errorf("pick(): must receive at least one non empty value")
}

func pickDefault(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "Must receive at least one argument."); err != nil {
		return nil, err
	}
	for _, a := range args[:len(args)-1] {
		if !isNothing(a) {
			return a, nil
		}
	}
	return args[len(args)-1], nil
}

func any2array(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) != 1 {
		return append(value.Array{}, args...), nil
	}
	switch a := args[0].(type) {
	case value.Array:
		return a, nil
	case *value.Hash:
		out := make(value.Array, 0, 2*a.Len())
		for i := range a.Len() {
			k, v := a.At(i)
			out = append(out, k, v)
		}
		return out, nil
	}
	if isEmptyString(args[0]) {
		return value.Array{}, nil
	}
	return value.Array{args[0]}, nil
}

// any2arrayPre5 is any2array before stdlib 5.0 (puppetlabs-stdlib #930):
// an empty string, which is also what a 3.x function gets for undef, is
// an array of that string, not an empty array (govuk's docker::run passes
// any2array($extra_parameters) of an undef).
func any2arrayPre5(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 1 && (isEmptyString(args[0]) || value.IsUndef(args[0])) {
		return value.Array{value.String("")}, nil
	}
	return any2array(c, args)
}

func concat(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "concat(): Wrong number of arguments given (%d for < 2)"); err != nil {
		return nil, err
	}
	first, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("concat(): Requires array to work with")
	}
	out := append(value.Array{}, first...)
	for _, a := range args[1:] {
		if arr, ok := a.(value.Array); ok {
			out = append(out, arr...)
		} else {
			out = append(out, a)
		}
	}
	return out, nil
}

// mergeDeclaration is how a version of stdlib declares merge, which shows
// in the message of a call merge rejects.
type mergeDeclaration struct {
	name  string // the function's name
	args  string // the repeated parameter as its signatures show it
	block string // the block parameter as its signatures show it
	// plainReject lists the kinds of value whose rejection names no
	// "entry N" of the repeated parameter and no size of String: stdlib
	// 9's declaration, unlike 8's, leaves those out.
	plainReject []string
}

var (
	merge8 = mergeDeclaration{name: "merge", args: "args", block: "&block"}
	merge9 = mergeDeclaration{name: "stdlib::merge", args: "args*", block: "block",
		plainReject: []string{"Integer", "Float", "Boolean", "Array", "Tuple", "Regexp", "Type"}}
)

// merge is stdlib's 4.x merge: hashes (undef and "" skipped) merged left
// to right, or with a block, the hashes the block returns for each element.
func merge(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return mergeAs(merge8, c, args)
}

// mergeAs is merge as decl declares it.
func mergeAs(decl mergeDeclaration, c *functions.Ctx, args []value.Value) (value.Value, error) {
	if c.Call != nil && c.Call.Lambda != nil {
		return mergeWithBlock(decl, c, args)
	}
	acc := value.NewHashBuilder(0)
	for i, a := range args {
		if h, ok := a.(*value.Hash); ok && value.IsInstance(mergeableHash, h) {
			for j := range h.Len() {
				k, v := h.At(j)
				acc.Set(k, v)
			}
			continue
		}
		if value.IsUndef(a) || isEmptyString(a) {
			continue
		}
		got := describeType(a)
		rejected := fmt.Sprintf("parameter 'args' entry %d expects a value of type Undef, Hash, or String[0, 0], got %s", i, got)
		for _, kind := range decl.plainReject {
			if strings.HasPrefix(got, kind) {
				rejected = "parameter 'args' expects a value of type Undef, Hash, or String, got " + got
				break
			}
		}
		return nil, decl.mismatch(rejected, "expects a block", "expects a block")
	}
	return acc.Build(), nil
}

// mismatch is the error of a call no signature of merge accepts, with why
// each (the plain one, the one with a 3-parameter block, with a
// 2-parameter block) rejected it.
func (decl mergeDeclaration) mismatch(plain, block3, block2 string) error {
	return functions.NewArgumentError(decl.name, func(name string) string {
		return "The function '" + name + "' was called with arguments it does not accept. It expects one of:\n" +
			"  (Variant[Hash[Scalar, Any], Undef, String[0, 0]] " + decl.args + ")\n" +
			"    rejected: " + plain + "\n" +
			"  (Iterable " + decl.args + ", Callable[3, 3] " + decl.block + ")\n" +
			"    rejected: " + block3 + "\n" +
			"  (Iterable " + decl.args + ", Callable[2, 2] " + decl.block + ")\n" +
			"    rejected: " + block2
	})
}

// mergeableHash is the Hash[Scalar, Any] merge accepts without a block.
var mergeableHash = &value.HashType{Key: value.ScalarType, Value: value.AnyType, Min: 0, Max: value.MaxInt}

// describeType is the inferred type Puppet shows for a rejected argument.
func describeType(v value.Value) string {
	return value.TypeString(value.Generalize(value.TypeOf(v)))
}

func mergeWithBlock(decl mergeDeclaration, c *functions.Ctx, args []value.Value) (value.Value, error) {
	lam := c.Call.Lambda
	n := lam.ParamCount()
	if n != 2 && n != 3 {
		return nil, decl.mismatch("does not expect a block",
			fmt.Sprintf("block expects 3 arguments, got %d", n), fmt.Sprintf("block expects 2 arguments, got %d", n))
	}
	acc := value.EmptyHash
	add := func(r value.Value) {
		if h, ok := r.(*value.Hash); ok {
			acc = value.Merge(acc, h)
		}
	}
	for _, a := range args {
		var err error
		if h, ok := a.(*value.Hash); ok && n == 3 {
			for i := range h.Len() {
				k, v := h.At(i)
				r, callErr := c.Eval.CallLambda(lam, []value.Value{acc, k, v})
				if callErr != nil {
					return nil, callErr
				}
				add(r)
			}
			continue
		}
		index := 0
		ok := value.Iterate(a, func(e value.Value) bool {
			callArgs := []value.Value{acc, e}
			if n == 3 {
				callArgs = []value.Value{acc, value.Integer(index), e}
			}
			index++
			r, callErr := c.Eval.CallLambda(lam, callArgs)
			if callErr != nil {
				err = callErr
				return false
			}
			add(r)
			return true
		})
		if err != nil {
			return nil, err
		}
		if !ok {
			got := describeType(a)
			return nil, functions.NewArgumentError(decl.name, func(name string) string {
				return "'" + name + "' parameter 'args' expects an Iterable value, got " + got
			})
		}
	}
	return acc, nil
}

func deepMerge(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "deep_merge(): wrong number of arguments (%d; must be at least 2)"); err != nil {
		return nil, err
	}
	result := value.EmptyHash
	for _, a := range args {
		if isEmptyString(a) {
			continue
		}
		h, ok := a.(*value.Hash)
		if !ok {
			return nil, errorf("deep_merge: unexpected argument type %s, only expects hash arguments", value.RubyClass(a))
		}
		result = deepMergeHashes(result, h)
	}
	return result, nil
}

// deepMergeHashes merges b into a; where both hold hashes under a key they
// are merged recursively, otherwise b's value wins.
func deepMergeHashes(a, b *value.Hash) *value.Hash {
	out := value.NewHashBuilder(a.Len() + b.Len())
	for i := range a.Len() {
		k, v := a.At(i)
		out.Set(k, v)
	}
	for i := range b.Len() {
		k, v := b.At(i)
		if old, found := a.Get(k); found {
			oh, ok1 := old.(*value.Hash)
			nh, ok2 := v.(*value.Hash)
			if ok1 && ok2 {
				v = deepMergeHashes(oh, nh)
			}
		}
		out.Set(k, v)
	}
	return out.Build()
}

func hasKey(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "has_key(): wrong number of arguments (%d; must be 2)"); err != nil {
		return nil, err
	}
	h, ok := args[0].(*value.Hash)
	if !ok {
		return nil, errorf("has_key(): expects the first argument to be a hash, got %s which is of type %s", value.RubyInspect(args[0]), value.RubyClass(args[0]))
	}
	_, found := h.Get(args[1])
	return value.Boolean(found), nil
}

// deleteUndefValuesPre51 is delete_undef_values before stdlib 5.1
// (MODULES-7768): it deletes only Ruby's :undef, which Puppet 6 and later
// no longer pass to 3.x functions (a nested undef arrives as nil), so it
// returns its argument as it is.
func deleteUndefValuesPre51(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "delete_undef_values(): Wrong number of arguments given (0)"); err != nil {
		return nil, err
	}
	switch args[0].(type) {
	case value.Array, *value.Hash:
		return args[0], nil
	}
	return nil, errorf("delete_undef_values(): expected an array or hash, got %s type  %s ", value.RubyString(args[0]), value.RubyClass(args[0]))
}

func deleteUndefValues(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "delete_undef_values(): Wrong number of arguments given (0)"); err != nil {
		return nil, err
	}
	switch a := args[0].(type) {
	case value.Array:
		out := value.Array{}
		for _, e := range a {
			if !value.IsUndef(e) {
				out = append(out, e)
			}
		}
		return out, nil
	case *value.Hash:
		out := value.NewHashBuilder(a.Len())
		for i := range a.Len() {
			k, v := a.At(i)
			if !value.IsUndef(v) {
				out.Set(k, v)
			}
		}
		return out.Build(), nil
	}
	return nil, errorf("delete_undef_values(): expected an array or hash, got %s type  %s ", value.RubyString(args[0]), value.RubyClass(args[0]))
}

func deleteValues(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "delete_values(): Wrong number of arguments given (%d of 2)"); err != nil {
		return nil, err
	}
	h, ok := args[0].(*value.Hash)
	if !ok {
		return nil, errorf("delete_values(): First argument must be a Hash. Given an argument of class %s.", value.RubyClass(args[0]))
	}
	out := value.NewHashBuilder(h.Len())
	for i := range h.Len() {
		k, v := h.At(i)
		if !value.RubyEqual(args[1], v) {
			out.Set(k, v)
		}
	}
	return out.Build(), nil
}

// rubyArray is Ruby's Array(x): nil is empty, an array itself, a hash its
// [key, value] pairs, anything else a one-element array.
func rubyArray(v value.Value) value.Array {
	switch v := v.(type) {
	case value.Array:
		return v
	case *value.Hash:
		out := make(value.Array, 0, v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			out = append(out, value.Array{k, e})
		}
		return out
	}
	if value.IsUndef(v) {
		return value.Array{}
	}
	return value.Array{v}
}

func deleteItems(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "delete(): Wrong number of arguments given %d for 2"); err != nil {
		return nil, err
	}
	items := rubyArray(args[1])
	switch coll := args[0].(type) {
	case value.Array:
		out := value.Array{}
		for _, e := range coll {
			keep := true
			for _, item := range items {
				if value.RubyEqual(e, item) {
					keep = false
					break
				}
			}
			if keep {
				out = append(out, e)
			}
		}
		return out, nil
	case *value.Hash:
		out := value.NewHashBuilder(coll.Len())
		for i := range coll.Len() {
			k, v := coll.At(i)
			out.Set(k, v)
		}
		for _, item := range items {
			out.Delete(item)
		}
		return out.Build(), nil
	case value.String:
		s := string(coll)
		for _, item := range items {
			sub, ok := item.(value.String)
			if !ok {
				return nil, errorf("wrong argument type %s (expected Regexp)", value.RubyClass(item))
			}
			s = strings.ReplaceAll(s, string(sub), "")
		}
		return value.String(s), nil
	}
	if len(items) == 0 {
		return args[0], nil
	}
	return nil, errorf("delete(): First argument must be an Array, String, or Hash. Given an argument of class %s.", value.RubyClass(args[0]))
}

func deleteAt(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "delete_at(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	arr, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("delete_at(): Requires array to work with")
	}
	if s, ok := args[1].(value.String); ok && !allDigits(string(s)) {
		return nil, errorf("delete_at(): You must provide non-negative numeric index")
	}
	index, err := rubyToI(args[1])
	if err != nil {
		return nil, err
	}
	if index > int64(len(arr))-1 {
		return nil, errorf("delete_at(): Given index exceeds size of array given")
	}
	if index < 0 {
		index += int64(len(arr))
		if index < 0 {
			return arr, nil
		}
	}
	out := append(value.Array{}, arr[:index]...)
	return append(out, arr[index+1:]...), nil
}

// allDigits reports whether s contains a run of digits, as Ruby's
// /^\d+$/ does for single-line strings.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// affix implements prefix() and suffix().
func affix(name string, front bool) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.CountArgs(args, 1, -1, "%s(): Wrong number of arguments given (%d for 1)", name); err != nil {
			return nil, err
		}
		var text string
		if a := arg(args, 1); value.Truthy(a) {
			s, ok := a.(value.String)
			if !ok {
				return nil, errorf("%s(): expected second argument to be a String, got %s", name, value.RubyInspect(a))
			}
			text = string(s)
		}
		join := func(v value.Value) value.String {
			if front {
				return value.String(text + value.RubyString(v))
			}
			return value.String(value.RubyString(v) + text)
		}
		switch coll := args[0].(type) {
		case value.Array:
			out := make(value.Array, len(coll))
			for i, e := range coll {
				out[i] = join(e)
			}
			return out, nil
		case *value.Hash:
			out := value.NewHashBuilder(coll.Len())
			for i := range coll.Len() {
				k, v := coll.At(i)
				out.Set(join(k), v)
			}
			return out.Build(), nil
		}
		return nil, errorf("%s(): expected first argument to be an Array or a Hash, got %s", name, value.RubyInspect(args[0]))
	}
}

func member(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "member(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	arr, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("member(): Requires array to work with")
	}
	var items value.Array
	switch item := args[1].(type) {
	case value.String, value.Integer:
		items = value.Array{item}
	case value.Array:
		items = item
	default:
		return nil, errorf("member(): Item to search for must be a string, fixnum, or array")
	}
	if len(items) == 0 {
		return nil, errorf("member(): You must provide item to search for within array given")
	}
	for _, item := range items {
		if !containsIdentical(arr, item) {
			return value.False, nil
		}
	}
	return value.True, nil
}

// containsIdentical reports whether arr holds v by Ruby's eql? (the test
// of Array#-, & and |).
func containsIdentical(arr value.Array, v value.Value) bool {
	for _, e := range arr {
		if value.Identical(e, v) {
			return true
		}
	}
	return false
}

func joinKeysToValues(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "join_keys_to_values(): Takes exactly two arguments, but %d given."); err != nil {
		return nil, err
	}
	h, ok := args[0].(*value.Hash)
	if !ok {
		return nil, errorf("join_keys_to_values(): The first argument must be a hash, but a %s was given.", value.RubyClass(args[0]))
	}
	sep, ok := args[1].(value.String)
	if !ok {
		return nil, errorf("join_keys_to_values(): The second argument must be a string, but a %s was given.", value.RubyClass(args[1]))
	}
	out := value.Array{}
	for i := range h.Len() {
		k, v := h.At(i)
		key := value.RubyString(k)
		if arr, ok := v.(value.Array); ok {
			for _, e := range arr {
				out = append(out, value.String(key+string(sep)+value.RubyString(e)))
			}
			continue
		}
		if value.RubyString(v) == "undef" {
			out = append(out, value.String(key))
			continue
		}
		out = append(out, value.String(key+string(sep)+value.RubyString(v)))
	}
	return out, nil
}

func zip(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "zip(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	a, ok1 := args[0].(value.Array)
	b, ok2 := args[1].(value.Array)
	if !ok1 || !ok2 {
		return nil, errorf("zip(): Requires array to work with")
	}
	flat := false
	if f := arg(args, 2); value.Truthy(f) {
		bv, err := str2bool(c, []value.Value{f})
		if err != nil {
			return nil, err
		}
		flat = bool(bv.(value.Boolean))
	}
	out := value.Array{}
	for i, e := range a {
		pair := value.Array{e, arg(b, i)}
		if flat {
			out = append(out, pair...)
		} else {
			out = append(out, pair)
		}
	}
	if flat {
		return flattenDeep(out), nil
	}
	return out, nil
}

// flattenDeep is Ruby's Array#flatten.
func flattenDeep(arr value.Array) value.Array {
	out := value.Array{}
	for _, e := range arr {
		if inner, ok := e.(value.Array); ok {
			out = append(out, flattenDeep(inner)...)
		} else {
			out = append(out, e)
		}
	}
	return out
}

func count(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.Arity3("count", args, 1, true); err != nil {
		return nil, err
	}
	if err := functions.CountArgs(args, 0, 2, "count(): Wrong number of arguments given %d for 1 or 2."); err != nil {
		return nil, err
	}
	var elems value.Array
	switch coll := args[0].(type) {
	case value.Array:
		elems = coll
	case *value.Hash:
		elems = rubyArray(coll)
	case value.String:
		// String#count: the characters in the set of the item; given no
		// item, the block Ruby's String#count does not take.
		if len(args) < 2 {
			return nil, errorf("wrong number of arguments (given 0, expected 1+)")
		}
		set, ok := args[1].(value.String)
		if !ok {
			return nil, errorf("no implicit conversion of %s into String", value.RubyClass(args[1]))
		}
		in := rubyCharSet(string(set))
		n := 0
		for _, r := range string(coll) {
			if in(r) {
				n++
			}
		}
		return value.Integer(n), nil
	default:
		return nil, errorf("undefined method `count' for %s:%s", value.RubyInspect(args[0]), value.RubyClass(args[0]))
	}
	n := 0
	item := arg(args, 1)
	for _, e := range elems {
		if value.Truthy(item) {
			if value.RubyEqual(e, item) {
				n++
			}
		} else if !isNothing(e) {
			n++
		}
	}
	return value.Integer(n), nil
}

// rubyCharSet is a character set of Ruby's String#count: its characters,
// a-z ranges, all others when it starts with ^ (and has more), a
// backslash escaping the next character.
func rubyCharSet(spec string) func(rune) bool {
	rs := []rune(spec)
	negate := len(rs) > 1 && rs[0] == '^'
	if negate {
		rs = rs[1:]
	}
	type span struct{ lo, hi rune }
	var spans []span
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if c == '\\' && i+1 < len(rs) {
			i++
			c = rs[i]
		} else if i+2 < len(rs) && rs[i+1] == '-' {
			if c <= rs[i+2] {
				spans = append(spans, span{c, rs[i+2]})
			}
			i += 2
			continue
		}
		spans = append(spans, span{c, c})
	}
	return func(r rune) bool {
		for _, s := range spans {
			if r >= s.lo && r <= s.hi {
				return !negate
			}
		}
		return negate
	}
}

func arrayToHash(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "hash(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	arr, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("hash(): Requires array to work with")
	}
	flat := flattenDeep(arr)
	if len(flat)%2 != 0 {
		return nil, errorf("hash(): Unable to compute hash from array given")
	}
	out := value.NewHashBuilder(len(flat) / 2)
	for i := 0; i < len(flat); i += 2 {
		out.Set(flat[i], flat[i+1])
	}
	return out.Build(), nil
}

// grepFunc implements grep() and, inverted, reject(): the elements of an
// array that match (do not match) a regular expression given as a string.
func grepFunc(invert bool) functions.Func {
	name := "grep"
	if invert {
		name = "reject"
	}
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.CountArgs(args, 2, 2, "%s(): Wrong number of arguments given %d for 2", name); err != nil {
			return nil, err
		}
		re, err := rubyRegexp(args[1])
		if err != nil {
			return nil, err
		}
		var elems value.Array
		switch coll := args[0].(type) {
		case value.Array:
			elems = coll
		case *value.Hash:
			elems = rubyArray(coll)
		default:
			return nil, errorf("undefined method `%s' for %s:%s", name, value.RubyInspect(args[0]), value.RubyClass(args[0]))
		}
		out := value.Array{}
		for _, e := range elems {
			s, isString := e.(value.String)
			matched := isString && re.MatchString(string(s))
			if matched != invert {
				out = append(out, e)
			}
		}
		return out, nil
	}
}

// rubyRegexp is Ruby's Regexp.new(x) for a string pattern, with Ruby's
// syntax (\Z, \h, lookaround) and ^ and $ matching at every line.
func rubyRegexp(v value.Value) (*value.Regexp, error) {
	s, ok := v.(value.String)
	if !ok {
		return nil, errorf("no implicit conversion of %s into String", value.RubyClass(v))
	}
	re, err := value.NewRegexp(string(s))
	if err != nil {
		return nil, errorf("invalid regular expression %s: %v", value.RubyInspect(s), err)
	}
	return re, nil
}

var indexRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)(\.\.\.?|-)(\d+)$`) })

func valuesAt(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "values_at(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	arr, ok := args[0].(value.Array)
	if !ok {
		return nil, errorf("values_at(): Requires array to work with")
	}
	indices := flattenDeep(value.Array{args[1]})
	if len(indices) == 0 {
		return nil, errorf("values_at(): You must provide at least one positive index to collect")
	}
	var picked []int64
	for _, idx := range indices {
		s := value.RubyString(idx)
		if m := indexRange().FindStringSubmatch(s); m != nil {
			start, _ := strconv.ParseInt(m[1], 10, 64)
			stop, _ := strconv.ParseInt(m[3], 10, 64)
			if start > stop {
				return nil, errorf("values_at(): Stop index in given indices range is smaller than the start index")
			}
			if stop > int64(len(arr))-1 {
				return nil, errorf("values_at(): Stop index in given indices range exceeds array size")
			}
			if m[2] == "..." {
				stop--
			}
			for i := start; i <= stop; i++ {
				picked = append(picked, i)
			}
			continue
		}
		if !allDigits(s) {
			return nil, errorf("values_at(): Unknown format of given index")
		}
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil || i > int64(len(arr))-1 {
			return nil, errorf("values_at(): Given index exceeds array size")
		}
		picked = append(picked, i)
	}
	out := value.Array{}
	for _, i := range picked {
		if !value.IsUndef(arr[i]) {
			out = append(out, arr[i])
		}
	}
	return out, nil
}

var rangeSpec = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\w+)(\.\.\.?|-)(\w+)$`) })

// maxRange is how many elements range() returns at most, as stdlib caps it.
const maxRange = 1000000

func rangeFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "range(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	var start, stop value.Value
	var step int64 = 1
	exclusive := false
	if len(args) > 1 {
		start, stop = args[0], args[1]
		if len(args) > 2 && !value.IsUndef(args[2]) {
			n, err := rubyToI(args[2])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				n = -n
			}
			step = n
		}
		if step == 0 {
			return nil, errorf("range(): 3rd arg (step size) must be a non zero integer (e.g. 1 or -1)")
		}
	} else {
		s, ok := args[0].(value.String)
		if !ok {
			return nil, errorf("undefined method `match' for %s:%s", value.RubyInspect(args[0]), value.RubyClass(args[0]))
		}
		m := rangeSpec().FindStringSubmatch(string(s))
		switch {
		case m != nil:
			start, stop = value.String(m[1]), value.String(m[3])
			exclusive = m[2] == "..."
		case s != "" && !strings.Contains(string(s), "\n"):
			return nil, errorf("range(): Unable to compute range from the value: %s", s)
		default:
			return nil, errorf("range(): Unknown range format: %s", s)
		}
	}
	from, to := value.RubyString(start), value.RubyString(stop)
	out := value.Array{}
	if allDigits(from) {
		a, _ := rubyToI(value.String(from))
		b, err := rubyToI(stop)
		if err != nil {
			return nil, err
		}
		if exclusive {
			b--
		}
		for i := a; i <= b && len(out) < maxRange; i += step {
			out = append(out, value.Integer(i))
		}
		return out, nil
	}
	i := int64(0)
	stringRange(from, to, exclusive, func(s string) bool {
		if i%step == 0 {
			out = append(out, value.String(s))
		}
		i++
		// Also bound the strings skipped over by a large step.
		return len(out) < maxRange && i < 10*maxRange
	})
	return out, nil
}

// stringRange iterates Ruby's String range from..to (String#upto): single
// characters step through the character table, longer strings through
// succ, stopping at the end or at a string longer than it.
func stringRange(from, to string, exclusive bool, yield func(string) bool) {
	if len(from) == 1 && len(to) == 1 {
		for ch := from[0]; ch <= to[0]; ch++ {
			if exclusive && ch == to[0] {
				return
			}
			if !yield(string(ch)) || ch == 0xff {
				return
			}
		}
		return
	}
	if from > to || exclusive && from == to {
		return
	}
	afterEnd := rubySucc(to)
	for cur := from; cur != afterEnd; {
		if !yield(cur) || !exclusive && cur == to {
			return
		}
		cur = rubySucc(cur)
		if exclusive && cur == to || len(cur) > len(to) || cur == "" {
			return
		}
	}
}

// rubySucc is Ruby's String#succ: the rightmost alphanumeric is
// incremented, carrying into the next alphanumeric to its left (other
// characters are skipped); a carry out of the leftmost one inserts a new
// digit or letter there. Without alphanumerics the last byte is
// incremented.
func rubySucc(s string) string {
	b := []byte(s)
	isAlnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	last := -1
	for i := len(b) - 1; i >= 0; i-- {
		if !isAlnum(b[i]) {
			continue
		}
		last = i
		switch c := b[i]; c {
		case '9':
			b[i] = '0'
		case 'z':
			b[i] = 'a'
		case 'Z':
			b[i] = 'A'
		default:
			b[i]++
			return string(b)
		}
	}
	if last < 0 {
		if len(b) == 0 {
			return ""
		}
		b[len(b)-1]++
		return string(b)
	}
	carry := map[byte]byte{'0': '1', 'a': 'a', 'A': 'A'}[b[last]]
	return string(b[:last]) + string(carry) + string(b[last:])
}

// rubyToI is Ruby's to_i for the values Puppet passes: leading digits of a
// string (0 when there are none), integers, truncated floats.
func rubyToI(v value.Value) (int64, error) {
	switch v := v.(type) {
	case value.Integer:
		return int64(v), nil
	case value.Float:
		return int64(v), nil
	case value.String:
		s := strings.TrimLeft(string(v), " \t\n\v\f\r")
		end := 0
		if end < len(s) && (s[end] == '-' || s[end] == '+') {
			end++
		}
		digits := strings.Builder{}
		digits.WriteString(s[:end])
		for ; end < len(s); end++ {
			c := s[end]
			if c == '_' && end > 0 && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9' {
				continue
			}
			if c < '0' || c > '9' {
				break
			}
			digits.WriteByte(c)
		}
		n, err := strconv.ParseInt(digits.String(), 10, 64)
		if err != nil {
			return 0, nil
		}
		return n, nil
	}
	return 0, errorf("undefined method `to_i' for %s:%s", value.RubyInspect(v), value.RubyClass(v))
}

func union(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, -1, "union(): Wrong number of arguments given (%d for < 2)"); err != nil {
		return nil, err
	}
	out := value.Array{}
	for _, a := range args {
		arr, ok := a.(value.Array)
		if !ok {
			return nil, errorf("union(): Every parameter must be an array")
		}
		for _, e := range arr {
			if !containsIdentical(out, e) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

func difference(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "difference(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	a, ok1 := args[0].(value.Array)
	b, ok2 := args[1].(value.Array)
	if !ok1 || !ok2 {
		return nil, errorf("difference(): Requires 2 arrays")
	}
	out := value.Array{}
	for _, e := range a {
		if !containsIdentical(b, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func intersection(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 2, 2, "intersection(): Wrong number of arguments given (%d for 2)"); err != nil {
		return nil, err
	}
	a, ok1 := args[0].(value.Array)
	b, ok2 := args[1].(value.Array)
	if !ok1 || !ok2 {
		return nil, errorf("intersection(): Requires 2 arrays, got %s and %s", value.RubyClass(args[0]), value.RubyClass(args[1]))
	}
	out := value.Array{}
	for _, e := range a {
		if containsIdentical(b, e) && !containsIdentical(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func dig44(c *functions.Ctx, args []value.Value) (value.Value, error) {
	// Puppet's own arity check (dig44 declares arity -2) answers first.
	if err := functions.Arity3("dig44", args, 1, true); err != nil {
		return nil, err
	}
	if err := functions.CountArgs(args, 2, -1, "dig44(): Wrong number of arguments given (%d for at least 2)"); err != nil {
		return nil, err
	}
	data, pathArg, dflt := args[0], args[1], arg(args, 2)
	switch data.(type) {
	case value.Array, *value.Hash:
	default:
		return nil, errorf("dig44(): first argument must be a hash or an array, given %s", value.RubyClass(data))
	}
	path, ok := pathArg.(value.Array)
	if !ok {
		return nil, errorf("dig44(): second argument must be an array, given %s", value.RubyClass(pathArg))
	}
	cur := data
	for _, key := range path {
		var next value.Value
		switch coll := cur.(type) {
		case *value.Hash:
			v, found := coll.Get(key)
			if !found {
				return dflt, nil
			}
			next = v
		case value.Array:
			i, ok := rubyInteger(key)
			if !ok {
				return dflt, nil
			}
			if i < 0 {
				i += int64(len(coll))
			}
			if i < 0 || i >= int64(len(coll)) {
				return dflt, nil
			}
			next = coll[i]
		default:
			// Ruby's reduce breaks out with nil here.
			return dflt, nil
		}
		if value.IsUndef(next) {
			return dflt, nil
		}
		cur = next
	}
	return cur, nil
}

// rubyInteger is Ruby's Integer(x) for array indexes: integers, floats
// truncated, strings in integer syntax.
func rubyInteger(v value.Value) (int64, bool) {
	switch v := v.(type) {
	case value.Integer:
		return int64(v), true
	case value.Float:
		return int64(v), true
	case value.String:
		s := strings.ReplaceAll(strings.TrimSpace(string(v)), "_", "")
		n, err := strconv.ParseInt(s, 0, 64)
		return n, err == nil
	}
	return 0, false
}
