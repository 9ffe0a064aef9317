package functions

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// Puppet's 4.x functions declare one or more signatures ("dispatches"); a
// call runs the first signature that accepts its arguments and block, and
// when none does the error describes why, merged over all signatures the way
// Puppet's TypeMismatchDescriber does. This file is that machinery.

// Param is one declared parameter of a Signature.
type Param struct {
	// Name is the parameter's name in messages ("parameter 'pattern'").
	Name string
	// Type is what the parameter accepts.
	Type value.Type
	// Accepts, when set, replaces the instance check of Type where Puppet's
	// check differs from value.IsInstance.
	Accepts func(value.Value) bool
}

// P is a parameter of the given name and type.
func P(name string, t value.Type) Param { return Param{Name: name, Type: t} }

func (p Param) accept(v value.Value) bool {
	if p.Accepts != nil {
		return p.Accepts(v)
	}
	return value.IsInstance(p.Type, v)
}

// BlockKind says whether a signature takes a block (a lambda).
type BlockKind int

const (
	// NoBlock rejects a call with a lambda.
	NoBlock BlockKind = iota
	// OptionalBlock accepts a call with or without a lambda.
	OptionalBlock
	// RequiredBlock rejects a call without a lambda.
	RequiredBlock
)

// Signature is one dispatch of a function. The first Required parameters
// are mandatory, the rest optional; with Repeated set the last parameter
// takes any number of further arguments (at least one if it is also
// required).
type Signature struct {
	Params   []Param
	Required int
	Repeated bool
	Block    BlockKind
	// BlockMin and BlockMax are the argument counts the function calls its
	// block with (Puppet's Callable[min, max]); a lambda fits when it can be
	// called with that many arguments. AnyBlock accepts every lambda.
	BlockMin, BlockMax int
	AnyBlock           bool
	// BlockType, when set, is how the block's type is written in
	// Puppet's declaration (Callable[Type, Type]), for messages.
	BlockType string
	// ArgumentMismatch marks Puppet's argument_mismatch dispatches: they
	// catch bad arguments to raise a specific error, and are left out when
	// describing why no signature matched.
	ArgumentMismatch bool
	// Impl runs the call once the signature has accepted it.
	Impl Func
}

// Fixed is a signature whose parameters are all required.
func Fixed(impl Func, params ...Param) Signature {
	return Signature{Params: params, Required: len(params), Impl: impl}
}

// Arity is a signature of lo to hi parameters of type Any, named by names
// (the last name is reused past the end; "args" without names); hi < 0
// means any number. It suits functions that check only how many arguments
// they get; like those functions, it lets a lambda through.
func Arity(lo, hi int, impl Func, names ...string) Signature {
	n := max(hi, lo, 1)
	params := make([]Param, n)
	for i := range params {
		name := "args"
		if len(names) > 0 {
			name = names[min(i, len(names)-1)]
		}
		params[i] = Param{Name: name, Type: value.AnyType}
	}
	return Signature{Params: params, Required: lo, Repeated: hi < 0, Block: OptionalBlock, AnyBlock: true, Impl: impl}
}

// CountArgs is the argument count check of a function written against
// Puppet's 3.x API, whose messages are the Ruby code's own: when len(args)
// is outside lo..hi (hi < 0: no upper bound) it returns
// fmt.Errorf(format, a..., len(args)), so the count is the format's last
// verb ("%s(): Wrong number of arguments given (%d for 1)"); a format
// without verbs is the message as it is. nil when the count is right.
func CountArgs(args []value.Value, lo, hi int, format string, a ...any) error {
	n := len(args)
	switch {
	case n >= lo && (hi < 0 || n <= hi):
		return nil
	case !strings.Contains(format, "%"):
		return errors.New(format)
	}
	return fmt.Errorf(format, append(a, n)...)
}

// Arity3 is the check Puppet makes for a 3.x function declared with an
// :arity: exactly n arguments, or at least n when atLeast is set. Its
// messages are Puppet's: "name(): Wrong number of arguments given (2 for
// 1)", "name(): Wrong number of arguments given (0 for minimum 1)".
func Arity3(name string, args []value.Value, n int, atLeast bool) error {
	if atLeast {
		return CountArgs(args, n, -1, "%[1]s(): Wrong number of arguments given (%[3]d for minimum %[2]d)", name, n)
	}
	return CountArgs(args, n, n, "%[1]s(): Wrong number of arguments given (%[3]d for %[2]d)", name, n)
}

// maxArgs is the most arguments the signature accepts.
func (s *Signature) maxArgs() int {
	if s.Repeated {
		return math.MaxInt
	}
	return len(s.Params)
}

// paramAt returns the parameter that receives argument i.
func (s *Signature) paramAt(i int) Param {
	if i >= len(s.Params) {
		return s.Params[len(s.Params)-1]
	}
	return s.Params[i]
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

// Dispatch builds the Func of a function with the given signatures, as
// Puppet's 4.x function API does: a call runs the first signature that
// accepts its arguments and block; when none does, the error says why in
// Puppet's words ("'split' parameter 'pattern' expects a value of type
// String or Regexp, got Integer", "'epp' expects between 1 and 2
// arguments, got none").
func Dispatch(name string, sigs ...Signature) Func {
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
			var described []Signature
			for _, s := range sigs {
				if !s.ArgumentMismatch {
					described = append(described, s)
				}
			}
			return nil, NewArgumentError(name, func(name string) string {
				return describeMismatch(name, described, args, lam)
			})
		}
		return sigs[found].Impl(c, args)
	}
}

// ArgumentError is the cause of a call's ARGUMENT_MISMATCH diagnostic: it
// can word the message again for another name of the function (stdlib 9
// keeps functions under new names, and the new name is the one its errors
// show).
type ArgumentError struct {
	Function string
	describe func(name string) string
}

func (e *ArgumentError) Error() string { return e.describe(e.Function) }

// NewArgumentError returns the ARGUMENT_MISMATCH diagnostic of a call of
// function name, whose message describe words for a function name.
func NewArgumentError(name string, describe func(name string) string) *diag.Diagnostic {
	cause := &ArgumentError{Function: name, describe: describe}
	return &diag.Diagnostic{
		Severity: diag.Error,
		Code:     diag.ArgumentMismatch,
		Args:     diag.Args{"function": name},
		Message:  describe(name),
		Cause:    cause,
	}
}

// RenameArgumentError returns err as function to reports it when err is
// the ARGUMENT_MISMATCH of a call of function from; else err itself.
func RenameArgumentError(err error, from, to string) error {
	d, ok := err.(*diag.Diagnostic)
	var cause *ArgumentError
	if !ok || !d.Matches(diag.ArgumentMismatch, "function", from) || !errors.As(d.Cause, &cause) {
		return err
	}
	return NewArgumentError(to, cause.describe)
}

func argsMismatch(s *Signature, args []value.Value) *mismatch {
	return checkArgs(s, args, false)
}

// checkArgs checks the arguments against a signature. Describing, it judges
// as Puppet's describer does, by the inferred types: there any integer
// passes for an Iterable (Integer[-1, -1] is a finite range).
func checkArgs(s *Signature, args []value.Value, describing bool) *mismatch {
	if len(args) < s.Required || len(args) > s.maxArgs() {
		return &mismatch{kind: countMismatch, min: s.Required, max: s.maxArgs(), gotMin: len(args), gotMax: len(args)}
	}
	for i, a := range args {
		p := s.paramAt(i)
		if describing {
			if _, isInt := a.(value.Integer); isInt && allowsIterable(p.Type) {
				continue
			}
		}
		if !p.accept(a) {
			path, et, ev := narrowMismatch(p.Type, a)
			return &mismatch{kind: typeMismatch, where: strings.Join(append([]string{"parameter '" + p.Name + "'"}, path...), " "),
				expected: []value.Type{et}, arg: ev, silent: p.Accepts != nil && isArray(a) && value.IsInstance(p.Type, a)}
		}
	}
	return nil
}

func blockMismatch(s *Signature, lam *eval.Lambda) *mismatch {
	switch {
	case lam == nil && s.Block == RequiredBlock:
		return &mismatch{kind: missingBlock}
	case lam == nil:
		return nil
	case s.Block == NoBlock:
		return &mismatch{kind: unexpectedBlock}
	}
	if s.AnyBlock {
		return nil
	}
	sg := lam.Signature()
	lmin, lmax := int(sg.Min), int(sg.Max)
	if sg.Max == value.MaxInt {
		lmax = math.MaxInt
	}
	if lmin <= s.BlockMin && s.BlockMax <= lmax {
		return nil
	}
	return &mismatch{kind: countMismatch, where: "block", min: s.BlockMin, max: s.BlockMax, gotMin: lmin, gotMax: lmax}
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
func describeMismatch(name string, sigs []Signature, args []value.Value, lam *eval.Lambda) string {
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
			// An alias of a pattern or enum fails to match, as those do.
			switch value.Resolve(a).(type) {
			case *value.EnumType, *value.PatternType:
				got := shortName(value.TypeOf(arg))
				if s, ok := arg.(value.String); ok {
					got = "'" + string(s) + "'"
				}
				return fmt.Sprintf("expects a match for %s = %s, got %s", a.Name, value.TypeString(a.Resolved), got)
			}
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
func (s *Signature) String() string {
	var parts []string
	for i, p := range s.Params {
		ind := ""
		switch {
		case s.Repeated && i == len(s.Params)-1:
			ind = "*"
			if s.Required == len(s.Params) {
				ind = "+"
			}
		case i >= s.Required:
			ind = "?"
		}
		t := p.Type
		if o, ok := t.(*value.OptionalType); ok && ind == "?" && o.Type != nil {
			t = o.Type
		}
		parts = append(parts, value.TypeString(t)+" "+p.Name+ind)
	}
	blk := fmt.Sprintf("Callable[%d, %d] block", s.BlockMin, s.BlockMax)
	if s.AnyBlock {
		blk = "Callable block"
	}
	if s.BlockType != "" {
		blk = s.BlockType + " block"
	}
	switch s.Block {
	case RequiredBlock:
		parts = append(parts, blk)
	case OptionalBlock:
		parts = append(parts, blk+"?")
	}
	return strings.Join(parts, ", ")
}

// UnpackArgs checks and unpacks the arguments of a function with fixed
// parameters, in the spirit of starlark-go's UnpackArgs. pairs alternates
// a parameter name and a pointer receiving the argument; a name ending in
// "?" marks the first optional parameter (the rest are optional too), whose
// pointer keeps its value when the argument is missing. The pointer's type
// says what the parameter accepts:
//
//	*value.Value         Any
//	*string, *value.String  String
//	*int64, *value.Integer  Integer
//	*bool                Boolean
//	**value.Hash         Hash
//	*value.Array         Array
//	*value.Type          Type
//
// A wrong count or type fails with Puppet's message for function name, as
// Dispatch words it ("'f' parameter 'a' expects a String value, got
// Integer"). A pointer of another type is a programming error, reported as
// an error naming it.
func UnpackArgs(name string, args []value.Value, pairs ...any) error {
	if len(pairs)%2 != 0 {
		return fmt.Errorf("UnpackArgs(%s): odd number of name/pointer pairs", name)
	}
	sig := Signature{Required: -1}
	for i := 0; i < len(pairs); i += 2 {
		pname, _ := pairs[i].(string)
		if opt, ok := strings.CutSuffix(pname, "?"); ok {
			pname = opt
			if sig.Required < 0 {
				sig.Required = i / 2
			}
		}
		t, err := unpackType(pairs[i+1])
		if err != nil {
			return fmt.Errorf("UnpackArgs(%s): parameter %q: %w", name, pname, err)
		}
		sig.Params = append(sig.Params, Param{Name: pname, Type: t})
	}
	if sig.Required < 0 {
		sig.Required = len(sig.Params)
	}
	mismatch := func(name string) string { return describeMismatch(name, []Signature{sig}, args, nil) }
	if checkArgs(&sig, args, false) != nil {
		return NewArgumentError(name, mismatch)
	}
	for i, a := range args {
		if !unpackInto(pairs[2*i+1], a) {
			return NewArgumentError(name, mismatch)
		}
	}
	return nil
}

// unpackInto stores v through an UnpackArgs pointer, reporting whether v has
// the Go type the pointer needs.
func unpackInto(ptr any, v value.Value) bool {
	ok := true
	switch p := ptr.(type) {
	case *value.Value:
		*p = v
	case *string:
		var s value.String
		s, ok = v.(value.String)
		*p = string(s)
	case *value.String:
		*p, ok = v.(value.String)
	case *int64:
		var n value.Integer
		n, ok = v.(value.Integer)
		*p = int64(n)
	case *value.Integer:
		*p, ok = v.(value.Integer)
	case *bool:
		var b value.Boolean
		b, ok = v.(value.Boolean)
		*p = bool(b)
	case **value.Hash:
		*p, ok = v.(*value.Hash)
	case *value.Array:
		*p, ok = v.(value.Array)
	case *value.Type:
		*p, ok = v.(value.Type)
	}
	return ok
}

// unpackType is the Puppet type an UnpackArgs pointer accepts.
func unpackType(ptr any) (value.Type, error) {
	switch ptr.(type) {
	case *value.Value:
		return value.AnyType, nil
	case *string, *value.String:
		return value.StringAny, nil
	case *int64, *value.Integer:
		return value.IntegerAny, nil
	case *bool:
		return value.BooleanAny, nil
	case **value.Hash:
		return value.HashAny, nil
	case *value.Array:
		return value.ArrayAny, nil
	case *value.Type:
		return value.TypeAny, nil
	}
	return nil, fmt.Errorf("unsupported pointer type %T", ptr)
}
