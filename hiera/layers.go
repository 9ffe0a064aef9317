package hiera

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/value"
)

// envProviderName keys the environment layer among Session.providers (module
// names cannot contain a NUL).
const envProviderName = "\x00environment"

// provider is one layer's configuration with its resolved hierarchy.
type provider struct {
	layer  Layer
	module string
	cfg    *Config
	// missing is set for a module that does not exist.
	missing bool
	// resolved hierarchy and the scope values it was computed from.
	levels      []resolvedLevel
	levelsReads []varRead
	resolved    bool
}

type resolvedLevel struct {
	level     *Level
	locations []resolvedLocation
}

type resolvedLocation struct {
	original string
	path     string
	exists   bool
	// dir marks a location that exists as a directory: a custom backend
	// gets it as its path, and reading it as data fails.
	dir bool
	// stamp identifies the file version seen when the hierarchy was resolved.
	stamp filecache.Stamp
}

func (s *Session) provider(name string) (*provider, error) {
	if p, ok := s.providers[name]; ok {
		return p, nil
	}
	p := &provider{}
	var err error
	switch name {
	case "":
		p.layer = GlobalLayer
		if s.opts.GlobalConfig != "" {
			s.opts.Reads.File(s.opts.GlobalConfig)
			p.cfg, err = s.opts.Cache.Config(s.opts.GlobalConfig, GlobalLayer)
			if err == nil && p.cfg == nil {
				p.cfg = DefaultConfig(filepath.Dir(s.opts.GlobalConfig))
			}
		}
	case envProviderName:
		p.layer = EnvironmentLayer
		if s.opts.EnvironmentDir != "" {
			s.opts.Reads.File(filepath.Join(s.opts.EnvironmentDir, "hiera.yaml"))
			p.cfg, err = s.opts.Cache.Config(filepath.Join(s.opts.EnvironmentDir, "hiera.yaml"), EnvironmentLayer)
			if p.cfg != nil && p.cfg.Ignored {
				s.warn(p.cfg.Path, "hiera.yaml version 3 found at the environment root was ignored")
				p.cfg = nil
			}
		}
	default:
		p.layer, p.module = ModuleLayer, name
		dir, ok := "", false
		if s.opts.ModuleDir != nil {
			dir, ok = s.opts.ModuleDir(name)
		}
		if !ok {
			p.missing = true
			break
		}
		p.cfg, err = s.opts.Cache.Config(filepath.Join(dir, "hiera.yaml"), ModuleLayer)
		if p.cfg != nil && p.cfg.Ignored {
			s.warn(p.cfg.Path, "hiera.yaml version 3 found at module root was ignored")
			p.cfg = nil
		}
	}
	if err != nil {
		return nil, err
	}
	s.providers[name] = p
	return p, nil
}

func (p *provider) title() string {
	var b strings.Builder
	b.WriteString(p.layer.String())
	if p.module != "" {
		fmt.Fprintf(&b, " %q", p.module)
	}
	b.WriteString(" Data Provider")
	if p.cfg != nil {
		fmt.Fprintf(&b, " (hiera configuration version %d)", p.cfg.Version)
	}
	return b.String()
}

// providerLookup looks the root key up in one layer.
func (s *Session) providerLookup(name, root, key string, m *Merge, c *call, defaultHierarchy bool) (v value.Value, found bool, err error) {
	p, err := s.provider(name)
	if err != nil {
		return nil, false, err
	}
	if p.cfg == nil {
		if p.layer == ModuleLayer {
			if p.missing {
				if c.ex != nil {
					c.ex.add("module_not_found", fmt.Sprintf("Module %q not found", name), nil)
				}
			} else {
				if c.ex != nil {
					c.ex.add("module_provider_not_found", fmt.Sprintf("Module data provider for module %q not found", name), nil)
				}
			}
		}
		return nil, false, nil
	}
	if err := s.push(key); err != nil {
		return nil, false, s.wrapGlobal(p, key, err)
	}
	defer s.pop()
	if c.ex != nil {
		c.ex.push("data_provider", p.title())
	}
	defer c.ex.pop()
	if p.cfg.Path != "" {
		if c.ex != nil {
			c.ex.add("text", fmt.Sprintf("Using configuration %q", p.cfg.Path), nil)
		}
	}
	levels, err := s.resolveLevels(p, c, defaultHierarchy)
	if err != nil {
		return nil, false, err
	}
	if len(levels) == 0 {
		if c.ex != nil {
			c.ex.add("not_found", fmt.Sprintf("No such key: %q", root), nil)
		}
		return nil, false, nil
	}
	v, found, err = s.mergeLookup(m, len(levels), c, func(i int) (value.Value, bool, error) {
		lv := levels[i]
		if c.ex != nil {
			c.ex.push("level", fmt.Sprintf("Hierarchy entry %q", lv.level.Name))
		}
		defer c.ex.pop()
		return s.mergeLookup(m, len(lv.locations), c, func(j int) (value.Value, bool, error) {
			return s.locationLookup(p, lv.level, lv.locations[j], root, c)
		})
	})
	if err != nil {
		return nil, false, s.wrapGlobal(p, key, err)
	}
	return v, found, nil
}

// wrapGlobal adds Puppet's "Lookup of key ... failed" to errors from the
// global layer that carry no issue code.
func (s *Session) wrapGlobal(p *provider, key string, err error) error {
	var issue *IssueError
	if p.layer != GlobalLayer || errors.As(err, &issue) {
		return err
	}
	return fmt.Errorf("Lookup of key '%s' failed: %w", key, err)
}

func (s *Session) locationLookup(p *provider, lv *Level, loc resolvedLocation, root string, c *call) (value.Value, bool, error) {
	if lv.FunctionKind != "" && lv.Kind != Paths && lv.Kind != Globs && lv.Kind != MappedPaths {
		return s.backendLocationLookup(p, lv, loc, root, c)
	}
	if c.ex != nil {
		c.ex.push("path", fmt.Sprintf("Path %q", loc.path))
	}
	defer c.ex.pop()
	if c.ex != nil {
		c.ex.add("text", fmt.Sprintf("Original path: %q", loc.original), nil)
	}
	if !loc.exists {
		c.ex.add("not_found", "Path not found", nil)
		return nil, false, nil
	}
	if lv.Function == eyamlLookupKey {
		return s.eyamlLookup(p, lv, loc, root, c)
	}
	if !builtinFunction(lv.Function) {
		return s.backendLookup(p, lv, loc, root, c)
	}
	if lv.Options.Len() > 0 {
		// Puppet's yaml_data and json_data accept no options: the call no
		// longer matches their signature and fails with this message.
		return nil, false, fmt.Errorf("'%s' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function", lv.Function)
	}
	if loc.dir {
		return nil, false, isDirectoryError(loc.path)
	}
	data, warning, err := s.opts.Cache.dataFile(loc.path, lv.Function, loc.stamp, s.opts.MaxYAMLNodes)
	if err != nil {
		return nil, false, err
	}
	if warning != "" {
		s.warn("", warning)
	}
	if p.layer == ModuleLayer {
		s.checkModuleKeys(p.module, lv.Function, loc.path, data)
	}
	v, ok := data.GetString(root)
	if !ok || (p.layer == ModuleLayer && root != "lookup_options" && !strings.HasPrefix(root, p.module+"::")) {
		if c.ex != nil {
			c.ex.add("not_found", fmt.Sprintf("No such key: %q", root), nil)
		}
		return nil, false, nil
	}
	v, err = s.interpolate(v, true, c)
	if err != nil {
		return nil, false, err
	}
	if c.ex != nil {
		c.ex.add("found", fmt.Sprintf("Found key: %q value: %s", root, explainValue(v)), v)
	}
	return v, true, nil
}

// checkModuleKeys warns (once) about keys in module data that are not in the
// module's namespace; Puppet ignores them.
func (s *Session) checkModuleKeys(module, function, path string, data *value.Hash) {
	for _, k := range data.Keys() {
		ks, _ := k.(value.String)
		if ks != "lookup_options" && !strings.HasPrefix(string(ks), module+"::") {
			s.warn("", fmt.Sprintf("Module '%s': Value returned from data_hash function '%s', when using location '%s', must use keys qualified with the name of the module", module, function, path))
			return
		}
	}
}

// resolveLevels interpolates a layer's hierarchy for the current scope,
// reusing the previous resolution while the variables it used are unchanged.
func (s *Session) resolveLevels(p *provider, outer *call, defaultHierarchy bool) ([]resolvedLevel, error) {
	if !defaultHierarchy && p.resolved && s.readsStable(p.levelsReads) {
		outer.addReads(p.levelsReads)
		return p.levels, nil
	}
	c := &call{}
	levels := p.cfg.Levels
	if defaultHierarchy {
		levels = p.cfg.DefaultLevels
	}
	var out []resolvedLevel
	for i := range levels {
		lv := &levels[i]
		locs, err := s.resolveLocations(p.cfg, lv, c)
		if err != nil {
			return nil, &ConfigError{File: p.cfg.Path, Line: lv.Line, Msg: err.Error()}
		}
		if p.cfg.Path == "" && len(locs) == 0 {
			continue
		}
		out = append(out, resolvedLevel{lv, locs})
	}
	if !defaultHierarchy {
		p.levels, p.levelsReads, p.resolved = out, c.reads, true
	}
	// Answers depend on the variables the hierarchy used.
	outer.addReads(c.reads)
	return out, nil
}

func (s *Session) resolveLocations(cfg *Config, lv *Level, c *call) ([]resolvedLocation, error) {
	dd, err := s.interpolate(value.String(lv.Datadir), false, c)
	if err != nil {
		return nil, err
	}
	datadir := string(dd.(value.String))
	if lv.CodedirRelative {
		datadir = filepath.Join(s.opts.Codedir, datadir)
	}
	var out []resolvedLocation
	addPath := func(original string, c *call) error {
		pv, err := s.interpolate(value.String(original), false, c)
		if err != nil {
			return err
		}
		path := string(pv.(value.String))
		if lv.Extension != "" && !strings.HasSuffix(path, lv.Extension) {
			path += lv.Extension
		}
		full := filepath.Join(datadir, path)
		s.opts.Reads.File(full)
		stamp, statErr := s.opts.Cache.stat(full)
		if statErr != nil && statErr != errNotExist {
			return statErr
		}
		// A directory exists too, as for Puppet: a lookup_key function
		// gets it as its path, a data file read of it fails.
		dir := statErr != nil && isDir(full)
		exists := statErr == nil || dir
		if cfg.Path == "" && !exists {
			return nil
		}
		out = append(out, resolvedLocation{original: original, path: full, exists: exists, dir: dir, stamp: stamp})
		return nil
	}
	switch lv.Kind {
	case Paths:
		for _, l := range lv.Locations {
			if err := addPath(l, c); err != nil {
				return nil, err
			}
		}
	case Globs:
		for _, g := range lv.Locations {
			gv, err := s.interpolate(value.String(g), false, c)
			if err != nil {
				return nil, err
			}
			pattern := filepath.Join(datadir, string(gv.(value.String)))
			// Any file appearing in the data directory may match.
			s.opts.Reads.Tree(datadir)
			matches, err := globFiles(pattern)
			if err != nil {
				return nil, err
			}
			for _, m := range matches {
				stamp, err := statFile(m)
				if err != nil {
					continue
				}
				out = append(out, resolvedLocation{original: pattern, path: m, exists: true, stamp: stamp})
			}
		}
	case URIs:
		s.opts.Reads.Untracked("a Hiera level with uris")
		for _, u := range lv.Locations {
			uv, err := s.interpolate(value.String(u), false, c)
			if err != nil {
				return nil, err
			}
			out = append(out, resolvedLocation{original: u, path: string(uv.(value.String)), exists: true})
		}
	case NoLocation:
		if lv.FunctionKind != "" {
			out = append(out, resolvedLocation{exists: true})
		}
	case MappedPaths:
		mv, err := s.scopeLookup(lv.Mapped[0], "mapped_path[0]", c)
		if err != nil {
			return nil, err
		}
		var vars []value.Value
		switch mv := mv.(type) {
		case value.String:
			vars = []value.Value{mv}
		case value.Array:
			vars = mv
		case *value.Hash:
			vars = mv.Keys()
		}
		for _, v := range vars {
			locals := map[string]value.Value{}
			for k, lv := range c.locals {
				locals[k] = lv
			}
			locals[lv.Mapped[1]] = v
			inner := &call{locals: locals, unread: c.unread}
			err := addPath(lv.Mapped[2], inner)
			c.addReads(inner.reads)
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// lookupModuleDefault searches a module's default_hierarchy when no layer had
// the key; its own lookup_options (from the default hierarchy) give the merge.
func (s *Session) lookupModuleDefault(root, key, module string, c *call) (value.Value, bool, error) {
	p, err := s.provider(module)
	if err != nil || p.cfg == nil || len(p.cfg.DefaultLevels) == 0 {
		return nil, false, err
	}
	if c.ex != nil {
		c.ex.push("scope", fmt.Sprintf("Searching default_hierarchy of module %q", module))
	}
	defer c.ex.pop()
	merge := mergeFirst
	optsCall := &call{ex: c.ex}
	ov, found, err := s.providerLookup(module, "lookup_options", "lookup_options", mergeHash, optsCall, true)
	if err != nil {
		return nil, false, err
	}
	if found {
		ko, err := compileOptions(ov, module)
		if err != nil {
			return nil, false, err
		}
		if o := ko.forKey(root); o != nil {
			if mv, ok := o.GetString("merge"); ok {
				if merge, err = ParseMerge(mv); err != nil {
					return nil, false, err
				}
			}
		}
	}
	return s.providerLookup(module, root, key, merge, c, true)
}
