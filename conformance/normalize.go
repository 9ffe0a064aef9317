package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Normalize turns a raw catalog (Puppet's catalog_format 2 JSON, ours or
// Puppet's) into the comparable form that the oracle's normalize script
// writes to expected.json. It is a faithful port of that script:
//   - keeps name and environment (when present);
//   - resources sorted by (type, title), each with type, title, exported,
//     tags (sorted, unique), parameters ({} when absent or empty), file
//     (relative to the first base directory containing it) and line;
//   - edges as sorted, unique [source, target] pairs;
//   - classes sorted and unique (when present);
//   - with loose, resource file and line are dropped too.
//
// Leading text before the first '{' is skipped, as the script does, so log
// lines in front of the JSON do not matter. Numbers keep their literal form
// (json.Number) so that 1 and 1.0 stay distinguishable.
func Normalize(raw []byte, bases []string, loose bool) (map[string]any, error) {
	start := bytes.IndexByte(raw, '{')
	if start < 0 {
		return nil, errors.New("no JSON object in catalog output")
	}
	dec := json.NewDecoder(bytes.NewReader(raw[start:]))
	dec.UseNumber()
	var catalog map[string]any
	if err := dec.Decode(&catalog); err != nil {
		return nil, fmt.Errorf("catalog is not valid JSON: %v", err)
	}
	return normalizeCatalog(catalog, absBases(bases), loose)
}

// absBases returns each base as an absolute path plus, when it differs, its
// symlink-resolved form: file paths may be reported either way.
func absBases(bases []string) []string {
	var out []string
	for _, b := range bases {
		abs, err := filepath.Abs(b)
		if err != nil {
			abs = b
		}
		out = append(out, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			out = append(out, real)
		}
	}
	return out
}

func normalizeCatalog(catalog map[string]any, bases []string, loose bool) (map[string]any, error) {
	out := map[string]any{}
	for _, key := range []string{"name", "environment"} {
		if v, ok := catalog[key]; ok {
			out[key] = v
		}
	}

	rawResources, err := listOrEmpty(catalog["resources"], "resources")
	if err != nil {
		return nil, err
	}
	resources := make([]any, 0, len(rawResources))
	for i, item := range rawResources {
		r, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resources[%d] is not an object", i)
		}
		n, err := normalizeResource(r, bases, loose)
		if err != nil {
			return nil, fmt.Errorf("resources[%d]: %v", i, err)
		}
		resources = append(resources, n)
	}
	sort.SliceStable(resources, func(i, j int) bool {
		a, b := resources[i].(map[string]any), resources[j].(map[string]any)
		ta, tb := pyStr(a["type"]), pyStr(b["type"])
		if ta != tb {
			return ta < tb
		}
		return pyStr(a["title"]) < pyStr(b["title"])
	})
	out["resources"] = resources

	rawEdges, err := listOrEmpty(catalog["edges"], "edges")
	if err != nil {
		return nil, err
	}
	seen := map[[2]string]bool{}
	var edgePairs [][2]any
	for i, item := range rawEdges {
		e, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("edges[%d] is not an object", i)
		}
		source, target := e["source"], e["target"]
		if !isScalar(source) || !isScalar(target) {
			return nil, fmt.Errorf("edges[%d]: source and target must be strings", i)
		}
		key := [2]string{scalarKey(source), scalarKey(target)}
		if seen[key] {
			continue
		}
		seen[key] = true
		edgePairs = append(edgePairs, [2]any{source, target})
	}
	sort.SliceStable(edgePairs, func(i, j int) bool {
		si, sj := pyStr(edgePairs[i][0]), pyStr(edgePairs[j][0])
		if si != sj {
			return si < sj
		}
		return pyStr(edgePairs[i][1]) < pyStr(edgePairs[j][1])
	})
	edges := make([]any, 0, len(edgePairs))
	for _, p := range edgePairs {
		edges = append(edges, []any{p[0], p[1]})
	}
	out["edges"] = edges

	if v, ok := catalog["classes"]; ok && v != nil {
		classes, err := sortedUniqueStrings(v, "classes")
		if err != nil {
			return nil, err
		}
		out["classes"] = classes
	}
	return out, nil
}

func normalizeResource(r map[string]any, bases []string, loose bool) (map[string]any, error) {
	n := map[string]any{
		"type":     r["type"],
		"title":    r["title"],
		"exported": truthy(r["exported"]),
	}
	tags, err := sortedUniqueStrings(r["tags"], "tags")
	if err != nil {
		return nil, err
	}
	n["tags"] = tags
	if params := r["parameters"]; truthy(params) {
		n["parameters"] = params
	} else {
		n["parameters"] = map[string]any{}
	}
	if loose {
		return n, nil
	}
	if f, ok := r["file"]; ok && f != nil {
		if s, isString := f.(string); isString {
			n["file"] = relativeTo(s, bases)
		} else {
			n["file"] = f
		}
	}
	if l, ok := r["line"]; ok && l != nil {
		n["line"] = l
	}
	return n, nil
}

// relativeTo strips the first base directory that prefixes path.
func relativeTo(path string, bases []string) string {
	for _, b := range bases {
		prefix := strings.TrimRight(b, "/") + "/"
		if strings.HasPrefix(path, prefix) {
			return path[len(prefix):]
		}
	}
	return path
}

// listOrEmpty mirrors Python's `value or []`: a falsy value is an empty list.
func listOrEmpty(v any, what string) ([]any, error) {
	if !truthy(v) {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", what)
	}
	return list, nil
}

func sortedUniqueStrings(v any, what string) ([]any, error) {
	list, err := listOrEmpty(v, what)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, fmt.Errorf("%s contains a non-string %s", what, compactJSON(item))
		}
		set[s] = true
	}
	keys := make([]string, 0, len(set))
	for s := range set {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	out := make([]any, len(keys))
	for i, s := range keys {
		out[i] = s
	}
	return out, nil
}

// truthy is Python's bool() on a decoded JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// pyStr is the sort key Python's str() would give a scalar JSON value.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	}
	return compactJSON(v)
}

func isScalar(v any) bool {
	switch v.(type) {
	case nil, string, bool, json.Number:
		return true
	}
	return false
}

// scalarKey distinguishes scalars of different JSON types with equal text.
func scalarKey(v any) string {
	return fmt.Sprintf("%T:%v", v, v)
}

func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// EncodePython writes v exactly as Python's
// json.dumps(v, indent=1, sort_keys=True, ensure_ascii=False) + "\n" does,
// which is the form of every expected.json. Numbers are written as their
// json.Number literal.
func EncodePython(v any) []byte {
	var buf bytes.Buffer
	writePython(&buf, v, 0)
	buf.WriteByte('\n')
	return buf.Bytes()
}

func writePython(buf *bytes.Buffer, v any, depth int) {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(x.String())
	case string:
		writePythonString(buf, x)
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[")
		for i, item := range x {
			if i > 0 {
				buf.WriteString(",")
			}
			buf.WriteString("\n" + strings.Repeat(" ", depth+1))
			writePython(buf, item, depth+1)
		}
		buf.WriteString("\n" + strings.Repeat(" ", depth) + "]")
	case map[string]any:
		if len(x) == 0 {
			buf.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				buf.WriteString(",")
			}
			buf.WriteString("\n" + strings.Repeat(" ", depth+1))
			writePythonString(buf, k)
			buf.WriteString(": ")
			writePython(buf, x[k], depth+1)
		}
		buf.WriteString("\n" + strings.Repeat(" ", depth) + "}")
	default:
		// Only decoded JSON reaches here; anything else is written as Go's
		// JSON so that the output stays valid.
		buf.WriteString(compactJSON(x))
	}
}

// writePythonString escapes like Python's json with ensure_ascii=False:
// quotes, backslashes and C0 controls only; everything else stays literal.
func writePythonString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(buf, `\u%04x`, r)
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// readNormalized loads an expected.json file written by the oracle.
func readNormalized(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out, err := decodeNormalized(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

// decodeNormalized parses an already normalized catalog, keeping numbers
// as literals like Normalize does.
func decodeNormalized(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}
