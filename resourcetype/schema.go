package resourcetype

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Kind says how a type declares an attribute.
type Kind uint8

// The attribute kinds. Puppet treats all three alike when it checks a
// manifest; the kind matters to what the agent does with the value.
const (
	Parameter Kind = iota + 1
	Property
	Metaparameter
)

func (k Kind) String() string {
	switch k {
	case Parameter:
		return "parameter"
	case Property:
		return "property"
	case Metaparameter:
		return "metaparameter"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Attribute is one attribute name a type accepts.
type Attribute struct {
	Name    string
	Kind    Kind
	Namevar bool // part of the uniqueness key
}

// Schema is the compile-time view of a native resource type. It is
// immutable, so one Schema may be shared by concurrent compiles.
type Schema struct {
	name     string
	attrs    []Attribute
	index    map[string]int
	keyAttrs []string // declaration order
	// sortedKeyAttrs is keyAttrs by name, the order of a uniqueness key.
	sortedKeyAttrs []string
	patterns       []titlePattern
	// patternsUnknown, when not empty, says why the title patterns are
	// not known; ParseTitle then fails.
	patternsUnknown string
	isomorphic      bool
	problems        []string
}

type titlePattern struct {
	re    *regexp.Regexp
	attrs []string
	// whole is set for the pattern that maps the entire title to one
	// attribute, (?ms)(.*): most types have it, and matching it needs no
	// regexp (resource declarations are a compile's hot path).
	whole bool
	// path is set for file's pattern (pathTitle).
	path bool
}

// wholeTitle is the source of the identity title pattern.
const wholeTitle = `(?ms)(.*)`

// pathTitle is file's title pattern: the title without trailing slashes. A
// title that has none (and no newline) is its own path, no regexp needed.
const pathTitle = `(?ms)^(/|.+:/|.*[^/])/*(?:\n?\z)`

// NewSchema builds a schema from a definition and the metaparameters
// every type accepts.
func NewSchema(d *Definition, metaparams []string) (*Schema, error) {
	if d == nil || d.Name == "" {
		return nil, errors.New("resourcetype: definition without a name")
	}
	s := &Schema{
		name:       strings.ToLower(d.Name),
		index:      make(map[string]int),
		isomorphic: !d.NotIsomorphic,
		problems:   slices.Clone(d.Problems),
	}
	add := func(name string, kind Kind) {
		if _, dup := s.index[name]; dup {
			return
		}
		s.index[name] = len(s.attrs)
		s.attrs = append(s.attrs, Attribute{Name: name, Kind: kind})
	}
	for _, p := range d.Parameters {
		add(p, Parameter)
	}
	for _, p := range d.Properties {
		add(p, Property)
	}
	for _, p := range metaparams {
		add(p, Metaparameter)
	}
	// Puppet's key attributes are the parameters marked as namevar plus
	// a parameter called name, in parameter declaration order.
	for _, p := range d.Parameters {
		if p == "name" || slices.Contains(d.Namevars, p) {
			s.keyAttrs = append(s.keyAttrs, p)
			s.attrs[s.index[p]].Namevar = true
		}
	}
	s.sortedKeyAttrs = slices.Sorted(slices.Values(s.keyAttrs))
	switch {
	case d.TitlePatternsUnknown != "":
		s.patternsUnknown = d.TitlePatternsUnknown
	case d.TitlePatterns != nil:
		for _, tp := range d.TitlePatterns {
			re, err := regexp.Compile(tp.Regexp)
			if err != nil {
				return nil, fmt.Errorf("resourcetype: type %s: title pattern: %v", s.name, err)
			}
			s.patterns = append(s.patterns, titlePattern{re: re, attrs: slices.Clone(tp.Attributes),
				whole: tp.Regexp == wholeTitle && len(tp.Attributes) == 1,
				path:  tp.Regexp == pathTitle && len(tp.Attributes) == 1})
		}
	case len(s.keyAttrs) == 1:
		// Puppet's default: the whole title is the one namevar.
		s.patterns = []titlePattern{{re: regexp.MustCompile(wholeTitle), attrs: []string{s.keyAttrs[0]}, whole: true}}
	case len(s.keyAttrs) > 1:
		s.patternsUnknown = "you must specify title patterns when there are two or more key attributes"
	}
	return s, nil
}

// Problems lists the parts of the type's Ruby source the reader could
// not follow (a mixin that adds attributes, a parameter with a computed
// name). When it is not empty the schema may lack attributes, so a
// caller may prefer not to reject unknown attributes of this type.
func (s *Schema) Problems() []string { return slices.Clone(s.problems) }

// Name is the type's name in lower case, as Puppet registers it.
func (s *Schema) Name() string { return s.name }

// Attribute looks up an attribute by the name written in a manifest.
// Puppet accepts name on every type; where the single namevar is
// another parameter (file's path, exec's command) name stands for it
// and that attribute is returned.
func (s *Schema) Attribute(name string) (Attribute, bool) {
	if i, ok := s.index[name]; ok {
		return s.attrs[i], true
	}
	if name == "name" {
		if nv := s.Namevar(); nv != "name" {
			return s.attrs[s.index[nv]], true
		}
		return Attribute{Name: "name", Kind: Parameter}, true
	}
	return Attribute{}, false
}

// Attributes lists every attribute: parameters, properties, then
// metaparameters.
func (s *Schema) Attributes() []Attribute { return slices.Clone(s.attrs) }

// IsMetaparam reports whether name is a metaparameter.
func (s *Schema) IsMetaparam(name string) bool {
	i, ok := s.index[name]
	return ok && s.attrs[i].Kind == Metaparameter
}

// NameVars lists the key attributes in declaration order: usually just
// one, but package has name, provider and command.
func (s *Schema) NameVars() []string { return slices.Clone(s.keyAttrs) }

// IsNameVar reports whether name is one of the key attributes (what
// slices.Contains(s.NameVars(), name) says, without a copy).
func (s *Schema) IsNameVar(name string) bool {
	i, ok := s.index[name]
	return ok && s.attrs[i].Namevar
}

// Namevar is the attribute Puppet uses for name: the single key
// attribute when there is exactly one, else "name".
func (s *Schema) Namevar() string {
	if len(s.keyAttrs) == 1 {
		return s.keyAttrs[0]
	}
	return "name"
}

// Isomorphic reports whether Puppet aliases resources of this type by
// their uniqueness key. exec and tidy are not isomorphic: two execs may
// run the same command.
func (s *Schema) Isomorphic() bool { return s.isomorphic }

// UnknownAttributeError is Puppet's failure for an attribute the type
// does not have. Puppet reports the first such attribute in declaration
// order and appends " (file: F, line: L) on Type[title] (file: F, line: L)".
type UnknownAttributeError struct {
	Type, Attribute string
}

func (e *UnknownAttributeError) Error() string {
	return fmt.Sprintf("no parameter named '%s'", e.Attribute)
}

// CheckAttribute returns an *UnknownAttributeError when the type has no
// attribute called name.
func (s *Schema) CheckAttribute(name string) error {
	if _, ok := s.Attribute(name); !ok {
		return &UnknownAttributeError{Type: s.name, Attribute: name}
	}
	return nil
}

// ErrTitlePatternsUnknown is returned by title parsing for a type whose
// title_patterns method could not be read.
var ErrTitlePatternsUnknown = errors.New("title patterns of this type are not known")

// NoTitleMatchError is Puppet's failure when no title pattern matches.
type NoTitleMatchError struct{ Title string }

func (e *NoTitleMatchError) Error() string {
	// Puppet interpolates the title as is, newlines included.
	return `No set of title patterns matched the title "` + e.Title + `".`
}

// Param is one attribute value of a resource. A nil Value stands for
// undef, which Puppet treats as not set. Values use string, int64,
// float64, bool, []any and map[string]any.
type Param struct {
	Name  string
	Value any
}

// ParseTitle maps a title to namevar values with the type's title
// patterns: the first matching pattern wins. Optional groups that did
// not take part in the match are left out.
func (s *Schema) ParseTitle(title string) ([]Param, error) {
	return s.parseTitle(nil, title)
}

// TitleParsesToItself reports whether ParseTitle would map the title,
// unchanged, to a single attribute: what most types do with most titles.
// Callers use it to skip building the parsed list.
func (s *Schema) TitleParsesToItself(title string) bool {
	return s.patternsUnknown == "" && len(s.patterns) > 0 && s.patterns[0].identity(title)
}

// TitleIsKey reports whether UniquenessKey(title, params) is just
// Key{title}: the type has one key attribute, the title maps to it
// unchanged, and no parameter sets it. Callers use it to skip building the
// key, the common case.
func (s *Schema) TitleIsKey(title string, params []Param) bool {
	if len(s.keyAttrs) != 1 || !s.TitleParsesToItself(title) || s.patterns[0].attrs[0] != s.keyAttrs[0] {
		return false
	}
	for _, p := range params {
		if p.Name == s.keyAttrs[0] && p.Value != nil {
			return false
		}
	}
	return true
}

// identity reports whether the pattern maps title unchanged to its one
// attribute without the need to run the regexp.
func (p *titlePattern) identity(title string) bool {
	return p.whole || p.path && title != "" && !strings.HasSuffix(title, "/") && !strings.Contains(title, "\n")
}

// parseTitle appends the attributes parsed from title to out.
func (s *Schema) parseTitle(out []Param, title string) ([]Param, error) {
	if s.patternsUnknown != "" {
		return nil, fmt.Errorf("%w: type %s: %s", ErrTitlePatternsUnknown, s.name, s.patternsUnknown)
	}
	for _, p := range s.patterns {
		if p.identity(title) {
			return append(out, Param{Name: p.attrs[0], Value: title}), nil
		}
		m := p.re.FindStringSubmatchIndex(title)
		if m == nil {
			continue
		}
		for i, attr := range p.attrs {
			g := i + 1
			if attr == "" || 2*g+1 >= len(m) || m[2*g] < 0 {
				continue
			}
			out = setParam(out, attr, title[m[2*g]:m[2*g+1]])
		}
		return out, nil
	}
	return nil, &NoTitleMatchError{Title: title}
}

// setParam sets name in an ordered parameter list, keeping the position
// of an existing entry as a Ruby hash does.
func setParam(list []Param, name string, v any) []Param {
	for i := range list {
		if list[i].Name == name {
			list[i].Value = v
			return list
		}
	}
	return append(list, Param{Name: name, Value: v})
}

func getParam(list []Param, name string) any {
	for _, p := range list {
		if p.Name == name {
			return p.Value
		}
	}
	return nil
}

// resourceHash is Puppet's Resource#to_hash: the parsed title overlaid
// with the set parameters.
func (s *Schema) resourceHash(title string, params []Param) ([]Param, error) {
	// Room for the title's attributes, the parameters, and the namevar and
	// name UniquenessKey may add, so the list is allocated once.
	h, err := s.parseTitle(make([]Param, 0, len(params)+3), title)
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		if p.Value != nil {
			h = setParam(h, p.Name, p.Value)
		}
	}
	return h, nil
}

func truthy(v any) bool { return v != nil && v != false }

// Key is a uniqueness key: the values of the key attributes ordered by
// attribute name, nil where unset.
type Key []any

// String renders the key as Puppet's messages do (Ruby's inspect), for
// instance [nil, "vim", "apt"].
func (k Key) String() string { return Inspect([]any(k)) }

// Flatten returns the key with nested arrays spliced in. Puppet files
// aliases under the flattened [type, key...] list, so a key [["a"]]
// collides with the title "a".
func (k Key) Flatten() Key {
	var out Key
	var walk func(v any)
	walk = func(v any) {
		if arr, ok := v.([]any); ok {
			for _, e := range arr {
				walk(e)
			}
			return
		}
		out = append(out, v)
	}
	for _, v := range k {
		walk(v)
	}
	return out
}

// UniquenessKey computes Puppet's uniqueness key for a resource of this
// type from its title and parameters (in declaration order).
//
// As in Puppet, the namevar value comes from the parsed title overlaid
// by a parameter of the namevar's own name; "name => x" on a type whose
// namevar is another attribute (file, exec) does not count here, even
// though the catalog then shows it as that attribute.
func (s *Schema) UniquenessKey(title string, params []Param) (Key, error) {
	h, err := s.resourceHash(title, params)
	if err != nil {
		return nil, err
	}
	nv := s.Namevar()
	name := getParam(h, nv)
	if !truthy(name) {
		name = getParam(h, "name")
	}
	if !truthy(name) {
		name = title
	}
	if !truthy(getParam(h, nv)) {
		h = setParam(h, nv, name)
	}
	if !truthy(getParam(h, "name")) {
		h = setParam(h, "name", name)
	}
	key := make(Key, len(s.sortedKeyAttrs))
	for i, a := range s.sortedKeyAttrs {
		key[i] = getParam(h, a)
	}
	return key, nil
}

// AliasKey returns the uniqueness key under which Puppet also files the
// resource, and false when it files none: for non-isomorphic types, for
// a key without any set value, and for a key that is just the title.
func (s *Schema) AliasKey(title string, params []Param) (Key, bool, error) {
	if !s.isomorphic {
		return nil, false, nil
	}
	key, err := s.UniquenessKey(title, params)
	if err != nil {
		return nil, false, err
	}
	if !slices.ContainsFunc(key, truthy) {
		return nil, false, nil
	}
	if len(key) == 1 {
		if str, ok := key[0].(string); ok && str == title {
			return nil, false, nil
		}
	}
	return key, true, nil
}

// CatalogParameters returns the parameters Puppet writes to the catalog
// for a resource: values parsed from the title come first (so a file
// titled "/tmp/a/" gains path => "/tmp/a"), then the set parameters in
// declaration order; name becomes the namevar where that is another
// attribute; the namevar is left out when its value equals the title.
func (s *Schema) CatalogParameters(title string, params []Param) ([]Param, error) {
	h, err := s.resourceHash(title, params)
	if err != nil {
		return nil, err
	}
	nv := s.Namevar()
	var renamed []Param
	for _, p := range h {
		name := p.Name
		if name == "name" {
			name = nv
		}
		renamed = setParam(renamed, name, p.Value)
	}
	// The catalog is written from a copy whose own title parse comes
	// first again; parsing the same title yields the same keys, so only
	// the namevar check is left.
	out := renamed[:0:0]
	for _, p := range renamed {
		if str, ok := p.Value.(string); ok && p.Name == nv && str == title {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}
