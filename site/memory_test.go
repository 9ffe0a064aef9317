package site

import "testing"

// TestMaxMemoryFor: the memory budget is three quarters of the machine's
// memory, an eighth of an address-space limit when that is smaller, and
// a fixed fallback when neither is known.
func TestMaxMemoryFor(t *testing.T) {
	const gib = int64(1) << 30
	for _, tt := range []struct {
		physical, addressSpace, want int64
	}{
		{16 * gib, 0, 12 * gib},
		{16 * gib, 1 * gib, gib / 8},
		{1 * gib, 64 * gib, gib / 4 * 3},
		{0, 2 * gib, gib / 4},
		{0, 0, fallbackMaxMemory},
	} {
		if got := maxMemoryFor(tt.physical, tt.addressSpace); got != tt.want {
			t.Errorf("maxMemoryFor(%d, %d) = %d, want %d", tt.physical, tt.addressSpace, got, tt.want)
		}
	}
	if physicalMemory() <= 0 {
		t.Log("no /proc/meminfo here: the machine's memory is not known")
	}
}
