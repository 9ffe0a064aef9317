//go:build !unix

package compiler

import "os"

// readFile reads a whole source file (see the Unix version).
func readFile(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }
