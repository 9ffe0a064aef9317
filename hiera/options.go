package hiera

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// keyOptions is a merged lookup_options hash split into exact keys and
// patterns (keys starting with '^'), patterns in declaration order.
type keyOptions struct {
	exact    *value.Hash
	patterns []optionPattern
}

type optionPattern struct {
	re   *value.Regexp
	opts value.Value
}

// forKey returns the options hash for a root key: an exact entry, else the
// first matching pattern.
func (k *keyOptions) forKey(root string) *value.Hash {
	if k == nil {
		return nil
	}
	if v, ok := k.exact.GetString(root); ok {
		h, _ := v.(*value.Hash)
		return h
	}
	for _, p := range k.patterns {
		if p.re.MatchString(root) {
			h, _ := p.opts.(*value.Hash)
			return h
		}
	}
	return nil
}

// compileOptions validates a lookup_options value; in a module layer every
// key must be in the module's namespace.
func compileOptions(v value.Value, module string) (*keyOptions, error) {
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("value of lookup_options must be a hash")
	}
	ko := &keyOptions{}
	exact := value.NewHashBuilder(h.Len())
	for i := 0; i < h.Len(); i++ {
		k, o := h.At(i)
		ks := value.ToString(k)
		if module != "" {
			if strings.HasPrefix(ks, "^") {
				if !strings.HasPrefix(ks[1:], module+"::") {
					return nil, fmt.Errorf("all lookup_options patterns must match a key starting with module name '%s'", module)
				}
			} else if !strings.HasPrefix(ks, module+"::") {
				return nil, fmt.Errorf("all lookup_options keys must start with module name '%s'", module)
			}
		}
		if strings.HasPrefix(ks, "^") {
			re, err := value.NewRegexp(ks)
			if err != nil {
				return nil, fmt.Errorf("lookup_options pattern %s: %v", ks, err)
			}
			ko.patterns = append(ko.patterns, optionPattern{re, o})
			continue
		}
		exact.Set(value.String(ks), o)
	}
	ko.exact = exact.Build()
	return ko, nil
}

// keyOptionsFor returns the lookup_options that apply to a root key, loading
// (once per session) the global+environment options and the module's.
func (s *Session) keyOptionsFor(module, root string, c *call) (*value.Hash, error) {
	ko, ok := s.options[module]
	if !ok {
		var err error
		ko, err = s.loadOptions(module, c)
		if err != nil {
			return nil, err
		}
		s.options[module] = ko
	}
	return ko.forKey(root), nil
}

// globalEnvOptions keys the merged global+environment lookup_options in
// Session.results.
const globalEnvOptions = "\x00global+env"

func (s *Session) loadOptions(module string, c *call) (*keyOptions, error) {
	c.ex.push("meta", "Searching for \"lookup_options\"")
	defer c.ex.pop()
	envOpts, err := s.globalEnvOptions(c)
	if err != nil {
		return nil, err
	}
	merged := envOpts
	if module != "" {
		mv, found, err := s.providerLookup(module, "lookup_options", "lookup_options", mergeHash, c, false)
		if err != nil {
			return nil, err
		}
		if found {
			if _, err := compileOptions(mv, module); err != nil {
				return nil, err
			}
			if merged == nil {
				merged = mv
			} else if merged, err = mergeHash.merge(merged, mv); err != nil {
				return nil, err
			}
		}
	}
	if merged == nil {
		return nil, nil
	}
	return compileOptions(merged, "")
}

// globalEnvOptions is the global layer's lookup_options merged with the
// environment's (global wins), computed once per session.
func (s *Session) globalEnvOptions(c *call) (value.Value, error) {
	if r, ok := s.results[resultKey{key: globalEnvOptions}]; ok {
		return r.v, nil
	}
	var merged value.Value
	for _, name := range []string{"", envProviderName} {
		v, found, err := s.providerLookup(name, "lookup_options", "lookup_options", mergeHash, c, false)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if _, ok := v.(*value.Hash); !ok {
			return nil, fmt.Errorf("value of lookup_options must be a hash")
		}
		if merged == nil {
			merged = v
		} else if merged, err = mergeHash.merge(merged, v); err != nil {
			return nil, err
		}
	}
	s.results[resultKey{key: globalEnvOptions}] = &cachedResult{v: merged}
	return merged, nil
}
