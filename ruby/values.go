package ruby

import (
	"fmt"
	"regexp"

	"github.com/dlclark/regexp2"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/value"
)

// Ruby values inside the interpreter are plain Go values:
//
//	nil        Ruby nil
//	bool       true / false
//	int64      Integer
//	float64    Float
//	*rstr      String (mutable, as Ruby strings are)
//	symbol     Symbol
//	*rarray    Array
//	*rhash     Hash (insertion-ordered)
//	*rrange    Range
//	*rregexp   Regexp
//	*rclass    a class or module constant such as String
//	*scopeObj  the `scope` object
//	*puppetObj a Puppet value with no Ruby counterpart (a Type, Sensitive, ...)

type rstr struct {
	s      string
	frozen bool
}

type symbol string

type rarray struct {
	a      []any
	frozen bool
}

type rhash struct {
	keys   []any
	vals   []any
	index  map[string]int
	frozen bool
	// dflt and dfltProc are what h[k] of a missing key gives: Hash.new(v)
	// and Hash.new { |h, k| ... }.
	dflt     any
	dfltProc *blockVal
}

type rrange struct {
	lo, hi any
	excl   bool
}

type rregexp struct {
	src  string
	opts string
	re   *regexp.Regexp  // Go's engine, when it can run the regexp
	bt   *regexp2.Regexp // else the backtracking engine (see regexp.go)
}

type rclass struct{ name string }

// scopeObj is Puppet's scope as Ruby code sees it; top marks a 4.x
// function's closure_scope, the top scope, whose variables it may set.
type scopeObj struct{ top bool }

type puppetObj struct{ v value.Value }

type matchData struct {
	str    string
	groups []int // submatch index pairs
	names  []string
}

func newStr(s string) *rstr { return &rstr{s: s} }

func newHash() *rhash { return &rhash{index: map[string]int{}} }

func (h *rhash) get(k any) (any, bool) {
	if i, ok := h.index[hashKey(k)]; ok {
		return h.vals[i], true
	}
	return nil, false
}

func (h *rhash) set(k, v any) {
	key := hashKey(k)
	if i, ok := h.index[key]; ok {
		h.vals[i] = v
		return
	}
	// Ruby dups and freezes String keys.
	if s, ok := k.(*rstr); ok && !s.frozen {
		k = &rstr{s: s.s, frozen: true}
	}
	h.index[key] = len(h.keys)
	h.keys = append(h.keys, k)
	h.vals = append(h.vals, v)
}

func (h *rhash) delete(k any) (any, bool) {
	key := hashKey(k)
	i, ok := h.index[key]
	if !ok {
		return nil, false
	}
	v := h.vals[i]
	h.keys = append(h.keys[:i:i], h.keys[i+1:]...)
	h.vals = append(h.vals[:i:i], h.vals[i+1:]...)
	h.index = map[string]int{}
	for j, k := range h.keys {
		h.index[hashKey(k)] = j
	}
	return v, true
}

func (h *rhash) copy() *rhash {
	n := &rhash{keys: append([]any(nil), h.keys...), vals: append([]any(nil), h.vals...), index: make(map[string]int, len(h.keys))}
	for k, v := range h.index {
		n.index[k] = v
	}
	return n
}

// hashKey gives the identity of a value as a Hash key (Ruby's eql?):
// 1 and 1.0 differ, strings compare by content.
func hashKey(v any) string {
	var b strings.Builder
	budget := MaxVisits
	writeHashKey(&b, v, 0, &budget)
	return b.String()
}

func writeHashKey(b *strings.Builder, v any, depth int, budget *int) {
	*budget--
	if depth > MaxNesting || *budget < 0 {
		fmt.Fprintf(b, "r%p", v)
		return
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		if v {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case int64:
		b.WriteString("i" + strconv.FormatInt(v, 10))
	case float64:
		b.WriteString("d" + strconv.FormatFloat(v, 'g', -1, 64))
	case *rstr:
		b.WriteString("s" + strconv.Itoa(len(v.s)) + ":" + v.s)
	case symbol:
		b.WriteString("y" + strconv.Itoa(len(v)) + ":" + string(v))
	case *gemVersion:
		b.WriteString("v" + strconv.Itoa(len(v.s)) + ":" + v.s)
	case *rclass:
		// A class is one object however it was reached ({}.class, Hash).
		b.WriteString("c" + strconv.Itoa(len(v.name)) + ":" + v.name)
	case *rarray:
		b.WriteString("[")
		for _, e := range v.a {
			writeHashKey(b, e, depth+1, budget)
			b.WriteString(",")
		}
		b.WriteString("]")
	case *rhash:
		b.WriteString("{")
		for i, k := range v.keys {
			writeHashKey(b, k, depth+1, budget)
			b.WriteString("=>")
			writeHashKey(b, v.vals[i], depth+1, budget)
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		fmt.Fprintf(b, "o%p", v)
	}
}

// fromPuppet converts a Puppet value to the Ruby object Puppet hands templates.
func fromPuppet(v value.Value) any { return fromPuppetShared(v, nil) }

// fromPuppetShared is fromPuppet giving each Puppet hash the Ruby hash objs
// recorded for it, when objs is not nil.
//
// Puppet values share structure that Ruby objects built from them do not:
// a value that would expand past value.DefaultMaxValueSize panics with a
// *value.ValueTooLarge, which the template or function run recovers as its
// error (a conversion has no error of its own to return).
func fromPuppetShared(v value.Value, objs *Objects) any {
	// A hash objs already holds was measured when it was converted: a
	// Hiera backend's data file, handed back by its LookupContext at every
	// lookup, is not walked again.
	if h, ok := v.(*value.Hash); ok {
		if r, ok := objs.hash(h); ok {
			return r
		}
	}
	if err := value.CheckSize(v, value.DefaultMaxValueSize, "Ruby conversion"); err != nil {
		panic(err)
	}
	return fromPuppetTree(v, objs)
}

// fromPuppetTree is fromPuppetShared once v's size is known to be bounded.
func fromPuppetTree(v value.Value, objs *Objects) any {
	switch v := v.(type) {
	case nil:
		return nil
	case value.String:
		// Puppet 7 hands templates unfrozen strings; each rendering gets
		// its own copies, so mutating one changes nothing outside.
		return &rstr{s: string(v)}
	case value.Integer:
		return int64(v)
	case value.Float:
		return float64(v)
	case value.Boolean:
		return bool(v)
	case value.Array:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = fromPuppetTree(e, objs)
		}
		return &rarray{a: a}
	case *value.Hash:
		if h, ok := objs.hash(v); ok {
			return h
		}
		h := newHash()
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			h.set(fromPuppetTree(k, objs), fromPuppetTree(e, objs))
		}
		if objs != nil {
			if objs.hashes == nil {
				objs.hashes = map[*value.Hash]*rhash{}
			}
			objs.hashes[v] = h
		}
		return h
	case *value.Regexp:
		re := v.Go()
		if re == nil {
			// A regexp only a backtracking engine runs; one that does not
			// compile for either never matches, as in value.
			re, err := compileRubyRegexp(v.Source, "")
			if err != nil {
				return &rregexp{src: v.Source, re: regexp.MustCompile(`\z.`)}
			}
			return re
		}
		return &rregexp{src: v.Source, re: re}
	}
	if sv, ok := v.(*value.Sensitive); ok {
		return &rsensitive{fromPuppetTree(sv.Value, objs)}
	}
	if value.IsUndef(v) {
		return nil
	}
	if value.IsDefault(v) {
		return symbol("default")
	}
	return &puppetObj{v}
}

func (o *Objects) hash(v *value.Hash) (*rhash, bool) {
	if o == nil {
		return nil, false
	}
	h, ok := o.hashes[v]
	return h, ok
}

// toPuppet converts a Ruby object back to a Puppet value (function arguments).
func toPuppet(v any) (value.Value, error) {
	budget := MaxVisits
	return toPuppetDepth(v, 0, &budget)
}

func toPuppetDepth(v any, depth int, budget *int) (value.Value, error) {
	*budget--
	if depth > MaxNesting || *budget < 0 {
		return nil, fmt.Errorf("data nested more than MaxNesting (%d) deep or with more than MaxVisits (%d) elements: %s", MaxNesting, MaxVisits, limitOfMarionette(""))
	}
	switch v := v.(type) {
	case nil:
		return value.Undef, nil
	case bool:
		return value.Boolean(v), nil
	case int64:
		return value.Integer(v), nil
	case float64:
		return value.Float(v), nil
	case *rstr:
		return value.String(v.s), nil
	case symbol:
		if v == "undef" {
			return value.Undef, nil
		}
		if v == "default" {
			return value.Default, nil
		}
		return value.String(v), nil
	case *rarray:
		a := make(value.Array, len(v.a))
		for i, e := range v.a {
			pv, err := toPuppetDepth(e, depth+1, budget)
			if err != nil {
				return nil, err
			}
			a[i] = pv
		}
		return a, nil
	case *rhash:
		b := value.NewHashBuilder(len(v.keys))
		for i, k := range v.keys {
			pk, err := toPuppetDepth(k, depth+1, budget)
			if err != nil {
				return nil, err
			}
			pv, err := toPuppetDepth(v.vals[i], depth+1, budget)
			if err != nil {
				return nil, err
			}
			b.Set(pk, pv)
		}
		return b.Build(), nil
	case *rregexp:
		if v.re == nil {
			return value.NewRegexp(v.src)
		}
		return value.RegexpOf(v.src, v.re), nil
	case *puppetObj:
		return v.v, nil
	case *rsensitive:
		pv, err := toPuppetDepth(v.v, depth+1, budget)
		if err != nil {
			return nil, err
		}
		return &value.Sensitive{Value: pv}, nil
	}
	return nil, fmt.Errorf("a %s cannot be passed to Puppet", className(v))
}

// className is the Ruby class name of a value.
func className(v any) string {
	switch v := v.(type) {
	case nil:
		return "NilClass"
	case bool:
		if v {
			return "TrueClass"
		}
		return "FalseClass"
	case int64, *rbig:
		return "Integer"
	case float64:
		return "Float"
	case *rstr:
		return "String"
	case symbol:
		return "Symbol"
	case *rarray:
		return "Array"
	case *rhash:
		return "Hash"
	case *rrange:
		return "Range"
	case *rregexp:
		return "Regexp"
	case *ipAddr:
		return "IPAddr"
	case *uriObj:
		return v.class
	case *envObj:
		return "Puppet::Node::Environment"
	case *knownTypesObj:
		return "Puppet::Resource::TypeCollection"
	case *resourceTypeObj:
		return "Puppet::Resource::Type"
	case *typeParserObj:
		return typeParserClass
	case *moduleObj:
		return "Puppet::Module"
	case *rexception:
		return v.class
	case *rclass:
		return "Class"
	case *scopeObj:
		return "Puppet::Parser::Scope"
	case *resourceObj:
		return "Puppet::Parser::Resource"
	case *matchData:
		return "MatchData"
	case *puppetObj:
		return "Puppet::Pops::Types::PAnyType"
	case *self:
		return "Puppet::Parser::TemplateWrapper"
	case *enumerator:
		return "Enumerator"
	case *gemVersion:
		return "Gem::Version"
	case *procVal:
		return "Proc"
	case *osslDigest:
		return "OpenSSL::Digest"
	case *pbkdf2Obj:
		return "PBKDF2"
	case *osslHMAC:
		return "OpenSSL::HMAC"
	case *x509Cert:
		return "OpenSSL::X509::Certificate"
	case *rsensitive:
		return sensitiveClass
	case *rsaKey:
		return "OpenSSL::PKey::RSA"
	case *rmodule:
		return "Module"
	case *compilerPart:
		switch v.part {
		case "compiler":
			return "Puppet::Parser::Compiler"
		case "catalog":
			return "Puppet::Resource::Catalog"
		}
		return "Array"
	case *catalogRef:
		return "Puppet::Parser::Resource"
	case *resourceTypeRef:
		return "Puppet::Type"
	}
	return "Object"
}

// ancestors lists the classes and modules a value is_a?.
func isA(v any, class string) bool {
	name := className(v)
	if name == class {
		return true
	}
	switch class {
	case "Object", "BasicObject", "Kernel":
		return true
	case "Numeric", "Comparable":
		return name == "Integer" || name == "Float" || class == "Comparable" && (name == "String" || name == "Gem::Version")
	case "Fixnum", "Bignum":
		return name == "Integer"
	case "Enumerable":
		return name == "Array" || name == "Hash" || name == "Range"
	}
	return false
}

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	}
	return true
}

// toS is Ruby's to_s, which <%= %> applies to its value.
func toS(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case *rstr:
		return v.s
	case symbol:
		return string(v)
	case *rrange:
		return toS(v.lo) + rangeOp(v) + toS(v.hi)
	case *rregexp:
		return "(?" + regexpFlags(v.opts) + ":" + v.src + ")"
	case *rclass:
		return v.name
	case *puppetObj:
		return value.ToString(v.v)
	case *matchData:
		return v.str[v.groups[0]:v.groups[1]]
	case *rexception:
		return v.msg
	case *ipAddr:
		return v.prefix.Addr().String()
	case *gemVersion:
		return v.s
	case *rsensitive:
		return sensitiveText
	case *resourceObj:
		if v.typ != "" {
			return v.typ + "[" + v.title + "]"
		}
	}
	return inspect(v)
}

func regexpFlags(opts string) string {
	on, off := "", ""
	for _, f := range "mix" {
		if strings.ContainsRune(opts, f) {
			on += string(f)
		} else {
			off += string(f)
		}
	}
	if off != "" {
		return on + "-" + off
	}
	return on
}

func rangeOp(r *rrange) string {
	if r.excl {
		return "..."
	}
	return ".."
}

// inspect is Ruby's inspect (Ruby 2.x/3.1 formats, which Puppet 7 runs on).
func inspect(v any) string { return inspectMax(v, MaxTemplateSizeCeiling) }

// inspectMax is inspect, stopping once the result passes max bytes (the
// caller fails on the size): arrays that share elements ([a, a, a] nested)
// are small but print in full.
func inspectMax(v any, max int) string {
	var b strings.Builder
	writeInspect(&b, v, nil, max)
	return b.String()
}

// writeInspect writes v's inspect form; open lists the collections being
// written, so that one containing itself prints as [...] or {...}, as in
// Ruby.
func writeInspect(b *strings.Builder, v any, open []any, max int) {
	if b.Len() > max {
		return // the caller fails on the size
	}
	for _, o := range open {
		if o == v {
			if _, isHash := v.(*rhash); isHash {
				b.WriteString("{...}")
			} else {
				b.WriteString("[...]")
			}
			return
		}
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("nil")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case *rbig:
		b.WriteString(v.n.String())
	case float64:
		b.WriteString(formatFloat(v))
	case *rstr:
		b.WriteString(quoteString(v.s))
	case symbol:
		b.WriteString(inspectSymbol(string(v)))
	case *rarray:
		b.WriteByte('[')
		inner := append(open, v) // the path of open collections, as a stack
		for i, e := range v.a {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, e, inner, max)
		}
		b.WriteByte(']')
	case *rhash:
		b.WriteByte('{')
		inner := append(open, v)
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, k, inner, max)
			b.WriteString("=>")
			writeInspect(b, v.vals[i], inner, max)
		}
		b.WriteByte('}')
	case *rrange:
		writeInspect(b, v.lo, open, max)
		b.WriteString(rangeOp(v))
		writeInspect(b, v.hi, open, max)
	case *rregexp:
		b.WriteString("/" + v.src + "/" + v.opts)
	case *rclass, *puppetObj:
		b.WriteString(toS(v))
	case *matchData:
		b.WriteString("#<MatchData " + quoteString(toS(v)) + ">")
	case *gemVersion:
		b.WriteString("#<Gem::Version " + quoteString(v.s) + ">")
	case *ipAddr:
		b.WriteString(v.inspect())
	case *rsensitive:
		b.WriteString("#<" + sensitiveText + ">")
	default:
		// Objects without a data form (scope, enumerators) print like
		// Ruby's default inspect, minus the address.
		b.WriteString("#<" + className(v) + ">")
	}
}

// formatFloat formats like Ruby's Float#to_s: plain decimal notation for
// exponents from -4 to 14, scientific outside, always with a fraction.
func formatFloat(f float64) string {
	return value.FormatFloat(f)
}

// quoteString is String#inspect.
func quoteString(s string) string { return value.RubyQuote(s) }

var simpleSymbol = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z_0-9]*[?!=]?|@@?[A-Za-z_][A-Za-z_0-9]*|\$[A-Za-z_][A-Za-z_0-9]*|\[\]=?|[-+*/%<>!~^&|]|\*\*|==|===|=~|!=|!~|<=>|<=|>=|<<|>>|[+-]@)$`)
})

func inspectSymbol(s string) string {
	if simpleSymbol().MatchString(s) {
		return ":" + s
	}
	return ":" + quoteString(s)
}

// rubyEqual is Ruby's ==.
func rubyEqual(a, b any) bool {
	budget := MaxVisits
	return rubyEqualDepth(a, b, 0, &budget)
}

func rubyEqualDepth(a, b any, depth int, budget *int) bool {
	*budget--
	if depth > MaxNesting || *budget < 0 {
		return a == b
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b
		case float64:
			return float64(a) == b
		}
		return false
	case *rbig:
		c, ok := compareBig(a, b)
		return ok && c == 0
	case float64:
		switch b := b.(type) {
		case int64:
			return a == float64(b)
		case float64:
			return a == b
		}
		return false
	case *rstr:
		bs, ok := b.(*rstr)
		return ok && a.s == bs.s
	case symbol:
		bs, ok := b.(symbol)
		return ok && a == bs
	case *rarray:
		ba, ok := b.(*rarray)
		if !ok || len(a.a) != len(ba.a) {
			return false
		}
		if a == ba {
			return true
		}
		for i := range a.a {
			if !rubyEqualDepth(a.a[i], ba.a[i], depth+1, budget) {
				return false
			}
		}
		return true
	case *rhash:
		bh, ok := b.(*rhash)
		if !ok || len(a.keys) != len(bh.keys) {
			return false
		}
		for i, k := range a.keys {
			bv, ok := bh.get(k)
			if !ok || !rubyEqualDepth(a.vals[i], bv, depth+1, budget) {
				return false
			}
		}
		return true
	case *rrange:
		br, ok := b.(*rrange)
		return ok && a.excl == br.excl && rubyEqual(a.lo, br.lo) && rubyEqual(a.hi, br.hi)
	case *rregexp:
		br, ok := b.(*rregexp)
		return ok && a.src == br.src && a.opts == br.opts
	case *rclass:
		bc, ok := b.(*rclass)
		return ok && a.name == bc.name
	case *puppetObj:
		bp, ok := b.(*puppetObj)
		return ok && value.Equal(a.v, bp.v)
	case *gemVersion:
		c, ok := gemCompare(a, b)
		return ok && c == 0
	}
	return a == b
}

// compare is Ruby's <=>; ok is false where Ruby returns nil.
func compare(a, b any) (int, bool) {
	budget := MaxVisits
	return compareDepth(a, b, 0, &budget)
}

func compareDepth(a, b any, depth int, budget *int) (int, bool) {
	*budget--
	if depth > MaxNesting || *budget < 0 {
		return 0, false
	}
	if _, ok := a.(*rbig); ok {
		return compareBig(a, b)
	}
	if _, ok := b.(*rbig); ok {
		return compareBig(a, b)
	}
	switch a := a.(type) {
	case int64:
		switch b := b.(type) {
		case int64:
			return cmp3(a < b, a > b), true
		case float64:
			return cmp3(float64(a) < b, float64(a) > b), true
		}
	case float64:
		switch b := b.(type) {
		case int64:
			return cmp3(a < float64(b), a > float64(b)), true
		case float64:
			return cmp3(a < b, a > b), true
		}
	case *rstr:
		if b, ok := b.(*rstr); ok {
			return strings.Compare(a.s, b.s), true
		}
	case symbol:
		if b, ok := b.(symbol); ok {
			return strings.Compare(string(a), string(b)), true
		}
	case *rarray:
		if b, ok := b.(*rarray); ok {
			for i := 0; i < len(a.a) && i < len(b.a); i++ {
				c, ok := compareDepth(a.a[i], b.a[i], depth+1, budget)
				if !ok {
					return 0, false
				}
				if c != 0 {
					return c, true
				}
			}
			return cmp3(len(a.a) < len(b.a), len(a.a) > len(b.a)), true
		}
	case bool, nil:
		if rubyEqual(a, b) {
			return 0, true
		}
	case *gemVersion:
		return gemCompare(a, b)
	}
	return 0, false
}

func cmp3(less, greater bool) int {
	if less {
		return -1
	}
	if greater {
		return 1
	}
	return 0
}

// sortValues sorts with <=>, failing like Ruby when elements do not compare.
func sortValues(vs []any, less func(a, b any) (bool, error)) error {
	var err error
	sort.SliceStable(vs, func(i, j int) bool {
		if err != nil {
			return false
		}
		l, e := less(vs[i], vs[j])
		if e != nil {
			err = e
		}
		return l
	})
	return err
}
