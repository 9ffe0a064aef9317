//go:build unix

package filecache

import (
	"io/fs"
	"syscall"
)

// Read reads a whole source file (a manifest, template or Ruby file)
// whose size stat has just given. A compile reads a hundred or more of
// them; going straight to open, read and close spares each the *os.File
// machinery (an fstat, descriptor flags, a poller registration), which
// cost as much as the reading for files this small.
func Read(path string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	return readFD(fd, path, size)
}

// readFD reads the rest of open file fd (path names it in errors), whose
// size stat has given.
func readFD(fd int, path string, size int64) ([]byte, error) {
	// One byte more than stat said, so that a file that grew meanwhile
	// is still read to its end.
	buf := make([]byte, 0, max(size, 0)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		want := cap(buf) - len(buf)
		buf = buf[:len(buf)+n]
		// A regular file that gave the size stat said in a read shorter
		// than asked for is at its end: the read that would return 0 is
		// spared (a compile reads a few hundred files). Files whose stat
		// says 0 (those of /proc) read on to the end.
		if size > 0 && int64(len(buf)) == size && n < want {
			return buf, nil
		}
	}
}
