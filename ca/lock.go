package ca

import (
	"os"
	"path/filepath"
)

// LockFile is the file in the CA directory that processes sharing the
// directory (a running server and the `marionette ca` command) lock while
// they change it. puppetserver ignores it.
const LockFile = ".marionette-ca.lock"

// lock takes the in-process mutex, then the directory's advisory file lock
// where the system has one, and returns the function releasing both. When
// the lock file cannot be opened (a read-only directory) only the mutex is
// held: the change that follows will fail on its own.
func (c *CA) lock() func() {
	c.mu.Lock()
	f, err := os.OpenFile(filepath.Join(c.dir, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return c.mu.Unlock
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return c.mu.Unlock
	}
	return func() {
		unlockFile(f)
		f.Close()
		c.mu.Unlock()
	}
}
