// Package catalog is the compiled catalog: the resources a node must have, their
// containment, and its JSON form (Puppet's catalog_format 2), byte-compatible
// with what `puppet catalog compile --render-as json` prints.
package catalog

import (
	"slices"

	"github.com/marionette-dev/marionette/value"
)

// Kind says what sort of type a resource is, as Puppet records it.
type Kind string

const (
	KindNative  Kind = "compilable_type" // a Ruby/native resource type
	KindDefined Kind = "defined_type"    // a defined type (`define`)
	KindClass   Kind = "unknown"         // classes and nodes
	// KindResourceLikeClass is what Puppet records for a class declared
	// with class { 'x': }.
	KindResourceLikeClass Kind = "class"
)

// Ref names a resource: its capitalized type and its title.
type Ref struct {
	Type  string
	Title string
}

// String formats a reference as Puppet does in catalogs: `File[/tmp/a]`.
func (r Ref) String() string { return r.Type + "[" + r.Title + "]" }

// Param is one resource attribute.
type Param struct {
	Name  string
	Value value.Value
}

// Resource is one catalog resource.
type Resource struct {
	Type     string // capitalized, e.g. "File", "Mymod::Thing", "Class"
	Title    string
	Tags     []string // insertion-ordered set, lowercase
	File     string   // absolute path of the declaring manifest; empty for classes
	Line     int
	Exported bool
	Kind     Kind
	// Params in declaration order; undef values are never stored.
	Params []Param
	// Sensitive lists parameter names whose values were Sensitive.
	Sensitive []string
}

// Ref returns the resource's reference.
func (r *Resource) Ref() Ref { return Ref{r.Type, r.Title} }

// Param returns the value of a parameter.
func (r *Resource) Param(name string) (value.Value, bool) {
	for _, p := range r.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// SetParam sets or replaces a parameter, keeping its original position.
// Setting undef removes it.
func (r *Resource) SetParam(name string, v value.Value) {
	for i, p := range r.Params {
		if p.Name == name {
			if value.IsUndef(v) {
				r.Params = append(r.Params[:i], r.Params[i+1:]...)
				return
			}
			r.Params[i].Value = v
			return
		}
	}
	if !value.IsUndef(v) {
		r.Params = append(r.Params, Param{name, v})
	}
}

// AddTags adds tags not yet present, in order.
func (r *Resource) AddTags(tags ...string) {
	r.Tags = addTags(r.Tags, tags...)
}

func addTags(set []string, tags ...string) []string {
outer:
	for _, t := range tags {
		for _, have := range set {
			if have == t {
				continue outer
			}
		}
		set = append(set, t)
	}
	return set
}

// Edge is a containment edge (relationships are parameters, not edges).
type Edge struct {
	Source, Target Ref
}

// Catalog is a compiled catalog.
type Catalog struct {
	Name    string
	Version int64
	// ConfigVersion, when set, is the version instead of Version: what
	// the environment's config_version command printed.
	ConfigVersion string
	CodeID        string // empty is written as null
	UUID          string
	Environment   string
	Tags          []string
	Resources     []*Resource
	Edges         []Edge
	Classes       []string
	// RichData says WriteJSON writes rich data (Puppet 8's default; see
	// WriteRichJSON).
	RichData bool

	index map[Ref]*Resource
}

// New returns an empty catalog for a node.
func New(name, environment string) *Catalog {
	return &Catalog{Name: name, Environment: environment, index: make(map[Ref]*Resource)}
}

// Add appends a resource; it returns false (and adds nothing) when a resource
// with the same reference exists.
func (c *Catalog) Add(r *Resource) bool {
	ref := r.Ref()
	if _, dup := c.index[ref]; dup {
		return false
	}
	c.index[ref] = r
	c.Resources = append(c.Resources, r)
	return true
}

// Grow makes room for n more resources and edges more edges, so that
// adding that many allocates nothing more (a compile knows both counts
// before it adds its resources).
func (c *Catalog) Grow(resources, edges int) {
	if resources > 0 {
		c.Resources = slices.Grow(c.Resources, resources)
		if len(c.index) == 0 {
			c.index = make(map[Ref]*Resource, resources)
		}
	}
	if edges > 0 {
		c.Edges = slices.Grow(c.Edges, edges)
	}
}

// Lookup finds a resource by reference.
func (c *Catalog) Lookup(ref Ref) *Resource { return c.index[ref] }

// AddEdge records that source contains target.
func (c *Catalog) AddEdge(source, target Ref) {
	c.Edges = append(c.Edges, Edge{source, target})
}

// AddTags adds catalog-level tags.
func (c *Catalog) AddTags(tags ...string) { c.Tags = addTags(c.Tags, tags...) }

// AddClass records a class name in the catalog's class list.
func (c *Catalog) AddClass(name string) {
	c.Classes = addTags(c.Classes, name)
}
