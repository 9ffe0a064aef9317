package compiler

import (
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// resource is a catalog resource plus what the compile needs to know about it.
type resource struct {
	*catalog.Resource
	// scope is the scope the resource was declared in: its defaults apply
	// and its resource is the container.
	scope     *eval.Scope
	container *resource
	virtual   bool
	exported  bool
	// define is set for defined-type instances; evaluated once.
	define    *Definition
	evaluated bool
	// pos is where it was declared, for errors.
	pos syntax.Position
	// stage overrides the default stage for classes.
	isClass bool
}

// scopeData is what the compiler keeps per scope.
type scopeData struct {
	resource *resource
	// defaults by capitalized type name: File { ... }.
	defaults map[string][]defaultAttr
	// class is set for class scopes.
	class *classInstance
}

type defaultAttr struct {
	name  string
	value value.Value
}

// classInstance is a declared class.
type classInstance struct {
	name     string // canonical
	def      *Definition
	res      *resource
	scope    *eval.Scope
	parent   *classInstance
	declared syntax.Position
	// resourceLike records a resource-like declaration.
	resourceLike bool
}

// data returns the compile data of the nearest registered scope.
func (c *Compilation) data(sc *eval.Scope) *scopeData {
	for s := sc; s != nil; s = s.Parent() {
		if d, ok := c.scopes[s]; ok {
			return d
		}
	}
	return c.scopes[c.top]
}

// scopeResource is the resource (class, define instance, node) code in sc belongs to.
func (c *Compilation) scopeResource(sc *eval.Scope) *resource {
	if d := c.data(sc); d != nil {
		return d.resource
	}
	return c.mainClass
}

// addResource adds a resource to the catalog-to-be, contained in container.
// It fails on a duplicate reference.
func (c *Compilation) addResource(r *resource) error {
	ref := r.Ref()
	if prev, dup := c.byRef[ref]; dup {
		return &duplicateError{ref: ref, prev: prev.pos, at: r.pos}
	}
	c.byRef[ref] = r
	c.resources = append(c.resources, r)
	return nil
}

type duplicateError struct {
	ref      catalog.Ref
	prev, at syntax.Position
}

func (e *duplicateError) Error() string {
	if e.prev.Filename == "" && e.prev.Line == 0 {
		return "Duplicate declaration: " + e.ref.String() + " is already declared; cannot redeclare" + posSuffix(e.at)
	}
	return "Duplicate declaration: " + e.ref.String() + " is already declared at" + posSuffix(e.prev) + "; cannot redeclare" + posSuffix(e.at)
}

// posSuffix formats " (file: F, line: L)" as Puppet does inside messages.
func posSuffix(p syntax.Position) string {
	if p.Filename == "" && p.Line == 0 {
		return ""
	}
	if p.Filename == "" {
		return " (line: " + itoa(p.Line) + ")"
	}
	return " (file: " + p.Filename + ", line: " + itoa(p.Line) + ")"
}

// validTag reports whether s can be a tag, as Puppet checks titles before
// tagging a resource with its title.
func validTag(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r == '.' || r == ':' || r == '-'):
		case r > 127 && isUnicodeAlnum(r):
		default:
			return false
		}
	}
	return true
}

// nameTags returns the tags a name contributes: the name and, for a
// qualified name, each segment.
func nameTags(name string) []string {
	name = strings.ToLower(name)
	if !strings.Contains(name, "::") {
		return []string{name}
	}
	out := []string{name}
	for _, seg := range strings.Split(name, "::") {
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// newResource builds a resource declared in scope sc.
func (c *Compilation) newResource(typ, title string, sc *eval.Scope, pos syntax.Position, kind catalog.Kind) *resource {
	r := &resource{
		Resource: &catalog.Resource{Type: typ, Title: title, Kind: kind},
		scope:    sc,
		pos:      pos,
	}
	r.Tags = make([]string, 0, 8)
	r.AddTags(nameTags(typ)...)
	if validTag(title) {
		r.AddTags(strings.ToLower(title))
	}
	if container := c.scopeResource(sc); container != nil {
		r.container = container
		r.AddTags(container.Tags...)
	}
	if pos.Filename != "" {
		r.File = pos.Filename
		r.Line = pos.Line
	}
	return r
}
