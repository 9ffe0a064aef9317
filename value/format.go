package value

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// ToString converts a value to a string the way string interpolation and the
// logging functions do: strings are raw, undef is empty, collections are shown
// with their elements converted the same way.
func ToString(v Value) string {
	// Strings and integers, the common cases, need no builder (and strings
	// no copy).
	switch v := v.(type) {
	case nil, undefValue:
		return ""
	case String:
		return string(v)
	case Integer:
		return strconv.FormatInt(int64(v), 10)
	}
	var b strings.Builder
	writeString(&b, v)
	return b.String()
}

func writeString(b *strings.Builder, v Value) {
	switch v := v.(type) {
	case nil, undefValue:
	case String:
		b.WriteString(string(v))
	case Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeString(b, e)
		}
		b.WriteByte(']')
	case *Hash:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeString(b, k)
			b.WriteString(" => ")
			writeString(b, v.vals[i])
		}
		b.WriteByte('}')
	default:
		writeLiteral(b, v)
	}
}

// Literal formats a value the way Puppet shows it inside type parameters and
// error messages: strings single-quoted, undef as `undef`.
func Literal(v Value) string {
	var b strings.Builder
	writeLiteral(&b, v)
	return b.String()
}

func writeLiteral(b *strings.Builder, v Value) {
	switch v := v.(type) {
	case nil, undefValue:
		b.WriteString("undef")
	case defaultValue:
		b.WriteString("default")
	case String:
		writeQuoted(b, string(v))
	case Integer:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case Float:
		b.WriteString(FormatFloat(float64(v)))
	case Boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, e)
		}
		b.WriteByte(']')
	case *Hash:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, k)
			b.WriteString(" => ")
			writeLiteral(b, v.vals[i])
		}
		b.WriteByte('}')
	case *Regexp:
		writeRegexp(b, v.Source)
	case *Sensitive:
		b.WriteString("Sensitive [value redacted]")
	case *Timestamp:
		b.WriteString(v.String())
	case *Timespan:
		b.WriteString(v.String())
	case *SemVer:
		b.WriteString(v.String())
	case *SemVerRange:
		b.WriteString(v.String())
	case *Binary:
		b.WriteString(v.String())
	case *Deferred:
		b.WriteString(v.String())
	case *Runtime:
		b.WriteString(v.Text)
	case *AliasType:
		// A type alias as a string shows its definition, and so do the
		// aliases within it: Ports = Array[Port = Integer[1, 65535]]. Other
		// types show the aliases they use by name (Array[Port]).
		f := typeFormat{expand: true}
		f.write(b, v)
	case Type:
		writeType(b, v)
	default:
		b.WriteString("?")
	}
}

// writeQuoted writes s single-quoted, escaping as Puppet does in its output.
func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(s[i])
		}
	}
	b.WriteByte('\'')
}

func writeRegexp(b *strings.Builder, src string) {
	b.WriteByte('/')
	b.WriteString(strings.ReplaceAll(src, "/", `\/`))
	b.WriteByte('/')
}

// FormatFloat formats like Ruby's Float#to_s (which Puppet uses to print
// floats): shortest round-trip digits, always with a fraction, exponent form
// outside 1e-4 <= |f| < 1e15 (Ruby prints 1e15 as 1.0e+15).
func FormatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	// digits and decimal exponent, as Ruby computes them.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1
	var out string
	if decpt < -3 || decpt > 15 {
		frac := digits[1:]
		if frac == "" {
			frac = "0"
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		out = digits[:1] + "." + frac + "e" + sign + es
	} else if decpt <= 0 {
		out = "0." + strings.Repeat("0", -decpt) + digits
	} else if decpt >= len(digits) {
		out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	} else {
		out = digits[:decpt] + "." + digits[decpt:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// TypeString formats a type as Puppet prints it, e.g. `Integer[1, default]`.
func TypeString(t Type) string {
	var b strings.Builder
	writeType(&b, t)
	return b.String()
}

func writeParams(b *strings.Builder, name string, params []string) {
	// An unbounded maximum at the end is left out: Integer[1], not Integer[1, default].
	if n := len(params); n > 0 && params[n-1] == "default" && name != "Enum" && name != "Variant" {
		params = params[:n-1]
	}
	b.WriteString(name)
	if len(params) == 0 {
		return
	}
	b.WriteByte('[')
	b.WriteString(strings.Join(params, ", "))
	b.WriteByte(']')
}

func intBound(v int64, unbounded int64) string {
	if v == unbounded {
		return "default"
	}
	return strconv.FormatInt(v, 10)
}

// sizeParams renders a [min, max] size range, empty when unconstrained.
func sizeParams(min, max int64) []string {
	if min == 0 && max == MaxInt {
		return nil
	}
	return []string{intBound(min, MinInt), intBound(max, MaxInt)}
}

// typeFormat is the state of formatting one type.
type typeFormat struct {
	// expand writes each type alias as `Name = definition`, as Puppet
	// writes a type alias converted to a string; expanding holds the
	// aliases being written, so that a recursive one stops.
	expand    bool
	expanding []*AliasType
}

func (f *typeFormat) string(t Type) string {
	var b strings.Builder
	f.write(&b, t)
	return b.String()
}

func writeType(b *strings.Builder, t Type) {
	var f typeFormat
	f.write(b, t)
}

func (f *typeFormat) write(b *strings.Builder, t Type) {
	switch t := t.(type) {
	case *simpleType:
		b.WriteString(t.name)
	case *IntegerType:
		if t.Min == MinInt && t.Max == MaxInt {
			b.WriteString("Integer")
			return
		}
		writeParams(b, "Integer", []string{intBound(t.Min, MinInt), intBound(t.Max, MaxInt)})
	case *FloatType:
		if math.IsInf(t.Min, -1) && math.IsInf(t.Max, 1) {
			b.WriteString("Float")
			return
		}
		lo, hi := "default", "default"
		if !math.IsInf(t.Min, -1) {
			lo = FormatFloat(t.Min)
		}
		if !math.IsInf(t.Max, 1) {
			hi = FormatFloat(t.Max)
		}
		writeParams(b, "Float", []string{lo, hi})
	case *StringType:
		writeParams(b, "String", sizeParams(t.Min, t.Max))
	case *EnumType:
		ps := make([]string, 0, len(t.Values)+1)
		for _, v := range t.Values {
			ps = append(ps, Literal(String(v)))
		}
		if t.CaseInsensitive {
			ps = append(ps, "true")
		}
		writeParams(b, "Enum", ps)
	case *PatternType:
		ps := make([]string, len(t.Regexps))
		for i, r := range t.Regexps {
			ps[i] = Literal(r)
		}
		writeParams(b, "Pattern", ps)
	case *RegexpType:
		if t.Pattern == nil {
			b.WriteString("Regexp")
			return
		}
		writeParams(b, "Regexp", []string{Literal(t.Pattern)})
	case *BooleanType:
		if t.Value == nil {
			b.WriteString("Boolean")
			return
		}
		writeParams(b, "Boolean", []string{strconv.FormatBool(*t.Value)})
	case *ArrayType:
		var ps []string
		// The element type of an empty array's inferred type (Unit) is left
		// out only where the size says the array is empty.
		if !isAny(t.Elem) && !(t.Elem == UnitType && t.Max == 0) {
			ps = append(ps, f.string(t.Elem))
		}
		ps = append(ps, sizeParams(t.Min, t.Max)...)
		writeParams(b, "Array", ps)
	case *HashType:
		var ps []string
		if (!isAny(t.Key) || !isAny(t.Value)) && !(t.Key == UnitType && t.Max == 0) {
			ps = append(ps, f.string(t.Key), f.string(t.Value))
		}
		ps = append(ps, sizeParams(t.Min, t.Max)...)
		writeParams(b, "Hash", ps)
	case *TupleType:
		ps := make([]string, 0, len(t.Types)+2)
		for _, e := range t.Types {
			ps = append(ps, f.string(e))
		}
		if t.Min != int64(len(t.Types)) || t.Max != int64(len(t.Types)) {
			ps = append(ps, intBound(t.Min, MinInt), intBound(t.Max, MaxInt))
		}
		writeParams(b, "Tuple", ps)
	case *StructType:
		if len(t.Elements) == 0 {
			b.WriteString("Struct")
			return
		}
		b.WriteString("Struct[{")
		for i, e := range t.Elements {
			if i > 0 {
				b.WriteString(", ")
			}
			if e.KeyType != nil {
				f.write(b, e.KeyType)
			} else {
				writeQuoted(b, e.Name)
			}
			b.WriteString(" => ")
			f.write(b, e.Value)
		}
		b.WriteString("}]")
	case *CollectionType:
		writeParams(b, "Collection", sizeParams(t.Min, t.Max))
	case *OptionalType:
		f.writeWrapped(b, "Optional", t.Type)
	case *NotUndefType:
		f.writeWrapped(b, "NotUndef", t.Type)
	case *VariantType:
		ps := make([]string, len(t.Types))
		for i, e := range t.Types {
			ps[i] = f.string(e)
		}
		writeParams(b, "Variant", ps)
	case *TypeType:
		f.writeWrapped(b, "Type", t.Type)
	case *SensitiveType:
		f.writeWrapped(b, "Sensitive", t.Type)
	case *IterableType:
		f.writeWrapped(b, "Iterable", t.Type)
	case *IteratorType:
		f.writeWrapped(b, "Iterator", t.Type)
	case *CallableType:
		ps := make([]string, 0, len(t.Params)+3)
		for _, p := range t.Params {
			ps = append(ps, f.string(p))
		}
		if t.Min != int64(len(t.Params)) || t.Max != int64(len(t.Params)) {
			if !(len(t.Params) == 0 && t.Min == 0 && t.Max == MaxInt) {
				ps = append(ps, intBound(t.Min, MinInt), intBound(t.Max, MaxInt))
			}
		}
		if t.Block != nil {
			ps = append(ps, f.string(t.Block))
		}
		writeParams(b, "Callable", ps)
	case *ResourceType:
		switch {
		case t.Type == "":
			b.WriteString("Resource")
		case t.Title == "":
			b.WriteString(t.Type)
		case t.Reference:
			b.WriteString(t.Type)
			b.WriteByte('[')
			b.WriteString(t.Title)
			b.WriteByte(']')
		default:
			b.WriteString(t.Type)
			b.WriteByte('[')
			writeQuoted(b, t.Title)
			b.WriteByte(']')
		}
	case *ClassType:
		if t.Name == "" {
			b.WriteString("Class")
			return
		}
		b.WriteString("Class[")
		b.WriteString(t.Name)
		b.WriteByte(']')
	case *TypeReference:
		b.WriteString(t.Name)
	case *SemVerRangesType:
		ps := make([]string, len(t.Ranges))
		for i, r := range t.Ranges {
			ps[i] = Literal(String(r.String()))
		}
		writeParams(b, "SemVer", ps)
	case *AliasType:
		b.WriteString(t.Name)
		if f.expand && t.Resolved != nil && !slices.Contains(f.expanding, t) {
			// The alias's definition follows its name; an alias met again
			// inside its own definition is left as its name.
			b.WriteString(" = ")
			f.expanding = append(f.expanding, t)
			f.write(b, t.Resolved)
			f.expanding = f.expanding[:len(f.expanding)-1]
		}
	default:
		b.WriteString("?")
	}
}

// writeWrapped writes Name[T], or Name alone when T is absent or Any.
func (f *typeFormat) writeWrapped(b *strings.Builder, name string, t Type) {
	if t == nil || isAny(t) {
		b.WriteString(name)
		return
	}
	// Optional['a'] and NotUndef['a'] print their string shorthand.
	if e, ok := t.(*EnumType); ok && (name == "Optional" || name == "NotUndef") && len(e.Values) == 1 && !e.CaseInsensitive {
		writeParams(b, name, []string{Literal(String(e.Values[0]))})
		return
	}
	writeParams(b, name, []string{f.string(t)})
}

func isAny(t Type) bool { return t == nil || t == AnyType }
