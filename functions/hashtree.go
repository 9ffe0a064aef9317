package functions

import "github.com/marionette-dev/marionette/value"

// Hash.new(tree, 'tree' | 'hash_tree') rebuilds a hash from the
// [path, value] pairs tree_each produces. Puppet does it by assigning into
// nested Ruby hashes and arrays; mutableHash and mutableArray play that
// part until the result is frozen into values.

type mutableHash struct {
	keys []value.Value
	vals []any // value.Value, *mutableHash or *mutableArray
}

type mutableArray struct{ elems []any }

func (h *mutableHash) find(k value.Value) int {
	for i, hk := range h.keys {
		if value.Identical(hk, k) {
			return i
		}
	}
	return -1
}

func (h *mutableHash) set(k value.Value, v any) {
	if i := h.find(k); i >= 0 {
		h.vals[i] = v
		return
	}
	h.keys = append(h.keys, k)
	h.vals = append(h.vals, v)
}

// thaw makes a Hash or Array value assignable.
func thaw(v any) any {
	switch v := v.(type) {
	case *value.Hash:
		h := &mutableHash{}
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			h.set(k, e)
		}
		return h
	case value.Array:
		a := &mutableArray{}
		for _, e := range v {
			a.elems = append(a.elems, e)
		}
		return a
	}
	return v
}

// freeze turns the mutable containers back into values.
func freeze(v any) value.Value {
	switch v := v.(type) {
	case *mutableHash:
		b := value.NewHashBuilder(len(v.keys))
		for i, k := range v.keys {
			b.Set(k, freeze(v.vals[i]))
		}
		return b.Build()
	case *mutableArray:
		out := make(value.Array, len(v.elems))
		for i, e := range v.elems {
			out[i] = freeze(e)
		}
		return out
	case value.Value:
		return v
	}
	return value.Undef
}

// arrayAsHash turns arrays, recursively, into hashes keyed by index.
func arrayAsHash(v value.Value) value.Value {
	a, ok := v.(value.Array)
	if !ok {
		return v
	}
	b := value.NewHashBuilder(len(a))
	for i, e := range a {
		b.Set(value.Integer(i), arrayAsHash(e))
	}
	return b.Build()
}

// hashFromTree builds the hash; allHashes turns array values into hashes.
func hashFromTree(pairs value.Array, allHashes bool) value.Value {
	result := &mutableHash{}
	for _, e := range pairs {
		pair := e.(value.Array)
		path, v := pair[0].(value.Array), pair[1]
		if len(path) == 0 {
			switch v := v.(type) {
			case value.Array:
				for i, x := range v {
					result.set(value.Integer(i), x)
				}
			case *value.Hash:
				for i := 0; i < v.Len(); i++ {
					k, x := v.At(i)
					result.set(k, x)
				}
			}
			continue
		}
		var memo any = result
		for _, idx := range path[:len(path)-1] {
			memo = descend(memo, idx)
		}
		if allHashes {
			v = arrayAsHash(v)
		}
		assign(memo, path[len(path)-1], v)
	}
	return freeze(result)
}

// descend steps into memo[idx], creating an empty hash where a hash has no
// such key, and makes the container found there assignable.
func descend(memo any, idx value.Value) any {
	switch m := memo.(type) {
	case *mutableHash:
		i := m.find(idx)
		if i < 0 {
			child := &mutableHash{}
			m.set(idx, child)
			return child
		}
		child := thaw(m.vals[i])
		m.vals[i] = child
		return child
	case *mutableArray:
		n, ok := idx.(value.Integer)
		if !ok || n < 0 || int(n) >= len(m.elems) {
			return nil
		}
		child := thaw(m.elems[n])
		m.elems[n] = child
		return child
	}
	return nil
}

func assign(memo any, idx value.Value, v value.Value) {
	switch m := memo.(type) {
	case *mutableHash:
		m.set(idx, v)
	case *mutableArray:
		n, ok := idx.(value.Integer)
		if !ok || n < 0 || n > maxIteration {
			return
		}
		for int(n) >= len(m.elems) {
			m.elems = append(m.elems, value.Undef)
		}
		m.elems[n] = v
	}
}
