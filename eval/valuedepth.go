package eval

import (
	"unsafe"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Code can nest values without bound at run time (`[$m]` in a reduce of a
// million steps), and every walk of a value is recursive: type inference,
// type checks, formatting. Array and hash literals and the << and +
// operators, which build the nesting, refuse to go past
// value.MaxValueDepth. The depths of nested or large containers are
// remembered per node, so that building `[$m]` again and again costs one
// lookup rather than a walk of $m.

// memoDepthFrom is the depth (or length) from which a container's depth is
// remembered: shallow, short ones cost less to walk again than to keep.
const memoDepthFrom = 16

// nodeKey identifies an array's backing store or a hash.
type nodeKey struct {
	p unsafe.Pointer
	n int
}

// checkNesting fails when v, just built at x, nests past
// value.MaxValueDepth. Scalars and containers of scalars pass at the cost
// of a look at each element.
func (ev *Evaluator) checkNesting(v value.Value, sc *Scope, x syntax.Node) error {
	if ev.valueDepth(v, value.MaxValueDepth, false) > value.MaxValueDepth {
		return errorAt(sc, x, "%v", &value.ValueTooLarge{What: "Building a value", Deep: true})
	}
	return nil
}

// valueDepth is v's nesting depth, or more than limit once it passes it.
// child says v is an element of the value being checked: a large flat one
// is remembered then, as it may be the element of many (`[$list, $i]` in
// a loop), while a flat literal just built is not.
func (ev *Evaluator) valueDepth(v value.Value, limit int, child bool) int {
	var key nodeKey
	var n int
	switch v := v.(type) {
	case value.Array:
		if len(v) == 0 {
			return 1
		}
		key, n = nodeKey{unsafe.Pointer(unsafe.SliceData(v)), len(v)}, len(v)
	case *value.Hash:
		if v.Len() == 0 {
			return 1
		}
		key, n = nodeKey{unsafe.Pointer(v), -1}, v.Len()
	case *value.Sensitive:
		return 1 + ev.valueDepth(v.Value, limit-1, true)
	default:
		return 0
	}
	if d, ok := ev.depths[key]; ok {
		return d
	}
	if limit <= 0 {
		return 1
	}
	ev.depthWalked++
	walkedBefore := ev.depthWalked
	inner := 0
	each := func(e value.Value) bool {
		switch e.(type) {
		case value.Array, *value.Hash, *value.Sensitive:
			inner = max(inner, ev.valueDepth(e, limit-1, true))
		}
		return inner < limit
	}
	switch v := v.(type) {
	case value.Array:
		for _, e := range v {
			if !each(e) {
				break
			}
		}
	case *value.Hash:
		for i, k := range v.Keys() {
			if !each(k) || !each(v.Values()[i]) {
				break
			}
		}
	}
	d := 1 + inner
	// A shallow node that shares a big subtree (`$b = [$a, $a, $a]`, thirty
	// times over) is shallow yet costly to walk again: what its walk cost
	// decides too.
	costly := ev.depthWalked-walkedBefore >= memoDepthFrom
	if d <= limit && (child || inner > 0) && (d >= memoDepthFrom || n >= memoDepthFrom || costly) {
		if ev.depths == nil {
			ev.depths = make(map[nodeKey]int)
		}
		ev.depths[key] = d
	}
	return d
}
