//go:build race

package server

// timeScale stretches the generous timing bounds of the load tests: the
// race detector slows code several times over.
const timeScale = 5
