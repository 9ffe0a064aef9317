//go:build race

package erb

// timeScale stretches the time bounds of tests: the race detector slows
// the interpreter several times over.
const timeScale = 5
