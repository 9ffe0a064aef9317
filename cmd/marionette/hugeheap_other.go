//go:build !linux

package main

// hugePageHeap: only Linux lets a program ask for transparent huge pages
// for a range (see hugeheap_linux.go).
func hugePageHeap(getenv func(string) string, maxMemory int64) (beg, end uintptr) { return 0, 0 }
