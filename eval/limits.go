package eval

// MaxCallDepth bounds nested function, lambda and define calls in Puppet
// code (recursion without end fails with "Maximum call depth (1000)
// exceeded"); `marionette help limits` lists it.
const MaxCallDepth = maxDepth

// MaxEvalNesting bounds how deeply evaluations nest, all constructs and
// calls together, so that no manifest exhausts the Go stack: a syntax tree
// is at most syntax.MaxExpressionDepth deep, but a call in it can start
// another tree as deep (`marionette help limits` lists it).
const MaxEvalNesting = 30000
