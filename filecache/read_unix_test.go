//go:build linux

package filecache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadStopsAtStatSize: once a read shorter than asked for has brought
// the file to the size stat gave, Read returns without the read that would
// only have found the end. A pipe whose writer stays open shows it: the
// read for the end would wait for the writer.
func TestReadStopsAtStatSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	release := make(chan struct{})
	defer close(release)
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.WriteString("hello")
		<-release
	}()
	got := make(chan string, 1)
	go func() {
		b, err := Read(path, 5)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(b)
	}()
	select {
	case s := <-got:
		if s != "hello" {
			t.Errorf("Read = %q, want hello", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read waited for the end of a file that had given the size stat said")
	}
}
