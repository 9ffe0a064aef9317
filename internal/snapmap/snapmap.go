// Package snapmap is a map for caches that are read far more often than
// written, by many goroutines: a read is a lookup in an immutable snapshot
// (no lock, no allocation, unlike sync.Map, which boxes every key in an
// interface); a write goes to a locked map of recent entries, which is
// merged into a new snapshot once reads have needed it often enough to pay
// for the copy.
package snapmap

import (
	"sync"
	"sync/atomic"
)

// Map is a concurrent map from K to V. Its zero value is empty and ready.
type Map[K comparable, V any] struct {
	snapshot atomic.Pointer[map[K]V]

	mu sync.Mutex
	// recent holds the entries written since the snapshot was taken; they
	// override the snapshot's.
	recent map[K]V
	// misses counts the reads that had to take the lock since then.
	misses int
}

// Load returns k's value. A value replaced by Store may still be returned
// for a while: callers that replace values check what they get (a cache
// entry's file version, say) and call LoadRecent when it is out of date.
func (m *Map[K, V]) Load(k K) (V, bool) {
	if s := m.snapshot.Load(); s != nil {
		if v, ok := (*s)[k]; ok {
			return v, true
		}
	}
	return m.LoadRecent(k)
}

// LoadRecent returns k's latest value, taking the lock.
func (m *Map[K, V]) LoadRecent(k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.loadLocked(k)
}

// Update sets k's value to what f makes of its latest one (ok false when
// there is none), under the map's lock, and returns it. f must be quick:
// it runs with every writer waiting.
func (m *Map[K, V]) Update(k K, f func(old V, ok bool) V) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.loadLocked(k)
	v := f(old, ok)
	if m.recent == nil {
		m.recent = make(map[K]V)
	}
	m.recent[k] = v
	return v
}

// Store sets k's value.
func (m *Map[K, V]) Store(k K, v V) {
	m.Update(k, func(V, bool) V { return v })
}

// loadLocked is LoadRecent with m.mu held; it merges the recent entries
// into a new snapshot once the reads that missed the snapshot outnumber
// the entries (so that each copy is paid for by the locked reads it
// ends).
func (m *Map[K, V]) loadLocked(k K) (V, bool) {
	v, ok := m.recent[k]
	if !ok {
		if s := m.snapshot.Load(); s != nil {
			v, ok = (*s)[k]
		}
	}
	if m.misses++; len(m.recent) > 0 && m.misses >= m.size() {
		m.promote()
	}
	return v, ok
}

func (m *Map[K, V]) size() int {
	n := len(m.recent)
	if s := m.snapshot.Load(); s != nil {
		n += len(*s)
	}
	return n
}

// promote makes a snapshot of everything; m.mu held.
func (m *Map[K, V]) promote() {
	next := make(map[K]V, m.size())
	if s := m.snapshot.Load(); s != nil {
		for k, v := range *s {
			next[k] = v
		}
	}
	for k, v := range m.recent {
		next[k] = v
	}
	m.snapshot.Store(&next)
	m.recent, m.misses = nil, 0
}
