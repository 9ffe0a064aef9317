package dataformat

// Limits on what a YAML or JSON document may make the decoders build. They
// keep hostile data files, facts files and ENC output (an "alias bomb" such
// as `b: &b [*a, *a, ...]` nested a few levels deep) from exhausting memory
// or time; real data stays far below them. `marionette help limits` lists
// them.
const (
	// MaxYAMLNodes bounds the number of values one YAML document expands
	// to, counting every alias as the whole of the value it refers to.
	// Psych shares an anchored value at each alias; so does FromYAML, but
	// the expanded size still matters to whoever walks the result (lookups,
	// merges, catalog serialisation), so a document above it is an error.
	MaxYAMLNodes = 4 << 20

	// YAMLNodesFlag is the marionette flag that raises MaxYAMLNodes
	// (hiera.Options.MaxYAMLNodes, FromYAMLLimit), for error messages.
	YAMLNodesFlag = "--max-yaml-nodes"

	// MaxJSONDepth bounds the nesting of arrays and objects in a JSON
	// document; it is the max_nesting of Ruby's JSON.parse, which Puppet
	// uses, and the error has Ruby's words ("nesting of 101 is too deep").
	MaxJSONDepth = 100
)
