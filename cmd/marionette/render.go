package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
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
		text, err := dataformat.YAML(redact(v))
		return strings.TrimSuffix(text, "\n"), err
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
