package fleet

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY asks the kernel for f's terminal attributes: only a terminal has
// them. SyscallConn, unlike Fd, leaves the descriptor's mode alone.
func isTTY(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	})
	return err == nil && errno == 0
}
