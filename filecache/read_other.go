//go:build !unix

package filecache

import "os"

// Read reads a whole source file (see the Unix version).
func Read(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }
