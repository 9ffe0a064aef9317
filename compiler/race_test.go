//go:build race

package compiler

// timeScale stretches the timing bounds of tests: the race detector slows
// code several times over, and its garbage collection more.
const timeScale = 3
