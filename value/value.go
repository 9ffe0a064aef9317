// Package value holds Puppet's runtime values and its type system.
//
// Values are immutable once built: a Hash or Array handed to the evaluator is never
// modified in place, so values can be shared freely between scopes, catalogs and
// concurrent compiles. Every Puppet data type is itself a Value (a Type), because in
// the Puppet language types are first-class (`Integer[1,2]`, `File['/tmp']`).
package value

import (
	"math"
	"regexp"
	"sort"
	"sync"
	"unsafe"

	"github.com/dlclark/regexp2"
	"github.com/marionette-dev/marionette/semver"
)

// Value is any Puppet runtime value.
type Value interface {
	isValue()
}

// undefValue and defaultValue are the two unit values of the language.
type undefValue struct{}
type defaultValue struct{}

func (undefValue) isValue()   {}
func (defaultValue) isValue() {}

// Undef is Puppet's `undef`; Default is the `default` keyword as a value.
var (
	Undef   Value = undefValue{}
	Default Value = defaultValue{}
)

// String is a Puppet String.
type String string

// Integer is a Puppet Integer (64-bit, as Puppet limits integers in catalogs).
type Integer int64

// Float is a Puppet Float.
type Float float64

// Boolean is a Puppet Boolean.
type Boolean bool

// Array is a Puppet Array. It must not be modified after it is handed out.
type Array []Value

func (String) isValue()  {}
func (Integer) isValue() {}
func (Float) isValue()   {}
func (Boolean) isValue() {}
func (Array) isValue()   {}

// True and False are the two Boolean values.
const (
	True  = Boolean(true)
	False = Boolean(false)
)

// Regexp is a Puppet Regexp value: the source as written plus its compiled
// form. Use its methods to match; Go gives the RE2 form, nil for
// expressions only the backtracking engine can run. NewRegexp checks the
// syntax at once but compiles on first use: most patterns of a compile
// (the type aliases of stdlib and other modules) never match anything.
type Regexp struct {
	Source string
	// expr is the RE2 expression still to compile ("" once built eagerly).
	expr string
	once sync.Once
	re   *regexp.Regexp
	ext  *regexp2.Regexp
}

func (*Regexp) isValue() {}

// Sensitive wraps a value whose content must not show up in logs or errors.
type Sensitive struct {
	Value Value
}

func (*Sensitive) isValue() {}

// IsUndef reports whether v is undef (a nil interface counts as undef too).
func IsUndef(v Value) bool {
	if v == nil {
		return true
	}
	_, ok := v.(undefValue)
	return ok
}

// IsDefault reports whether v is the `default` value.
func IsDefault(v Value) bool {
	_, ok := v.(defaultValue)
	return ok
}

// Truthy implements Puppet's boolean conversion: only undef and false are false.
func Truthy(v Value) bool {
	switch v := v.(type) {
	case nil, undefValue:
		return false
	case Boolean:
		return bool(v)
	}
	return true
}

// Equal implements Puppet's `==`: strings compare case-insensitively, Integer and
// Float compare by numeric value, collections compare element-wise.
func Equal(a, b Value) bool {
	switch a := a.(type) {
	case nil, undefValue:
		return IsUndef(b)
	case defaultValue:
		return IsDefault(b)
	case String:
		bs, ok := b.(String)
		return ok && equalFold(string(a), string(bs))
	case Integer:
		switch b := b.(type) {
		case Integer:
			return a == b
		case Float:
			return Float(a) == b
		}
		return false
	case Float:
		switch b := b.(type) {
		case Integer:
			return a == Float(b)
		case Float:
			return a == b
		}
		return false
	case Boolean:
		bb, ok := b.(Boolean)
		return ok && a == bb
	case Array, *Hash:
		var m equalMemo
		return m.collections(a, b, Equal)
	case *Regexp:
		br, ok := b.(*Regexp)
		return ok && a.Source == br.Source
	case *Sensitive:
		// Sensitive values are only equal when they are the same value.
		return a == b
	case Type:
		bt, ok := b.(Type)
		return ok && TypesEqual(a, bt)
	}
	if eq, ok := semverEqual(a, b); ok {
		return eq
	}
	eq, _ := richEqual(a, b)
	return eq
}

// Identical is strict equality as used for hash keys and uniqueness: strings are
// case-sensitive and Integer 1 differs from Float 1.0 (Ruby's eql?).
func Identical(a, b Value) bool {
	switch a := a.(type) {
	case String:
		bs, ok := b.(String)
		return ok && a == bs
	case Integer:
		bi, ok := b.(Integer)
		return ok && a == bi
	case Float:
		bf, ok := b.(Float)
		return ok && a == bf
	case Array, *Hash:
		var m equalMemo
		return m.collections(a, b, Identical)
	}
	return Equal(a, b)
}

// equalMemo remembers the outcome of comparing two nested arrays or
// hashes. Values share structure (`[$a, $a, $a]` thirty levels deep is
// 3^30 elements in 31 arrays): comparing two such values element by
// element would never end, comparing each pair of shared nodes once costs
// only the distinct pairs. The map is made at the first nested pair.
type equalMemo struct {
	pairs map[[2]nodeID]bool
}

// nodeID identifies an array's backing store or a hash.
type nodeID struct {
	p unsafe.Pointer
	n int
}

func idOf(v Value) (nodeID, bool) {
	switch v := v.(type) {
	case Array:
		if len(v) > 0 {
			return nodeID{unsafe.Pointer(unsafe.SliceData(v)), len(v)}, true
		}
	case *Hash:
		return nodeID{unsafe.Pointer(v), -1}, true
	}
	return nodeID{}, false
}

// collections compares two arrays element-wise, or two hashes entry by
// entry (keys are always matched exactly), elements that are not arrays or
// hashes with eq (Equal, Identical or RubyEqual: each memo serves one).
// The same node is equal to itself, as in Ruby.
func (m *equalMemo) collections(a, b Value, eq func(x, y Value) bool) bool {
	ida, oka := idOf(a)
	idb, okb := idOf(b)
	if oka && okb {
		if ida == idb {
			return true
		}
		if eq, seen := m.pairs[[2]nodeID{ida, idb}]; seen {
			return eq
		}
	}
	same := m.walk(a, b, eq)
	if oka && okb && m.pairs != nil {
		m.pairs[[2]nodeID{ida, idb}] = same
	}
	return same
}

func (m *equalMemo) walk(a, b Value, eq func(x, y Value) bool) bool {
	elem := func(x, y Value) bool {
		switch x.(type) {
		case Array, *Hash:
			if m.pairs == nil {
				m.pairs = make(map[[2]nodeID]bool)
			}
			return m.collections(x, y, eq)
		}
		return eq(x, y)
	}
	switch a := a.(type) {
	case Array:
		bb, ok := b.(Array)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !elem(a[i], bb[i]) {
				return false
			}
		}
		return true
	case *Hash:
		bh, ok := b.(*Hash)
		if !ok || a.Len() != bh.Len() {
			return false
		}
		for i, k := range a.keys {
			v, found := bh.Get(k)
			if !found || !elem(a.vals[i], v) {
				return false
			}
		}
		return true
	}
	return false
}

// StringsEqual is Puppet's == on two strings (Equal without boxing them).
func StringsEqual(a, b string) bool { return equalFold(a, b) }

// equalFold compares strings the way Puppet's == does (Unicode simple case folding).
func equalFold(a, b string) bool {
	if len(a) == len(b) && a == b {
		return true
	}
	return stringsEqualFold(a, b)
}

// Compare orders two values for Puppet's <, <=, >, >= and for sort(). ok is false
// when the values are not comparable (Puppet raises an error then).
// Strings compare case-insensitively for the operators; use CompareStrict for sort().
func Compare(a, b Value) (c int, ok bool) {
	return compare(a, b, true)
}

// CompareStrict orders like Compare but strings compare case-sensitively, as
// sort() does.
func CompareStrict(a, b Value) (c int, ok bool) {
	return compare(a, b, false)
}

func compare(a, b Value, fold bool) (int, bool) {
	switch a := a.(type) {
	case Integer:
		switch b := b.(type) {
		case Integer:
			return cmpOrdered(a, b), true
		case Float:
			return cmpFloat(float64(a), float64(b)), true
		}
	case Float:
		switch b := b.(type) {
		case Integer:
			return cmpFloat(float64(a), float64(b)), true
		case Float:
			return cmpFloat(float64(a), float64(b)), true
		}
	case String:
		if bs, ok := b.(String); ok {
			if fold {
				return cmpOrdered(lowerString(string(a)), lowerString(string(bs))), true
			}
			return cmpOrdered(a, bs), true
		}
	case *SemVer:
		if bv, ok := b.(*SemVer); ok {
			return semver.Compare(a.V, bv.V), true
		}
	case Type:
		// Types compare by assignability: a < b when a is a strict subtype of b.
		if bt, ok := b.(Type); ok {
			switch {
			case TypesEqual(a, bt):
				return 0, true
			case IsAssignable(bt, a):
				return -1, true
			case IsAssignable(a, bt):
				return 1, true
			}
			return 0, false
		}
	}
	return 0, false
}

func cmpOrdered[T ~int64 | ~string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case math.IsNaN(a) || math.IsNaN(b):
		return -1
	}
	return 0
}

// SortValues sorts a copy of vs with Puppet's sort() ordering. ok is false when
// some pair is not comparable.
func SortValues(vs Array) (Array, bool) {
	out := make(Array, len(vs))
	copy(out, vs)
	ok := true
	sort.SliceStable(out, func(i, j int) bool {
		c, cok := CompareStrict(out[i], out[j])
		if !cok {
			ok = false
		}
		return c < 0
	})
	return out, ok
}
