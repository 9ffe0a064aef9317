package ruby

import (
	"testing"

	"github.com/marionette-dev/marionette/value"
)

func TestFormatFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {1e15, "1.0e+15"}, {123456789012345.6, "123456789012345.6"},
		{1e-4, "0.0001"}, {1e-5, "1.0e-05"}, {-2.5, "-2.5"}, {1.5e300, "1.5e+300"}, {100, "100.0"},
	}
	for _, tc := range tests {
		if got := formatFloat(tc.f); got != tc.want {
			t.Errorf("formatFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// A hash converted once with an Objects table comes back as the same Ruby
// hash without being measured or walked again: a Hiera backend's data file
// is handed to Ruby at every lookup.
func TestFromPuppetSharedConvertedHashIsFree(t *testing.T) {
	inner := value.NewHash(value.String("k"), value.Array{value.Integer(1), value.Integer(2)})
	h := value.NewHash(value.String("a"), inner, value.String("b"), inner)
	objs := NewObjects()
	first := fromPuppetShared(h, objs)
	if _, ok := first.(*rhash); !ok {
		t.Fatalf("fromPuppetShared = %T, want *rhash", first)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if again := fromPuppetShared(h, objs); again != first {
			t.Errorf("second conversion gave another object")
		}
	})
	if allocs != 0 {
		t.Errorf("second conversion of a converted hash: %v allocations, want 0", allocs)
	}
}
