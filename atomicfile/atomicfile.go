// Package atomicfile replaces files so that a reader sees the old content or
// the new, never part of it, and a failed write leaves the old file as it
// was: the content goes to a temporary file in the same directory (named
// after the file, with a leading dot, so that directory listings pass it
// over), which is then renamed over the file.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path, with mode perm, by what write writes. A rename is
// atomic but not durable: after a crash the file may hold either content.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return replace(path, perm, false, write)
}

// WriteSynced is Write with the content synced to disk before the rename,
// for state whose loss in a crash costs more than the sync (a CA's files).
func WriteSynced(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return replace(path, perm, true, write)
}

// Bytes is the write function that writes data.
func Bytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

func replace(path string, perm fs.FileMode, sync bool, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), tempPattern(filepath.Base(path)))
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// CreateTemp makes the file 0600 whatever the umask; perm is exact.
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := write(f); err != nil {
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// WriteOutput writes a command's output to path: an existing path that is
// not a regular file (a device such as /dev/null, a named pipe, a
// terminal) is written as it is, since renaming a file over it would
// replace the device for every other program; a symlink is followed, so
// that the file it names is replaced, not the link; anything else is
// replaced atomically, as Write does.
func WriteOutput(path string, perm fs.FileMode, write func(io.Writer) error) error {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	st, err := os.Stat(target)
	if err != nil || st.Mode().IsRegular() {
		return replace(target, perm, false, write)
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tempPattern is the CreateTemp pattern of a temporary file beside base:
// ".base.<random>", with base shortened when the whole would pass the
// 255 bytes of a file name (CreateTemp's random part has up to 10 digits),
// so that any file that can be named can be written.
func tempPattern(base string) string {
	const nameMax, extra = 255, len("..") + 10
	if len(base) > nameMax-extra {
		base = base[:nameMax-extra]
	}
	return "." + base + ".*"
}
