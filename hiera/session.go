package hiera

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Scope gives interpolation access to the compile's variables. Names are
// passed as written in the data: "facts", "trusted", "::environment",
// "osfamily"; the compiler decides how "::x" and "x" resolve.
type Scope interface {
	Variable(name string) (value.Value, bool)
}

// FactScope is a Scope that gives one fact, $facts[name], without the
// whole $facts counting as read (readset): %{facts.os.family} reads the
// fact os only.
type FactScope interface {
	Fact(name string) (value.Value, bool)
}

// factsPrefix marks a varRead of one fact: "facts\x00os".
const factsPrefix = "facts\x00"

// scopeVariable reads name from sc: a factsPrefix name through FactScope
// when sc is one (else from the whole $facts).
func scopeVariable(sc Scope, name string) (value.Value, bool) {
	fact, isFact := strings.CutPrefix(name, factsPrefix)
	if !isFact {
		return sc.Variable(name)
	}
	if fs, ok := sc.(FactScope); ok {
		return fs.Fact(fact)
	}
	facts, ok := sc.Variable("facts")
	h, isHash := facts.(*value.Hash)
	if !ok || !isHash {
		return nil, false
	}
	return h.Get(value.String(fact))
}

// Options configure a Session.
type Options struct {
	// Cache holds parsed files; nil gives the session a private cache.
	Cache *Cache
	// GlobalConfig is the global hiera.yaml (Puppet's hiera_config). When the
	// file does not exist Puppet's default is used: <its dir>/data/common.yaml.
	// Empty means no global layer.
	GlobalConfig string
	// EnvironmentDir is the environment's directory; its hiera.yaml (if any)
	// configures the environment layer. Empty means no environment layer.
	EnvironmentDir string
	// Codedir is Puppet's codedir; a version 3 global hiera.yaml without
	// :datadir: reads <codedir>/environments/<environment>/hieradata.
	Codedir string
	// ModuleDir returns a module's directory, ok=false if there is no such module.
	ModuleDir func(module string) (dir string, ok bool)
	// Warn receives warnings (each once per session), of Warning severity;
	// may be nil.
	Warn func(*diag.Diagnostic)
	// ConvertTo implements lookup_options convert_to (Puppet calls new()).
	// typeSpec is the type as written in lookup_options; nil handles only
	// "Sensitive".
	ConvertTo func(typeSpec string, v value.Value, args []value.Value) (value.Value, error)
	// MaxYAMLNodes bounds what one YAML data file may expand to; zero
	// means dataformat.MaxYAMLNodes.
	MaxYAMLNodes int
	// Backend runs custom data_hash, lookup_key and data_dig functions
	// (backend.go); nil refuses them.
	Backend BackendCall
	// EnvironmentName is what Puppet::LookupContext#environment_name says.
	EnvironmentName string
	// Reads, when set, is told every file the session's answers depend
	// on: hiera.yaml files, data files read or looked for and missing,
	// the key files of eyaml levels (see readset).
	Reads *readset.Recorder
}

// Session is the Hiera state of one compile.
type Session struct {
	opts      Options
	scope     Scope
	providers map[string]*provider // "" global, envProviderName, module names
	options   map[string]*keyOptions
	results   map[resultKey]*cachedResult
	stack     []string
	warned    map[string]bool
	// backendCaches are the custom backend functions' contexts (backend.go).
	backendCaches map[backendCacheKey]*backendCache
}

// NewSession starts the Hiera state for one compile.
func NewSession(opts Options, scope Scope) *Session {
	if opts.Cache == nil {
		opts.Cache = NewCache()
	}
	return &Session{
		opts:      opts,
		scope:     scope,
		providers: map[string]*provider{},
		options:   map[string]*keyOptions{},
		results:   map[resultKey]*cachedResult{},
		warned:    map[string]bool{},
	}
}

// warn reports a warning about file (or none, "") once per session.
func (s *Session) warn(file, msg string) {
	d := diag.Warningf(diag.Range{Start: syntax.Position{Filename: file}}, "%s", msg)
	key := d.Error()
	if s.warned[key] {
		return
	}
	s.warned[key] = true
	if s.opts.Warn != nil {
		s.opts.Warn(d)
	}
}

// varRead is one scope variable an answer depended on.
type varRead struct {
	name string
	v    value.Value
	ok   bool
}

// call carries the state of one top-level lookup through nested lookups.
type call struct {
	ex *explainer
	// reads collects the scope variables read, so cached answers can be
	// checked against a scope that has changed (e.g. a class's local variables).
	reads  []varRead
	locals map[string]value.Value
	// scope, when set, is the calling code's scope, which lookup()
	// interpolates data with; nil means the session's.
	scope Scope
	// segments is the dotted key being looked up, split: a data_dig
	// backend function gets all of it (backend.go).
	segments []any
	// unread is set on a call whose reads nobody keeps (a top-level
	// lookup's, and below it until a cached answer): collecting them would
	// only allocate (a class parameter's lookup appended every layer's
	// hierarchy reads).
	unread bool
}

// addReads records reads made below c, unless nobody keeps c's.
func (c *call) addReads(reads []varRead) {
	if !c.unread {
		c.reads = append(c.reads, reads...)
	}
}

// scopeIn is the scope the call interpolates with.
func (c *call) scopeIn(s *Session) Scope {
	if c.scope != nil {
		return c.scope
	}
	return s.scope
}

func (c *call) variable(s *Session, name string) (value.Value, bool) {
	if v, ok := c.locals[name]; ok {
		return v, true
	}
	var v value.Value
	ok := false
	if sc := c.scopeIn(s); sc != nil {
		v, ok = scopeVariable(sc, name)
	}
	if !c.unread {
		c.reads = append(c.reads, varRead{name, v, ok})
	}
	return v, ok
}

// readsStable reports whether the session's scope still gives the
// recorded values.
func (s *Session) readsStable(reads []varRead) bool { return readsStableIn(s.scope, reads) }

// readsStableIn reports whether sc still gives the recorded values.
func readsStableIn(sc Scope, reads []varRead) bool {
	for _, r := range reads {
		var v value.Value
		ok := false
		if sc != nil {
			v, ok = scopeVariable(sc, r.name)
		}
		if ok != r.ok || (ok && !sameValue(v, r.v)) {
			return false
		}
	}
	return true
}

// sameValue is value.Identical with a shortcut for the common case of the
// very same hash (the facts hash is read by almost every lookup).
func sameValue(a, b value.Value) bool {
	if ha, ok := a.(*value.Hash); ok {
		if hb, ok := b.(*value.Hash); ok && ha == hb {
			return true
		}
	}
	return value.Identical(a, b)
}

func (s *Session) push(name string) error {
	if slices.Contains(s.stack, name) {
		return &RecursionError{Stack: slices.Clone(s.stack)}
	}
	s.stack = append(s.stack, name)
	return nil
}

func (s *Session) pop() { s.stack = s.stack[:len(s.stack)-1] }

// Request is one call of the lookup() function.
type Request struct {
	// Keys are the names to try in order (lookup accepts an array of names).
	Keys []string
	// Type, when not nil, is asserted on the answer.
	Type value.Type
	// Merge is the merge argument; nil or undef means "from lookup_options".
	Merge value.Value
	// Default is returned when nothing is found and HasDefault is set.
	Default    value.Value
	HasDefault bool
	// DefaultFunc is the default block; it wins over Default.
	DefaultFunc func(key string) (value.Value, error)
	// Scope, when set, is the scope of the calling code: data is
	// interpolated with its variables, as Puppet's lookup() does (a
	// class's $module_name and local variables). Nil means the
	// session's scope.
	Scope Scope
}

// Lookup performs a lookup() call.
func (s *Session) Lookup(req Request) (value.Value, error) {
	v, _, err := s.lookup(req, nil)
	return v, err
}

// Explain performs a lookup() call and returns the trace of what was searched.
// The error is the lookup's error; the explanation is valid either way.
func (s *Session) Explain(req Request) (value.Value, *ExplainNode, error) {
	ex := &explainer{}
	v, _, err := s.lookup(req, ex)
	return v, ex.root(), err
}

func (s *Session) lookup(req Request, ex *explainer) (value.Value, bool, error) {
	merge, err := ParseMerge(req.Merge)
	if err != nil {
		return nil, false, err
	}
	for _, key := range req.Keys {
		c := &call{ex: ex, scope: req.Scope, unread: true}
		v, found, err := s.searchAndMerge(key, merge, c)
		if err != nil {
			return nil, false, err
		}
		if found {
			return checkType("Found value", req.Type, v)
		}
	}
	switch {
	case req.DefaultFunc != nil:
		name := ""
		if len(req.Keys) == 1 {
			name = req.Keys[0]
		}
		v, err := req.DefaultFunc(name)
		if err != nil {
			return nil, false, err
		}
		return checkType("Value returned from default block", req.Type, v)
	case req.HasDefault:
		return checkType("Default value", req.Type, req.Default)
	}
	return nil, false, NotFoundError(req.Keys)
}

// NotFoundError is lookup()'s error when no key gave a value.
func NotFoundError(keys []string) error { return &NotFound{Keys: keys} }

// NotFound is lookup()'s error for keys no layer has a value for. Puppet
// raises it as a Puppet::DataBinding::LookupError, which it reports as it is
// rather than as an error of the call that met it.
type NotFound struct{ Keys []string }

func (e *NotFound) Error() string {
	if len(e.Keys) == 1 {
		return fmt.Sprintf("Function lookup() did not find a value for the name '%s'", e.Keys[0])
	}
	quoted := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		quoted[i] = "'" + k + "'"
	}
	return fmt.Sprintf("Function lookup() did not find a value for any of the names [%s]", strings.Join(quoted, ", "))
}

func checkType(subject string, t value.Type, v value.Value) (value.Value, bool, error) {
	if t == nil {
		return v, true, nil
	}
	if ok, err := value.CheckInstance(t, v); err != nil {
		return nil, false, fmt.Errorf("%s: %w", subject, err)
	} else if !ok {
		return nil, false, fmt.Errorf("%s has wrong type, expects %s, got %s", subject, describeExpected(t), typeName(v))
	}
	return v, true, nil
}

// describeExpected phrases a type the way Puppet's mismatch messages do for
// the common cases ("a String value", "an Integer value").
func describeExpected(t value.Type) string {
	name := value.TypeString(t)
	if o, ok := t.(*value.OptionalType); ok && o.Type != nil {
		return "a value of type Undef or " + value.TypeString(o.Type)
	}
	article := "a"
	if strings.ContainsRune("AEIOU", rune(name[0])) {
		article = "an"
	}
	return fmt.Sprintf("%s %s value", article, name)
}

// LookupParam is automatic parameter lookup for class parameter class::param,
// honouring lookup_options. found is false when no layer has the key.
func (s *Session) LookupParam(class, param string) (v value.Value, found bool, err error) {
	class = strings.TrimPrefix(class, "::")
	key := class + "::" + param
	// Puppet looks a class's parameters up in the class's scope, where
	// $module_name is the module the class belongs to: module data
	// interpolates %{module_name}.
	c := &call{unread: true}
	if mod, _, _ := strings.Cut(class, "::"); s.opts.ModuleDir != nil {
		if _, ok := s.opts.ModuleDir(mod); ok {
			c.locals = map[string]value.Value{"module_name": value.String(mod)}
		}
	}
	return s.searchAndMerge(key, nil, c)
}

// HieraFunction is one of the classic hiera functions.
type HieraFunction int

const (
	// Hiera is hiera(): the first value found (lookup_options merge ignored).
	Hiera HieraFunction = iota
	// HieraArray is hiera_array(): merge unique.
	HieraArray
	// HieraHash is hiera_hash(): merge hash.
	HieraHash
)

// Hiera performs hiera(), hiera_array() or hiera_hash(). defaultFunc (a
// block) wins over def/hasDefault.
func (s *Session) Hiera(fn HieraFunction, key string, def value.Value, hasDefault bool, defaultFunc func(string) (value.Value, error)) (value.Value, error) {
	merge := mergeFirst
	switch fn {
	case HieraArray:
		merge = mergeUnique
	case HieraHash:
		merge = mergeHash
	}
	c := &call{unread: true}
	v, found, err := s.searchAndMerge(key, s.v3Merge(merge), c)
	if err != nil {
		return nil, err
	}
	if found {
		return v, nil
	}
	if defaultFunc != nil {
		return defaultFunc(key)
	}
	if hasDefault {
		return def, nil
	}
	return nil, NotFoundError([]string{key})
}

// v3Merge applies a global version 3 :merge_behavior: to hiera_hash().
func (s *Session) v3Merge(m *Merge) *Merge {
	if m.Kind != MergeHash {
		return m
	}
	p, err := s.provider("")
	if err != nil || p.cfg == nil || p.cfg.Version != 3 {
		return m
	}
	var nm *Merge
	switch p.cfg.V3Merge {
	case "deep":
		nm = &Merge{Kind: mergeReverseDeep}
	case "deeper":
		nm = &Merge{Kind: MergeDeep}
	default:
		return m
	}
	if h := p.cfg.V3DeepMergeOptions; h != nil {
		b := value.NewHashBuilder(h.Len() + 1)
		b.Set(value.String("strategy"), value.String("deep"))
		for i := 0; i < h.Len(); i++ {
			k, v := h.At(i)
			b.Set(k, v)
		}
		if parsed, err := ParseMerge(b.Build()); err == nil {
			parsed.Kind = nm.Kind
			nm = parsed
		}
	}
	return nm
}

type resultKey struct {
	key   string
	merge string
}

type cachedResult struct {
	v     value.Value
	found bool
	reads []varRead
}

func mergeCacheKey(m *Merge) string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf("%d|%s|%t|%t", m.Kind, m.KnockoutPrefix, m.SortMergedArrays, m.MergeHashArrays)
}

// searchAndMerge looks one key up through all layers (Puppet's
// LookupAdapter#lookup). merge nil means "from lookup_options".
func (s *Session) searchAndMerge(key string, merge *Merge, c *call) (value.Value, bool, error) {
	if key == "lookup_options" || strings.HasPrefix(key, "lookup_options.") {
		c.ex.add("invalid_key", "Invalid key \"lookup_options\"", nil)
		return nil, false, nil
	}
	rk := resultKey{key, mergeCacheKey(merge)}
	cached := c.ex == nil && len(c.locals) == 0
	if cached {
		if r, ok := s.results[rk]; ok && readsStableIn(c.scopeIn(s), r.reads) {
			c.addReads(r.reads)
			return r.v, r.found, nil
		}
	}
	inner := &call{ex: c.ex, locals: c.locals, scope: c.scope, unread: c.unread && !cached}
	v, found, err := s.searchAndMergeUncached(key, merge, inner)
	c.addReads(inner.reads)
	if err != nil {
		return nil, false, err
	}
	if cached {
		s.results[rk] = &cachedResult{v, found, inner.reads}
	}
	return v, found, nil
}

func (s *Session) searchAndMergeUncached(key string, merge *Merge, c *call) (value.Value, bool, error) {
	segments, err := splitKey(key)
	if err != nil {
		return nil, false, fmt.Errorf("%s in key: '%s'", err.Error(), key)
	}
	root := segments[0].(string)
	c.segments = segments
	module := ""
	if i := strings.Index(root, "::"); i >= 0 {
		module = root[:i]
	}
	// lookup_options are searched first and explained as a search of their
	// own, as Puppet does.
	opts, err := s.keyOptionsFor(module, root, c)
	if err != nil {
		return nil, false, err
	}
	if c.ex != nil {
		c.ex.push("root", fmt.Sprintf("Searching for %q", key))
	}
	defer c.ex.pop()
	if merge == nil && opts != nil {
		if mv, ok := opts.GetString("merge"); ok {
			if merge, err = ParseMerge(mv); err != nil {
				return nil, false, err
			}
			c.ex.add("text", "Using merge options from \"lookup_options\" hash", nil)
		}
	}
	if merge == nil {
		merge = mergeFirst
	}
	v, found, err := s.doLookup(root, key, module, merge, c)
	if err != nil {
		return nil, false, err
	}
	if !found && module != "" {
		if v, found, err = s.lookupModuleDefault(root, key, module, c); err != nil {
			return nil, false, err
		}
	}
	if !found {
		return nil, false, nil
	}
	if len(segments) > 1 {
		if c.ex != nil {
			c.ex.push("sub_lookup", fmt.Sprintf("Sub key: %q", strings.TrimPrefix(key, root+".")))
		}
		v, found, err = dig(key, segments[1:], v)
		if found {
			if c.ex != nil {
				c.ex.add("found", "Found key: "+explainValue(v), v)
			}
		}
		c.ex.pop()
		if err != nil || !found {
			return nil, false, err
		}
	}
	if opts != nil {
		if ct, ok := opts.GetString("convert_to"); ok {
			if v, err = s.convertTo(key, ct, v); err != nil {
				return nil, false, err
			}
			if c.ex != nil {
				c.ex.add("text", "Applying convert_to lookup_option with arguments "+value.ToString(ct), nil)
			}
		}
	}
	return v, true, nil
}

func (s *Session) convertTo(key string, spec, v value.Value) (value.Value, error) {
	var typeSpec string
	var args []value.Value
	switch sp := spec.(type) {
	case value.String:
		typeSpec = string(sp)
	case value.Array:
		if len(sp) > 0 {
			if ts, ok := sp[0].(value.String); ok {
				typeSpec = string(ts)
				args = sp[1:]
			}
		}
	}
	if typeSpec == "" {
		return nil, fmt.Errorf("Invalid data type in lookup_options for key '%s' could not parse '%s'", key, value.ToString(spec))
	}
	if s.opts.ConvertTo != nil {
		r, err := s.opts.ConvertTo(typeSpec, v, args)
		if err != nil {
			return nil, fmt.Errorf("The convert_to lookup_option for key '%s' raised error: %v", key, err)
		}
		return r, nil
	}
	if typeSpec == "Sensitive" && len(args) == 0 {
		return &value.Sensitive{Value: v}, nil
	}
	return nil, fmt.Errorf("The convert_to lookup_option for key '%s' raised error: conversion to %s is not available", key, typeSpec)
}

// mergeLookup runs a merge strategy over n sources (Puppet's
// MergeStrategy#lookup): first-found stops at the first; the others merge
// every value found, or adjust a single source's value.
func (s *Session) mergeLookup(m *Merge, n int, c *call, fn func(i int) (value.Value, bool, error)) (value.Value, bool, error) {
	if m.Kind == MergeFirst {
		for i := range n {
			v, found, err := fn(i)
			if err != nil || found {
				return v, found, err
			}
		}
		return nil, false, nil
	}
	switch n {
	case 0:
		return nil, false, nil
	case 1:
		v, found, err := fn(0)
		if err != nil || !found {
			return nil, found, err
		}
		return m.single(v), true, nil
	}
	if c.ex != nil {
		c.ex.push("merge", "Merge strategy "+m.String())
	}
	defer c.ex.pop()
	var acc value.Value
	any := false
	for i := range n {
		v, found, err := fn(i)
		if err != nil {
			return nil, false, err
		}
		if !found {
			continue
		}
		if !any {
			acc, any = m.convertFirst(v), true
			continue
		}
		if acc, err = m.merge(acc, v); err != nil {
			return nil, false, err
		}
	}
	if any {
		if c.ex != nil {
			c.ex.add("result", "Merged result: "+explainValue(acc), acc)
		}
	}
	return acc, any, nil
}

// doLookup searches global, environment and module layers.
func (s *Session) doLookup(root, key, module string, m *Merge, c *call) (value.Value, bool, error) {
	names := []string{"", envProviderName}
	if module != "" {
		names = append(names, module)
	}
	return s.mergeLookup(m, 3, c, func(i int) (value.Value, bool, error) {
		if i >= len(names) {
			return nil, false, nil
		}
		return s.providerLookup(names[i], root, key, m, c, false)
	})
}
