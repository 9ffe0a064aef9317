//go:build !race

package server

// timeScale stretches the generous timing bounds of the load tests (see
// race_test.go).
const timeScale = 1
