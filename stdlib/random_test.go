package stdlib

import (
	"math/big"
	"testing"
)

// The expected numbers are what Ruby 3.1 computes for
// Random.new(Digest::MD5.hexdigest(s).hex).rand(n) and Random.new(seed).rand(n).
func TestRubyRandom(t *testing.T) {
	for _, tt := range []struct {
		text string
		n    int64
		want int64
	}{
		{"abc", 100, 25},
		{"Probe.Example.com:100:", 100, 54},
		{"x", 5000000000, 4375086992},
		{"", 7, 0},
	} {
		if got := deterministicRand(md5Seed(tt.text), tt.n); got != tt.want {
			t.Errorf("md5 seed %q rand(%d) = %d, want %d", tt.text, tt.n, got, tt.want)
		}
	}
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, tt := range []struct {
		seed *big.Int
		n    int64
		want int64
	}{
		{big.NewInt(1), 1000, 37},
		{big.NewInt(1), 1 << 40, 163196666091},
		{big.NewInt(1<<32 + 5), 1000, 867},
		{big.NewInt(1<<32 + 5), 1 << 40, 425438759118},
		{new(big.Int).Add(two64, big.NewInt(7)), 1000, 264},
		{new(big.Int).Add(two64, big.NewInt(7)), 1 << 40, 38182009439},
		{big.NewInt(0), 1000, 684},
		{big.NewInt(0), 1 << 40, 741280623151},
	} {
		if got := deterministicRand(tt.seed, tt.n); got != tt.want {
			t.Errorf("Random.new(%v).rand(%d) = %d, want %d", tt.seed, tt.n, got, tt.want)
		}
	}
}
