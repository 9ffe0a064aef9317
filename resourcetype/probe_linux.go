//go:build linux && (amd64 || arm64)

package resourcetype

import (
	"os"
	"syscall"
	"unsafe"
)

// existsAt stats rel relative to directory f (fstatat, symlinks followed);
// done is false when it could not ask (the caller stats the full path).
func existsAt(f *os.File, rel string) (ok, done bool) {
	name, err := syscall.BytePtrFromString(rel)
	if err != nil {
		return false, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false, false
	}
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		var st syscall.Stat_t
		for {
			_, _, errno = syscall.Syscall6(sysFstatat, fd, uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(&st)), 0, 0, 0)
			if errno != syscall.EINTR {
				return
			}
		}
	})
	if err != nil {
		return false, false
	}
	return errno == 0, true
}
