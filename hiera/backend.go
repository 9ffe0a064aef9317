package hiera

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/eyaml"
	"github.com/marionette-dev/marionette/value"
)

// BackendCall runs a custom backend function (a module's Puppet-language
// or Ruby function) with its arguments, the last a *LookupContext.
type BackendCall func(function string, args []value.Value) (value.Value, error)

// Function kinds of a hierarchy level, as hiera.yaml names them.
const (
	dataHashKind  = "data_hash"
	lookupKeyKind = "lookup_key"
	dataDigKind   = "data_dig"
)

// builtinFunction reports whether a level's function is one hiera runs
// itself rather than through Options.Backend.
func builtinFunction(fn string) bool {
	switch fn {
	case "yaml_data", "json_data", "hocon_data", eyamlLookupKey:
		return true
	}
	return false
}

// ErrUnknownBackend is what a BackendCall returns when no module provides
// the function.
var ErrUnknownBackend = errors.New("no such backend function")

// errContextNotFound is what context.not_found raises: the function has no
// value for the key.
var errContextNotFound = errors.New("no such key")

// LookupContext is Puppet::LookupContext, the last argument of a custom
// backend function: a cache kept for the function and location during the
// compile, interpolation and explanation in the lookup's terms.
type LookupContext struct {
	value.Extension
	s           *Session
	c           *call
	cache       *backendCache
	module      string
	environment string
	// notFound is set by not_found: its error may reach us rewrapped
	// (through Ruby's exceptions), so the call is remembered.
	notFound bool
}

// backendCache is one function context's cache (per level location and
// function); Puppet keeps it for the compile.
type backendCache struct {
	entries *value.Hash
	// data is the data_hash result, or lookup_key answers by key.
	dataHash  *value.Hash
	keyValues map[string]backendAnswer
}

type backendAnswer struct {
	v     value.Value
	found bool
}

// ContextMethod runs a method of Puppet::LookupContext: `$context.cache(k, v)`
// in the Puppet language, `context.cache(k, v)` in Ruby. explain takes the
// message its block gave.
func (lc *LookupContext) ContextMethod(method string, args []value.Value) (value.Value, error) {
	arity := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("'%s' expects %d arguments, got %d", method, n, len(args))
		}
		return nil
	}
	switch method {
	case "not_found":
		lc.notFound = true
		return nil, errContextNotFound
	case "cache":
		if err := arity(2); err != nil {
			return nil, err
		}
		lc.cache.entries = hashWith(lc.cache.entries, args[0], args[1])
		return args[1], nil
	case "cache_all":
		if err := arity(1); err != nil {
			return nil, err
		}
		h, ok := args[0].(*value.Hash)
		if !ok {
			return nil, fmt.Errorf("'cache_all' expects a Hash value, got %s", typeName(args[0]))
		}
		for i := 0; i < h.Len(); i++ {
			k, v := h.At(i)
			lc.cache.entries = hashWith(lc.cache.entries, k, v)
		}
		return value.Undef, nil
	case "cached_value":
		if err := arity(1); err != nil {
			return nil, err
		}
		if v, ok := lc.cache.entries.Get(args[0]); ok {
			return v, nil
		}
		return value.Undef, nil
	case "cache_has_key":
		if err := arity(1); err != nil {
			return nil, err
		}
		_, ok := lc.cache.entries.Get(args[0])
		return value.Boolean(ok), nil
	case "cached_entries":
		return lc.cache.entries, nil
	case "interpolate":
		if err := arity(1); err != nil {
			return nil, err
		}
		return lc.s.interpolate(args[0], true, lc.c)
	case "explain":
		if len(args) == 1 && lc.c.ex != nil {
			lc.c.ex.add("text", value.ToString(args[0]), nil)
		}
		return value.Undef, nil
	case "file_data":
		// The content cached_file_data gives its block (the block runs in
		// the caller's language).
		if err := arity(1); err != nil {
			return nil, err
		}
		path := value.ToString(args[0])
		data, err := eyaml.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return value.String(data), nil
	case "environment_name":
		return value.String(lc.environment), nil
	case "module_name":
		if lc.module == "" {
			return value.Undef, nil
		}
		return value.String(lc.module), nil
	}
	return nil, fmt.Errorf("Puppet::LookupContext has no method '%s'", method)
}

// IsLookupContext reports whether v is a Puppet::LookupContext.
func IsLookupContext(v value.Value) bool {
	_, ok := v.(*LookupContext)
	return ok
}

// backendCacheKey identifies a function context: the layer, the level and
// the location (Puppet keeps one per location).
type backendCacheKey struct {
	provider string
	level    *Level
	location string
}

func (s *Session) functionContext(p *provider, lv *Level, location string, c *call) *LookupContext {
	if s.backendCaches == nil {
		s.backendCaches = map[backendCacheKey]*backendCache{}
	}
	key := backendCacheKey{p.module + "\x00" + p.layer.String(), lv, location}
	bc, ok := s.backendCaches[key]
	if !ok {
		bc = &backendCache{entries: value.EmptyHash, keyValues: map[string]backendAnswer{}}
		s.backendCaches[key] = bc
	}
	return &LookupContext{s: s, c: c, cache: bc, module: p.module, environment: s.opts.EnvironmentName}
}

// backendLookup is locationLookup for a custom backend function.
func (s *Session) backendLookup(p *provider, lv *Level, loc resolvedLocation, root string, c *call) (value.Value, bool, error) {
	if s.opts.Backend == nil {
		return nil, false, fmt.Errorf("%s function '%s' is not supported here", lv.FunctionKind, lv.Function)
	}
	opts, err := s.levelOptions(lv, c)
	if err != nil {
		return nil, false, err
	}
	switch {
	case lv.Kind == URIs:
		opts = hashWith(opts, value.String("uri"), value.String(loc.path))
	case loc.path != "":
		opts = hashWith(opts, value.String("path"), value.String(loc.path))
	}
	lc := s.functionContext(p, lv, loc.path, c)
	notFound := func() (value.Value, bool, error) {
		if c.ex != nil {
			c.ex.add("not_found", fmt.Sprintf("No such key: %q", root), nil)
		}
		return nil, false, nil
	}
	call := func(args []value.Value) (value.Value, error) {
		v, err := s.opts.Backend(lv.Function, args)
		if errors.Is(err, ErrUnknownBackend) {
			// Puppet finds this when it reads the configuration, and
			// reports it as it is, naming the configuration.
			return nil, &IssueError{Msg: (&ConfigError{File: p.cfg.Path, Msg: fmt.Sprintf("Unable to find '%s' function named '%s'", lv.FunctionKind, lv.Function)}).Error()}
		}
		return v, err
	}
	var v value.Value
	switch lv.FunctionKind {
	case dataHashKind:
		if lc.cache.dataHash == nil {
			r, err := call([]value.Value{opts, lc})
			if err != nil {
				return nil, false, err
			}
			h, ok := r.(*value.Hash)
			if !ok {
				return nil, false, fmt.Errorf("Value returned from data_hash function '%s', when using location '%s', has wrong type, expects a Hash value, got %s", lv.Function, loc.path, typeName(r))
			}
			lc.cache.dataHash = h
			if p.layer == ModuleLayer {
				s.checkModuleKeys(p.module, lv.Function, loc.path, h)
			}
		}
		var ok bool
		if v, ok = lc.cache.dataHash.GetString(root); !ok {
			return notFound()
		}
		if v, err = s.interpolate(v, true, c); err != nil {
			return nil, false, err
		}
	default:
		// lookup_key and data_dig answer one key a call, remembered for
		// the compile; they interpolate themselves (context.interpolate).
		answerKey := root
		var dig value.Array
		if lv.FunctionKind == dataDigKind {
			dig = digSegments(root, c.segments)
			answerKey = value.ToString(dig)
		}
		a, ok := lc.cache.keyValues[answerKey]
		if !ok {
			args := []value.Value{value.String(root), opts, lc}
			if dig != nil {
				args[0] = dig
			}
			r, err := call(args)
			switch {
			case err != nil && (lc.notFound || errors.Is(err, errContextNotFound)):
				a = backendAnswer{}
			case err != nil:
				return nil, false, err
			default:
				a = backendAnswer{r, true}
			}
			lc.cache.keyValues[answerKey] = a
		}
		if !a.found {
			return notFound()
		}
		v = undig(a.v, dig)
	}
	if p.layer == ModuleLayer && root != "lookup_options" && !moduleRootKey(p.module, root) {
		return notFound()
	}
	if c.ex != nil {
		c.ex.add("found", fmt.Sprintf("Found key: %q value: %s", root, explainValue(v)), v)
	}
	return v, true, nil
}

func moduleRootKey(module, root string) bool {
	return len(root) > len(module)+2 && root[:len(module)+2] == module+"::"
}

// hashWith is h with k set to v (values are immutable: a new hash).
func hashWith(h *value.Hash, k, v value.Value) *value.Hash {
	b := value.NewHashBuilder(h.Len() + 1)
	for i := 0; i < h.Len(); i++ {
		hk, hv := h.At(i)
		b.Set(hk, hv)
	}
	b.Set(k, v)
	return b.Build()
}

// backendLocationLookup explains a custom function's uri location, or its
// call without a location, as Puppet does, then looks the key up.
func (s *Session) backendLocationLookup(p *provider, lv *Level, loc resolvedLocation, root string, c *call) (value.Value, bool, error) {
	if lv.Kind == URIs {
		if c.ex != nil {
			c.ex.push("uri", fmt.Sprintf("URI %q", loc.path))
			c.ex.add("text", fmt.Sprintf("Original uri: %q", loc.original), nil)
		}
		defer c.ex.pop()
	}
	return s.backendLookup(p, lv, loc, root, c)
}

// IsContextNotFound reports whether err is context.not_found's signal,
// which callers must pass on unchanged.
func IsContextNotFound(err error) bool { return errors.Is(err, errContextNotFound) }

// digSegments is the key a data_dig function gets: the root and the
// segments of the dotted key (integers for indexes), as Puppet's key.to_a.
func digSegments(root string, segments []any) value.Array {
	if len(segments) == 0 || segments[0] != root {
		return value.Array{value.String(root)}
	}
	out := make(value.Array, len(segments))
	for i, seg := range segments {
		if n, ok := seg.(int64); ok {
			out[i] = value.Integer(n)
		} else {
			out[i] = value.String(fmt.Sprint(seg))
		}
	}
	return out
}

// undig wraps a data_dig answer for the whole key into hashes by the
// key's segments, so that digging into it later gives the answer back.
func undig(v value.Value, dig value.Array) value.Value {
	for i := len(dig) - 1; i >= 1; i-- {
		v = value.NewHash(dig[i], v)
	}
	return v
}
