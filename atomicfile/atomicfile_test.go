package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, write := range []func(string, os.FileMode, func(io.Writer) error) error{Write, WriteSynced} {
		if err := write(path, 0o640, Bytes([]byte("new"))); err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(path); string(data) != "new" {
			t.Errorf("content %q", data)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", fi.Mode().Perm())
		}
		// A failed write leaves the old file, and no temporary file.
		failed := errors.New("failed")
		err := write(path, 0o644, func(w io.Writer) error {
			w.Write([]byte("half"))
			return failed
		})
		if !errors.Is(err, failed) {
			t.Errorf("err = %v", err)
		}
		if data, _ := os.ReadFile(path); string(data) != "new" {
			t.Errorf("after a failed write: %q", data)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("files left: %v", ents)
		}
		os.Remove(path)
	}
	if err := Write(filepath.Join(dir, "missing", "f"), 0o644, Bytes(nil)); err == nil {
		t.Error("no error for a missing directory")
	}
}
