package functions

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

func addTypes(t Table) {
	t["type"] = Dispatch("type",
		Signature{Params: []Param{P("value", tAny), P("inference_method", value.NewEnum([]string{"detailed"}, false))}, Required: 1, Impl: typeImpl},
		Fixed(typeImpl, P("value", tAny), P("inference_method", value.NewEnum([]string{"reduced"}, false))),
		Fixed(typeImpl, P("value", tAny), P("inference_method", value.NewEnum([]string{"generalized"}, false))))
	assertSig := func(first Param) Signature {
		return Signature{Params: []Param{first, P("value", tAny)}, Required: 2, Block: OptionalBlock, BlockMin: 2, BlockMax: 2,
			BlockType: "Callable[Type, Type]", Impl: assertTypeImpl}
	}
	t["assert_type"] = Dispatch("assert_type", assertSig(P("type", tType)), assertSig(P("type_string", tString)))
	t["new"] = Dispatch("new", Signature{Params: []Param{P("type", tType), P("args", tAny)}, Required: 1, Repeated: true,
		Block: OptionalBlock, AnyBlock: true, Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			return blockResult(c, func() (value.Value, error) { return New(c, args[0].(value.Type), args[1:]) })
		}})
	t["convert_to"] = Dispatch("convert_to", Signature{Params: []Param{P("value", tAny), P("type", tType), P("args", tAny)},
		Required: 2, Repeated: true, Block: OptionalBlock, BlockMin: 1, BlockMax: 1,
		Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			return blockResult(c, func() (value.Value, error) {
				return New(c, args[1].(value.Type), append([]value.Value{args[0]}, args[2:]...))
			})
		}})
	unwrap := func(c *Ctx, args []value.Value) (value.Value, error) {
		return blockResult(c, func() (value.Value, error) {
			if s, ok := args[0].(*value.Sensitive); ok {
				return s.Value, nil
			}
			return args[0], nil
		})
	}
	t["unwrap"] = Dispatch("unwrap",
		Signature{Params: []Param{P("arg", value.SensitiveAny)}, Required: 1, Block: OptionalBlock, AnyBlock: true, Impl: unwrap},
		Signature{Params: []Param{P("arg", tAny)}, Required: 1, Block: OptionalBlock, AnyBlock: true, Impl: unwrap})
}

// blockResult computes a value and, when the call has a block, passes it
// through the block.
func blockResult(c *Ctx, compute func() (value.Value, error)) (value.Value, error) {
	v, err := compute()
	if err != nil || c.lambda() == nil {
		return v, err
	}
	v, err = callBlock(c, v)
	return v, err
}

func typeImpl(c *Ctx, args []value.Value) (value.Value, error) {
	method := "detailed"
	if len(args) > 1 {
		method = string(args[1].(value.String))
	}
	switch method {
	case "reduced":
		return inferReduced(args[0]), nil
	case "generalized":
		return generalizeReduced(reduceValue(args[0])), nil
	}
	return inferSet(args[0]), nil
}

// inferSet is Puppet's infer_set (type() with 'detailed'): a type per
// element, Tuple for arrays, Struct for hashes with non-empty string keys,
// otherwise Hash of the variants of key and value types.
func inferSet(v value.Value) value.Type {
	switch v := v.(type) {
	case value.Array:
		if len(v) == 0 {
			return value.TypeOf(v)
		}
		ts := make([]value.Type, len(v))
		for i, e := range v {
			ts[i] = inferSet(e)
		}
		return &value.TupleType{Types: ts, Min: int64(len(ts)), Max: int64(len(ts))}
	case *value.Hash:
		if v.Len() == 0 {
			return value.TypeOf(v)
		}
		structKeys := true
		for _, k := range v.Keys() {
			if s, ok := k.(value.String); !ok || s == "" {
				structKeys = false
				break
			}
		}
		if structKeys {
			es := make([]value.StructElement, v.Len())
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				es[i] = value.StructElement{Name: string(k.(value.String)), Value: inferSet(e)}
			}
			return &value.StructType{Elements: es}
		}
		// Puppet lists every key's and value's type, duplicates included.
		var kts, vts []value.Type
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			kts = append(kts, inferSet(k))
			vts = append(vts, inferSet(e))
		}
		n := int64(v.Len())
		return &value.HashType{Key: variantOrSingle(kts), Value: variantOrSingle(vts), Min: n, Max: n}
	}
	return value.TypeOf(v)
}

func variantOrSingle(ts []value.Type) value.Type {
	if len(ts) == 1 {
		return ts[0]
	}
	return &value.VariantType{Types: ts}
}

// inferReduced is Puppet's infer (type() with 'reduced'): collections get
// one common element type and an exact size instead of per-element types.
func inferReduced(v value.Value) value.Type {
	return finishReduced(reduceValue(v))
}

// reduceValue infers a type in which a string is represented as a one-value
// Enum (Puppet's String['value']), so that common types of strings become
// Enums; finishReduced turns one-value Enums back into String.
func reduceValue(v value.Value) value.Type {
	switch v := v.(type) {
	case value.String:
		return value.NewEnum([]string{string(v)}, false)
	case value.Array:
		if len(v) == 0 {
			return &value.ArrayType{Elem: value.UnitType, Min: 0, Max: 0}
		}
		var common value.Type
		for _, e := range v {
			common = commonType(common, reduceValue(e))
		}
		n := int64(len(v))
		return &value.ArrayType{Elem: common, Min: n, Max: n}
	case *value.Hash:
		if v.Len() == 0 {
			return &value.HashType{Key: value.UnitType, Value: value.UnitType, Min: 0, Max: 0}
		}
		var kt, vt value.Type
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			kt = commonType(kt, reduceValue(k))
			vt = commonType(vt, reduceValue(e))
		}
		n := int64(v.Len())
		return &value.HashType{Key: kt, Value: vt, Min: n, Max: n}
	}
	return value.TypeOf(v)
}

func finishReduced(t value.Type) value.Type {
	switch t := t.(type) {
	case *value.EnumType:
		if len(t.Values) == 1 {
			return value.StringAny
		}
		vals := append([]string{}, t.Values...)
		sort.Strings(vals)
		return value.NewEnum(vals, false)
	case *value.ArrayType:
		return &value.ArrayType{Elem: finishReduced(t.Elem), Min: t.Min, Max: t.Max}
	case *value.HashType:
		return &value.HashType{Key: finishReduced(t.Key), Value: finishReduced(t.Value), Min: t.Min, Max: t.Max}
	}
	return t
}

// generalizeReduced is Puppet's generalize of an inferred type: strings of
// several values become String[min, max] of their lengths, collections
// lose their sizes (an empty hash stays Hash[0, 0]).
func generalizeReduced(t value.Type) value.Type {
	switch t := t.(type) {
	case *value.EnumType:
		if len(t.Values) == 1 {
			return value.StringAny
		}
		lo, hi := int64(value.MaxInt), int64(0)
		for _, v := range t.Values {
			n := int64(utf8.RuneCountInString(v))
			lo, hi = min(lo, n), max(hi, n)
		}
		return &value.StringType{Min: lo, Max: hi}
	case *value.ArrayType:
		if t.Elem == value.AnyType {
			return value.ArrayAny
		}
		return &value.ArrayType{Elem: generalizeReduced(t.Elem), Min: 0, Max: value.MaxInt}
	case *value.HashType:
		if t.Max == 0 {
			return t
		}
		return &value.HashType{Key: generalizeReduced(t.Key), Value: generalizeReduced(t.Value), Min: 0, Max: value.MaxInt}
	}
	return value.Generalize(t)
}

// commonType is Puppet's TypeCalculator#common_type: the narrowest type
// both a and b are assignable to, from a small set of candidates. A nil or
// Undef side yields the other.
func commonType(a, b value.Type) value.Type {
	switch {
	case a == nil || a == value.UndefType || a == value.UnitType:
		return b
	case b == nil || b == value.UndefType || b == value.UnitType:
		return a
	}
	if ea, ok := a.(*value.EnumType); ok {
		if eb, ok := b.(*value.EnumType); ok {
			vals := append([]string{}, ea.Values...)
			for _, s := range eb.Values {
				if !containsString(vals, s) {
					vals = append(vals, s)
				}
			}
			return value.NewEnum(vals, false)
		}
	}
	switch {
	case value.IsAssignable(a, b):
		return a
	case value.IsAssignable(b, a):
		return b
	}
	switch a := a.(type) {
	case *value.ArrayType:
		if b, ok := b.(*value.ArrayType); ok {
			return &value.ArrayType{Elem: commonType(a.Elem, b.Elem), Min: 0, Max: value.MaxInt}
		}
	case *value.HashType:
		if b, ok := b.(*value.HashType); ok {
			return &value.HashType{Key: commonType(a.Key, b.Key), Value: commonType(a.Value, b.Value), Min: 0, Max: value.MaxInt}
		}
	case *value.IntegerType:
		if b, ok := b.(*value.IntegerType); ok {
			return &value.IntegerType{Min: min(a.Min, b.Min), Max: max(a.Max, b.Max)}
		}
	case *value.FloatType:
		if b, ok := b.(*value.FloatType); ok {
			return &value.FloatType{Min: min(a.Min, b.Min), Max: max(a.Max, b.Max)}
		}
	case *value.RegexpType:
		if _, ok := b.(*value.RegexpType); ok {
			return value.RegexpAny
		}
	}
	for _, t := range []value.Type{value.NumericType, value.ScalarDataType, value.ScalarType, value.DataType, value.RichDataType} {
		if value.IsAssignable(t, a) && value.IsAssignable(t, b) {
			return t
		}
	}
	return value.AnyType
}

func containsString(ss []string, s string) bool {
	for _, e := range ss {
		if e == s {
			return true
		}
	}
	return false
}

// assertTypeImpl returns the value when it is an instance of the type;
// otherwise the block's result (called with the expected and actual
// types), or an error.
func assertTypeImpl(c *Ctx, args []value.Value) (value.Value, error) {
	t, ok := args[0].(value.Type)
	if !ok {
		parsed, err := parseType(c, string(args[0].(value.String)))
		if err != nil {
			return nil, err
		}
		t = parsed
	}
	v := args[1]
	if ok, err := value.CheckInstance(t, v); err != nil {
		return nil, err
	} else if ok {
		return v, nil
	}
	actual := value.TypeOf(v)
	if c.lambda() != nil {
		r, err := callBlock(c, t, actual)
		return r, err
	}
	return nil, fmt.Errorf("assert_type(): %s", describeValueMismatch(t, v))
}

// parseType evaluates a type written as a string ("Integer[1]"), resolving
// names the way the calling code would.
func parseType(c *Ctx, src string) (value.Type, error) {
	x, err := syntax.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	if c.Eval == nil {
		return nil, fmt.Errorf("cannot evaluate the type '%s' here", src)
	}
	v, err := c.Eval.Eval(x, c.Scope)
	if err != nil {
		return nil, err
	}
	t, ok := v.(value.Type)
	if !ok {
		return nil, fmt.Errorf("The expression <%s> is not a valid type specification.", src)
	}
	return t, nil
}
