//go:build unix

package site

import "syscall"

// addressSpaceLimit is the process's soft RLIMIT_AS in bytes, 0 when it
// has none (unlimited is all ones, past any real limit).
func addressSpaceLimit() int64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur > 1<<62 {
		return 0
	}
	return int64(rl.Cur)
}
