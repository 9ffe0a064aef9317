package hiera

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// MergeKind names a merge strategy.
type MergeKind int

const (
	MergeFirst MergeKind = iota
	MergeUnique
	MergeHash
	MergeDeep
	// mergeReverseDeep is a hiera.yaml version 3 `:merge_behavior: deep` for
	// hiera_hash: lower levels win.
	mergeReverseDeep
)

// Merge is a merge strategy with its options, as given to lookup() or found
// in lookup_options.
type Merge struct {
	Kind MergeKind
	// Deep merge options.
	KnockoutPrefix   string
	SortMergedArrays bool
	MergeHashArrays  bool
}

func (m *Merge) String() string {
	switch m.Kind {
	case MergeUnique:
		return "unique"
	case MergeHash:
		return "hash"
	case MergeDeep:
		return "deep"
	case mergeReverseDeep:
		return "reverse_deep"
	}
	return "first"
}

// ParseMerge reads a merge argument: a strategy name ('first', 'unique',
// 'hash', 'deep') or a hash with 'strategy' and deep merge options. undef
// means "not given" and yields nil.
func ParseMerge(v value.Value) (*Merge, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case value.String:
		return mergeByName(string(v))
	case *value.Hash:
		sv, ok := v.GetString("strategy")
		if !ok {
			return nil, fmt.Errorf("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'")
		}
		name, ok := sv.(value.String)
		if !ok {
			return nil, fmt.Errorf("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'")
		}
		m, err := mergeByName(string(name))
		if err != nil {
			return nil, err
		}
		for i := 0; i < v.Len(); i++ {
			k, ov := v.At(i)
			ks, _ := k.(value.String)
			if ks == "strategy" {
				continue
			}
			if m.Kind != MergeDeep {
				return nil, fmt.Errorf("The merge options has wrong type, unrecognized key '%s'", value.ToString(k))
			}
			switch ks {
			case "knockout_prefix":
				s, ok := ov.(value.String)
				if !ok {
					return nil, fmt.Errorf("The merge options entry 'knockout_prefix' expects a value of type Undef or String, got %s", typeName(ov))
				}
				m.KnockoutPrefix = string(s)
			case "sort_merged_arrays", "merge_hash_arrays", "merge_debug":
				b, ok := ov.(value.Boolean)
				if !ok {
					return nil, fmt.Errorf("The merge options entry '%s' expects a value of type Undef or Boolean, got %s", ks, typeName(ov))
				}
				if ks == "sort_merged_arrays" {
					m.SortMergedArrays = bool(b)
				} else if ks == "merge_hash_arrays" {
					m.MergeHashArrays = bool(b)
				}
			default:
				return nil, fmt.Errorf("The merge options has wrong type, unrecognized key '%s'", value.ToString(k))
			}
		}
		return m, nil
	}
	if value.IsUndef(v) {
		return nil, nil
	}
	return nil, fmt.Errorf("merge must be a String or a Hash, got %s", typeName(v))
}

func mergeByName(name string) (*Merge, error) {
	switch name {
	case "first", "default":
		return &Merge{Kind: MergeFirst}, nil
	case "unique":
		return &Merge{Kind: MergeUnique}, nil
	case "hash":
		return &Merge{Kind: MergeHash}, nil
	case "deep":
		return &Merge{Kind: MergeDeep}, nil
	}
	return nil, fmt.Errorf("Unknown merge strategy: '%s'", name)
}

var (
	mergeFirst  = &Merge{Kind: MergeFirst}
	mergeUnique = &Merge{Kind: MergeUnique}
	mergeHash   = &Merge{Kind: MergeHash}
)

// hashOfStringData is the Hash[String,Data] a hash merge requires.
var hashOfStringData = &value.HashType{Key: &value.StringType{Min: 0, Max: value.MaxInt}, Value: value.DataType, Min: 0, Max: value.MaxInt}

// convertFirst prepares the first value found when there is more than one
// source to merge (Puppet's convert_value).
func (m *Merge) convertFirst(v value.Value) value.Value {
	if m.Kind == MergeUnique {
		if a, ok := v.(value.Array); ok {
			return flatten(a)
		}
		return value.Array{v}
	}
	return v
}

// single adjusts a value when there was only one source to search
// (Puppet's merge_single): unique removes duplicates but does not flatten.
func (m *Merge) single(v value.Value) value.Value {
	if m.Kind == MergeUnique {
		if a, ok := v.(value.Array); ok {
			return unionArrays(nil, a)
		}
	}
	return v
}

// merge combines an accumulated higher-priority value with a lower-priority one.
func (m *Merge) merge(higher, lower value.Value) (value.Value, error) {
	switch m.Kind {
	case MergeUnique:
		for i, v := range []value.Value{higher, lower} {
			if !uniqueMergeable(v) {
				return nil, mergeTypeError(i, "a value of type Scalar or Array", v)
			}
		}
		return unionArrays(m.convertFirst(higher).(value.Array), m.convertFirst(lower).(value.Array)), nil
	case MergeHash:
		hh, ok1 := higher.(*value.Hash)
		if !ok1 || !value.IsInstance(hashOfStringData, hh) {
			return nil, mergeTypeError(0, "a Hash value", higher)
		}
		lh, ok2 := lower.(*value.Hash)
		if !ok2 || !value.IsInstance(hashOfStringData, lh) {
			return nil, mergeTypeError(1, "a Hash value", lower)
		}
		return value.Merge(lh, hh), nil
	case MergeDeep:
		return deepMerge(higher, lower, m), nil
	case mergeReverseDeep:
		return deepMerge(lower, higher, m), nil
	}
	return higher, nil
}

func mergeTypeError(which int, expects string, got value.Value) error {
	pos := "first"
	if which == 1 {
		pos = "second"
	}
	return fmt.Errorf("The %s element of the merge has wrong type, expects %s, got %s", pos, expects, inferredSetName(got))
}

// inferredSetName names a value's type the way Puppet's mismatch messages
// do for merge errors: arrays are Tuples, hashes with string keys Structs.
func inferredSetName(v value.Value) string {
	switch v := v.(type) {
	case value.Array:
		if len(v) > 0 {
			return "Tuple"
		}
	case *value.Hash:
		structLike := v.Len() > 0
		for _, k := range v.Keys() {
			if _, ok := k.(value.String); !ok {
				structLike = false
			}
		}
		if structLike {
			return "Struct"
		}
	}
	return value.TypeOf(v).TypeName()
}

func uniqueMergeable(v value.Value) bool {
	if a, ok := v.(value.Array); ok {
		return value.IsInstance(&value.ArrayType{Elem: value.DataType, Min: 0, Max: value.MaxInt}, a)
	}
	return value.IsInstance(value.ScalarType, v)
}

func flatten(a value.Array) value.Array {
	out := make(value.Array, 0, len(a))
	for _, e := range a {
		if sub, ok := e.(value.Array); ok {
			out = append(out, flatten(sub)...)
		} else {
			out = append(out, e)
		}
	}
	return out
}

// unionArrays is Ruby's `a | b`: the elements of a then b, duplicates (eql?)
// dropped, first occurrence kept.
func unionArrays(a, b value.Array) value.Array {
	out := make(value.Array, 0, len(a)+len(b))
	for _, src := range []value.Array{a, b} {
	next:
		for _, e := range src {
			for _, o := range out {
				if value.Identical(o, e) {
					continue next
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// deepMerge merges src (higher priority) into dest following the deep_merge
// gem that Puppet uses, quirks included: a dest entry that is undef or false
// counts as absent, lower-priority array elements come first, an empty source
// hash leaves a non-hash dest alone, and with a knockout prefix a string value
// carrying the prefix becomes "".
func deepMerge(src, dest value.Value, m *Merge) value.Value {
	if value.IsUndef(src) {
		return dest
	}
	if !value.Truthy(dest) {
		return src
	}
	switch s := src.(type) {
	case *value.Hash:
		d, ok := dest.(*value.Hash)
		if !ok {
			if s.Len() == 0 {
				return dest
			}
			return overwriteUnmergeable(src, m)
		}
		b := value.NewHashBuilder(d.Len() + s.Len())
		for i := 0; i < d.Len(); i++ {
			k, v := d.At(i)
			b.Set(k, v)
		}
		for i := 0; i < s.Len(); i++ {
			k, sv := s.At(i)
			if dv, ok := d.Get(k); ok && value.Truthy(dv) {
				b.Set(k, deepMerge(sv, dv, m))
			} else {
				b.Set(k, deepMerge(sv, sv, m))
			}
		}
		return b.Build()
	case value.Array:
		ko := m.KnockoutPrefix
		if ko != "" && containsIdentical(s, value.String(ko)) {
			dest = clearValue(dest)
			s = removeIdentical(s, value.String(ko))
		}
		d, ok := dest.(value.Array)
		if !ok {
			return overwriteUnmergeable(s, m)
		}
		if ko != "" {
			kept := make(value.Array, 0, len(s))
			for _, e := range s {
				es, isStr := e.(value.String)
				if isStr && strings.HasPrefix(string(es), ko) {
					d = removeIdentical(removeIdentical(d, value.String(strings.TrimPrefix(string(es), ko))), es)
					continue
				}
				kept = append(kept, e)
			}
			s = kept
		}
		var out value.Array
		if m.MergeHashArrays && allHashes(s) && allHashes(d) {
			out = make(value.Array, 0, max(len(s), len(d)))
			for i, de := range d {
				var se value.Value = value.EmptyHash
				if i < len(s) {
					se = s[i]
				}
				out = append(out, deepMerge(se, de, m))
			}
			if len(s) > len(d) {
				out = append(out, s[len(d):]...)
			}
		} else {
			out = unionArrays(d, s)
		}
		if m.SortMergedArrays {
			if sorted, ok := value.SortValues(out); ok {
				out = sorted
			}
		}
		return out
	}
	return overwriteUnmergeable(src, m)
}

func overwriteUnmergeable(src value.Value, m *Merge) value.Value {
	ko := m.KnockoutPrefix
	if ko == "" {
		return src
	}
	switch s := src.(type) {
	case value.String:
		if strings.HasPrefix(string(s), ko) {
			return value.String("")
		}
	case value.Array:
		kept := make(value.Array, 0, len(s))
		for _, e := range s {
			if es, ok := e.(value.String); ok && strings.HasPrefix(string(es), ko) {
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) != len(s) {
			return value.String("")
		}
	}
	return src
}

// clearValue is deep_merge's clear_or_nil: collections and strings are emptied.
func clearValue(v value.Value) value.Value {
	switch v.(type) {
	case value.Array:
		return value.Array{}
	case *value.Hash:
		return value.EmptyHash
	case value.String:
		return value.String("")
	}
	return value.Undef
}

func containsIdentical(a value.Array, v value.Value) bool {
	for _, e := range a {
		if value.Identical(e, v) {
			return true
		}
	}
	return false
}

func removeIdentical(a value.Array, v value.Value) value.Array {
	out := make(value.Array, 0, len(a))
	for _, e := range a {
		if !value.Identical(e, v) {
			out = append(out, e)
		}
	}
	return out
}

func allHashes(a value.Array) bool {
	for _, e := range a {
		if _, ok := e.(*value.Hash); !ok {
			return false
		}
	}
	return true
}
