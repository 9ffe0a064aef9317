package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// render formats a looked-up value as `puppet lookup --render-as` does;
// pretty indents JSON (for a terminal).
func render(v value.Value, format string, pretty bool) (string, error) {
	switch format {
	case "json", "pson":
		data := catalog.ValueJSON(redact(v))
		if pretty {
			var out bytes.Buffer
			if err := json.Indent(&out, data, "", "  "); err == nil {
				return out.String(), nil
			}
		}
		return string(data), nil
	case "s", "string":
		return value.ToString(v), nil
	case "yaml", "":
		out, err := yaml.Marshal(plain(v))
		if err != nil {
			return "", err
		}
		text := strings.TrimSuffix(string(out), "\n")
		if strings.Contains(text, "\n") {
			return "---\n" + text, nil
		}
		return "--- " + text, nil
	}
	return "", fmt.Errorf("unknown --render-as format %q (json, yaml or s)", format)
}

// redact replaces Sensitive values by their redacted text, as Puppet renders
// lookup results.
func redact(v value.Value) value.Value {
	switch v := v.(type) {
	case *value.Sensitive:
		return value.String("Sensitive [value redacted]")
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = redact(e)
		}
		return out
	case *value.Hash:
		b := value.NewHashBuilder(v.Len())
		for i, k := range v.Keys() {
			b.Set(k, redact(v.Values()[i]))
		}
		return b.Build()
	}
	return v
}

// plain converts a value to Go data for the YAML encoder, keeping hash order.
func plain(v value.Value) any {
	switch v := v.(type) {
	case value.String:
		return string(v)
	case value.Integer:
		return int64(v)
	case value.Float:
		return float64(v)
	case value.Boolean:
		return bool(v)
	case value.Array:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	case *value.Hash:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i, k := range v.Keys() {
			var kn, vn yaml.Node
			if err := kn.Encode(plain(k)); err != nil {
				return nil
			}
			if err := vn.Encode(plain(v.Values()[i])); err != nil {
				return nil
			}
			n.Content = append(n.Content, &kn, &vn)
		}
		return n
	case *value.Sensitive:
		return "Sensitive [value redacted]"
	}
	if value.IsUndef(v) {
		return nil
	}
	return value.ToString(v)
}
