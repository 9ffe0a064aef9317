//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteOutputToPipe: a named pipe (as a device would be) is written in
// place and stays a pipe; a failed write reports its error.
func TestWriteOutputToPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- string(data)
	}()
	if err := WriteOutput(fifo, 0o644, Bytes([]byte("catalog"))); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "catalog" {
		t.Errorf("the reader got %q", s)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", st.Mode(), err)
	}
	go func() {
		if f, err := os.Open(fifo); err == nil {
			io.Copy(io.Discard, f)
			f.Close()
		}
	}()
	if err := WriteOutput(fifo, 0o644, func(io.Writer) error { return errors.New("boom") }); err == nil || err.Error() != "boom" {
		t.Errorf("failed write: %v", err)
	}
}
