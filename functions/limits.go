package functions

// MaxIteration bounds how many elements one iteration (each, map, times,
// an Integer as a collection...) produces; `marionette help limits` lists
// it.
const MaxIteration = maxIteration
