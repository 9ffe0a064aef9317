package eval

// MaxCallDepth bounds nested function, lambda and define calls in Puppet
// code (recursion without end fails with "Maximum call depth (1000)
// exceeded"); `marionette help limits` lists it.
const MaxCallDepth = maxDepth
