//go:build !race

package erb

// timeScale stretches the time bounds of tests (see race_test.go).
const timeScale = 1
