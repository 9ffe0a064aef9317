package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestHugePageHeap: the one-off compile's heap reserve is advised for
// huge pages (the kernel marks its mapping "hg"), unless GODEBUG's
// disablethp or a memory budget too small for it says otherwise.
func TestHugePageHeap(t *testing.T) {
	if mode, err := os.ReadFile(thpEnabled); err != nil || !thpOnAdvice(string(mode)) {
		t.Skip("this kernel gives no transparent huge pages on advice")
	}
	none := func(string) string { return "" }
	if beg, end := hugePageHeap(func(k string) string {
		if k == "GODEBUG" {
			return "madvdontneed=1,disablethp=1"
		}
		return ""
	}, 1<<30); beg != 0 || end != 0 {
		t.Errorf("GODEBUG=disablethp=1: advised %#x-%#x", beg, end)
	}
	if beg, end := hugePageHeap(none, 4*hugeHeapReserve-1); beg != 0 || end != 0 {
		t.Errorf("a small memory budget: advised %#x-%#x", beg, end)
	}
	beg, end := hugePageHeap(none, 1<<30)
	if beg == 0 || end-beg < hugeHeapReserve-2*hugePageSize || beg%hugePageSize != 0 {
		t.Fatalf("advised %#x-%#x, want about %d MB on huge page boundaries", beg, end, hugeHeapReserve>>20)
	}
	flags, err := vmFlags(beg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of %#x has VmFlags %q, without hg (MADV_HUGEPAGE)", beg, flags)
	}
}

// vmFlags is the VmFlags line of the mapping holding addr in
// /proc/self/smaps.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')], "-") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping of %#x in /proc/self/smaps", addr)
}

// TestTHPOnAdvice: the reserve is made only where the kernel gives huge
// pages to advised ranges alone.
func TestTHPOnAdvice(t *testing.T) {
	for _, tc := range []struct {
		enabled string
		want    bool
	}{
		{"always [madvise] never\n", true},
		{"[always] madvise never\n", false},
		{"always madvise [never]\n", false},
		{"", false},
	} {
		if got := thpOnAdvice(tc.enabled); got != tc.want {
			t.Errorf("thpOnAdvice(%q) = %v, want %v", tc.enabled, got, tc.want)
		}
	}
}
