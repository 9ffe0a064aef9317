package ruby

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/psych"
)

// toYAML implements to_yaml (Ruby's Psych emitter) for plain data, through
// package psych, which stdlib's to_yaml function shares. Objects Psych
// writes with Ruby tags (!ruby/object, !binary) are unsupported.
func (in *interp) toYAML(line int, v any) (string, error) {
	n, err := in.yamlNode(line, v, 0)
	if err != nil {
		return "", err
	}
	s, err := psych.Dump(n)
	if errors.Is(err, psych.ErrUnsupported) {
		return "", in.unsupported(line, "%v", err)
	}
	if err != nil {
		return "", fmt.Errorf("template %s:%d: %v: %s", in.tmpl.name, line, err, limitOfMarionette(""))
	}
	return s, nil
}

// yamlNode converts a Ruby value for psych, refusing what it cannot write
// and data nested past MaxCallDepth (a Ruby array can hold itself).
func (in *interp) yamlNode(line int, v any, depth int) (psych.Node, error) {
	if depth > MaxCallDepth {
		return psych.Node{}, fmt.Errorf("template %s:%d: to_yaml nested more than MaxCallDepth (%d) deep: %s", in.tmpl.name, line, MaxCallDepth, limitOfMarionette(""))
	}
	switch x := v.(type) {
	case nil:
		return psych.Node{Kind: psych.Null}, nil
	case bool:
		return psych.Node{Kind: psych.Bool, Bool: x}, nil
	case int64:
		return psych.Node{Kind: psych.Int, Int: x}, nil
	case float64:
		return psych.Node{Kind: psych.Float, Float: x}, nil
	case *rstr:
		if !utf8.ValidString(x.s) {
			// Psych writes such a string as !binary base64.
			return psych.Node{}, in.unsupported(line, "to_yaml of the binary string %s", truncate(quoteString(x.s), 40))
		}
		return psych.Node{Kind: psych.String, Str: x.s}, nil
	case symbol:
		return psych.Node{Kind: psych.Symbol, Str: string(x)}, nil
	case *rarray:
		items := make([]psych.Node, len(x.a))
		for i, e := range x.a {
			n, err := in.yamlNode(line, e, depth+1)
			if err != nil {
				return psych.Node{}, err
			}
			items[i] = n
		}
		return psych.Node{Kind: psych.Seq, Items: items}, nil
	case *rhash:
		items := make([]psych.Node, 0, 2*len(x.keys))
		for i, k := range x.keys {
			kn, err := in.yamlNode(line, k, depth+1)
			if err != nil {
				return psych.Node{}, err
			}
			vn, err := in.yamlNode(line, x.vals[i], depth+1)
			if err != nil {
				return psych.Node{}, err
			}
			items = append(items, kn, vn)
		}
		return psych.Node{Kind: psych.Map, Items: items}, nil
	}
	return psych.Node{}, in.unsupported(line, "to_yaml of %s", truncate(inspectMax(v, 1024), 40))
}
