package value

import (
	"strconv"
	"strings"
)

// DescribeMismatch explains why v is not an instance of t, in Puppet's words:
// "expects an Integer value, got String", "index 1 expects a String value,
// got Integer", "entry 'size' expects ...", "expects a match for Enum['a'],
// got 'b'". The result has no subject; callers prefix "parameter 'x' ".
func DescribeMismatch(t Type, v Value) string {
	path, t, v := mismatchPath(t, v)
	msg := describeLeaf(t, v)
	if len(path) > 0 {
		return strings.Join(path, " ") + " " + msg
	}
	return msg
}

// mismatchPath descends into collections to the element that fails.
func mismatchPath(t Type, v Value) ([]string, Type, Value) {
	var path []string
	for {
		switch tt := Resolve(t).(type) {
		case *ArrayType:
			a, ok := v.(Array)
			if !ok || int64(len(a)) < tt.Min || int64(len(a)) > tt.Max {
				return path, t, v
			}
			found := false
			for i, e := range a {
				if !IsInstance(tt.Elem, e) {
					path = append(path, "index "+strconv.Itoa(i))
					t, v, found = tt.Elem, e, true
					break
				}
			}
			if !found {
				return path, t, v
			}
		case *HashType:
			h, ok := v.(*Hash)
			if !ok || int64(h.Len()) < tt.Min || int64(h.Len()) > tt.Max {
				return path, t, v
			}
			found := false
			for i, k := range h.Keys() {
				if !IsInstance(tt.Key, k) {
					return path, t, v
				}
				if !IsInstance(tt.Value, h.Values()[i]) {
					path = append(path, "entry "+Literal(k))
					t, v, found = tt.Value, h.Values()[i], true
					break
				}
			}
			if !found {
				return path, t, v
			}
		case *StructType:
			h, ok := v.(*Hash)
			if !ok {
				return path, t, v
			}
			found := false
			for _, e := range tt.Elements {
				ev, present := h.GetString(e.Name)
				if present && !IsInstance(e.Value, ev) {
					path = append(path, "entry '"+e.Name+"'")
					t, v, found = e.Value, ev, true
					break
				}
			}
			if !found {
				return path, t, v
			}
		case *OptionalType:
			if IsUndef(v) || tt.Type == nil {
				return path, t, v
			}
			// Optional[Alias] fails as the alias does: Puppet describes
			// the alias, without Undef.
			if _, isAlias := tt.Type.(*AliasType); isAlias {
				t = tt.Type
				continue
			}
			// Optional[T] with a defined value fails like T, except that
			// Puppet names the Undef alternative for scalars.
			// Descend only when the value is a collection of the inner
			// type's kind; otherwise Puppet names the Undef alternative.
			_, isArray := v.(Array)
			_, isHash := v.(*Hash)
			switch Resolve(tt.Type).(type) {
			case *ArrayType:
				if !isArray {
					return path, t, v
				}
			case *HashType, *StructType:
				if !isHash {
					return path, t, v
				}
			default:
				return path, t, v
			}
			t = tt.Type
		default:
			return path, t, v
		}
	}
}

func describeLeaf(t Type, v Value) string {
	if h, ok := v.(*Hash); ok {
		if st, ok := Resolve(t).(*StructType); ok {
			for _, e := range st.Elements {
				if _, present := h.GetString(e.Name); !present && !e.Optional {
					return "expects a value for key '" + e.Name + "'"
				}
			}
			for _, k := range h.Keys() {
				if s, ok := k.(String); !ok || st.element(string(s)) == nil {
					return "unrecognized key " + Literal(k)
				}
			}
		}
	}
	// An alias of a Variant that rejects the value is named with what it
	// stands for, as any other alias.
	if a, ok := t.(*AliasType); ok && a.Resolved != nil {
		if _, isVariant := Resolve(a).(*VariantType); isVariant {
			return "expects " + withArticle(a.Name+" = "+TypeString(a.Resolved)) + " value, got " + listActual([]Type{a.Resolved}, v)
		}
	}
	switch tt := Resolve(t).(type) {
	case *EnumType, *PatternType:
		expected := TypeString(t)
		if a, ok := t.(*AliasType); ok && a.Resolved != nil {
			// An alias is named with what it stands for.
			expected = a.Name + " = " + TypeString(a.Resolved)
		}
		if s, ok := v.(String); ok {
			return "expects a match for " + expected + ", got " + Literal(s)
		}
		return "expects a match for " + expected + ", got " + shortTypeName(TypeOf(v))
	case *NotUndefType:
		if tt.Type != nil && !IsUndef(v) {
			return describeLeaf(tt.Type, v)
		}
	case *ArrayType:
		if a, ok := v.(Array); ok && (int64(len(a)) < tt.Min || int64(len(a)) > tt.Max) {
			return "expects size to be " + sizeWords(tt.Min, tt.Max) + ", got " + sizeWords(int64(len(a)), int64(len(a)))
		}
	case *HashType:
		if h, ok := v.(*Hash); ok && (int64(h.Len()) < tt.Min || int64(h.Len()) > tt.Max) {
			return "expects size to be " + sizeWords(tt.Min, tt.Max) + ", got " + sizeWords(int64(h.Len()), int64(h.Len()))
		}
	case *VariantType:
		return alternativesMismatch(tt.Types, false, v)
	case *OptionalType:
		// Optional[Variant[A, B]] lists Undef and each of the Variant's
		// alternatives as one list, as Puppet's describer does.
		if vt, ok := tt.Type.(*VariantType); ok {
			return alternativesMismatch(vt.Types, true, v)
		}
		return "expects a value of type Undef or " + TypeString(tt.Type) + ", got " + actualName(tt.Type, v)
	}
	expected := TypeString(t)
	if a, ok := t.(*AliasType); ok && a.Resolved != nil {
		expected = a.Name + " = " + TypeString(a.Resolved)
	} else if !reportDetailed(t, TypeOf(v)) {
		// Of different kinds: Puppet names only the kinds ("expects an
		// Array value, got String" for Array[String] given a String).
		return "expects " + withArticle(shortTypeName(t)) + " value, got " + shortTypeName(TypeOf(v))
	}
	return "expects " + withArticle(expected) + " value, got " + actualName(t, v)
}

// sizeWords words a size range as Puppet's size mismatches do.
func sizeWords(lo, hi int64) string {
	switch {
	case lo == hi:
		return strconv.FormatInt(lo, 10)
	case lo == 0 && hi == MaxInt:
		return "unlimited"
	case lo == 0:
		return "at most " + strconv.FormatInt(hi, 10)
	case hi == MaxInt:
		return "at least " + strconv.FormatInt(lo, 10)
	}
	return "between " + strconv.FormatInt(lo, 10) + " and " + strconv.FormatInt(hi, 10)
}

// reportDetailed says whether a mismatch message shows the expected type
// with its parameters: when the actual type is of the same kind, a Tuple
// for an Array or a Hash for a Struct, or one the expected kind's
// unparameterized form accepts (an Integer[1, 5] given 7).
func reportDetailed(e, a Type) bool {
	e = Resolve(e)
	if e.TypeName() == a.TypeName() {
		return true
	}
	switch e.(type) {
	case *StructType:
		if _, ok := a.(*HashType); ok {
			return true
		}
	case *TupleType:
		if _, ok := a.(*ArrayType); ok {
			return true
		}
	}
	base, ok := baseTypes[e.TypeName()]
	return ok && IsAssignable(base, a)
}

// shortTypeName is a type's kind as mismatch messages name it: its name,
// with the contained type for the wrappers (Sensitive[String]).
func shortTypeName(t Type) string {
	var inner Type
	switch t := t.(type) {
	case *SensitiveType:
		inner = t.Type
	case *OptionalType:
		inner = t.Type
	case *NotUndefType:
		inner = t.Type
	case *TypeType:
		inner = t.Type
	}
	if inner != nil && inner != AnyType {
		return t.TypeName() + "[" + inner.TypeName() + "]"
	}
	return t.TypeName()
}

func joinAlternatives(ts []Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = TypeString(t)
	}
	return joinNames(names)
}

// joinNames lists type names as Puppet does: "A or B", "A, B, or C".
func joinNames(names []string) string {
	switch len(names) {
	case 0, 1:
		return strings.Join(names, "")
	case 2:
		return names[0] + " or " + names[1]
	}
	// Puppet writes the serial comma: "String, Array, or Hash".
	return strings.Join(names[:len(names)-1], ", ") + ", or " + names[len(names)-1]
}

// actualName names the actual value's type: detailed when the expected type
// is of the same kind (so the range shows), generalized otherwise.
func actualName(expected Type, v Value) string {
	actual := TypeOf(v)
	if Resolve(expected).TypeName() == actual.TypeName() {
		return TypeString(actual)
	}
	g := Generalize(actual)
	switch g.(type) {
	case *ArrayType, *HashType:
		if _, isTuple := actual.(*TupleType); isTuple {
			return "Tuple"
		}
		if _, isStruct := actual.(*StructType); isStruct {
			return "Struct"
		}
	}
	return TypeString(g)
}

func withArticle(name string) string {
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// alternativesMismatch words a value that none of the alternatives ts (of
// a Variant, Undef first when optional) accepts, as Puppet's describer
// does: each alternative in full and the value's own type when one of
// them is of the value's kind (or would be, unparameterized), else only
// the kinds ("expects a value of type Undef, Array, or String, got
// Integer").
func alternativesMismatch(ts []Type, optional bool, v Value) string {
	actual := TypeOf(v)
	detailed := false
	for _, t := range ts {
		if _, isAlias := t.(*AliasType); isAlias || reportDetailed(t, actual) {
			detailed = true
			break
		}
	}
	var names []string
	a := shortTypeName(actual)
	if detailed {
		for _, t := range ts {
			if al, ok := t.(*AliasType); ok && al.Resolved != nil {
				names = append(names, al.Name+" = "+TypeString(al.Resolved))
			} else {
				names = append(names, TypeString(t))
			}
		}
		a = listActual(ts, v)
	} else {
		seen := map[string]bool{}
		for _, t := range ts {
			if n := shortTypeName(t); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if optional {
		names = append([]string{"Undef"}, names...)
	}
	if len(names) == 1 {
		return "expects " + withArticle(names[0]) + " value, got " + a
	}
	return "expects a value of type " + joinNames(names) + ", got " + a
}

// listActual names the value's type for a mismatch against the
// alternatives ts whose report is detailed: in full when one of them (its
// alias resolved) is of the value's kind or accepts the value's
// generalized type, else the bare kind.
func listActual(ts []Type, v Value) string {
	actual := TypeOf(v)
	for _, t := range ts {
		e := Resolve(t)
		if e.TypeName() == actual.TypeName() {
			return TypeString(actual)
		}
		switch e.(type) {
		case *StructType:
			if _, ok := actual.(*HashType); ok {
				return TypeString(actual)
			}
		case *TupleType:
			if _, ok := actual.(*ArrayType); ok {
				return TypeString(actual)
			}
		}
	}
	g := Generalize(actual)
	for _, t := range ts {
		if IsAssignable(t, g) {
			return TypeString(actual)
		}
	}
	return actual.TypeName()
}

// DescribeMismatches is DescribeMismatch, but one description for each
// alternative when v fails a Variant (or an Optional[Variant]) in
// different ways, as Puppet reports them: "variant 1 expects size to be
// 2, got 1" beside "variant 2 expects a String value, got Tuple" (numbered
// from 0, Undef first for an Optional). Alternatives that all reject v's
// kind are one description, as DescribeMismatch words it.
func DescribeMismatches(t Type, v Value) []string {
	path, lt, lv := mismatchPath(t, v)
	var alts []Type
	switch tt := lt.(type) {
	case *VariantType:
		alts = tt.Types
	case *OptionalType:
		if vt, ok := tt.Type.(*VariantType); ok {
			alts = append([]Type{UndefType}, vt.Types...)
		}
	}
	if alts == nil || IsUndef(lv) {
		return []string{DescribeMismatch(t, v)}
	}
	apart := false
	for _, a := range alts {
		if sameKindCollection(a, lv) {
			apart = true
		}
	}
	if !apart {
		return []string{DescribeMismatch(t, v)}
	}
	prefix := strings.Join(path, " ")
	if prefix != "" {
		prefix += " "
	}
	var out []string
	for i, a := range alts {
		if IsInstance(a, lv) {
			continue
		}
		out = append(out, prefix+"variant "+strconv.Itoa(i)+" "+DescribeMismatch(a, lv))
	}
	return out
}

// sameKindCollection reports whether t is a collection type of v's kind
// (an Array or Tuple for an array, a Hash or Struct for a hash), which v
// fails by its size or its elements rather than by its kind.
func sameKindCollection(t Type, v Value) bool {
	switch Resolve(t).(type) {
	case *ArrayType, *TupleType:
		_, ok := v.(Array)
		return ok
	case *HashType, *StructType:
		_, ok := v.(*Hash)
		return ok
	}
	return false
}
