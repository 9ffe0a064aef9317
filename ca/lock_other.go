//go:build !unix

package ca

import "os"

// Without flock, only goroutines of one process are serialised.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
