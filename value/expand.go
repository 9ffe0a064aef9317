package value

import (
	"fmt"
	"unsafe"
)

// Values share structure: `$b = [$a, $a, $a]` holds $a three times without
// copying it, so thirty lines of Puppet build a value of 3^30 elements in
// microseconds. Anything that expands a value (its string form, the
// catalog's JSON, flatten, comparing two such values) would then work
// through every copy. ExpandedSize measures that expansion first, memoized
// per shared node so that measuring costs only the distinct nodes.

// DefaultMaxValueSize is the default bound on how large one value may
// expand (its string or JSON form, in bytes, roughly) and on the encoded
// catalog; `marionette help limits` lists it.
const DefaultMaxValueSize = 256 << 20

// MaxValueDepth bounds how deeply arrays and hashes may nest in a value
// that is expanded: every walk of a value is recursive.
const MaxValueDepth = 10000

// ValueTooLarge is the error of a value that would expand past the limit.
type ValueTooLarge struct {
	// What names the operation: "the catalog", "String conversion", ...
	What string
	Max  int64
	// Deep is set when the value is nested past MaxValueDepth rather than
	// too large.
	Deep bool
}

func (e *ValueTooLarge) Error() string {
	if e.Deep {
		return fmt.Sprintf("%s: a value is nested more than MaxValueDepth (%d) deep (a fixed limit of marionette)", e.What, MaxValueDepth)
	}
	return fmt.Sprintf("%s: a value expands to more than MaxValueSize (%s; shared arrays and hashes count once per use) (a limit of marionette; --max-value-size raises it)", e.What, sizeString(e.Max))
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Expansion measures expanded sizes with one memo, so that the values of a
// whole catalog share the work and the budget. The zero value is ready.
type Expansion struct {
	// The memo holds only containers that hold containers: those are what
	// sharing multiplies, while a flat one costs its length to measure
	// again, and most values are flat (no map is made for them).
	arrays map[sliceKey]int64
	hashes map[*Hash]int64
	// Total is the sum of the sizes measured so far, saturating at the
	// largest int64.
	Total int64
}

// sliceKey identifies an array's backing store: arrays are shared by
// value, so the same elements are the same node.
type sliceKey struct {
	data *Value
	n    int
}

// CheckSize reports, as a *ValueTooLarge naming what, a value that expands
// past max or nests past MaxValueDepth. Scalars cost nothing to check.
func CheckSize(v Value, max int64, what string) error {
	if !isContainer(v) {
		return nil
	}
	var x Expansion
	return x.Add(v, max, what)
}

func isContainer(v Value) bool {
	switch v.(type) {
	case Array, *Hash, *Sensitive, *Deferred:
		return true
	}
	return false
}

// Add measures v and adds its size to Total; it fails once Total passes
// max or v nests past MaxValueDepth.
func (x *Expansion) Add(v Value, max int64, what string) error {
	size, ok := x.size(v, 0, max)
	if !ok {
		return &ValueTooLarge{What: what, Max: max, Deep: size < 0}
	}
	x.Total = saturatingAdd(x.Total, size)
	if x.Total > max {
		return &ValueTooLarge{What: what, Max: max}
	}
	return nil
}

func saturatingAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

// size is v's expanded size; ok is false past max (size > max) or past
// MaxValueDepth (size -1).
func (x *Expansion) size(v Value, depth int, max int64) (size int64, ok bool) {
	if depth > MaxValueDepth {
		return -1, false
	}
	switch v := v.(type) {
	case String:
		return int64(len(v)) + 2, true
	case Array:
		if len(v) == 0 {
			return 2, true
		}
		key := sliceKey{unsafe.SliceData(v), len(v)}
		if s, seen := x.arrays[key]; seen {
			return s, true
		}
		total, nested := int64(2), false
		for _, e := range v {
			nested = nested || isContainer(e)
			s, ok := x.size(e, depth+1, max)
			if !ok {
				return s, false
			}
			if total = saturatingAdd(total, s+2); total > max {
				return total, false
			}
		}
		if nested {
			if x.arrays == nil {
				x.arrays = make(map[sliceKey]int64)
			}
			x.arrays[key] = total
		}
		return total, true
	case *Hash:
		if v.Len() == 0 {
			return 2, true
		}
		if s, seen := x.hashes[v]; seen {
			return s, true
		}
		total, nested := int64(2), false
		for i, k := range v.keys {
			for _, e := range [2]Value{k, v.vals[i]} {
				nested = nested || isContainer(e)
				s, ok := x.size(e, depth+1, max)
				if !ok {
					return s, false
				}
				if total = saturatingAdd(total, s+2); total > max {
					return total, false
				}
			}
		}
		if nested {
			if x.hashes == nil {
				x.hashes = make(map[*Hash]int64)
			}
			x.hashes[v] = total
		}
		return total, true
	case *Sensitive:
		return x.size(v.Value, depth+1, max)
	case *Deferred:
		return x.size(v.Args, depth+1, max)
	}
	return 24, true
}
