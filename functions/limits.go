package functions

// MaxIteration bounds how many elements one iteration (each, map, times,
// an Integer as a collection...) produces; `marionette help limits` lists
// it.
const MaxIteration = maxIteration

// MaxFileSize bounds what file() reads from one file; it reads only
// regular files (`marionette help limits` lists it).
const MaxFileSize = 64 << 20
