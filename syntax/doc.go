// Package syntax parses the Puppet language, as Puppet 7 does: manifests
// (.pp files) with ParseFile and ParseExpr, and EPP templates with
// ParseEPP.
//
// The scanner follows Puppet's lexer in the places where the meaning of a
// character depends on its context: '/' starts a regex or is a division
// depending on the previous token; '[' after whitespace starts a new array
// where directly after a value it is an access; '(' first on its line is
// not a call; '{' after '?' opens a selector; a lone name in "${x}" is a
// variable. The parser is a recursive-descent, precedence-climbing parser
// that builds the same trees as Puppet's grammar (checked against
// "puppet parser dump" on the Debian corpus of modules), including
// Puppet's statement calls without parentheses (include a, b) and the
// qualification of nested class names.
//
// Errors are reported as a diag.List: each error with its code (Puppet's
// issue code, e.g. SYNTAX_ERROR), its range in the file (columns counted in
// characters, as Puppet does) and its message in Puppet's words. Parsing
// stops at the first error and returns the partial tree; BadExpr marks what
// could not be parsed.
//
// Positions are package source's offsets. Besides its span, a node records
// the places Puppet's messages point at (the operator of a binary,
// assignment or relationship expression, a method call's '.' and '(', a
// type alias's name, a parameter's '$', a hash entry's "=>"): ErrorPos
// returns the one Puppet uses for a node, without scanning the source
// again.
package syntax
