package functions

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// Puppet's 4.x functions declare one or more signatures ("dispatches"); a
// call runs the first signature that accepts its arguments and block, and
// when none does the error describes why, merged over all signatures the way
// Puppet's TypeMismatchDescriber does. This file is that machinery.

// param is one declared parameter of a signature.
type param struct {
	name string
	typ  value.Type
	// accepts, when set, replaces the instance check of typ where Puppet's
	// check differs from value.IsInstance.
	accepts func(value.Value) bool
}

func (p param) accept(v value.Value) bool {
	if p.accepts != nil {
		return p.accepts(v)
	}
	return value.IsInstance(p.typ, v)
}

// blockKind says whether a signature takes a block.
type blockKind int

const (
	noBlock blockKind = iota
	optionalBlock
	requiredBlock
)

// signature is one dispatch of a function. The first required parameters are
// mandatory, the rest optional; with repeated set the last parameter takes
// any number of further arguments (at least one if it is also required).
type signature struct {
	params   []param
	required int
	repeated bool
	block    blockKind
	// blockMin and blockMax are the argument counts the function calls its
	// block with (Puppet's Callable[min, max]); a lambda fits when it can be
	// called with that many arguments. anyBlock accepts every lambda.
	blockMin, blockMax int
	anyBlock           bool
	// blockType, when set, is how the block's type is written in
	// Puppet's declaration (Callable[Type, Type]), for messages.
	blockType string
	// argumentMismatch marks Puppet's argument_mismatch dispatches: they
	// catch bad arguments to raise a specific error, and are left out when
	// describing why no signature matched.
	argumentMismatch bool
	impl             Func
}

// maxArgs is the most arguments the signature accepts.
func (s *signature) maxArgs() int {
	if s.repeated {
		return math.MaxInt
	}
	return len(s.params)
}

// paramAt returns the parameter that receives argument i.
func (s *signature) paramAt(i int) param {
	if i >= len(s.params) {
		return s.params[len(s.params)-1]
	}
	return s.params[i]
}

// mismatchKind orders mismatches the way Puppet prefers them when merging.
type mismatchKind int

const (
	countMismatch mismatchKind = iota
	missingBlock
	unexpectedBlock
	typeMismatch
)

// mismatch is why one signature rejects a call.
type mismatch struct {
	kind mismatchKind
	// where is the position text: "parameter 'x'", "block", or "".
	where string
	// For count mismatches: the accepted and the given ranges.
	min, max       int
	gotMin, gotMax int
	// For type mismatches: the accepted types and the value given.
	expected []value.Type
	arg      value.Value
	// silent marks a rejection Puppet's describer cannot explain (its
	// type-based check accepts what the instance check refused); Puppet
	// lists the signature without a reason.
	silent bool
}

// dispatcher builds the Func of a function with the given signatures.
func dispatcher(name string, sigs ...signature) Func {
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		lam := c.lambda()
		found := -1
		for i := range sigs {
			if argsMismatch(&sigs[i], args) == nil && blockMismatch(&sigs[i], lam) == nil {
				found = i
				break
			}
		}
		if found < 0 {
			var described []signature
			for _, s := range sigs {
				if !s.argumentMismatch {
					described = append(described, s)
				}
			}
			return nil, errors.New(describeMismatch(name, described, args, lam))
		}
		return sigs[found].impl(c, args)
	}
}

func argsMismatch(s *signature, args []value.Value) *mismatch {
	return checkArgs(s, args, false)
}

// checkArgs checks the arguments against a signature. Describing, it judges
// as Puppet's describer does, by the inferred types: there any integer
// passes for an Iterable (Integer[-1, -1] is a finite range).
func checkArgs(s *signature, args []value.Value, describing bool) *mismatch {
	if len(args) < s.required || len(args) > s.maxArgs() {
		return &mismatch{kind: countMismatch, min: s.required, max: s.maxArgs(), gotMin: len(args), gotMax: len(args)}
	}
	for i, a := range args {
		p := s.paramAt(i)
		if describing {
			if _, isInt := a.(value.Integer); isInt && allowsIterable(p.typ) {
				continue
			}
		}
		if !p.accept(a) {
			path, et, ev := narrowMismatch(p.typ, a)
			return &mismatch{kind: typeMismatch, where: strings.Join(append([]string{"parameter '" + p.name + "'"}, path...), " "),
				expected: []value.Type{et}, arg: ev, silent: p.accepts != nil && isArray(a) && value.IsInstance(p.typ, a)}
		}
	}
	return nil
}

func blockMismatch(s *signature, lam *eval.Lambda) *mismatch {
	switch {
	case lam == nil && s.block == requiredBlock:
		return &mismatch{kind: missingBlock}
	case lam == nil:
		return nil
	case s.block == noBlock:
		return &mismatch{kind: unexpectedBlock}
	}
	if s.anyBlock {
		return nil
	}
	sg := lam.Signature()
	lmin, lmax := int(sg.Min), int(sg.Max)
	if sg.Max == value.MaxInt {
		lmax = math.MaxInt
	}
	if lmin <= s.blockMin && s.blockMax <= lmax {
		return nil
	}
	return &mismatch{kind: countMismatch, where: "block", min: s.blockMin, max: s.blockMax, gotMin: lmin, gotMax: lmax}
}

func isArray(v value.Value) bool {
	_, ok := v.(value.Array)
	return ok
}

// allowsIterable reports whether t is Iterable or a Variant including it.
func allowsIterable(t value.Type) bool {
	if t == value.Type(value.IterableAny) {
		return true
	}
	if v, ok := t.(*value.VariantType); ok {
		for _, m := range v.Types {
			if m == value.Type(value.IterableAny) {
				return true
			}
		}
	}
	return false
}

// describeMismatch explains why no signature accepted the call.
func describeMismatch(name string, sigs []signature, args []value.Value, lam *eval.Lambda) string {
	perSig := make([]*mismatch, len(sigs))
	allArgErrors := true
	for i := range sigs {
		perSig[i] = checkArgs(&sigs[i], args, true)
		if perSig[i] == nil {
			allArgErrors = false
		}
	}
	// Block errors count only when some signature accepts the arguments;
	// argument errors take precedence over block errors.
	if !allArgErrors {
		blocks := make([]*mismatch, len(sigs))
		allBlock := true
		for i := range sigs {
			blocks[i] = blockMismatch(&sigs[i], lam)
			if blocks[i] == nil {
				allBlock = false
			}
		}
		for i := range sigs {
			if allBlock || perSig[i] == nil {
				perSig[i] = blocks[i]
			}
		}
	}
	label := "'" + name + "'"
	if m := mergeMismatches(perSig); m != nil {
		return label + m.message()
	}
	var b strings.Builder
	if len(sigs) == 1 {
		fmt.Fprintf(&b, "%s expects (%s)\n  rejected:%s", label, sigs[0].String(), perSig[0].message())
		return b.String()
	}
	fmt.Fprintf(&b, "The function %s was called with arguments it does not accept. It expects one of:", label)
	for i := range sigs {
		fmt.Fprintf(&b, "\n  (%s)", sigs[i].String())
		if perSig[i] != nil && !perSig[i].silent {
			fmt.Fprintf(&b, "\n    rejected:%s", perSig[i].message())
		}
	}
	return b.String()
}

// mergeMismatches folds the per-signature mismatches into one when they are
// of one kind at one position; nil when they cannot be merged.
func mergeMismatches(ms []*mismatch) *mismatch {
	if len(ms) == 1 {
		return ms[0]
	}
	for kind := countMismatch; kind <= typeMismatch; kind++ {
		same := true
		for _, m := range ms {
			if m == nil || m.silent || m.kind != kind || m.where != ms[0].where {
				same = false
				break
			}
		}
		if !same {
			continue
		}
		merged := *ms[0]
		merged.expected = nil
		for _, m := range ms {
			merged.min = min(merged.min, m.min)
			merged.max = max(merged.max, m.max)
			for _, t := range m.expected {
				// Puppet merges the alternatives into one Variant, which
				// normalizes to the union of their members.
				if v, ok := t.(*value.VariantType); ok {
					for _, member := range v.Types {
						merged.expected = appendUniqueType(merged.expected, member)
					}
					continue
				}
				merged.expected = appendUniqueType(merged.expected, t)
			}
		}
		return &merged
	}
	// Identical descriptions collapse too.
	first := ms[0]
	for _, m := range ms[1:] {
		if first == nil || m == nil || first.silent || m.silent || first.message() != m.message() {
			return nil
		}
	}
	return first
}

func appendUniqueType(ts []value.Type, t value.Type) []value.Type {
	for _, e := range ts {
		if value.TypesEqual(e, t) {
			return ts
		}
	}
	return append(ts, t)
}

func (m *mismatch) message() string {
	if m == nil {
		return " unknown mismatch"
	}
	pos := ""
	if m.where != "" {
		pos = " " + m.where
	}
	switch m.kind {
	case countMismatch:
		suffix := "s"
		if (m.min == 1 && (m.max == 1 || m.max == math.MaxInt)) || (m.min == 0 && m.max == 1) {
			suffix = ""
		}
		return fmt.Sprintf("%s expects %s argument%s, got %s", pos, rangeText(m.min, m.max, "no"), suffix, rangeText(m.gotMin, m.gotMax, "none"))
	case missingBlock:
		return pos + " expects a block"
	case unexpectedBlock:
		return pos + " does not expect a block"
	}
	return pos + " " + typeMismatchText(m.expected, m.arg)
}

func rangeText(lo, hi int, zero string) string {
	switch {
	case lo == hi && lo == 0:
		return zero
	case lo == hi:
		return fmt.Sprint(lo)
	case lo == 0 && hi == math.MaxInt:
		return "unlimited"
	case lo == 0:
		return fmt.Sprintf("at most %d", hi)
	case hi == math.MaxInt:
		return fmt.Sprintf("at least %d", lo)
	}
	return fmt.Sprintf("between %d and %d", lo, hi)
}

// describeValueMismatch explains why v is not an instance of t, pointing
// into arrays and hashes as Puppet does ("index 0 expects a String value,
// got Integer").
func describeValueMismatch(t value.Type, v value.Value) string {
	path, et, ev := narrowMismatch(t, v)
	msg := typeMismatchText([]value.Type{et}, ev)
	if len(path) > 0 {
		return strings.Join(path, " ") + " " + msg
	}
	return msg
}

// narrowMismatch finds the innermost element of an array or hash that
// makes v fail t, with the path to it; when the mismatch is the container
// itself (or its size) it returns t and v.
func narrowMismatch(t value.Type, v value.Value) (path []string, et value.Type, ev value.Value) {
	switch rt := value.Resolve(t).(type) {
	case *value.OptionalType:
		if rt.Type != nil && !value.IsUndef(v) {
			switch value.Resolve(rt.Type).(type) {
			case *value.ArrayType, *value.HashType, *value.TupleType, *value.StructType:
				return narrowMismatch(rt.Type, v)
			}
		}
	case *value.ArrayType:
		if a, ok := v.(value.Array); ok && int64(len(a)) >= rt.Min && int64(len(a)) <= rt.Max {
			for i, e := range a {
				if !value.IsInstance(rt.Elem, e) {
					p, t2, v2 := narrowMismatch(rt.Elem, e)
					return append([]string{fmt.Sprintf("index %d", i)}, p...), t2, v2
				}
			}
		}
	case *value.TupleType:
		if a, ok := v.(value.Array); ok && int64(len(a)) >= rt.Min && int64(len(a)) <= rt.Max && len(rt.Types) > 0 {
			for i, e := range a {
				elem := rt.Types[min(i, len(rt.Types)-1)]
				if !value.IsInstance(elem, e) {
					p, t2, v2 := narrowMismatch(elem, e)
					return append([]string{fmt.Sprintf("index %d", i)}, p...), t2, v2
				}
			}
		}
	case *value.HashType:
		if h, ok := v.(*value.Hash); ok && int64(h.Len()) >= rt.Min && int64(h.Len()) <= rt.Max {
			for i := 0; i < h.Len(); i++ {
				k, e := h.At(i)
				if !value.IsInstance(rt.Key, k) {
					p, t2, v2 := narrowMismatch(rt.Key, k)
					return append([]string{"key of entry '" + value.ToString(k) + "'"}, p...), t2, v2
				}
				if !value.IsInstance(rt.Value, e) {
					p, t2, v2 := narrowMismatch(rt.Value, e)
					return append([]string{"entry '" + value.ToString(k) + "'"}, p...), t2, v2
				}
			}
		}
	case *value.StructType:
		if h, ok := v.(*value.Hash); ok {
			for _, el := range rt.Elements {
				e, found := h.GetString(el.Name)
				if found && !value.IsInstance(el.Value, e) {
					p, t2, v2 := narrowMismatch(el.Value, e)
					return append([]string{"entry '" + el.Name + "'"}, p...), t2, v2
				}
			}
		}
	}
	return nil, t, v
}

// typeMismatchText says what a parameter expects and what it got, choosing
// between short names and full types as Puppet does: full types when the
// expected and actual types are of the same kind, short names otherwise.
func typeMismatchText(expected []value.Type, arg value.Value) string {
	// Merged Enum expectations read as one Enum of all their values.
	if len(expected) > 1 {
		var vals []string
		allEnums := true
		for _, t := range expected {
			e, ok := value.Resolve(t).(*value.EnumType)
			if !ok || e.CaseInsensitive {
				allEnums = false
				break
			}
			for _, v := range e.Values {
				vals = appendUniqueString(vals, v)
			}
		}
		if allEnums {
			sort.Strings(vals)
			expected = []value.Type{value.NewEnum(vals, false)}
		}
	}
	if len(expected) == 1 {
		// A failing alias is reported as itself, expanded one level.
		if a, ok := expected[0].(*value.AliasType); ok && a.Resolved != nil {
			got := value.Resolve(a).TypeName()
			if _, isVariant := value.Resolve(a).(*value.VariantType); isVariant {
				got = value.Generalize(value.TypeOf(arg)).TypeName()
			}
			return fmt.Sprintf("expects %s value, got %s", withArticle(a.Name+" = "+value.TypeString(a.Resolved)), got)
		}
	}
	optional := false
	if len(expected) == 1 {
		e := value.Resolve(expected[0])
		if o, ok := e.(*value.OptionalType); ok && o.Type != nil {
			optional = true
			e = o.Type
		}
		switch e := e.(type) {
		case *value.EnumType, *value.PatternType:
			pfx := ""
			if optional {
				pfx = "an undef value or "
			}
			got := shortName(value.TypeOf(arg))
			if s, ok := arg.(value.String); ok {
				got = "'" + string(s) + "'"
			}
			return fmt.Sprintf("expects %sa match for %s, got %s", pfx, value.TypeString(e), got)
		case *value.VariantType:
			expected = e.Types
		default:
			expected = []value.Type{e}
		}
	}
	actual := value.TypeOf(arg)
	var names []string
	var got string
	if reportDetailed(expected, actual) {
		got = detailedActual(expected, actual)
		for _, t := range expected {
			names = appendUniqueString(names, value.TypeString(t))
		}
	} else {
		got = shortName(actual)
		for _, t := range expected {
			names = appendUniqueString(names, shortName(t))
		}
	}
	if optional {
		names = append([]string{"Undef"}, names...)
	}
	switch len(names) {
	case 1:
		return fmt.Sprintf("expects %s value, got %s", withArticle(names[0]), got)
	case 2:
		return fmt.Sprintf("expects a value of type %s or %s, got %s", names[0], names[1], got)
	}
	return fmt.Sprintf("expects a value of type %s, or %s, got %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1], got)
}

func appendUniqueString(ss []string, s string) []string {
	for _, e := range ss {
		if e == s {
			return ss
		}
	}
	return append(ss, s)
}

// shortName is a type's name, keeping the parameter of the wrapping types
// (Type[Regexp], Optional[String]) because the bare name says too little.
func shortName(t value.Type) string {
	var inner value.Type
	switch t := t.(type) {
	case *value.TypeType:
		inner = t.Type
	case *value.OptionalType:
		inner = t.Type
	case *value.NotUndefType:
		inner = t.Type
	case *value.SensitiveType:
		inner = t.Type
	case *value.IterableType:
		inner = t.Type
	case *value.IteratorType:
		inner = t.Type
	}
	if inner != nil && inner != value.AnyType {
		return t.TypeName() + "[" + inner.TypeName() + "]"
	}
	return t.TypeName()
}

func sameKind(e, a value.Type) bool {
	if fmt.Sprintf("%T", e) == fmt.Sprintf("%T", a) {
		// The parameterless types share one Go type; their names tell them apart.
		return e.TypeName() == a.TypeName()
	}
	switch e.(type) {
	case *value.StructType:
		_, ok := a.(*value.HashType)
		return ok
	case *value.TupleType:
		_, ok := a.(*value.ArrayType)
		return ok
	case *value.AliasType:
		return true
	}
	return false
}

func alwaysDetailed(es []value.Type, a value.Type) bool {
	for _, e := range es {
		if sameKind(value.Resolve(e), a) {
			return true
		}
	}
	return false
}

func reportDetailed(es []value.Type, a value.Type) bool {
	if alwaysDetailed(es, a) {
		return true
	}
	for _, e := range es {
		d := unparameterized(value.Resolve(e))
		if d == value.IterableAny && iterableKind(a) {
			return true
		}
		if d != nil && value.IsAssignable(d, a) {
			return true
		}
	}
	return false
}

// iterableKind reports whether values of type a can be iterated.
func iterableKind(a value.Type) bool {
	switch a.(type) {
	case *value.ArrayType, *value.TupleType, *value.HashType, *value.StructType,
		*value.StringType, *value.EnumType, *value.IteratorType, *value.IterableType:
		return true
	}
	return false
}

func detailedActual(es []value.Type, a value.Type) string {
	if alwaysDetailed(es, a) {
		return value.TypeString(a)
	}
	g := value.Generalize(a)
	for _, e := range es {
		if value.IsAssignable(e, g) {
			return value.TypeString(a)
		}
	}
	return a.TypeName()
}

// unparameterized is the default form of t's kind (Array for Array[String]).
func unparameterized(t value.Type) value.Type {
	switch t.(type) {
	case *value.IntegerType:
		return value.IntegerAny
	case *value.FloatType:
		return value.FloatAny
	case *value.StringType:
		return value.StringAny
	case *value.ArrayType:
		return value.ArrayAny
	case *value.HashType:
		return value.HashAny
	case *value.TupleType:
		return value.TupleAny
	case *value.StructType:
		return value.StructAny
	case *value.CollectionType:
		return value.CollectionAny
	case *value.TypeType:
		return value.TypeAny
	case *value.BooleanType:
		return value.BooleanAny
	case *value.RegexpType:
		return value.RegexpAny
	case *value.IterableType:
		return value.IterableAny
	case *value.SensitiveType:
		return value.SensitiveAny
	}
	return nil
}

func withArticle(name string) string {
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// String renders the signature as Puppet lists it in errors:
// "String str, Variant[String, Regexp] pattern, Callable[1, 1] block".
func (s *signature) String() string {
	var parts []string
	for i, p := range s.params {
		ind := ""
		switch {
		case s.repeated && i == len(s.params)-1:
			ind = "*"
			if s.required == len(s.params) {
				ind = "+"
			}
		case i >= s.required:
			ind = "?"
		}
		t := p.typ
		if o, ok := t.(*value.OptionalType); ok && ind == "?" && o.Type != nil {
			t = o.Type
		}
		parts = append(parts, value.TypeString(t)+" "+p.name+ind)
	}
	blk := fmt.Sprintf("Callable[%d, %d] block", s.blockMin, s.blockMax)
	if s.anyBlock {
		blk = "Callable block"
	}
	if s.blockType != "" {
		blk = s.blockType + " block"
	}
	switch s.block {
	case requiredBlock:
		parts = append(parts, blk)
	case optionalBlock:
		parts = append(parts, blk+"?")
	}
	return strings.Join(parts, ", ")
}
