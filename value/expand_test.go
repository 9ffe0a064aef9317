package value

import (
	"errors"
	"testing"
)

// shared builds [[...]] levels deep with fan-out copies of the same array
// at each level: fan^levels leaves in levels+1 slices.
func shared(levels, fan int) Value {
	v := Value(Array{Integer(1)})
	for range levels {
		a := make(Array, fan)
		for i := range a {
			a[i] = v
		}
		v = a
	}
	return v
}

func sharedHash(levels int) Value {
	v := Value(NewHash())
	for range levels {
		v = NewHash(String("a"), v, String("b"), v)
	}
	return v
}

func deep(levels int) Value {
	v := Value(Array{})
	for range levels {
		v = Array{v}
	}
	return v
}

func TestCheckSize(t *testing.T) {
	tests := []struct {
		name     string
		v        Value
		max      int64
		tooLarge bool
		tooDeep  bool
	}{
		{"scalar", String("x"), 1, false, false},
		{"small array", Array{Integer(1), String("ab")}, 100, false, false},
		{"shared arrays past the limit", shared(30, 3), DefaultMaxValueSize, true, false},
		{"shared arrays within the limit", shared(8, 3), DefaultMaxValueSize, false, false},
		{"shared hashes past the limit", sharedHash(40), DefaultMaxValueSize, true, false},
		{"nested past MaxValueDepth", deep(MaxValueDepth + 5), DefaultMaxValueSize, true, true},
		{"nested within MaxValueDepth", deep(MaxValueDepth - 5), DefaultMaxValueSize, false, false},
		{"sensitive wrapping a large value", &Sensitive{Value: shared(30, 3)}, DefaultMaxValueSize, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSize(tt.v, tt.max, "test")
			var e *ValueTooLarge
			if !tt.tooLarge {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.As(err, &e) || e.Deep != tt.tooDeep {
				t.Fatalf("err = %v, want a *ValueTooLarge with Deep %v", err, tt.tooDeep)
			}
		})
	}
}

// One Expansion sums the values it is given: each within the limit,
// together past it, as the parameters of one catalog.
func TestExpansionTotal(t *testing.T) {
	var x Expansion
	v := shared(8, 3)
	size, ok := x.size(v, 0, DefaultMaxValueSize)
	if !ok {
		t.Fatal("size failed")
	}
	max := size*3 + size/2
	for i := range 3 {
		if err := x.Add(v, max, "test"); err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
	}
	if err := x.Add(v, max, "test"); err == nil {
		t.Fatal("the fourth value passed the limit without error")
	}
}

// BenchmarkCheckSize measures a facts-like hash of small arrays.
func BenchmarkCheckSize(b *testing.B) {
	var kv []Value
	for i := range 200 {
		kv = append(kv, Integer(i), Array{String("a"), String("b"), Integer(i)})
	}
	h := NewHash(kv...)
	for b.Loop() {
		if err := CheckSize(h, DefaultMaxValueSize, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// Equality compares each pair of shared nodes once: two values of 3^30
// elements built apart compare in a few steps, equal or not.
func TestEqualSharedStructure(t *testing.T) {
	differentLeaf := func() Value {
		v := Value(Array{Integer(2)})
		for range 30 {
			v = Array{v, v, v}
		}
		return v
	}
	tests := []struct {
		name string
		a, b Value
		eq   func(a, b Value) bool
		want bool
	}{
		{"Equal, same shape", shared(30, 3), shared(30, 3), Equal, true},
		{"Equal, another leaf", shared(30, 3), differentLeaf(), Equal, false},
		{"Identical, same shape", shared(30, 3), shared(30, 3), Identical, true},
		{"RubyEqual, same shape", shared(30, 3), shared(30, 3), RubyEqual, true},
		{"Equal, shared hashes", sharedHash(60), sharedHash(60), Equal, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.eq(tt.a, tt.b); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}
