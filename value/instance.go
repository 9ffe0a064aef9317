package value

import "unicode/utf8"

// IsInstance reports whether v is an instance of type t. A Pattern whose
// match timed out counts as no match; code that decides on the answer
// (parameter and assert checks, `=~`, case) uses CheckInstance.
func IsInstance(t Type, v Value) bool { return isInstance(t, v, nil) }

// CheckInstance is IsInstance, or the *RegexpTimeout of a Pattern's
// regexp that timed out on v (or on an element of it): then v is neither
// an instance nor not one, and the caller fails.
func CheckInstance(t Type, v Value) (bool, error) {
	var c instanceCheck
	ok := isInstance(t, v, &c)
	if c.err != nil {
		return false, c.err
	}
	return ok, nil
}

// instanceCheck records the first regexp timeout of a CheckInstance.
type instanceCheck struct{ err error }

func isInstance(t Type, v Value, c *instanceCheck) bool {
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
			ok, err := r.Match(string(s))
			if err != nil && c != nil && c.err == nil {
				c.err = err
			}
			if ok {
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
			if !isInstance(t.Elem, e, c) {
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
			if !isInstance(t.Key, k, c) || !isInstance(t.Value, h.vals[i], c) {
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
			if !isInstance(et, e, c) {
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
			if !isInstance(e.Value, ev, c) {
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
		return IsUndef(v) || t.Type == nil || isInstance(t.Type, v, c)
	case *NotUndefType:
		return !IsUndef(v) && (t.Type == nil || isInstance(t.Type, v, c))
	case *VariantType:
		for _, e := range t.Types {
			if isInstance(e, v, c) {
				return true
			}
		}
		return false
	case *TypeType:
		vt, ok := v.(Type)
		return ok && (t.Type == nil || IsAssignable(t.Type, vt))
	case *SensitiveType:
		s, ok := v.(*Sensitive)
		return ok && (t.Type == nil || isInstance(t.Type, s.Value, c))
	case *IterableType:
		return isIterable(v) && (t.Type == nil || isAny(t.Type) || iterableElementsMatch(t.Type, v, c))
	case *IteratorType:
		it, ok := v.(*Iterator)
		return ok && (t.Type == nil || isAny(t.Type) || iterableElementsMatch(t.Type, it, c))
	case *CallableType:
		_, ok := v.(Callable)
		return ok
	case *ResourceType, *ClassType:
		// Resource and Class types have no runtime instances in the language:
		// references such as File['/x'] are types themselves.
		return false
	case *AliasType:
		return isInstance(Resolve(t), v, c)
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
func iterableElementsMatch(t Type, v Value, c *instanceCheck) bool {
	if a, isArray := v.(Array); isArray {
		for _, e := range a {
			if !isInstance(t, e, c) {
				return false
			}
		}
		return true
	}
	// The closure gets a check of its own: were c captured, every
	// CheckInstance would allocate its check on the heap.
	var inner instanceCheck
	ok := true
	_ = Iterate(v, func(e Value) bool {
		if !isInstance(t, e, &inner) {
			ok = false
		}
		return ok
	})
	if inner.err != nil && c != nil && c.err == nil {
		c.err = inner.err
	}
	return ok
}

// stringsEqualFoldUnicode is used for case-insensitive Enums, which Puppet
// compares with a Unicode downcase.
func stringsEqualFoldUnicode(a, b string) bool {
	return lowerUnicode(a) == lowerUnicode(b)
}
