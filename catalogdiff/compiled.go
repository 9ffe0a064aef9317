package catalogdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// FromCatalog converts a compiled catalog into what Parse reads from its
// JSON (catalog.WriteJSON), without writing and reading the JSON: comparing
// many compiled catalogs spends most of its time there otherwise. Strings,
// integers, booleans, arrays, hashes with string keys and resource
// references are converted directly; every other value goes through
// catalog.ValueJSON. The tests check that the two agree for every kind of
// value. The error is the one Parse would give for a value the JSON encoder cannot
// write as JSON (such as an infinite Float).
func FromCatalog(c *catalog.Catalog) (*Catalog, error) {
	out := &Catalog{
		Name:        jsonString(c.Name),
		Environment: jsonString(c.Environment),
		Resources:   make(map[Ref]*Resource, len(c.Resources)),
		Edges:       make(map[Edge]bool, len(c.Edges)),
		Classes:     make(map[string]bool, len(c.Classes)),
	}
	for i, r := range c.Resources {
		res := &Resource{
			Ref:       Ref{Type: jsonString(r.Type), Title: jsonString(r.Title)},
			Tags:      jsonStrings(r.Tags),
			Exported:  r.Exported,
			Kind:      jsonString(string(r.Kind)),
			Sensitive: jsonStrings(r.Sensitive),
		}
		if r.File != "" {
			res.File, res.Line, res.HasLine = jsonString(r.File), int64(r.Line), true
		}
		if len(r.Params) > 0 {
			res.Params = make(map[string]any, len(r.Params))
			for _, p := range r.Params {
				pv := p.Value
				if s, ok := pv.(*value.Sensitive); ok {
					pv = s.Value // a parameter's own Sensitive value is written unwrapped
				}
				v, err := jsonValue(pv)
				if err != nil {
					return nil, fmt.Errorf("resources[%d]: parameter %s: %v", i, p.Name, err)
				}
				res.Params[jsonString(p.Name)] = v
			}
		}
		if res.Type == "" {
			return nil, fmt.Errorf(`resources[%d]: empty "type"`, i)
		}
		if _, dup := out.Resources[res.Ref]; dup {
			return nil, fmt.Errorf("resources[%d]: duplicate resource %s", i, res.Ref)
		}
		out.Resources[res.Ref] = res
	}
	for _, e := range c.Edges {
		out.Edges[Edge{Source: jsonString(e.Source.String()), Target: jsonString(e.Target.String())}] = true
	}
	for _, cl := range c.Classes {
		out.Classes[jsonString(cl)] = true
	}
	return out, nil
}

// jsonValue is a parameter value as Parse decodes it from the catalog's
// JSON.
func jsonValue(v value.Value) (any, error) {
	switch v := v.(type) {
	case value.String:
		if utf8.ValidString(string(v)) {
			return string(v), nil
		}
	case value.Integer:
		return json.Number(strconv.FormatInt(int64(v), 10)), nil
	case value.Boolean:
		return bool(v), nil
	case *value.Hash:
		if out, ok, err := jsonHash(v); ok || err != nil {
			return out, err
		}
	case *value.Sensitive:
		inner, err := jsonValue(v.Value)
		if err != nil {
			return nil, err
		}
		return map[string]any{"__ptype": "Sensitive", "__pvalue": inner}, nil
	case *value.ResourceType:
		// References, such as require => File['/etc/motd'], are common.
		if v.Title != "" {
			return jsonString(catalog.Ref{Type: v.Type, Title: v.Title}.String()), nil
		}
	case *value.ClassType:
		if v.Name != "" {
			return jsonString(catalog.Ref{Type: "Class", Title: value.CapitalizeName(v.Name)}.String()), nil
		}
	case value.Array:
		out := make([]any, len(v))
		for i, x := range v {
			var err error
			if out[i], err = jsonValue(x); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(catalog.ValueJSON(v)))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	return out, nil
}

// jsonHash converts a hash whose keys are all strings; ok is false for
// other hashes.
func jsonHash(h *value.Hash) (out map[string]any, ok bool, err error) {
	out = make(map[string]any, h.Len())
	for i := range h.Len() {
		k, v := h.At(i)
		ks, isString := k.(value.String)
		if !isString {
			return nil, false, nil
		}
		if out[jsonString(string(ks))], err = jsonValue(v); err != nil {
			return nil, false, err
		}
	}
	return out, true, nil
}

// jsonString is s as the catalog's JSON carries it: invalid UTF-8 is
// replaced.
func jsonString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var out string
	if err := json.Unmarshal(catalog.ValueJSON(value.String(s)), &out); err != nil {
		return s
	}
	return out
}

// jsonStrings converts a list of strings; like Parse it never returns nil.
// A list of valid strings (nearly every one: tags, sensitive parameter
// names) is returned as it is; the result is only read.
func jsonStrings(list []string) []string {
	if list == nil {
		return []string{}
	}
	valid := true
	for _, s := range list {
		if !utf8.ValidString(s) {
			valid = false
			break
		}
	}
	if valid {
		return list
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = jsonString(s)
	}
	return out
}
