package compiler

import (
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/resourcetype"
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
	define    *environment.Definition
	evaluated bool
	// pos is where it was declared, for errors.
	pos syntax.Position
	// defineDepth counts the defined-type instances this resource is
	// nested in; it bounds runaway recursion of defined types.
	defineDepth int
	// collectorID is "certname|Type|title" for a resource collected from
	// the Store, as Puppet's collector_id.
	collectorID string
	// relLines are the lines of relationship attributes written on
	// another line than the resource's title: Puppet reports a missing
	// target at its attribute's line.
	relLines []relLine
	// givenUndef names the attributes a defined-type instance was
	// declared with as undef: not stored, yet given (a required parameter
	// without a type takes undef so).
	givenUndef []string
	// shared are the before/notify arrays this resource shares with the
	// other titles of its resource expression (see sharedArray).
	shared []*sharedArray
}

// sharedArray is a before or notify array that every title of one
// resource expression got from its body. Puppet gives them all the same
// Ruby array, and a chaining arrow appends to it in place, so what an
// arrow adds to one of them, all of them show (miraheze's
// `users::hashuser { $set: before => Users::Groupmembers[$groups] }` with
// `Users::Hashuser<| |> -> Users::Groupmembers<| |>`).
type sharedArray struct {
	param   string
	members []*resource
}

// sameArray reports whether a and b are the same array value (the same
// elements in the same place), not only equal ones.
func sameArray(a, b value.Value) bool {
	x, ok1 := a.(value.Array)
	y, ok2 := b.(value.Array)
	return ok1 && ok2 && len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
}

// relLine is the line of one relationship attribute of a resource body.
type relLine struct {
	name string
	line int
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
	def      *environment.Definition
	res      *resource
	scope    *eval.Scope
	parent   *classInstance
	declared syntax.Position
	// resourceLike records a resource-like declaration.
	resourceLike bool
	// given are the resource-like parameters; declScope is where the class
	// was declared.
	given     *value.Hash
	declScope *eval.Scope
	evaluated bool
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
		return duplicateError(ref, prev.pos, r.pos)
	}
	if err := c.checkUniqueness(r); err != nil {
		return err
	}
	if max := c.req.Limits.maxResources(); len(c.resources) >= max {
		return tooManyResources(max)
	}
	c.byRef[ref] = r
	c.resources = append(c.resources, r)
	if c.byType == nil {
		c.byType = make(map[string][]*resource)
	}
	c.byType[r.Type] = append(c.byType[r.Type], r)
	if v, ok := r.Param("alias"); ok {
		for _, a := range titlesOf(v) {
			aref := catalog.Ref{Type: r.Type, Title: a}
			if prev, dup := c.byRef[aref]; dup && prev != r {
				return lineErrorf(prev.pos, "Cannot alias %s to %s; resource %s already declared", ref, rubyInspectStrings([]string{a}), aref)
			}
			c.byRef[aref] = r
		}
	}
	return nil
}

// checkUniqueness rejects a native resource whose uniqueness key (its
// namevar values, from the title or the parameters) another resource of the
// same type already has, as Puppet does when it aliases resources.
func (c *Compilation) checkUniqueness(r *resource) error {
	if r.Kind != catalog.KindNative || c.types == nil {
		return nil
	}
	schema, ok := c.types.Lookup(r.Type) // Lookup ignores case
	if !ok || !schema.Isomorphic() {
		return nil
	}
	var params []resourcetype.Param
	for _, p := range r.Params {
		if p.Name == "name" || schema.IsNameVar(p.Name) {
			params = append(params, resourcetype.Param{Name: p.Name, Value: dataformat.GoData(p.Value)})
		}
	}
	var key resourcetype.Key
	var k uniqIndex
	if schema.TitleIsKey(r.Title, params) {
		// The usual case; the key list is only needed for an error.
		k = titleUniqKey(r.Type, r.Title)
	} else {
		var err error
		key, err = schema.UniquenessKey(r.Title, params)
		if err != nil {
			return nil // types whose title patterns we cannot read are not checked
		}
		k = uniqKey(r.Type, key)
	}
	if prev, dup := c.uniq[k]; dup && prev != r {
		if key == nil {
			key = resourcetype.Key{r.Title}
		}
		full := append([]any{r.Type}, key...)
		return lineErrorf(prev.pos, "Cannot alias %s to %s at%s; resource %s already declared",
			r.Ref(), key.String(), declaredAt(r.pos), resourcetype.Inspect(full))
	}
	c.uniq[k] = r
	return nil
}

// uniqIndex is the map key of a uniqueness key: the type and, for the
// usual key of one string (the title), that string (no string is built
// per resource); any other key joined by uniqKeyString into joined.
type uniqIndex struct{ typ, title, joined string }

// titleUniqKey is uniqKey(typ, resourcetype.Key{title}).
func titleUniqKey(typ, title string) uniqIndex {
	return uniqIndex{typ: typ, title: title}
}

// uniqKey is a cheap map key for a uniqueness key.
func uniqKey(typ string, key resourcetype.Key) uniqIndex {
	if len(key) == 1 {
		if s, ok := key[0].(string); ok {
			return titleUniqKey(typ, s)
		}
	}
	// joined starts with typ: never empty, unlike title.
	return uniqIndex{typ: typ, joined: uniqKeyString(typ, key)}
}

// uniqKeyString joins a uniqueness key: the common all-string keys are
// joined directly; anything else goes through Ruby's inspect form.
func uniqKeyString(typ string, key resourcetype.Key) string {
	// Sized in advance for the usual all-string key: one allocation.
	n := len(typ)
	for _, part := range key {
		if s, ok := part.(string); ok {
			n += 2 + len(s)
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(typ)
	for _, part := range key {
		b.WriteByte(0)
		if s, ok := part.(string); ok {
			b.WriteByte('s')
			b.WriteString(s)
			continue
		}
		b.WriteString(resourcetype.Inspect(part))
	}
	return b.String()
}

func titlesOf(v value.Value) []string {
	ts, _ := titles(v)
	return ts
}

func rubyInspectStrings(ss []string) string {
	vs := make([]any, len(ss))
	for i, s := range ss {
		vs[i] = s
	}
	return resourcetype.Inspect(vs)
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
	return appendNameTags(nil, name)
}

// appendNameTags adds the tags of a name (see nameTags) to a tag set,
// without building them as a list first.
func appendNameTags(tags []string, name string) []string {
	name = strings.ToLower(name)
	tags = addTag(tags, name)
	if strings.Contains(name, "::") {
		for seg := range strings.SplitSeq(name, "::") {
			if seg != "" {
				tags = addTag(tags, seg)
			}
		}
	}
	return tags
}

// addTag adds a tag to an insertion-ordered set unless it is there.
func addTag(tags []string, tag string) []string {
	if slices.Contains(tags, tag) {
		return tags
	}
	return append(tags, tag)
}

// allocResource returns a resource without tags, allocating it, its catalog
// resource and room for its first tags at once (every declaration makes one,
// so the three allocations are worth saving). Resources nested in classes
// and defines typically have 9 to 14 tags.
func allocResource(typ, title string, kind catalog.Kind) *resource {
	m := &struct {
		r    resource
		cr   catalog.Resource
		tags [16]string
	}{}
	m.cr = catalog.Resource{Type: typ, Title: title, Kind: kind, Tags: m.tags[:0]}
	m.r.Resource = &m.cr
	return &m.r
}

// dropTag removes tag t from r's tags.
func (r *resource) dropTag(t string) {
	if i := slices.Index(r.Tags, t); i >= 0 {
		r.Tags = slices.Delete(r.Tags, i, i+1)
	}
}

// setContainer makes the resource of scope sc the container of r: r gets
// its tags and counts its define nesting.
func (c *Compilation) setContainer(r *resource, sc *eval.Scope) {
	if container := c.scopeResource(sc); container != nil {
		r.container = container
		r.AddTags(container.Tags...)
		r.defineDepth = container.defineDepth
		if container.define != nil {
			r.defineDepth++
		}
	}
}

// newResource builds a resource declared in scope sc. typeName is the
// canonical (lowercase) type name; the resource's type is its capitalized
// form, and its tags those of the type name, the title and the container.
func (c *Compilation) newResource(typeName, title string, sc *eval.Scope, pos syntax.Position, kind catalog.Kind) *resource {
	r := allocResource(c.capitalize(typeName), title, kind)
	r.scope, r.pos = sc, pos
	r.Tags = appendNameTags(r.Tags, typeName)
	if validTag(title) {
		r.Tags = appendNameTags(r.Tags, title)
	}
	c.setContainer(r, sc)
	if pos.Filename != "" {
		r.File = pos.Filename
		r.Line = pos.Line
	}
	return r
}

// capitalize is value.CapitalizeName, kept per compile: every `file { }`
// would otherwise build "File" anew (a few percent of a compile's
// allocations).
func (c *Compilation) capitalize(name string) string {
	if s, ok := c.capitalized[name]; ok {
		return s
	}
	s := value.CapitalizeName(name)
	if c.capitalized == nil {
		c.capitalized = make(map[string]string)
	}
	c.capitalized[name] = s
	return s
}
