//go:build linux

package filecache

import (
	"syscall"
	"time"
)

// openStamp opens path for LoadFile and gives the stamp of the file it
// opened: one lookup of the path where Stat then Read make two, which for
// the long paths of module files (through a module path's symlinks) is
// most of what they cost. fd is -1 when the answer is the zero Stamp (no
// such file, or a directory); ok is false when it cannot answer as Stat
// would (another error, a file that is not regular): the caller then
// takes the two steps.
func openStamp(path string) (fd int, stamp Stamp, ok bool) {
	var err error
	for {
		// O_NONBLOCK: opening a named pipe must not wait for a writer
		// here (the two steps decide what to do with one).
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	switch err {
	case nil:
	case syscall.ENOENT, syscall.ENOTDIR:
		return -1, Stamp{}, true
	default:
		return -1, Stamp{}, false
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err == nil {
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFREG:
			return fd, Stamp{Size: st.Size, ModTime: time.Unix(st.Mtim.Unix())}, true
		case syscall.S_IFDIR:
			syscall.Close(fd)
			return -1, Stamp{}, true
		}
	}
	syscall.Close(fd)
	return -1, Stamp{}, false
}

func closeFD(fd int) { syscall.Close(fd) }

// readOpened reads the file openStamp opened.
func readOpened(fd int, path string, size int64) ([]byte, error) { return readFD(fd, path, size) }
