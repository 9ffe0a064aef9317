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
	switch tt := Resolve(t).(type) {
	case *EnumType, *PatternType:
		if s, ok := v.(String); ok {
			return "expects a match for " + TypeString(t) + ", got " + Literal(s)
		}
		_ = tt
	case *VariantType:
		return "expects a value of type " + joinAlternatives(tt.Types) + ", got " + actualName(t, v)
	case *OptionalType:
		return "expects a value of type Undef or " + TypeString(tt.Type) + ", got " + actualName(tt.Type, v)
	}
	expected := TypeString(t)
	if a, ok := t.(*AliasType); ok && a.Resolved != nil {
		expected = a.Name + " = " + TypeString(a.Resolved)
	}
	return "expects " + withArticle(expected) + " value, got " + actualName(t, v)
}

func joinAlternatives(ts []Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = TypeString(t)
	}
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
