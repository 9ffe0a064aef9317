package value

import "unicode/utf8"

// IsInstance reports whether v is an instance of type t.
func IsInstance(t Type, v Value) bool {
	if v == nil {
		v = Undef
	}
	switch t := t.(type) {
	case *simpleType:
		return isInstanceSimple(t, v)
	case *SemVerRangesType:
		sv, ok := v.(*SemVer)
		return ok && t.includes(sv.V)
	case *IntegerType:
		i, ok := v.(Integer)
		return ok && int64(i) >= t.Min && int64(i) <= t.Max
	case *FloatType:
		f, ok := v.(Float)
		return ok && float64(f) >= t.Min && float64(f) <= t.Max
	case *StringType:
		s, ok := v.(String)
		if !ok {
			return false
		}
		n := int64(utf8.RuneCountInString(string(s)))
		return n >= t.Min && n <= t.Max
	case *EnumType:
		s, ok := v.(String)
		if !ok {
			return false
		}
		if len(t.Values) == 0 {
			return true
		}
		for _, e := range t.Values {
			if e == string(s) || (t.CaseInsensitive && stringsEqualFoldUnicode(e, string(s))) {
				return true
			}
		}
		return false
	case *PatternType:
		s, ok := v.(String)
		if !ok {
			return false
		}
		if len(t.Regexps) == 0 {
			return true
		}
		for _, r := range t.Regexps {
			if r.MatchString(string(s)) {
				return true
			}
		}
		return false
	case *RegexpType:
		r, ok := v.(*Regexp)
		return ok && (t.Pattern == nil || t.Pattern.Source == r.Source)
	case *BooleanType:
		bv, ok := v.(Boolean)
		return ok && (t.Value == nil || *t.Value == bool(bv))
	case *ArrayType:
		a, ok := v.(Array)
		if !ok || int64(len(a)) < t.Min || int64(len(a)) > t.Max {
			return false
		}
		for _, e := range a {
			if !IsInstance(t.Elem, e) {
				return false
			}
		}
		return true
	case *HashType:
		h, ok := v.(*Hash)
		if !ok || int64(h.Len()) < t.Min || int64(h.Len()) > t.Max {
			return false
		}
		for i, k := range h.keys {
			if !IsInstance(t.Key, k) || !IsInstance(t.Value, h.vals[i]) {
				return false
			}
		}
		return true
	case *TupleType:
		a, ok := v.(Array)
		if !ok {
			return false
		}
		n := int64(len(a))
		if n < t.Min || n > t.Max {
			return false
		}
		for i, e := range a {
			if len(t.Types) == 0 {
				break
			}
			et := t.Types[len(t.Types)-1]
			if i < len(t.Types) {
				et = t.Types[i]
			}
			if !IsInstance(et, e) {
				return false
			}
		}
		return true
	case *StructType:
		h, ok := v.(*Hash)
		if !ok {
			return false
		}
		if len(t.Elements) == 0 {
			return true
		}
		matched := 0
		for _, e := range t.Elements {
			ev, found := h.Get(String(e.Name))
			if !found {
				if !e.Optional {
					return false
				}
				continue
			}
			matched++
			if !IsInstance(e.Value, ev) {
				return false
			}
		}
		return matched == h.Len()
	case *CollectionType:
		var n int
		switch c := v.(type) {
		case Array:
			n = len(c)
		case *Hash:
			n = c.Len()
		default:
			return false
		}
		return int64(n) >= t.Min && int64(n) <= t.Max
	case *OptionalType:
		return IsUndef(v) || t.Type == nil || IsInstance(t.Type, v)
	case *NotUndefType:
		return !IsUndef(v) && (t.Type == nil || IsInstance(t.Type, v))
	case *VariantType:
		for _, e := range t.Types {
			if IsInstance(e, v) {
				return true
			}
		}
		return false
	case *TypeType:
		vt, ok := v.(Type)
		return ok && (t.Type == nil || IsAssignable(t.Type, vt))
	case *SensitiveType:
		s, ok := v.(*Sensitive)
		return ok && (t.Type == nil || IsInstance(t.Type, s.Value))
	case *IterableType:
		return isIterable(v) && (t.Type == nil || isAny(t.Type) || iterableElementsMatch(t.Type, v))
	case *IteratorType:
		it, ok := v.(*Iterator)
		return ok && (t.Type == nil || isAny(t.Type) || iterableElementsMatch(t.Type, it))
	case *CallableType:
		_, ok := v.(Callable)
		return ok
	case *ResourceType, *ClassType:
		// Resource and Class types have no runtime instances in the language:
		// references such as File['/x'] are types themselves.
		return false
	case *AliasType:
		return IsInstance(Resolve(t), v)
	case *TypeReference:
		return false
	}
	return false
}

func isInstanceSimple(t *simpleType, v Value) bool {
	switch Type(t) {
	case AnyType:
		return true
	case UndefType:
		return IsUndef(v)
	case DefaultType:
		return IsDefault(v)
	case NumericType:
		switch v.(type) {
		case Integer, Float:
			return true
		}
		return false
	case ScalarType:
		switch v.(type) {
		case String, Integer, Float, Boolean, *Regexp, *Timestamp, *Timespan, *SemVer:
			return true
		}
		return false
	case ScalarDataType:
		switch v.(type) {
		case String, Integer, Float, Boolean:
			return true
		}
		return false
	case DataType:
		return isData(v)
	case RichDataType:
		return isRichData(v)
	case CatalogEntry:
		return false
	case SemVerType:
		_, ok := v.(*SemVer)
		return ok
	case SemVerRangeType:
		_, ok := v.(*SemVerRange)
		return ok
	case TimestampType:
		_, ok := v.(*Timestamp)
		return ok
	case TimespanType:
		_, ok := v.(*Timespan)
		return ok
	case BinaryType:
		_, ok := v.(*Binary)
		return ok
	case DeferredType:
		_, ok := v.(*Deferred)
		return ok
	case RuntimeType:
		_, ok := v.(*Runtime)
		return ok
	}
	return false
}

func isData(v Value) bool {
	switch v := v.(type) {
	case nil, undefValue, String, Integer, Float, Boolean:
		return true
	case Array:
		for _, e := range v {
			if !isData(e) {
				return false
			}
		}
		return true
	case *Hash:
		for i, k := range v.keys {
			if _, ok := k.(String); !ok || !isData(v.vals[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func isRichData(v Value) bool {
	switch v := v.(type) {
	case nil, undefValue, defaultValue, String, Integer, Float, Boolean, *Regexp, Type, *Timestamp, *Timespan, *Binary, *Deferred, *SemVer, *SemVerRange:
		return true
	case *Sensitive:
		return isRichData(v.Value)
	case Array:
		for _, e := range v {
			if !isRichData(e) {
				return false
			}
		}
		return true
	case *Hash:
		for i, k := range v.keys {
			if !isRichData(k) || !isRichData(v.vals[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func isIterable(v Value) bool {
	switch v := v.(type) {
	case String, Array, *Hash, *Iterator:
		return true
	case Integer:
		return v >= 0
	case *IntegerType:
		return v.Min != MinInt && v.Max != MaxInt
	case *EnumType:
		return true
	}
	return false
}

// iterableElementsMatch checks every element an iteration of v would produce.
func iterableElementsMatch(t Type, v Value) bool {
	ok := true
	_ = Iterate(v, func(e Value) bool {
		if !IsInstance(t, e) {
			ok = false
		}
		return ok
	})
	return ok
}

// stringsEqualFoldUnicode is used for case-insensitive Enums, which Puppet
// compares with a Unicode downcase.
func stringsEqualFoldUnicode(a, b string) bool {
	return lowerUnicode(a) == lowerUnicode(b)
}
