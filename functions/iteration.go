package functions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

func addIteration(t Table) {
	t["each"] = iterFunc("each", eachImpl)
	t["map"] = iterFunc("map", mapImpl)
	t["filter"] = iterFunc("filter", filterImpl)
	t["any"] = iterFunc("any", anyImpl)
	t["all"] = iterFunc("all", allImpl)
	t["index"] = Dispatch("index", append(iterSigs(indexImpl),
		Fixed(stringIndex, P("str", tString), P("match", variant(tString, tRegexp))),
		Fixed(indexValue, P("enumerable", tIterable), P("match", tAny)))...)
	t["reduce"] = Dispatch("reduce",
		withBlock(2, reduceImpl, P("enumerable", tIterable)),
		withBlock(2, reduceImpl, P("enumerable", tIterable), P("memo", tAny)))
	t["with"] = Dispatch("with", Signature{Params: []Param{P("arg", tAny)}, Repeated: true,
		Block: RequiredBlock, AnyBlock: true, Impl: withImpl})
	t["then"] = Dispatch("then", withBlock(1, thenImpl, P("arg", tAny)))
	t["lest"] = Dispatch("lest", withBlock(0, lestImpl, P("arg", tAny)))
	sliceSize := P("slice_size", &value.IntegerType{Min: 1, Max: value.MaxInt})
	t["slice"] = Dispatch("slice",
		Signature{Params: []Param{P("hash", tHash), sliceSize}, Required: 2, Block: OptionalBlock, AnyBlock: true, Impl: sliceImpl},
		Signature{Params: []Param{P("enumerable", tIterable), sliceSize}, Required: 2, Block: OptionalBlock, AnyBlock: true, Impl: sliceImpl})
	stepSize := P("step", &value.IntegerType{Min: 1, Max: value.MaxInt})
	t["step"] = Dispatch("step",
		Fixed(stepImpl, P("iterable", tIterable), stepSize),
		withBlock(1, stepImpl, P("iterable", tIterable), stepSize))
	t["reverse_each"] = Dispatch("reverse_each",
		Fixed(reverseEachImpl, P("iterable", tIterable)),
		withBlock(1, reverseEachImpl, P("iterable", tIterable)))
}

// An iterImpl implements one of the functions that call their block once per
// element. hash says whether the subject is a Hash, n is how many arguments
// the block takes (1 or 2).
type iterImpl func(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error)

// iterSigs returns Puppet's four dispatches of the element-wise iteration
// functions, in Puppet's order: a Hash with a block of 2 (key, value) or 1
// ([key, value]), any other Iterable with a block of 2 (index, element) or 1.
func iterSigs(impl iterImpl) []Signature {
	mk := func(hash bool, n int) Func {
		return func(c *Ctx, args []value.Value) (value.Value, error) { return impl(c, args[0], hash, n) }
	}
	return []Signature{
		withBlock(2, mk(true, 2), P("hash", tHash)),
		withBlock(1, mk(true, 1), P("hash", tHash)),
		withBlock(2, mk(false, 2), P("enumerable", tIterable)),
		withBlock(1, mk(false, 1), P("enumerable", tIterable)),
	}
}

func iterFunc(name string, impl iterImpl) Func { return Dispatch(name, iterSigs(impl)...) }

// forEach calls fn for each element of subject: for a hash with its key and
// value, otherwise with its index and the element. fn returns false to stop.
func forEach(subject value.Value, fn func(key, elem value.Value) (bool, error)) error {
	if h, ok := subject.(*value.Hash); ok {
		for i := 0; i < h.Len(); i++ {
			k, v := h.At(i)
			more, err := fn(k, v)
			if err != nil || !more {
				return err
			}
		}
		return nil
	}
	if err := checkIterationSize(subject); err != nil {
		return err
	}
	var err error
	i := 0
	iterable := value.Iterate(subject, func(e value.Value) bool {
		var more bool
		more, err = fn(value.Integer(i), e)
		i++
		return more && err == nil
	})
	if !iterable {
		return fmt.Errorf("%s is not iterable", withArticle(shortName(value.Generalize(value.TypeOf(subject)))))
	}
	return err
}

// blockArgs is what the block receives for one element.
func blockArgs(hash bool, n int, key, elem value.Value) []value.Value {
	switch {
	case n == 2:
		return []value.Value{key, elem}
	case hash:
		return []value.Value{value.Array{key, elem}}
	}
	return []value.Value{elem}
}

// iterateBlock calls the call's lambda for one step of an iteration that
// stops at break(): broke reports a break() in the lambda.
func iterateBlock(c *Ctx, args ...value.Value) (v value.Value, broke bool, err error) {
	return iterate(c, true, args)
}

// iterate is iterateBlock; without wantValue the lambda's value is undef
// and need not be built.
func iterate(c *Ctx, wantValue bool, args []value.Value) (v value.Value, broke bool, err error) {
	lam := c.lambda()
	if lam == nil || c.Eval == nil {
		return nil, false, errors.New("no block given")
	}
	if wantValue {
		v, err = c.Eval.CallLambda(lam, args)
	} else {
		v, err = value.Undef, c.Eval.RunLambda(lam, args)
	}
	if errors.Is(err, eval.ErrBreak) {
		return value.Undef, true, nil
	}
	return v, false, err
}

// errIllegalBreak is Puppet's error for break() in a block of a function
// that does not iterate with it (any, all, with, sort, ...).
var errIllegalBreak = errors.New("break() from context where this is illegal")

// callBlock calls the call's lambda where break() is not allowed.
func callBlock(c *Ctx, args ...value.Value) (value.Value, error) {
	v, broke, err := iterateBlock(c, args...)
	if broke {
		return nil, errIllegalBreak
	}
	return v, err
}

func eachImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		_, broke, err := iterate(c, false, blockArgs(hash, n, k, e))
		return !broke, err
	})
	if err != nil {
		return nil, err
	}
	return subject, nil
}

func mapImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	out := value.Array{}
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		v, broke, err := iterateBlock(c, blockArgs(hash, n, k, e)...)
		if broke || err != nil {
			return false, err
		}
		out = append(out, v)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func filterImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	var kept value.Array
	var keptHash *value.HashBuilder
	if hash {
		keptHash = value.NewHashBuilder(0)
	}
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		v, broke, err := iterateBlock(c, blockArgs(hash, n, k, e)...)
		if broke || err != nil {
			return false, err
		}
		if value.Truthy(v) {
			if hash {
				keptHash.Set(k, e)
			} else {
				kept = append(kept, e)
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if hash {
		return keptHash.Build(), nil
	}
	if kept == nil {
		kept = value.Array{}
	}
	return kept, nil
}

func anyImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	found := false
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		v, err := callBlock(c, blockArgs(hash, n, k, e)...)
		if err != nil {
			return false, err
		}
		found = value.Truthy(v)
		return !found, nil
	})
	return value.Boolean(found), err
}

func allImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	all := true
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		v, err := callBlock(c, blockArgs(hash, n, k, e)...)
		if err != nil {
			return false, err
		}
		all = value.Truthy(v)
		return all, nil
	})
	return value.Boolean(all), err
}

// indexImpl returns the key (hash) or index of the first element the block
// accepts, undef when there is none.
func indexImpl(c *Ctx, subject value.Value, hash bool, n int) (value.Value, error) {
	var found value.Value = value.Undef
	err := forEach(subject, func(k, e value.Value) (bool, error) {
		args := []value.Value{e}
		if n == 2 {
			args = []value.Value{k, e}
		}
		v, err := callBlock(c, args...)
		if err != nil {
			return false, err
		}
		if value.Truthy(v) {
			found = k
			return false, nil
		}
		return true, nil
	})
	return found, err
}

// stringIndex is the character index of the first match in str, or undef.
func stringIndex(c *Ctx, args []value.Value) (value.Value, error) {
	s := string(args[0].(value.String))
	byteAt := -1
	switch m := args[1].(type) {
	case value.String:
		byteAt = strings.Index(s, string(m))
	case *value.Regexp:
		loc, err := m.FindSubmatchIndex(s)
		if err != nil {
			return nil, err
		}
		if loc != nil {
			byteAt = loc[0]
		}
	}
	if byteAt < 0 {
		return value.Undef, nil
	}
	return value.Integer(len([]rune(s[:byteAt]))), nil
}

// indexValue finds an element equal (Ruby ==: case-sensitive) to the match.
func indexValue(c *Ctx, args []value.Value) (value.Value, error) {
	var found value.Value = value.Undef
	err := forEach(args[0], func(k, e value.Value) (bool, error) {
		if value.RubyEqual(e, args[1]) {
			found = k
			return false, nil
		}
		return true, nil
	})
	return found, err
}

func reduceImpl(c *Ctx, args []value.Value) (value.Value, error) {
	elems, err := iterElements(args[0])
	if err != nil {
		return nil, err
	}
	var memo value.Value
	if len(args) == 2 {
		memo = args[1]
	} else {
		if len(elems) == 0 {
			return value.Undef, nil
		}
		memo, elems = elems[0], elems[1:]
	}
	for _, e := range elems {
		v, broke, err := iterateBlock(c, memo, e)
		if err != nil {
			return nil, err
		}
		if broke {
			break
		}
		memo = v
	}
	return memo, nil
}

// maxIteration bounds how many elements one iteration produces, so that
// iterating Integer[0, 9223372036854775806] fails instead of exhausting
// memory or time.
const maxIteration = 1 << 24

// checkIterationSize rejects integer subjects with too many elements.
func checkIterationSize(v value.Value) error {
	var n uint64
	switch v := v.(type) {
	case value.Integer:
		n = uint64(max(v, 0))
	case *value.IntegerType:
		if v.Min <= v.Max {
			n = uint64(v.Max) - uint64(v.Min) + 1
		}
	default:
		return nil
	}
	if n > maxIteration {
		return fmt.Errorf("Cannot iterate over %s: more than %d elements", value.Literal(v), maxIteration)
	}
	return nil
}

// iterElements collects what iterating v yields: hash entries as [key, value].
func iterElements(v value.Value) (value.Array, error) {
	if err := checkIterationSize(v); err != nil {
		return nil, err
	}
	a, ok := value.ToArray(v)
	if !ok {
		return nil, fmt.Errorf("%s is not iterable", withArticle(shortName(value.Generalize(value.TypeOf(v)))))
	}
	return a, nil
}

func withImpl(c *Ctx, args []value.Value) (value.Value, error) {
	v, err := callBlock(c, args...)
	return v, err
}

func thenImpl(c *Ctx, args []value.Value) (value.Value, error) {
	if value.IsUndef(args[0]) {
		return value.Undef, nil
	}
	v, err := callBlock(c, args[0])
	return v, err
}

func lestImpl(c *Ctx, args []value.Value) (value.Value, error) {
	if !value.IsUndef(args[0]) {
		return args[0], nil
	}
	v, err := callBlock(c)
	return v, err
}

// sliceImpl cuts the subject into slices of slice_size elements. With a
// block of one parameter each slice is passed as an array; with slice_size
// parameters it is spread, the last slice padded (with undef, or [] for a
// hash). With a block it returns the subject, without it the slices.
func sliceImpl(c *Ctx, args []value.Value) (value.Value, error) {
	subject := args[0]
	size := int(args[1].(value.Integer))
	lam := c.lambda()
	serving := 1
	if lam != nil {
		serving = lambdaArity(lam)
		if serving < 0 {
			serving = size
		}
		if serving == 0 {
			return nil, errors.New("slice(): block must define at least one parameter. Block has 0.")
		}
		if serving != 1 && serving != size {
			names := make([]string, len(lam.Def.Params))
			for i, prm := range lam.Def.Params {
				names[i] = prm.Name
			}
			return nil, fmt.Errorf("slice(): block must define one parameter, or the same number of parameters as the given size of the slice (%d). Block has %d; %s", size, serving, strings.Join(names, ", "))
		}
	}
	elems, err := iterElements(subject)
	if err != nil {
		return nil, err
	}
	var filler value.Value = value.Undef
	if _, ok := subject.(*value.Hash); ok {
		filler = value.Array{}
	}
	var out value.Array
	for start := 0; start < len(elems); start += size {
		end := min(start+size, len(elems))
		chunk := append(value.Array{}, elems[start:end]...)
		if lam == nil {
			out = append(out, chunk)
			continue
		}
		blockArgs := []value.Value{chunk}
		if serving > 1 {
			for len(chunk) < serving {
				chunk = append(chunk, filler)
			}
			blockArgs = chunk
		}
		_, broke, err := iterateBlock(c, blockArgs...)
		if err != nil {
			return nil, err
		}
		if broke {
			break
		}
	}
	if lam != nil {
		return subject, nil
	}
	if out == nil {
		out = value.Array{}
	}
	return out, nil
}

// lambdaArity is Ruby's Proc#arity for a lambda: the parameter count, or
// -(required+1) when some parameters are optional or capture the rest.
func lambdaArity(l *eval.Lambda) int {
	sg := l.Signature()
	if sg.Min == sg.Max {
		return int(sg.Min)
	}
	return -int(sg.Min) - 1
}

// stepImpl yields every step'th element, starting with the first.
func stepImpl(c *Ctx, args []value.Value) (value.Value, error) {
	elems, err := iterElements(args[0])
	if err != nil {
		return nil, err
	}
	step := int(args[1].(value.Integer))
	var picked value.Array
	for i := 0; i < len(elems); i += step {
		picked = append(picked, elems[i])
	}
	if c.lambda() == nil {
		return newIterator(args[0], picked), nil
	}
	for _, e := range picked {
		_, broke, err := iterateBlock(c, e)
		if err != nil {
			return nil, err
		}
		if broke {
			break
		}
	}
	return value.Undef, nil
}

func reverseEachImpl(c *Ctx, args []value.Value) (value.Value, error) {
	elems, err := iterElements(args[0])
	if err != nil {
		return nil, err
	}
	reversed := make(value.Array, len(elems))
	for i, e := range elems {
		reversed[len(elems)-1-i] = e
	}
	if c.lambda() == nil {
		return newIterator(args[0], reversed), nil
	}
	for _, e := range reversed {
		_, broke, err := iterateBlock(c, e)
		if err != nil {
			return nil, err
		}
		if broke {
			break
		}
	}
	return value.Undef, nil
}

// newIterator wraps already computed elements of source as an Iterator.
func newIterator(source value.Value, elems value.Array) *value.Iterator {
	return &value.Iterator{
		Elem: iterationElemType(source),
		Seq: func(yield func(value.Value) bool) {
			for _, e := range elems {
				if !yield(e) {
					return
				}
			}
		},
	}
}

// iterationElemType is the generalized type of the elements iterating v yields.
func iterationElemType(v value.Value) value.Type {
	switch v := v.(type) {
	case *value.Iterator:
		return v.Elem
	case value.String:
		return value.StringAny
	case value.Integer, *value.IntegerType:
		return value.IntegerAny
	case *value.EnumType:
		return value.StringAny
	}
	a, _ := value.ToArray(v)
	if len(a) == 0 {
		return value.AnyType
	}
	if g, ok := value.Generalize(value.TypeOf(a)).(*value.ArrayType); ok {
		return g.Elem
	}
	return value.AnyType
}
