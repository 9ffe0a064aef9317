package value

import (
	"math"
	"strings"
)

// Type is a Puppet data type. Types are values too.
type Type interface {
	Value
	// TypeName is the type's base name as written in Puppet, e.g. "Integer".
	TypeName() string
}

// simpleType is a parameterless type identified only by its name
// (Any, Scalar, Data, Undef, ...).
type simpleType struct{ name string }

func (*simpleType) isValue()           {}
func (t *simpleType) TypeName() string { return t.name }

// The parameterless types. They are singletons so identity comparison works.
var (
	AnyType         Type = &simpleType{"Any"}
	UndefType       Type = &simpleType{"Undef"}
	DefaultType     Type = &simpleType{"Default"}
	ScalarType      Type = &simpleType{"Scalar"}
	ScalarDataType  Type = &simpleType{"ScalarData"}
	DataType        Type = &simpleType{"Data"}
	RichDataType    Type = &simpleType{"RichData"}
	NumericType     Type = &simpleType{"Numeric"}
	CatalogEntry    Type = &simpleType{"CatalogEntry"}
	UnitType        Type = &simpleType{"Unit"}
	SemVerType      Type = &simpleType{"SemVer"}
	SemVerRangeType Type = &simpleType{"SemVerRange"}
	TimestampType   Type = &simpleType{"Timestamp"}
	TimespanType    Type = &simpleType{"Timespan"}
	BinaryType      Type = &simpleType{"Binary"}
	URIType         Type = &simpleType{"URI"}
	ObjectType      Type = &simpleType{"Object"}
	TypeSetType     Type = &simpleType{"TypeSet"}
	ErrorType       Type = &simpleType{"Error"}
	DeferredType    Type = &simpleType{"Deferred"}
	RuntimeType     Type = &simpleType{"Runtime"}
	InitType        Type = &simpleType{"Init"}
	TypeAliasType   Type = &simpleType{"TypeAlias"}
)

// Unbounded ends of integer ranges.
const (
	MinInt = math.MinInt64
	MaxInt = math.MaxInt64
)

// IntegerType is Integer[Min, Max]; MinInt/MaxInt mean unbounded.
type IntegerType struct{ Min, Max int64 }

// FloatType is Float[Min, Max]; ±Inf mean unbounded.
type FloatType struct{ Min, Max float64 }

// StringType is String[Min, Max] (length in characters).
type StringType struct{ Min, Max int64 }

// EnumType is Enum['a', 'b', ...], optionally case-insensitive.
type EnumType struct {
	Values          []string
	CaseInsensitive bool
}

// PatternType is Pattern[/re/, ...]; it matches strings matching any regexp.
type PatternType struct{ Regexps []*Regexp }

// RegexpType is Regexp or Regexp[/re/].
type RegexpType struct{ Pattern *Regexp }

// BooleanType is Boolean or Boolean[true|false].
type BooleanType struct{ Value *bool }

// ArrayType is Array[Elem, Min, Max].
type ArrayType struct {
	Elem     Type
	Min, Max int64
}

// HashType is Hash[Key, Value, Min, Max].
type HashType struct {
	Key, Value Type
	Min, Max   int64
}

// TupleType is Tuple[T1, T2, ..., Min, Max].
type TupleType struct {
	Types    []Type
	Min, Max int64 // the size range; defaults to len(Types)
}

// StructElement is one member of a Struct: a key type (a String-valued Enum, or
// Optional/NotUndef of one) and a value type.
type StructElement struct {
	Name     string
	Optional bool // key may be absent (key written Optional['k'] or value type accepts undef)
	KeyType  Type // as written, for formatting
	Value    Type
}

// StructType is Struct[{...}].
type StructType struct{ Elements []StructElement }

// CollectionType is Collection[Min, Max].
type CollectionType struct{ Min, Max int64 }

// OptionalType is Optional[T].
type OptionalType struct{ Type Type }

// NotUndefType is NotUndef[T].
type NotUndefType struct{ Type Type }

// VariantType is Variant[T...].
type VariantType struct{ Types []Type }

// TypeType is Type[T], the type of types.
type TypeType struct{ Type Type }

// SensitiveType is Sensitive[T].
type SensitiveType struct{ Type Type }

// IterableType is Iterable[T].
type IterableType struct{ Type Type }

// IteratorType is Iterator[T].
type IteratorType struct{ Type Type }

// CallableType is Callable[...]; only its printed form and parameter types are kept.
type CallableType struct {
	Params   []Type
	Min, Max int64
	Block    Type
	Return   Type
}

// ResourceType is Resource, Resource[type], File or File['title'].
// TypeName is the capitalized resource type name ("File", "Mymod::Thing"), empty
// for the bare Resource type; Title is empty when none is given.
type ResourceType struct {
	Type  string
	Title string
	// Reference marks a resource reference made in Ruby (a
	// Puppet::Resource, as stdlib's str2resource returns): it prints as
	// Type[title], without quotes.
	Reference bool
}

// ClassType is Class or Class[name].
type ClassType struct{ Name string }

// TypeReference is a capitalized name that could not be resolved yet (an
// undefined type alias, for example); it is only assignable to itself.
type TypeReference struct{ Name string }

// AliasType is a named alias (`type Foo = ...`) and what it resolves to.
type AliasType struct {
	Name     string
	Resolved Type
}

func (*IntegerType) isValue()    {}
func (*FloatType) isValue()      {}
func (*StringType) isValue()     {}
func (*EnumType) isValue()       {}
func (*PatternType) isValue()    {}
func (*RegexpType) isValue()     {}
func (*BooleanType) isValue()    {}
func (*ArrayType) isValue()      {}
func (*HashType) isValue()       {}
func (*TupleType) isValue()      {}
func (*StructType) isValue()     {}
func (*CollectionType) isValue() {}
func (*OptionalType) isValue()   {}
func (*NotUndefType) isValue()   {}
func (*VariantType) isValue()    {}
func (*TypeType) isValue()       {}
func (*SensitiveType) isValue()  {}
func (*IterableType) isValue()   {}
func (*IteratorType) isValue()   {}
func (*CallableType) isValue()   {}
func (*ResourceType) isValue()   {}
func (*ClassType) isValue()      {}
func (*TypeReference) isValue()  {}
func (*AliasType) isValue()      {}

func (*IntegerType) TypeName() string    { return "Integer" }
func (*FloatType) TypeName() string      { return "Float" }
func (*StringType) TypeName() string     { return "String" }
func (*EnumType) TypeName() string       { return "Enum" }
func (*PatternType) TypeName() string    { return "Pattern" }
func (*RegexpType) TypeName() string     { return "Regexp" }
func (*BooleanType) TypeName() string    { return "Boolean" }
func (*ArrayType) TypeName() string      { return "Array" }
func (*HashType) TypeName() string       { return "Hash" }
func (*TupleType) TypeName() string      { return "Tuple" }
func (*StructType) TypeName() string     { return "Struct" }
func (*CollectionType) TypeName() string { return "Collection" }
func (*OptionalType) TypeName() string   { return "Optional" }
func (*NotUndefType) TypeName() string   { return "NotUndef" }
func (*VariantType) TypeName() string    { return "Variant" }
func (*TypeType) TypeName() string       { return "Type" }
func (*SensitiveType) TypeName() string  { return "Sensitive" }
func (*IterableType) TypeName() string   { return "Iterable" }
func (*IteratorType) TypeName() string   { return "Iterator" }
func (*CallableType) TypeName() string   { return "Callable" }
func (t *ResourceType) TypeName() string {
	if t.Type == "" {
		return "Resource"
	}
	return t.Type
}
func (*ClassType) TypeName() string       { return "Class" }
func (t *TypeReference) TypeName() string { return t.Name }
func (t *AliasType) TypeName() string     { return t.Name }

// Unparameterized instances of the parameterizable types.
var (
	IntegerAny    = &IntegerType{MinInt, MaxInt}
	FloatAny      = &FloatType{math.Inf(-1), math.Inf(1)}
	StringAny     = &StringType{0, MaxInt}
	RegexpAny     = &RegexpType{}
	BooleanAny    = &BooleanType{}
	ArrayAny      = &ArrayType{AnyType, 0, MaxInt}
	HashAny       = &HashType{AnyType, AnyType, 0, MaxInt}
	CollectionAny = &CollectionType{0, MaxInt}
	ResourceAny   = &ResourceType{}
	ClassAny      = &ClassType{}
	TypeAny       = &TypeType{AnyType}
	CallableAny   = &CallableType{Min: 0, Max: MaxInt}
	IterableAny   = &IterableType{AnyType}
	IteratorAny   = &IteratorType{AnyType}
	SensitiveAny  = &SensitiveType{AnyType}
	OptionalAny   = &OptionalType{}
	NotUndefAny   = &NotUndefType{}
	EnumAny       = &EnumType{}
	PatternAny    = &PatternType{}
	TupleAny      = &TupleType{Min: 0, Max: MaxInt}
	StructAny     = &StructType{}
	VariantAny    = &VariantType{}
)

// Resolve follows type aliases to the type they stand for.
func Resolve(t Type) Type {
	for i := 0; i < 64; i++ { // aliases cannot be deeper than this in practice; guard cycles
		a, ok := t.(*AliasType)
		if !ok || a.Resolved == nil {
			return t
		}
		t = a.Resolved
	}
	return t
}

// TypesEqual reports whether two types are the same type.
func TypesEqual(a, b Type) bool {
	if a == b {
		return true
	}
	if typesDiffer(a, b) {
		return false
	}
	return TypeString(a) == TypeString(b)
}

// typesDiffer is a cheap test that two types print differently, for the
// common case of Struct keys (Optional['name'], 'name'): true only when
// sure. Building both strings for every pair made a Struct literal's keys
// quadratic in string building.
func typesDiffer(a, b Type) bool {
	switch x := a.(type) {
	case *OptionalType:
		if y, ok := b.(*OptionalType); ok {
			return x.Type != nil && y.Type != nil && typesDiffer(x.Type, y.Type)
		}
	case *NotUndefType:
		if y, ok := b.(*NotUndefType); ok {
			return x.Type != nil && y.Type != nil && typesDiffer(x.Type, y.Type)
		}
	case *EnumType:
		if y, ok := b.(*EnumType); ok {
			return len(x.Values) == 1 && len(y.Values) == 1 && x.Values[0] != y.Values[0]
		}
	}
	ka, kb := plainKind(a), plainKind(b)
	return ka != 0 && kb != 0 && ka != kb
}

// plainKind numbers the kinds of type whose string form starts with their
// own type's name (two such types of different kinds never print alike),
// 0 for the others.
func plainKind(t Type) int {
	switch t.(type) {
	case *OptionalType:
		return 1
	case *NotUndefType:
		return 2
	case *EnumType:
		return 3
	case *IntegerType:
		return 4
	case *FloatType:
		return 5
	case *ArrayType:
		return 6
	case *HashType:
		return 7
	case *StructType:
		return 8
	case *TupleType:
		return 9
	}
	return 0
}

// NewEnum builds Enum[values...] with values sorted out of duplicates as Puppet keeps them.
func NewEnum(values []string, caseInsensitive bool) *EnumType {
	return &EnumType{Values: values, CaseInsensitive: caseInsensitive}
}

// NewVariant builds Variant[types...], flattening nested variants and
// dropping duplicates like Puppet's normalization does.
func NewVariant(types ...Type) Type {
	var out []Type
	seen := map[string]bool{}
	var add func(t Type)
	add = func(t Type) {
		if v, ok := t.(*VariantType); ok {
			for _, e := range v.Types {
				add(e)
			}
			return
		}
		s := TypeString(t)
		if !seen[s] {
			seen[s] = true
			out = append(out, t)
		}
	}
	for _, t := range types {
		add(t)
	}
	return &VariantType{Types: out}
}

// isCapitalized reports whether CapitalizeName would leave name as it is.
func isCapitalized(name string) bool {
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == ':':
			upper = true
		case upper:
			if 'a' <= c && c <= 'z' {
				return false
			}
			upper = false
		case 'A' <= c && c <= 'Z':
			return false
		}
	}
	return true
}

// CapitalizeName turns a resource type name like "mymod::thing" into the form
// Puppet prints in references: each segment capitalized ("Mymod::Thing").
func CapitalizeName(name string) string {
	name = strings.TrimPrefix(name, "::")
	if name == "" {
		return name
	}
	if isCapitalized(name) {
		return name // as written in the source, most of the time: no copy
	}
	// Ruby's String#capitalize per segment: first letter up, the rest down.
	var b strings.Builder
	b.Grow(len(name))
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == ':':
			upper = true
		case upper:
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			upper = false
		default:
			c = lowerASCII(c)
		}
		b.WriteByte(c)
	}
	return b.String()
}
