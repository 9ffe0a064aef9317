package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on the platforms
// marionette runs on (x86-64 and arm64 with 4 KB base pages).
const hugePageSize = 2 << 20

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// thpEnabled is where Linux says when it backs memory with transparent
// huge pages.
const thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"

// thpOnAdvice reports whether that setting gives huge pages only to the
// ranges a program advises: with "always" the heap has them already,
// with "never" advice changes nothing, and either way the reserve would
// only cost its collection and the zeroing of reused memory.
func thpOnAdvice(enabled string) bool { return strings.Contains(enabled, "[madvise]") }

// hugePageHeap asks the kernel to back the first hugeHeapReserve bytes of
// the heap a one-off compile fills with transparent huge pages. Go maps its
// heap in small pages and does not ask for huge ones; a process that
// allocates ~15 MB and exits then spends a fifth of its CPU in the kernel
// taking one page fault per 4 KB (~3,600 on perf_control's large role,
// each zeroing and charging a page). Where the system leaves huge pages to
// the program (transparent_hugepage "madvise", the common default), the
// advised range takes one fault per 2 MB instead.
//
// The range is a large allocation made once, advised and dropped, then
// collected at once (the heap is near empty: a collection costs tens of
// microseconds), so that the compile's small objects are carved from it:
// the page allocator hands out the lowest free addresses first. Pages that
// are never touched are never backed. GODEBUG=disablethp=1, the runtime's
// own switch against huge pages for the heap, turns this off too.
//
// It returns the range it advised (for the tests), or zeros.
func hugePageHeap(getenv func(string) string, maxMemory int64) (beg, end uintptr) {
	if strings.Contains(getenv("GODEBUG"), "disablethp=1") || maxMemory < 4*hugeHeapReserve {
		return 0, 0
	}
	if mode, err := os.ReadFile(thpEnabled); err != nil || !thpOnAdvice(string(mode)) {
		return 0, 0
	}
	// The reserve alone would start a collection (it passes the first
	// heap goal); one, forced below, is enough.
	prev := debug.SetGCPercent(-1)
	b := make([]byte, hugeHeapReserve)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg = (p + hugePageSize - 1) &^ (hugePageSize - 1)
	end = (p + hugeHeapReserve) &^ (hugePageSize - 1)
	if beg >= end {
		debug.SetGCPercent(prev)
		return 0, 0
	}
	// An error (a kernel without transparent huge pages) leaves the heap
	// as it was.
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, madvHugepage); errno != 0 {
		beg, end = 0, 0
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.SetGCPercent(prev)
	return beg, end
}
