package ruby

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/dataformat"
)

// yamlMethod is YAML.safe_load and YAML.load (Psych) of a String, for the
// plain data a Hiera backend reads (miraheze's vmlib::expand_path):
// mappings, sequences, strings, numbers, booleans and nil, aliases when
// the call allows them. What Ruby would treat otherwise — a Symbol, a
// date, a Ruby object tag, aliases safe_load refuses, a syntax error, any
// other option — is left to real Ruby (unsupported), so that its exact
// result or error is Ruby's.
func (in *interp) yamlMethod(line int, name string, args []any) (any, bool, error) {
	if name != "safe_load" && name != "load" || len(args) < 1 || len(args) > 2 {
		return nil, false, nil
	}
	src, ok := args[0].(*rstr)
	if !ok {
		return nil, false, nil
	}
	file := "<unknown>"
	aliases := name == "load"
	if len(args) == 2 {
		opts, ok := args[1].(*rhash)
		if !ok {
			return nil, false, nil
		}
		for i, k := range opts.keys {
			switch toS(k) {
			case "filename":
				file = toS(opts.vals[i])
			case "aliases":
				b, isBool := opts.vals[i].(bool)
				if !isBool {
					return nil, false, nil
				}
				aliases = b
			default:
				return nil, true, in.unsupported(line, "YAML.%s option %s", name, toS(k))
			}
		}
	}
	doc, err := dataformat.ParseYAMLTree([]byte(src.s), file)
	if err != nil {
		return nil, true, in.unsupported(line, "YAML.%s of a document Psych would refuse: %v", name, err)
	}
	if why := plainYAML(doc, aliases); why != "" {
		return nil, true, in.unsupported(line, "YAML.%s of %s", name, why)
	}
	if doc.Kind == 0 || doc.Kind == yaml.DocumentNode && len(doc.Content) == 0 {
		return nil, true, nil // an empty document is nil (false for safe_load's fallback too)
	}
	v, err := dataformat.FromYAMLNode(doc, file)
	if err != nil {
		return nil, true, in.unsupported(line, "YAML.%s: %v", name, err)
	}
	return fromPuppet(v), true, nil
}

// plainYAML says what in a document YAML.safe_load would not give as
// plain data ("" when nothing): tags other than the core schema's, dates
// and times, :symbols, and aliases unless allowed.
func plainYAML(n *yaml.Node, aliases bool) string {
	var walk func(n *yaml.Node, depth int) string
	walk = func(n *yaml.Node, depth int) string {
		if depth > 1000 {
			return "a document nested too deep"
		}
		switch n.Kind {
		case yaml.AliasNode:
			if !aliases {
				return "an alias"
			}
			return ""
		case yaml.ScalarNode:
			switch n.ShortTag() {
			case "!!str":
				if n.Style == 0 && strings.HasPrefix(n.Value, ":") && len(n.Value) > 1 {
					return "a Symbol"
				}
			case "!!int", "!!float", "!!bool", "!!null":
			default:
				return "a " + n.ShortTag() + " scalar"
			}
			return ""
		case yaml.MappingNode, yaml.SequenceNode, yaml.DocumentNode:
			if n.Tag != "" && n.Tag != "!!map" && n.Tag != "!!seq" && n.Kind != yaml.DocumentNode {
				return "a " + n.Tag + " collection"
			}
			for _, c := range n.Content {
				if why := walk(c, depth+1); why != "" {
					return why
				}
			}
		}
		return ""
	}
	return walk(n, 0)
}
