package value

import (
	"slices"
	"strings"
)

// IsAssignable reports whether every instance of u is also an instance of t
// (u is a subtype of t), following Puppet's type calculator rules.
func IsAssignable(t, u Type) bool {
	t, u = Resolve(t), Resolve(u)
	if t == nil || u == nil {
		return false
	}
	// Unit (the element type of an empty array's inferred type) is
	// assignable to every type, as in Puppet.
	if t == AnyType || t == u || u == UnitType {
		return true
	}
	// A union is assignable when each of its members is.
	switch uu := u.(type) {
	case *VariantType:
		for _, e := range uu.Types {
			if !IsAssignable(t, e) {
				return false
			}
		}
		return true
	case *OptionalType:
		if !acceptsUndef(t) {
			return false
		}
		return uu.Type == nil || IsAssignable(t, uu.Type)
	case *AliasType, *TypeReference:
		return TypesEqual(t, u)
	}

	switch tt := t.(type) {
	case *simpleType:
		return assignableToSimple(tt, u)
	case *OptionalType:
		if u == UndefType {
			return true
		}
		return tt.Type == nil || IsAssignable(tt.Type, u)
	case *NotUndefType:
		if acceptsUndef(u) {
			return false
		}
		return tt.Type == nil || IsAssignable(tt.Type, u)
	case *VariantType:
		for _, e := range tt.Types {
			if IsAssignable(e, u) {
				return true
			}
		}
		return false
	case *SemVerRangesType:
		// Each of u's ranges must be one of t's (Puppet also accepts a
		// range another covers; equal ranges are what code writes).
		uu, ok := u.(*SemVerRangesType)
		if !ok {
			return false
		}
		for _, ur := range uu.Ranges {
			if !slices.ContainsFunc(tt.Ranges, ur.Equal) {
				return false
			}
		}
		return true
	case *IntegerType:
		ui, ok := u.(*IntegerType)
		return ok && ui.Min >= tt.Min && ui.Max <= tt.Max
	case *FloatType:
		uf, ok := u.(*FloatType)
		return ok && uf.Min >= tt.Min && uf.Max <= tt.Max
	case *StringType:
		switch uu := u.(type) {
		case *StringType:
			return uu.Min >= tt.Min && uu.Max <= tt.Max
		case *EnumType:
			if len(uu.Values) == 0 {
				return tt.Min == 0 && tt.Max == MaxInt
			}
			for _, v := range uu.Values {
				n := int64(len([]rune(v)))
				if n < tt.Min || n > tt.Max {
					return false
				}
			}
			return true
		case *PatternType:
			return tt.Min == 0 && tt.Max == MaxInt
		}
		return false
	case *EnumType:
		if len(tt.Values) == 0 {
			return IsAssignable(StringAny, u)
		}
		ue, ok := u.(*EnumType)
		if !ok || len(ue.Values) == 0 {
			return false
		}
		for _, v := range ue.Values {
			if !IsInstance(tt, String(v)) {
				return false
			}
		}
		return !ue.CaseInsensitive || tt.CaseInsensitive
	case *PatternType:
		if len(tt.Regexps) == 0 {
			return IsAssignable(StringAny, u)
		}
		switch uu := u.(type) {
		case *PatternType:
			for _, r := range uu.Regexps {
				found := false
				for _, tr := range tt.Regexps {
					if tr.Source == r.Source {
						found = true
						break
					}
				}
				if !found {
					return false
				}
			}
			return len(uu.Regexps) > 0
		case *EnumType:
			if len(uu.Values) == 0 {
				return false
			}
			for _, v := range uu.Values {
				if !IsInstance(tt, String(v)) {
					return false
				}
			}
			return true
		}
		return false
	case *RegexpType:
		ur, ok := u.(*RegexpType)
		return ok && (tt.Pattern == nil || (ur.Pattern != nil && ur.Pattern.Source == tt.Pattern.Source))
	case *BooleanType:
		ub, ok := u.(*BooleanType)
		return ok && (tt.Value == nil || (ub.Value != nil && *ub.Value == *tt.Value))
	case *ArrayType:
		switch uu := u.(type) {
		case *ArrayType:
			return sizeWithin(tt.Min, tt.Max, uu.Min, uu.Max) && (uu.Max == 0 || IsAssignable(tt.Elem, uu.Elem))
		case *TupleType:
			if !sizeWithin(tt.Min, tt.Max, uu.Min, uu.Max) {
				return false
			}
			for _, e := range uu.Types {
				if !IsAssignable(tt.Elem, e) {
					return false
				}
			}
			return true
		}
		return false
	case *HashType:
		switch uu := u.(type) {
		case *HashType:
			return sizeWithin(tt.Min, tt.Max, uu.Min, uu.Max) &&
				(uu.Max == 0 || (IsAssignable(tt.Key, uu.Key) && IsAssignable(tt.Value, uu.Value)))
		case *StructType:
			req, total := structSize(uu)
			if !sizeWithin(tt.Min, tt.Max, req, total) {
				return false
			}
			for _, e := range uu.Elements {
				if !IsInstance(tt.Key, String(e.Name)) || !IsAssignable(tt.Value, e.Value) {
					return false
				}
			}
			return true
		}
		return false
	case *TupleType:
		switch uu := u.(type) {
		case *TupleType:
			if !sizeWithin(tt.Min, tt.Max, uu.Min, uu.Max) {
				return false
			}
			n := len(uu.Types)
			if len(tt.Types) > n {
				n = len(tt.Types)
			}
			for i := 0; i < n; i++ {
				te, ue := tupleElem(tt, i), tupleElem(uu, i)
				if te == nil || ue == nil {
					break
				}
				if !IsAssignable(te, ue) {
					return false
				}
			}
			return true
		case *ArrayType:
			if !sizeWithin(tt.Min, tt.Max, uu.Min, uu.Max) {
				return false
			}
			for _, e := range tt.Types {
				if !IsAssignable(e, uu.Elem) {
					return false
				}
			}
			return true
		}
		return false
	case *StructType:
		if len(tt.Elements) == 0 {
			return IsAssignable(HashAny, u)
		}
		us, ok := u.(*StructType)
		if !ok {
			return false
		}
		matched := 0
		for _, e := range tt.Elements {
			ue := us.element(e.Name)
			if ue == nil {
				if !e.Optional {
					return false
				}
				continue
			}
			matched++
			if (ue.Optional && !e.Optional) || !IsAssignable(e.Value, ue.Value) {
				return false
			}
		}
		return matched == len(us.Elements)
	case *CollectionType:
		var min, max int64
		switch uu := u.(type) {
		case *ArrayType:
			min, max = uu.Min, uu.Max
		case *HashType:
			min, max = uu.Min, uu.Max
		case *TupleType:
			min, max = uu.Min, uu.Max
		case *StructType:
			min, max = structSize(uu)
		case *CollectionType:
			min, max = uu.Min, uu.Max
		default:
			return false
		}
		return sizeWithin(tt.Min, tt.Max, min, max)
	case *TypeType:
		ut, ok := u.(*TypeType)
		return ok && (tt.Type == nil || isAny(tt.Type) || (ut.Type != nil && IsAssignable(tt.Type, ut.Type)))
	case *SensitiveType:
		us, ok := u.(*SensitiveType)
		return ok && (tt.Type == nil || isAny(tt.Type) || (us.Type != nil && IsAssignable(tt.Type, us.Type)))
	case *IterableType:
		et := iterationElementType(u)
		return et != nil && (isAny(tt.Type) || IsAssignable(tt.Type, et))
	case *IteratorType:
		ui, ok := u.(*IteratorType)
		return ok && (isAny(tt.Type) || (ui.Type != nil && IsAssignable(tt.Type, ui.Type)))
	case *CallableType:
		_, ok := u.(*CallableType)
		return ok
	case *ResourceType:
		ur, ok := u.(*ResourceType)
		if !ok {
			return false
		}
		if tt.Type == "" {
			return true
		}
		if !strings.EqualFold(tt.Type, ur.Type) {
			return false
		}
		return tt.Title == "" || tt.Title == ur.Title
	case *ClassType:
		uc, ok := u.(*ClassType)
		return ok && (tt.Name == "" || strings.EqualFold(strings.TrimPrefix(tt.Name, "::"), strings.TrimPrefix(uc.Name, "::")))
	}
	return TypesEqual(t, u)
}

func assignableToSimple(t *simpleType, u Type) bool {
	switch Type(t) {
	case SemVerType:
		_, ok := u.(*SemVerRangesType)
		return ok || u == SemVerType
	case UndefType:
		return u == UndefType
	case DefaultType:
		return u == DefaultType
	case NumericType:
		switch u.(type) {
		case *IntegerType, *FloatType:
			return true
		}
		return u == NumericType
	case ScalarDataType:
		switch u.(type) {
		case *IntegerType, *FloatType, *StringType, *EnumType, *PatternType, *BooleanType:
			return true
		}
		return u == NumericType || u == ScalarDataType
	case ScalarType:
		switch u.(type) {
		case *IntegerType, *FloatType, *StringType, *EnumType, *PatternType, *BooleanType, *RegexpType, *SemVerRangesType:
			return true
		}
		switch u {
		case NumericType, ScalarDataType, ScalarType, SemVerType, TimestampType, TimespanType:
			return true
		}
		return false
	case DataType:
		return isDataType(u, false)
	case RichDataType:
		return isDataType(u, true)
	case CatalogEntry:
		switch u.(type) {
		case *ResourceType, *ClassType:
			return true
		}
		return u == CatalogEntry
	}
	return TypesEqual(t, u)
}

// isDataType reports whether u only describes Data (or RichData when rich).
func isDataType(u Type, rich bool) bool {
	if assignableToSimple(ScalarDataType.(*simpleType), u) || u == UndefType || u == UnitType || u == DataType {
		return true
	}
	elem := func(e Type) bool { return isDataType(Resolve(e), rich) }
	switch u := u.(type) {
	case *ArrayType:
		return elem(u.Elem)
	case *HashType:
		if rich {
			return elem(u.Key) && elem(u.Value)
		}
		return IsAssignable(StringAny, u.Key) && elem(u.Value)
	case *TupleType:
		for _, e := range u.Types {
			if !elem(e) {
				return false
			}
		}
		return true
	case *StructType:
		for _, e := range u.Elements {
			if !elem(e.Value) {
				return false
			}
		}
		return true
	case *NotUndefType:
		return u.Type == nil || elem(u.Type)
	case *OptionalType:
		return u.Type == nil || elem(u.Type)
	case *VariantType:
		for _, e := range u.Types {
			if !elem(e) {
				return false
			}
		}
		return true
	}
	if rich {
		switch u.(type) {
		case *RegexpType, *TypeType, *SensitiveType, *ResourceType, *ClassType, *SemVerRangesType:
			return true
		}
		switch u {
		case DefaultType, ScalarType, RichDataType, SemVerType, SemVerRangeType, TimestampType, TimespanType, BinaryType:
			return true
		}
	}
	return false
}

// acceptsUndef reports whether undef is an instance of t.
func acceptsUndef(t Type) bool { return IsInstance(t, Undef) }

func sizeWithin(min, max, umin, umax int64) bool { return umin >= min && umax <= max }

func tupleElem(t *TupleType, i int) Type {
	if len(t.Types) == 0 {
		return nil
	}
	if i < len(t.Types) {
		return t.Types[i]
	}
	if int64(i) < t.Max {
		return t.Types[len(t.Types)-1]
	}
	return nil
}

func structSize(t *StructType) (req, total int64) {
	for _, e := range t.Elements {
		if !e.Optional {
			req++
		}
	}
	return req, int64(len(t.Elements))
}

func (t *StructType) element(name string) *StructElement {
	for i := range t.Elements {
		if t.Elements[i].Name == name {
			return &t.Elements[i]
		}
	}
	return nil
}

// iterationElementType is the type of the elements iterating an instance of u
// yields, or nil when instances of u are not iterable.
func iterationElementType(u Type) Type {
	switch u := u.(type) {
	case *ArrayType:
		return u.Elem
	case *TupleType:
		return NewVariant(u.Types...)
	case *HashType:
		return &TupleType{Types: []Type{u.Key, u.Value}, Min: 2, Max: 2}
	case *StringType, *EnumType, *PatternType:
		return StringAny
	case *IterableType:
		return u.Type
	case *IteratorType:
		return u.Type
	case *IntegerType:
		if u.Min >= 0 {
			return IntegerAny
		}
	}
	return nil
}
