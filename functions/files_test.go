package functions

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// file() reads regular files only, and at most MaxFileSize of them: a
// device never ends and a FIFO blocks the compile.
func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(dir, "large")
	if err := os.WriteFile(large, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(large, MaxFileSize+1); err != nil { // sparse
		t.Fatal(err)
	}
	cases := []struct{ name, path, want string }{
		{"regular file", regular, ""},
		{"device", "/dev/zero", "not a regular file"},
		{"FIFO", fifo, "not a regular file"},
		{"directory", dir, "Is a directory"},
		{"larger than MaxFileSize", large, "MaxFileSize (64 MiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := readRegularFile(c.path)
			if c.want == "" {
				if err != nil || string(data) != "content" {
					t.Fatalf("got %q, %v", data, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}
