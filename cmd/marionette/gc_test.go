package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: serve sets its collector defaults only where GOGC and
// GOMEMLIMIT leave them to it.
func TestTuneGC(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()
	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("GC percent %d, want %d", got, serveGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, serveMemoryLimit)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	tuneGC(func(string) string { return "set" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: GC percent changed to %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: memory limit changed to %d", got)
	}
}
