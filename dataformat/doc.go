// Package dataformat reads and writes the data formats Puppet exchanges,
// YAML and JSON, the way Puppet's Ruby does, for every package that reads a
// data file, facts, ENC output or an HTTP body, or writes data as text.
//
// Reading: FromYAML converts YAML to Puppet values with the YAML 1.1 rules
// of Puppet's Psych loader (hiera data, ENC output); FactsFromYAML also
// accepts Puppet's own cached Puppet::Node::Facts objects; ParseYAMLTree and
// FromYAMLNode serve readers that walk the node tree themselves
// (hiera.yaml); FromJSON reads JSON. All of them are safe on hostile input:
// an anchored value is shared by its aliases, and the limits in limits.go
// (MaxYAMLNodes, MaxJSONDepth) bound what a document may expand to.
//
// Writing: JSONGenerator lays JSON out as Ruby's json gem does
// (JSON.generate, JSON.pretty_generate and their options), for stdlib's
// to_json functions and Ruby code alike; WriteJSON writes a Puppet value
// through it. YAML writes a Puppet value as Object#to_yaml does, through
// package psych. GoData converts a Puppet value to plain Go data.
//
// Regular expressions are compiled on first use (sync.OnceValue), so that a
// process pays only for those it uses.
package dataformat
