package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// TestWriteOutput: a symlink's target is replaced and the link kept; a new
// or regular file is replaced atomically (devices and pipes: fifo_test.go).
func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(link, 0o644, Bytes([]byte("new"))); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(real); string(got) != "new" {
		t.Errorf("the link's target holds %q", got)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st.Mode(), err)
	}
	fresh := filepath.Join(dir, "new.json")
	if err := WriteOutput(fresh, 0o640, Bytes([]byte("x"))); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(fresh); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("new file: %v %v", st.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing", "x.json")); err == nil {
		t.Fatal("unexpected file")
	}
	if err := WriteOutput(filepath.Join(dir, "missing", "x.json"), 0o644, Bytes(nil)); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestLongName: a file whose name has the most bytes a name may have is
// written; its temporary file's name is shortened to fit.
func TestLongName(t *testing.T) {
	path := filepath.Join(t.TempDir(), strings.Repeat("n", 255))
	if err := Write(path, 0o644, Bytes([]byte("x"))); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "x" {
		t.Fatalf("%q %v", b, err)
	}
}
