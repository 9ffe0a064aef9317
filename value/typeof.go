package value

import (
	"fmt"
	"math"
	"sort"

	"github.com/marionette-dev/marionette/semver"
)

// TypeOf infers the most specific type of a value, as Puppet's type() function
// and type_of() do: TypeOf(3) is Integer[3, 3], TypeOf([1, 'a']) is
// Tuple[Integer[1, 1], String].
func TypeOf(v Value) Type {
	switch v := v.(type) {
	case nil, undefValue:
		return UndefType
	case defaultValue:
		return DefaultType
	case String:
		return StringAny
	case Integer:
		return &IntegerType{int64(v), int64(v)}
	case Float:
		return &FloatType{float64(v), float64(v)}
	case Boolean:
		b := bool(v)
		return &BooleanType{Value: &b}
	case *Regexp:
		return &RegexpType{Pattern: v}
	case Array:
		if len(v) == 0 {
			return &ArrayType{Elem: UnitType, Min: 0, Max: 0}
		}
		ts := make([]Type, len(v))
		for i, e := range v {
			ts[i] = TypeOf(e)
		}
		return &TupleType{Types: ts, Min: int64(len(ts)), Max: int64(len(ts))}
	case *Hash:
		if v.Len() == 0 {
			return &HashType{Key: UnitType, Value: UnitType, Min: 0, Max: 0}
		}
		allStrings := true
		for _, k := range v.keys {
			if _, ok := k.(String); !ok {
				allStrings = false
				break
			}
		}
		if allStrings {
			es := make([]StructElement, v.Len())
			for i, k := range v.keys {
				es[i] = StructElement{Name: string(k.(String)), Value: TypeOf(v.vals[i])}
			}
			return &StructType{Elements: es}
		}
		kts := make([]Type, 0, v.Len())
		vts := make([]Type, 0, v.Len())
		for i, k := range v.keys {
			kts = append(kts, TypeOf(k))
			vts = append(vts, TypeOf(v.vals[i]))
		}
		n := int64(v.Len())
		return &HashType{Key: commonType(kts), Value: commonType(vts), Min: n, Max: n}
	case *Sensitive:
		return &SensitiveType{Type: Generalize(TypeOf(v.Value))}
	case *SemVer:
		return &SemVerRangesType{Ranges: []*semver.Range{semver.Exact(v.V)}}
	case *SemVerRange:
		return SemVerRangeType
	case *Timestamp:
		return TimestampType
	case *Timespan:
		return TimespanType
	case *Binary:
		return BinaryType
	case *Deferred:
		return DeferredType
	case *Runtime:
		return RuntimeType
	case Type:
		return &TypeType{Type: v}
	case *Iterator:
		return &IteratorType{Type: v.Elem}
	case Callable:
		return v.Signature()
	}
	return AnyType
}

// commonType is the narrowest single type covering ts (a Variant when they differ).
func commonType(ts []Type) Type {
	if len(ts) == 0 {
		return AnyType
	}
	g := make([]Type, len(ts))
	for i, t := range ts {
		g[i] = Generalize(t)
	}
	v := NewVariant(g...).(*VariantType)
	if len(v.Types) == 1 {
		return v.Types[0]
	}
	return v
}

// Generalize drops value-specific constraints from an inferred type:
// Integer[3, 3] becomes Integer, a Tuple becomes an Array of its common element
// type, a Struct a Hash.
func Generalize(t Type) Type {
	switch t := t.(type) {
	case *IntegerType:
		return IntegerAny
	case *FloatType:
		return FloatAny
	case *StringType, *EnumType, *PatternType:
		return StringAny
	case *BooleanType:
		return BooleanAny
	case *RegexpType:
		return RegexpAny
	case *SemVerRangesType:
		return SemVerType
	case *TupleType:
		return &ArrayType{Elem: commonType(t.Types), Min: 0, Max: MaxInt}
	case *StructType:
		vs := make([]Type, len(t.Elements))
		for i, e := range t.Elements {
			vs[i] = e.Value
		}
		return &HashType{Key: StringAny, Value: commonType(vs), Min: 0, Max: MaxInt}
	case *ArrayType:
		if t.Max == 0 {
			return ArrayAny
		}
		return &ArrayType{Elem: Generalize(t.Elem), Min: 0, Max: MaxInt}
	case *HashType:
		if t.Max == 0 {
			return HashAny
		}
		return &HashType{Key: Generalize(t.Key), Value: Generalize(t.Value), Min: 0, Max: MaxInt}
	case *SensitiveType:
		return &SensitiveType{Type: Generalize(t.Type)}
	case *TypeType:
		return t
	}
	return t
}

// baseTypes maps each built-in type name to its unparameterized form. It is a
// read-only table.
var baseTypes = map[string]Type{
	"Any": AnyType, "Undef": UndefType, "Default": DefaultType, "Scalar": ScalarType,
	"ScalarData": ScalarDataType, "Data": DataType, "RichData": RichDataType,
	"Numeric": NumericType, "Integer": IntegerAny, "Float": FloatAny, "String": StringAny,
	"Enum": EnumAny, "Pattern": PatternAny, "Regexp": RegexpAny, "Boolean": BooleanAny,
	"Array": ArrayAny, "Hash": HashAny, "Tuple": TupleAny, "Struct": StructAny,
	"Collection": CollectionAny, "Optional": OptionalAny, "NotUndef": NotUndefAny,
	"Variant": VariantAny, "Type": TypeAny, "Sensitive": SensitiveAny, "Iterable": IterableAny,
	"Iterator": IteratorAny, "Callable": CallableAny, "Resource": ResourceAny, "Class": ClassAny,
	"CatalogEntry": CatalogEntry, "Runtime": RuntimeType, "SemVer": SemVerType,
	"SemVerRange": SemVerRangeType, "Timestamp": TimestampType, "Timespan": TimespanType,
	"Binary": BinaryType, "URI": URIType, "Object": ObjectType, "TypeSet": TypeSetType,
	"Error": ErrorType, "Deferred": DeferredType, "Init": InitType, "Unit": UnitType,
	"TypeAlias": TypeAliasType,
}

// BaseType returns the built-in type with the given name (e.g. "Integer").
func BaseType(name string) (Type, bool) {
	t, ok := baseTypes[name]
	return t, ok
}

// Parameterize applies type parameters, as in `Integer[1, 10]` or
// `Array[String, 1]`. The error says what Puppet would: which type and why.
func Parameterize(base Type, args []Value) (Type, error) {
	name := base.TypeName()
	// Puppet flattens array parameters, Optional[[Integer]] being
	// Optional[Integer], for every type but Struct and Callable.
	switch base.(type) {
	case *StructType, *CallableType:
	default:
		args = flattenArgs(args)
	}
	argErr := func(format string, a ...any) error {
		return fmt.Errorf("%s-Type[] %s", name, fmt.Sprintf(format, a...))
	}
	wantType := func(i int) (Type, error) {
		if t, ok := args[i].(Type); ok {
			return t, nil
		}
		return nil, argErr("arguments must be types, got %s", TypeString(Generalize(TypeOf(args[i]))))
	}
	if base == SemVerType {
		// SemVer[range, ...]: ranges as strings or SemVerRange values.
		if len(args) == 0 {
			return SemVerType, nil
		}
		t := &SemVerRangesType{}
		for _, a := range args {
			switch a := a.(type) {
			case *SemVerRange:
				t.Ranges = append(t.Ranges, a.R)
			case String:
				r, err := semver.ParseRange(string(a))
				if err != nil {
					return nil, err
				}
				t.Ranges = append(t.Ranges, r)
			default:
				return nil, argErr("parameters must be version ranges, got %s", TypeString(Generalize(TypeOf(a))))
			}
		}
		return t, nil
	}
	switch base.(type) {
	case *IntegerType:
		lo, hi, err := intRange(args, 1, 2, argErr)
		if err != nil {
			return nil, err
		}
		if lo > hi {
			return nil, argErr("min must be less than or equal to max, got %d, %d", lo, hi)
		}
		return &IntegerType{lo, hi}, nil
	case *FloatType:
		if len(args) < 1 || len(args) > 2 {
			return nil, argErr("takes 1 or 2 parameters, got %d", len(args))
		}
		lo, hi := math.Inf(-1), math.Inf(1)
		for i, a := range args {
			var f float64
			switch a := a.(type) {
			case Integer:
				f = float64(a)
			case Float:
				f = float64(a)
			case defaultValue:
				continue
			default:
				return nil, argErr("parameters must be numbers or default")
			}
			if i == 0 {
				lo = f
			} else {
				hi = f
			}
		}
		return &FloatType{lo, hi}, nil
	case *StringType:
		lo, hi, err := sizeRange(args, 0, argErr)
		if err != nil {
			return nil, err
		}
		return &StringType{lo, hi}, nil
	case *CollectionType:
		lo, hi, err := sizeRange(args, 0, argErr)
		if err != nil {
			return nil, err
		}
		return &CollectionType{lo, hi}, nil
	case *EnumType:
		var vals []string
		ci := false
		for i, a := range args {
			switch a := a.(type) {
			case String:
				vals = append(vals, string(a))
			case Array:
				for _, e := range a {
					s, ok := e.(String)
					if !ok {
						return nil, argErr("arguments must be strings")
					}
					vals = append(vals, string(s))
				}
			case Boolean:
				if i != len(args)-1 {
					return nil, argErr("the case-insensitive flag must be the last argument")
				}
				ci = bool(a)
			default:
				return nil, argErr("arguments must be strings, got %s", TypeString(Generalize(TypeOf(a))))
			}
		}
		// Puppet keeps Enum values sorted and unique.
		vals = dedupe(vals)
		sort.Strings(vals)
		return &EnumType{Values: vals, CaseInsensitive: ci}, nil
	case *PatternType:
		var res []*Regexp
		for _, a := range args {
			switch a := a.(type) {
			case *Regexp:
				res = append(res, a)
			case String:
				r, err := NewRegexp(string(a))
				if err != nil {
					return nil, argErr("%v", err)
				}
				res = append(res, r)
			case *RegexpType:
				if a.Pattern != nil {
					res = append(res, a.Pattern)
				}
			case *PatternType:
				res = append(res, a.Regexps...)
			default:
				return nil, argErr("arguments must be regular expressions or strings")
			}
		}
		return &PatternType{Regexps: res}, nil
	case *RegexpType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		switch a := args[0].(type) {
		case *Regexp:
			return &RegexpType{Pattern: a}, nil
		case String:
			r, err := NewRegexp(string(a))
			if err != nil {
				return nil, argErr("%v", err)
			}
			return &RegexpType{Pattern: r}, nil
		}
		return nil, argErr("parameter must be a regular expression or a string")
	case *BooleanType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		b, ok := args[0].(Boolean)
		if !ok {
			return nil, argErr("parameter must be a Boolean")
		}
		bv := bool(b)
		return &BooleanType{Value: &bv}, nil
	case *ArrayType:
		if len(args) == 0 || len(args) > 3 {
			return nil, argErr("takes 1 to 3 parameters, got %d", len(args))
		}
		elem := AnyType
		rest := args
		if t, ok := args[0].(Type); ok {
			elem, rest = t, args[1:]
		} else if len(args) == 3 {
			return nil, argErr("the first parameter must be a type")
		}
		lo, hi, err := sizeRange(rest, 0, argErr)
		if err != nil {
			return nil, err
		}
		return &ArrayType{Elem: elem, Min: lo, Max: hi}, nil
	case *HashType:
		if len(args) == 0 || len(args) > 4 {
			return nil, argErr("takes 1 to 4 parameters, got %d", len(args))
		}
		key, val := AnyType, AnyType
		rest := args
		if _, ok := args[0].(Type); ok {
			if len(args) < 2 {
				return nil, argErr("takes a key type and a value type")
			}
			k, err := wantType(0)
			if err != nil {
				return nil, err
			}
			v, err := wantType(1)
			if err != nil {
				return nil, err
			}
			key, val, rest = k, v, args[2:]
		}
		lo, hi, err := sizeRange(rest, 0, argErr)
		if err != nil {
			return nil, err
		}
		return &HashType{Key: key, Value: val, Min: lo, Max: hi}, nil
	case *TupleType:
		var ts []Type
		i := 0
		for ; i < len(args); i++ {
			t, ok := args[i].(Type)
			if !ok {
				break
			}
			ts = append(ts, t)
		}
		lo, hi := int64(len(ts)), int64(len(ts))
		if i < len(args) {
			var err error
			lo, hi, err = sizeRange(args[i:], int64(len(ts)), argErr)
			if err != nil {
				return nil, err
			}
			if len(args)-i == 1 {
				hi = MaxInt
			}
		}
		return &TupleType{Types: ts, Min: lo, Max: hi}, nil
	case *StructType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		h, ok := args[0].(*Hash)
		if !ok {
			return nil, argErr("parameter must be a Hash")
		}
		es := make([]StructElement, 0, h.Len())
		for i, k := range h.keys {
			vt, ok := h.vals[i].(Type)
			if !ok {
				return nil, argErr("member values must be types")
			}
			e := StructElement{Value: vt}
			switch k := k.(type) {
			case String:
				e.Name = string(k)
				e.Optional = acceptsUndef(vt)
			case *OptionalType:
				en, ok := k.Type.(*EnumType)
				if !ok || len(en.Values) != 1 {
					return nil, argErr("member keys must be strings or Optional/NotUndef of a string")
				}
				e.Name, e.Optional, e.KeyType = en.Values[0], true, k
			case *NotUndefType:
				en, ok := k.Type.(*EnumType)
				if !ok || len(en.Values) != 1 {
					return nil, argErr("member keys must be strings or Optional/NotUndef of a string")
				}
				e.Name, e.KeyType = en.Values[0], k
			case *EnumType:
				if len(k.Values) != 1 {
					return nil, argErr("member keys must be strings")
				}
				e.Name = k.Values[0]
				e.Optional = acceptsUndef(vt)
			default:
				return nil, argErr("member keys must be strings")
			}
			es = append(es, e)
		}
		return &StructType{Elements: es}, nil
	case *OptionalType, *NotUndefType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		var inner Type
		switch a := args[0].(type) {
		case String:
			inner = &EnumType{Values: []string{string(a)}}
		case Type:
			inner = a
		default:
			return nil, argErr("parameter must be a type or a string")
		}
		if _, ok := base.(*OptionalType); ok {
			return &OptionalType{Type: inner}, nil
		}
		return &NotUndefType{Type: inner}, nil
	case *VariantType:
		ts := make([]Type, 0, len(args))
		for i := range args {
			t, err := wantType(i)
			if err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
		return &VariantType{Types: ts}, nil
	case *TypeType, *SensitiveType, *IterableType, *IteratorType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		t, err := wantType(0)
		if err != nil {
			return nil, err
		}
		switch base.(type) {
		case *TypeType:
			return &TypeType{Type: t}, nil
		case *SensitiveType:
			// Puppet keeps the contained type generalized: Sensitive[String[1]]
			// is Sensitive[String], and Sensitive('') an instance of it.
			return &SensitiveType{Type: Generalize(t)}, nil
		case *IterableType:
			return &IterableType{Type: t}, nil
		}
		return &IteratorType{Type: t}, nil
	case *CallableType:
		c := &CallableType{}
		i := 0
		for ; i < len(args); i++ {
			t, ok := args[i].(Type)
			if !ok {
				break
			}
			c.Params = append(c.Params, t)
		}
		c.Min, c.Max = int64(len(c.Params)), int64(len(c.Params))
		if i < len(args) {
			lo, hi, err := sizeRange(args[i:], 0, argErr)
			if err != nil {
				return nil, err
			}
			c.Min, c.Max = lo, hi
		}
		return c, nil
	case *ClassType:
		if len(args) != 1 {
			return nil, argErr("takes exactly one parameter, got %d", len(args))
		}
		s, ok := args[0].(String)
		if !ok {
			if ct, ok := args[0].(*ClassType); ok {
				return ct, nil
			}
			return nil, argErr("parameter must be a class name")
		}
		return &ClassType{Name: trimColons(string(s))}, nil
	}
	return nil, fmt.Errorf("%s is not a parameterized type", TypeString(base))
}

func trimColons(s string) string {
	if len(s) > 2 && s[:2] == "::" {
		return s[2:]
	}
	return s
}

func dedupe(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// intRange reads [min[, max]] integer bounds where `default` means unbounded.
func intRange(args []Value, minArgs, maxArgs int, argErr func(string, ...any) error) (int64, int64, error) {
	if len(args) < minArgs || len(args) > maxArgs {
		return 0, 0, argErr("takes %d or %d parameters, got %d", minArgs, maxArgs, len(args))
	}
	lo, hi := int64(MinInt), int64(MaxInt)
	for i, a := range args {
		var n int64
		switch a := a.(type) {
		case Integer:
			n = int64(a)
		case defaultValue:
			continue
		default:
			return 0, 0, argErr("parameters must be integers or default, got %s", TypeString(Generalize(TypeOf(a))))
		}
		if i == 0 {
			lo = n
		} else {
			hi = n
		}
	}
	return lo, hi, nil
}

// sizeRange reads optional [min[, max]] size bounds; an absent min is defMin.
func sizeRange(args []Value, defMin int64, argErr func(string, ...any) error) (int64, int64, error) {
	if len(args) == 0 {
		return defMin, MaxInt, nil
	}
	lo, hi, err := intRange(args, 0, 2, argErr)
	if err != nil {
		return 0, 0, err
	}
	if lo == MinInt {
		lo = 0
	}
	return lo, hi, nil
}

// flattenArgs returns args with the elements of Array arguments in their
// place, recursively (args itself when none is an Array).
func flattenArgs(args []Value) []Value {
	nested := false
	for _, a := range args {
		if _, ok := a.(Array); ok {
			nested = true
			break
		}
	}
	if !nested {
		return args
	}
	var out []Value
	for _, a := range args {
		if arr, ok := a.(Array); ok {
			out = append(out, flattenArgs(arr)...)
		} else {
			out = append(out, a)
		}
	}
	return out
}
