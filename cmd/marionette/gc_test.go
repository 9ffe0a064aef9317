package main

import (
	"bytes"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
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

// TestTuneOneShot: a single-node compile collects garbage less often and
// runs on one processor, unless GOGC and GOMAXPROCS say otherwise.
func TestTuneOneShot(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevProcs := runtime.GOMAXPROCS(2)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prevPercent)
		runtime.GOMAXPROCS(prevProcs)
		debug.SetMemoryLimit(prevLimit)
	}()
	prevRate := runtime.MemProfileRate
	defer func() { runtime.MemProfileRate = prevRate }()
	runtime.MemProfileRate = 512 << 10
	const maxMemory = 3 << 30
	tuneOneShot(func(string) string { return "" }, maxMemory)
	if runtime.MemProfileRate != 0 {
		t.Errorf("MemProfileRate %d, want 0", runtime.MemProfileRate)
	}
	runtime.MemProfileRate = 512 << 10
	if got := debug.SetGCPercent(100); got != oneShotGCPercent {
		t.Errorf("GC percent %d, want %d", got, oneShotGCPercent)
	}
	if got := runtime.GOMAXPROCS(2); got != 1 {
		t.Errorf("GOMAXPROCS %d, want 1", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != maxMemory {
		t.Errorf("memory limit %d, want --max-memory's %d", got, maxMemory)
	}
	tuneOneShot(func(string) string { return "set" }, maxMemory)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: GC percent changed to %d", got)
	}
	if runtime.MemProfileRate != 512<<10 {
		t.Errorf("MARIONETTE_MEMPROFILE set: MemProfileRate changed to %d", runtime.MemProfileRate)
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS set: changed to %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: memory limit changed to %d", got)
	}
}

// TestOneShotMemoryBudget: under the one-off compile's runtime policy
// (collections rarer, the huge-page heap reserve, --max-memory as the
// soft memory limit) the memory budget still stops a compile whose live
// heap outgrows it, with the error naming the limit.
func TestOneShotMemoryBudget(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevProcs := runtime.GOMAXPROCS(0)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prevPercent)
		runtime.GOMAXPROCS(prevProcs)
		debug.SetMemoryLimit(prevLimit)
	}()
	site := filepath.Join("..", "..", "testdata", "hostile", "manifests", "many-big-strings.pp")
	var stdout, stderr bytes.Buffer
	code := run([]string{"compile", "n1", "--manifest", site, "--facts", "none", "--max-memory", "268435456"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "MaxHeap") || !strings.Contains(stderr.String(), "--max-memory") {
		t.Errorf("exit %d, stderr %q; want exit 1 and the live heap past MaxHeap", code, stderr.String())
	}
}
