package value

// Hash is a Puppet Hash: insertion-ordered, keys compared with Identical.
// A Hash is immutable once built with a HashBuilder or NewHash; use the
// builder (or Merge) to derive new hashes.
type Hash struct {
	keys  []Value
	vals  []Value
	index map[Value]int // scalar keys only; nil for small hashes
}

func (*Hash) isValue() {}

// indexThreshold is the size from which a lookup map is kept; below it a linear
// scan is faster and allocates nothing.
const indexThreshold = 8

// EmptyHash is the empty Hash.
var EmptyHash = &Hash{}

// NewHash builds a hash from alternating keys and values; later duplicates of a
// key replace the earlier value but keep its position (Ruby Hash semantics).
func NewHash(kv ...Value) *Hash {
	b := NewHashBuilder(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		b.Set(kv[i], kv[i+1])
	}
	return b.Build()
}

// Len returns the number of entries.
func (h *Hash) Len() int {
	if h == nil {
		return 0
	}
	return len(h.keys)
}

// Keys returns the keys in insertion order. The slice must not be modified.
func (h *Hash) Keys() []Value { return h.keys }

// Values returns the values in insertion order. The slice must not be modified.
func (h *Hash) Values() []Value { return h.vals }

// At returns the i'th entry.
func (h *Hash) At(i int) (k, v Value) { return h.keys[i], h.vals[i] }

// Get looks up a key.
func (h *Hash) Get(k Value) (Value, bool) {
	if i := h.find(k); i >= 0 {
		return h.vals[i], true
	}
	return nil, false
}

// GetString looks up a String key. It is Get(String(k)) without boxing
// the key into a Value, which allocated on every lookup (a third of the
// hash lookups of a compile are by a literal or a variable name).
func (h *Hash) GetString(k string) (Value, bool) {
	if h == nil {
		return nil, false
	}
	if h.index != nil {
		if i, ok := h.index[String(k)]; ok {
			return h.vals[i], true
		}
		return nil, false
	}
	for i, hk := range h.keys {
		if s, ok := hk.(String); ok && string(s) == k {
			return h.vals[i], true
		}
	}
	return nil, false
}

func (h *Hash) find(k Value) int {
	if h == nil {
		return -1
	}
	if h.index != nil && isScalarKey(k) {
		if i, ok := h.index[k]; ok {
			return i
		}
		return -1
	}
	for i, hk := range h.keys {
		if Identical(hk, k) {
			return i
		}
	}
	return -1
}

// isScalarKey reports whether k can be used as a Go map key with Puppet's
// identity semantics (Go interface equality matches Identical for these).
func isScalarKey(k Value) bool {
	switch k.(type) {
	case String, Integer, Boolean, undefValue, defaultValue:
		return true
	}
	return false
}

// HashBuilder accumulates entries for a new Hash.
type HashBuilder struct {
	h     *Hash
	built bool
}

// NewHashBuilder returns a builder with room for n entries.
func NewHashBuilder(n int) *HashBuilder {
	// Keys and values share one allocation; each part has its own capacity
	// limit, so appending past n reallocates that part alone.
	buf := make([]Value, 2*n)
	return &HashBuilder{h: &Hash{keys: buf[:0:n], vals: buf[n : n : 2*n]}}
}

// Set adds or replaces an entry.
func (b *HashBuilder) Set(k, v Value) {
	h := b.h
	if i := h.find(k); i >= 0 {
		h.vals[i] = v
		return
	}
	h.keys = append(h.keys, k)
	h.vals = append(h.vals, v)
	if h.index != nil {
		if isScalarKey(k) {
			h.index[k] = len(h.keys) - 1
		}
	} else if len(h.keys) > indexThreshold {
		h.index = make(map[Value]int, len(h.keys)*2)
		for i, hk := range h.keys {
			if isScalarKey(hk) {
				h.index[hk] = i
			}
		}
	}
}

// Delete removes an entry if present.
func (b *HashBuilder) Delete(k Value) {
	h := b.h
	i := h.find(k)
	if i < 0 {
		return
	}
	h.keys = append(h.keys[:i], h.keys[i+1:]...)
	h.vals = append(h.vals[:i], h.vals[i+1:]...)
	if h.index != nil {
		h.index = make(map[Value]int, len(h.keys))
		for j, hk := range h.keys {
			if isScalarKey(hk) {
				h.index[hk] = j
			}
		}
	}
}

// Len returns the number of entries so far.
func (b *HashBuilder) Len() int { return len(b.h.keys) }

// Build returns the hash; the builder must not be used afterwards.
func (b *HashBuilder) Build() *Hash {
	if b.built {
		panic("value: HashBuilder used after Build")
	}
	b.built = true
	return b.h
}

// Merge returns a new hash with the entries of a followed by those of b (b wins),
// as Puppet's `+` on hashes does.
func Merge(a, b *Hash) *Hash {
	if b.Len() == 0 {
		return a
	}
	if a.Len() == 0 {
		return b
	}
	hb := NewHashBuilder(a.Len() + b.Len())
	for i, k := range a.keys {
		hb.Set(k, a.vals[i])
	}
	for i, k := range b.keys {
		hb.Set(k, b.vals[i])
	}
	return hb.Build()
}
