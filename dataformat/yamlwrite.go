package dataformat

import (
	"github.com/marionette-dev/marionette/psych"
	"github.com/marionette-dev/marionette/value"
)

// YAML writes a Puppet value as a YAML document as Ruby's Object#to_yaml
// writes it once Puppet has handed the value to Ruby (stdlib's to_yaml,
// Puppet's --render-as yaml): undef is nil, values without a data form are
// their string.
func YAML(v value.Value) (string, error) {
	return psych.Dump(psychNode(v))
}

// YAMLWith is YAML with Psych's dump options (to_yaml's indentation and
// line_width).
func YAMLWith(v value.Value, opts psych.Options) (string, error) {
	return psych.DumpWith(psychNode(v), opts)
}

// psychNode gives the node psych writes for a Puppet value.
func psychNode(v value.Value) psych.Node {
	switch v := v.(type) {
	case value.Array:
		items := make([]psych.Node, len(v))
		for i, e := range v {
			items[i] = psychNode(e)
		}
		return psych.Node{Kind: psych.Seq, Items: items}
	case *value.Hash:
		items := make([]psych.Node, 0, 2*v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			items = append(items, psychNode(k), psychNode(e))
		}
		return psych.Node{Kind: psych.Map, Items: items}
	case value.String:
		return psych.Node{Kind: psych.String, Str: string(v)}
	case value.Integer:
		return psych.Node{Kind: psych.Int, Int: int64(v)}
	case value.Float:
		return psych.Node{Kind: psych.Float, Float: float64(v)}
	case value.Boolean:
		return psych.Node{Kind: psych.Bool, Bool: bool(v)}
	}
	if value.IsUndef(v) {
		return psych.Node{Kind: psych.Null}
	}
	return psych.Node{Kind: psych.String, Str: value.RubyString(v)}
}
