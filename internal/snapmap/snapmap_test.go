package snapmap

import (
	"fmt"
	"sync"
	"testing"
)

// TestMapReadsItsWrites: values stored are found (the latest after a
// replacement, through LoadRecent), before and after the snapshot takes
// them, and reads of a settled map do not allocate.
func TestMapReadsItsWrites(t *testing.T) {
	var m Map[string, int]
	for _, tc := range []struct {
		name  string
		store map[string]int
		reads int // Loads of every key before checking
		want  map[string]int
	}{
		{"first writes", map[string]int{"a": 1, "b": 2}, 0, map[string]int{"a": 1, "b": 2}},
		{"read often: in the snapshot", nil, 10, map[string]int{"a": 1, "b": 2}},
		{"a replacement and a new key", map[string]int{"a": 10, "c": 3}, 0, map[string]int{"a": 10, "b": 2, "c": 3}},
		{"read often again", nil, 10, map[string]int{"a": 10, "b": 2, "c": 3}},
	} {
		for k, v := range tc.store {
			m.Store(k, v)
		}
		for range tc.reads {
			for _, k := range []string{"a", "b", "c"} {
				m.Load(k)
			}
		}
		for k, v := range tc.want {
			if got, ok := m.LoadRecent(k); !ok || got != v {
				t.Errorf("%s: LoadRecent(%s) = %d, %v; want %d", tc.name, k, got, ok, v)
			}
		}
		if _, ok := m.Load("nosuch"); ok {
			t.Errorf("%s: a key never stored was found", tc.name)
		}
	}
	if got, _ := m.Load("a"); got != 10 {
		t.Errorf("settled: Load(a) = %d", got)
	}
	if n := testing.AllocsPerRun(100, func() { m.Load("b") }); n != 0 {
		t.Errorf("Load allocates %v times", n)
	}
}

// TestMapConcurrent: readers and writers at once (for go test -race).
func TestMapConcurrent(t *testing.T) {
	var m Map[string, int]
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				k := fmt.Sprint(i % 50)
				m.Update(k, func(old int, _ bool) int { return old + 1 })
				m.Load(fmt.Sprint((i + w) % 50))
			}
		})
	}
	wg.Wait()
	total := 0
	for i := range 50 {
		v, _ := m.LoadRecent(fmt.Sprint(i))
		total += v
	}
	if total != 800 {
		t.Errorf("%d updates counted, want 800", total)
	}
}
