//go:build !race

package compiler

// timeScale stretches the timing bounds of tests (see race_test.go).
const timeScale = 1
