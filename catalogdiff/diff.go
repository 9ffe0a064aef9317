package catalogdiff

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options say which differences do not count.
type Options struct {
	// IgnoreTags skips resource tags.
	IgnoreTags bool
	// IgnoreFileLine skips the file and line a resource was declared at:
	// they move with unrelated edits of the manifest.
	IgnoreFileLine bool
	// Ignore leaves out resources and parameters (IgnoreRule).
	Ignore []IgnoreRule
}

// SourceContentParam is the pseudo-parameter that carries the text of the
// file a File resource's source names, when the comparer could read it
// (fleet reads puppet:///modules/... from each side's code): octocatalog-diff's
// --compare-file-text. Puppet parameter names have no spaces, so it never
// collides with a real one.
const SourceContentParam = "content (from source)"

// Result is the difference between two catalogs, every list sorted
// (resources by type then title, parameters by name). Lists are never nil, so
// that the JSON form always has them.
type Result struct {
	Added          []ResourceSummary `json:"added"`
	Removed        []ResourceSummary `json:"removed"`
	Changed        []ResourceChange  `json:"changed"`
	EdgesAdded     []Edge            `json:"edges_added"`
	EdgesRemoved   []Edge            `json:"edges_removed"`
	ClassesAdded   []string          `json:"classes_added"`
	ClassesRemoved []string          `json:"classes_removed"`
}

// Empty reports whether the catalogs are the same.
func (r *Result) Empty() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0 &&
		len(r.EdgesAdded) == 0 && len(r.EdgesRemoved) == 0 &&
		len(r.ClassesAdded) == 0 && len(r.ClassesRemoved) == 0
}

// ResourceSummary is a resource only one of the catalogs has.
type ResourceSummary struct {
	Ref
	File       string         `json:"file,omitempty"`
	Line       int64          `json:"line,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
}

// ResourceChange is a resource both catalogs have, with its differences.
type ResourceChange struct {
	Ref
	// Parameters that were added, removed or changed, sorted by name.
	Parameters []Change `json:"parameters,omitempty"`
	// Attributes are the resource's other fields that changed, in the order
	// file, line, exported, kind, sensitive_parameters.
	Attributes  []Change `json:"attributes,omitempty"`
	TagsAdded   []string `json:"tags_added,omitempty"`
	TagsRemoved []string `json:"tags_removed,omitempty"`
}

// Op says what happened to a parameter or attribute.
type Op string

// The operations of a Change.
const (
	OpAdded   Op = "added"
	OpRemoved Op = "removed"
	OpChanged Op = "changed"
)

// Change is one parameter or attribute difference. Old and New are JSON
// (object keys sorted); Old is absent when the value was added, New when it
// was removed.
type Change struct {
	Name string          `json:"name"`
	Op   Op              `json:"op"`
	Old  json.RawMessage `json:"old,omitempty"`
	New  json.RawMessage `json:"new,omitempty"`
}

// Compare computes the differences from catalog from to catalog to.
func Compare(from, to *Catalog, opts Options) *Result {
	res := &Result{
		Added:          []ResourceSummary{},
		Removed:        []ResourceSummary{},
		Changed:        []ResourceChange{},
		EdgesAdded:     []Edge{},
		EdgesRemoved:   []Edge{},
		ClassesAdded:   []string{},
		ClassesRemoved: []string{},
	}
	for ref, o := range from.Resources {
		if opts.ignoresResource(ref) {
			continue
		}
		n, ok := to.Resources[ref]
		if !ok {
			res.Removed = append(res.Removed, summarize(o))
			continue
		}
		if ch, ok := compareResource(o, n, opts); ok {
			res.Changed = append(res.Changed, ch)
		}
	}
	for ref, n := range to.Resources {
		if opts.ignoresResource(ref) {
			continue
		}
		if _, ok := from.Resources[ref]; !ok {
			res.Added = append(res.Added, summarize(n))
		}
	}
	sort.Slice(res.Added, func(i, j int) bool { return res.Added[i].less(res.Added[j].Ref) })
	sort.Slice(res.Removed, func(i, j int) bool { return res.Removed[i].less(res.Removed[j].Ref) })
	sort.Slice(res.Changed, func(i, j int) bool { return res.Changed[i].less(res.Changed[j].Ref) })

	res.EdgesAdded = opts.keepEdges(edgesOnlyIn(to.Edges, from.Edges))
	res.EdgesRemoved = opts.keepEdges(edgesOnlyIn(from.Edges, to.Edges))
	res.ClassesAdded = onlyIn(to.Classes, from.Classes)
	res.ClassesRemoved = onlyIn(from.Classes, to.Classes)
	return res
}

func summarize(r *Resource) ResourceSummary {
	return ResourceSummary{Ref: r.Ref, File: r.File, Line: r.Line, Parameters: r.Params}
}

func compareResource(o, n *Resource, opts Options) (ResourceChange, bool) {
	ch := ResourceChange{Ref: o.Ref}
	names := make([]string, 0, len(o.Params)+len(n.Params))
	for k := range o.Params {
		names = append(names, k)
	}
	for k := range n.Params {
		if _, ok := o.Params[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		if opts.ignoresParam(o.Ref, k) {
			continue
		}
		ov, inOld := o.Params[k]
		nv, inNew := n.Params[k]
		switch {
		case !inOld:
			ch.Parameters = append(ch.Parameters, Change{Name: k, Op: OpAdded, New: encode(nv)})
		case !inNew:
			ch.Parameters = append(ch.Parameters, Change{Name: k, Op: OpRemoved, Old: encode(ov)})
		case !Equal(ov, nv):
			ch.Parameters = append(ch.Parameters, Change{Name: k, Op: OpChanged, Old: encode(ov), New: encode(nv)})
		}
	}

	attr := func(name string, ov, nv any) {
		if opts.ignoresParam(o.Ref, name) {
			return
		}
		ch.Attributes = append(ch.Attributes, Change{Name: name, Op: OpChanged, Old: encode(ov), New: encode(nv)})
	}
	if !opts.IgnoreFileLine {
		if o.File != n.File {
			attr("file", nullIfEmpty(o.File), nullIfEmpty(n.File))
		}
		if o.HasLine != n.HasLine || o.Line != n.Line {
			attr("line", lineValue(o), lineValue(n))
		}
	}
	if o.Exported != n.Exported {
		attr("exported", o.Exported, n.Exported)
	}
	// Catalogs written without "kind" (older Puppet) do not count as a change.
	if o.Kind != "" && n.Kind != "" && o.Kind != n.Kind {
		attr("kind", o.Kind, n.Kind)
	}
	// Lists in the same order are the same sets: skip building the sets.
	if !slices.Equal(o.Sensitive, n.Sensitive) {
		osens, nsens := set(o.Sensitive), set(n.Sensitive)
		if len(onlyIn(osens, nsens)) > 0 || len(onlyIn(nsens, osens)) > 0 {
			attr("sensitive_parameters", sortedKeys(osens), sortedKeys(nsens))
		}
	}

	if !opts.IgnoreTags && !opts.ignoresParam(o.Ref, "tags") && !slices.Equal(o.Tags, n.Tags) {
		ot, nt := set(o.Tags), set(n.Tags)
		if added := onlyIn(nt, ot); len(added) > 0 {
			ch.TagsAdded = added
		}
		if removed := onlyIn(ot, nt); len(removed) > 0 {
			ch.TagsRemoved = removed
		}
	}
	changed := len(ch.Parameters) > 0 || len(ch.Attributes) > 0 || len(ch.TagsAdded) > 0 || len(ch.TagsRemoved) > 0
	return ch, changed
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func lineValue(r *Resource) any {
	if !r.HasLine {
		return nil
	}
	return r.Line
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// onlyIn returns the sorted members of a that b lacks.
func onlyIn(a, b map[string]bool) []string {
	out := []string{}
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func edgesOnlyIn(a, b map[Edge]bool) []Edge {
	out := []Edge{}
	for e := range a {
		if !b[e] {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Target < out[j].Target
	})
	return out
}

// Equal compares two decoded JSON values. Object key order does not matter,
// list order does. Numbers compare by value, but an integer never equals a
// float: Puppet distinguishes 1 from 1.0.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && numbersEqual(a, bn)
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !Equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func isIntLiteral(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	if isIntLiteral(a) != isIntLiteral(b) {
		return false
	}
	if isIntLiteral(a) {
		x, ok1 := new(big.Int).SetString(string(a), 10)
		y, ok2 := new(big.Int).SetString(string(b), 10)
		return ok1 && ok2 && x.Cmp(y) == 0
	}
	x, err1 := strconv.ParseFloat(string(a), 64)
	y, err2 := strconv.ParseFloat(string(b), 64)
	return err1 == nil && err2 == nil && x == y
}

// encode renders a value as compact JSON with sorted object keys and no
// HTML escaping.
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Decoded JSON always encodes; keep a readable fallback anyway.
		return json.RawMessage(strconv.Quote(err.Error()))
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}
