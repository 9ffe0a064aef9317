// Package catalogdiff compares two compiled catalogs (Puppet's catalog_format 2
// JSON, as written by `puppet catalog compile` or `marionette compile`) and
// reports what changed between them: resources added, removed and changed
// (parameter by parameter), containment edges and classes added and removed.
// Volatile keys (version, catalog_uuid, code_id) are never compared.
package catalogdiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// Ref names a resource by its type and title, as in `File[/etc/motd]`.
type Ref struct {
	Type  string `json:"type"`
	Title string `json:"title"`
}

// String formats the reference as Puppet does.
func (r Ref) String() string { return r.Type + "[" + r.Title + "]" }

func (r Ref) less(o Ref) bool {
	if r.Type != o.Type {
		return r.Type < o.Type
	}
	return r.Title < o.Title
}

// Resource is one catalog resource as read from JSON. Parameter values keep
// the shapes encoding/json decodes to, with numbers as json.Number so that
// 1 and 1.0 stay distinct.
type Resource struct {
	Ref
	Tags      []string
	File      string
	Line      int64
	HasLine   bool
	Exported  bool
	Kind      string
	Params    map[string]any
	Sensitive []string
}

// Edge is a containment edge.
type Edge struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// Catalog is the comparable content of a catalog document.
type Catalog struct {
	Name        string
	Environment string
	Resources   map[Ref]*Resource
	Edges       map[Edge]bool
	Classes     map[string]bool
}

// ReadFile reads and parses a catalog file; errors name the file.
func ReadFile(path string) (*Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Parse reads a catalog document. Lines before the JSON object that do not
// start with '{' (such as the `Notice: Compiled catalog ...` line that
// `puppet catalog compile` prints) are skipped. A document wrapped as
// {"document_type": "Catalog", "data": {...}} is unwrapped.
func Parse(data []byte) (*Catalog, error) {
	start, err := jsonStart(data)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if rest := bytes.TrimSpace(data[start+int(dec.InputOffset()):]); len(rest) > 0 {
		return nil, errors.New("unexpected data after the catalog's JSON object")
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("not a catalog: the JSON document is not an object")
	}
	if inner, ok := top["data"].(map[string]any); ok && top["resources"] == nil {
		top = inner
	}
	return fromJSON(top)
}

// jsonStart returns the offset of the first line whose first non-blank
// character is '{'.
func jsonStart(data []byte) (int, error) {
	off := 0
	for off < len(data) {
		line := data[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if t := bytes.TrimLeft(line, " \t\r\ufeff"); len(t) > 0 && t[0] == '{' {
			return off + len(line) - len(t), nil
		}
		off += len(line)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return 0, errors.New("empty file, no catalog")
	}
	return 0, errors.New("no JSON object found")
}

func fromJSON(top map[string]any) (*Catalog, error) {
	c := &Catalog{
		Resources: map[Ref]*Resource{},
		Edges:     map[Edge]bool{},
		Classes:   map[string]bool{},
	}
	var err error
	if c.Name, err = optString(top, "name"); err != nil {
		return nil, err
	}
	if c.Environment, err = optString(top, "environment"); err != nil {
		return nil, err
	}
	rawRes, ok := top["resources"]
	if !ok {
		return nil, errors.New(`not a catalog: no "resources" list`)
	}
	list, ok := rawRes.([]any)
	if !ok && rawRes != nil {
		return nil, fmt.Errorf(`"resources" is %s, want a list`, shape(rawRes))
	}
	for i, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resources[%d] is %s, want an object", i, shape(item))
		}
		r, err := resourceFromJSON(obj)
		if err != nil {
			return nil, fmt.Errorf("resources[%d]: %v", i, err)
		}
		if _, dup := c.Resources[r.Ref]; dup {
			return nil, fmt.Errorf("resources[%d]: duplicate resource %s", i, r.Ref)
		}
		c.Resources[r.Ref] = r
	}
	edges, err := optList(top, "edges")
	if err != nil {
		return nil, err
	}
	for i, item := range edges {
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("edges[%d] is %s, want an object", i, shape(item))
		}
		var e Edge
		if e.Source, err = reqString(obj, "source"); err != nil {
			return nil, fmt.Errorf("edges[%d]: %v", i, err)
		}
		if e.Target, err = reqString(obj, "target"); err != nil {
			return nil, fmt.Errorf("edges[%d]: %v", i, err)
		}
		c.Edges[e] = true
	}
	classes, err := optList(top, "classes")
	if err != nil {
		return nil, err
	}
	for i, item := range classes {
		s, ok := item.(string)
		if !ok {
			return nil, fmt.Errorf("classes[%d] is %s, want a string", i, shape(item))
		}
		c.Classes[s] = true
	}
	return c, nil
}

func resourceFromJSON(obj map[string]any) (*Resource, error) {
	r := &Resource{}
	var err error
	if r.Type, err = reqString(obj, "type"); err != nil {
		return nil, err
	}
	if r.Type == "" {
		return nil, errors.New(`empty "type"`)
	}
	if r.Title, err = reqString(obj, "title"); err != nil {
		return nil, err
	}
	if r.Tags, err = optStrings(obj, "tags"); err != nil {
		return nil, err
	}
	if r.File, err = optString(obj, "file"); err != nil {
		return nil, err
	}
	if v, ok := obj["line"]; ok && v != nil {
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf(`"line" is %s, want a number`, shape(v))
		}
		if r.Line, err = n.Int64(); err != nil {
			return nil, fmt.Errorf(`"line" is %s, want an integer`, n)
		}
		r.HasLine = true
	}
	if v, ok := obj["exported"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf(`"exported" is %s, want a boolean`, shape(v))
		}
		r.Exported = b
	}
	if r.Kind, err = optString(obj, "kind"); err != nil {
		return nil, err
	}
	if v, ok := obj["parameters"]; ok && v != nil {
		p, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf(`"parameters" is %s, want an object`, shape(v))
		}
		r.Params = p
	}
	if r.Sensitive, err = optStrings(obj, "sensitive_parameters"); err != nil {
		return nil, err
	}
	return r, nil
}

func reqString(obj map[string]any, key string) (string, error) {
	v, ok := obj[key]
	if !ok {
		return "", fmt.Errorf("no %q", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q is %s, want a string", key, shape(v))
	}
	return s, nil
}

func optString(obj map[string]any, key string) (string, error) {
	v, ok := obj[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q is %s, want a string", key, shape(v))
	}
	return s, nil
}

func optList(obj map[string]any, key string) ([]any, error) {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%q is %s, want a list", key, shape(v))
	}
	return l, nil
}

func optStrings(obj map[string]any, key string) ([]string, error) {
	l, err := optList(obj, key)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(l))
	for i, item := range l {
		s, ok := item.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is %s, want a string", key, i, shape(item))
		}
		out = append(out, s)
	}
	return out, nil
}

// shape describes a decoded JSON value's kind for error messages.
func shape(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
