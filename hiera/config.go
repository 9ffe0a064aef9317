package hiera

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/value"
)

// Layer is where a hiera.yaml sits; it decides which versions and features are
// allowed, as in Puppet.
type Layer int

const (
	GlobalLayer Layer = iota
	EnvironmentLayer
	ModuleLayer
)

func (l Layer) String() string {
	switch l {
	case GlobalLayer:
		return "Global"
	case EnvironmentLayer:
		return "Environment"
	}
	return "Module"
}

// Config is a parsed hiera.yaml. It is immutable after parsing and shared by all
// compiles through a Cache.
type Config struct {
	// Path is the hiera.yaml file; empty for the built-in default configuration.
	Path string
	// Root is the directory relative datadirs are resolved against.
	Root    string
	Version int
	// Levels is the hierarchy; DefaultLevels is a module's default_hierarchy.
	Levels        []Level
	DefaultLevels []Level
	// Ignored is set for a version 3 file in an environment or module: Puppet
	// warns and acts as if there were no hiera.yaml.
	Ignored bool
	// V3Merge is a version 3 :merge_behavior: (native, deep, deeper).
	V3Merge            string
	V3DeepMergeOptions *value.Hash
}

// LocationKind says how a level names its data files.
type LocationKind int

const (
	NoLocation LocationKind = iota
	Paths
	Globs
	MappedPaths
	// URIs are uri/uris: passed to a custom backend function as written
	// (interpolated), not joined to the datadir nor checked to exist.
	URIs
)

// Level is one hierarchy entry.
type Level struct {
	Name string
	// Function is the backend function: yaml_data, json_data, hocon_data,
	// eyaml_lookup_key, or a custom function a module provides.
	Function string
	// FunctionKind is how a custom function is called: data_hash,
	// lookup_key or data_dig.
	FunctionKind string
	// Datadir is the data directory as written (it may hold interpolations),
	// already joined to the config root when relative.
	Datadir string
	Kind    LocationKind
	// Locations are the paths or globs as written, relative to Datadir.
	Locations []string
	// Mapped is mapped_paths: [variable, key name, template].
	Mapped [3]string
	// Extension is appended to paths that lack it (version 3 and 4 only).
	Extension string
	// CodedirRelative marks a version 3 default datadir, which is relative to
	// Puppet's codedir rather than to the config.
	CodedirRelative bool
	Options         *value.Hash
	Line            int
}

// ConfigError is an invalid hiera.yaml.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s (file: %s, line: %d)", e.Msg, e.File, e.Line)
	}
	return fmt.Sprintf("%s (file: %s)", e.Msg, e.File)
}

// DefaultConfig is what Puppet uses when the global hiera.yaml does not exist:
// version 5, datadir "data", one level "Common" reading common.yaml. Paths that
// do not exist are dropped from the default configuration's hierarchy.
func DefaultConfig(root string) *Config {
	return &Config{
		Root:    root,
		Version: 5,
		Levels: []Level{{
			Name: "Common", Function: "yaml_data", Datadir: filepath.Join(root, "data"),
			Kind: Paths, Locations: []string{"common.yaml"},
		}},
	}
}

// v3DefaultDatadir is Puppet's default for a version 3 backend without
// :datadir:, relative to Options.Codedir.
const v3DefaultDatadir = "environments/%{::environment}/hieradata"

// ParseConfig parses the hiera.yaml at path (content given) for a layer.
// codedir replaces Puppet's codedir setting in the version 3 default datadir.
func ParseConfig(path string, data []byte, layer Layer) (*Config, error) {
	doc, err := dataformat.ParseYAMLTree(data, path)
	if err != nil {
		return nil, err
	}
	return parseConfigDoc(path, doc, layer)
}

// parseConfigDoc is ParseConfig from the document's node tree.
func parseConfigDoc(path string, doc *yaml.Node, layer Layer) (*Config, error) {
	p := configParser{path: path, layer: layer}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		// Puppet warns and falls back to the version 3 default.
		root = &yaml.Node{Kind: yaml.MappingNode}
	}
	symbolKeysToStrings(root)
	return p.parse(root)
}

// symbolKeysToStrings turns Ruby-symbol keys (`:backends:`) into plain strings,
// as Puppet does for hiera.yaml.
func symbolKeysToStrings(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Style == 0 && strings.HasPrefix(k.Value, ":") && len(k.Value) > 1 {
				k.Value = k.Value[1:]
				k.Tag = "!!str"
			}
		}
	}
	for _, c := range n.Content {
		symbolKeysToStrings(c)
	}
}

type configParser struct {
	path  string
	layer Layer
}

func (p *configParser) fail(line int, format string, args ...any) error {
	return &ConfigError{File: p.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// mapping returns the key → (key node, value node) entries of a mapping node.
func mappingEntries(n *yaml.Node) ([]string, map[string][2]*yaml.Node) {
	var keys []string
	m := map[string][2]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if _, dup := m[k]; !dup {
			keys = append(keys, k)
		}
		m[k] = [2]*yaml.Node{n.Content[i], n.Content[i+1]}
	}
	return keys, m
}

func (p *configParser) parse(root *yaml.Node) (*Config, error) {
	_, entries := mappingEntries(root)
	cfg := &Config{Path: p.path, Root: filepath.Dir(p.path), Version: 3}
	if e, ok := entries["version"]; ok {
		v, err := dataformat.FromYAMLNode(e[1], p.path)
		if err != nil {
			return nil, err
		}
		switch v := v.(type) {
		case value.Integer:
			cfg.Version = int(v)
		case value.String:
			// Ruby's to_i: leading digits, else 0.
			n := 0
			for _, c := range string(v) {
				if c < '0' || c > '9' {
					break
				}
				n = n*10 + int(c-'0')
			}
			cfg.Version = n
		case value.Float:
			cfg.Version = int(v)
		default:
			if !value.IsUndef(v) {
				return nil, p.fail(e[1].Line, "The Lookup Configuration at '%s' has wrong type, entry 'version' expects an Integer value, got %s", p.path, typeName(v))
			}
		}
	}
	switch cfg.Version {
	case 5:
		return p.parseV5(cfg, entries)
	case 4:
		if p.layer == GlobalLayer {
			return nil, p.fail(0, "hiera.yaml version 4 cannot be used in the global layer")
		}
		return p.parseV4(cfg, entries)
	case 3:
		if p.layer != GlobalLayer {
			cfg.Ignored = true
			return cfg, nil
		}
		return p.parseV3(cfg, entries)
	}
	return nil, p.fail(0, "This runtime does not support hiera.yaml version %d", cfg.Version)
}

var optionNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?$`) })

func (p *configParser) parseV5(cfg *Config, entries map[string][2]*yaml.Node) (*Config, error) {
	for k, e := range entries {
		switch k {
		case "version", "defaults", "hierarchy", "default_hierarchy", "plan_hierarchy":
		default:
			return nil, p.fail(e[0].Line, "The Lookup Configuration at '%s' has unrecognized key '%s'", p.path, k)
		}
	}
	// Without a defaults section Puppet supplies datadir "data" and yaml_data.
	defaults := map[string]string{"datadir": "data", "data_hash": "yaml_data"}
	var defaultOptions *value.Hash
	if e, ok := entries["defaults"]; ok {
		defaults = map[string]string{}
		if e[1].Kind != yaml.MappingNode {
			return nil, p.fail(e[1].Line, "The Lookup Configuration at '%s' has wrong type, entry 'defaults' expects a Struct value, got %s", p.path, nodeTypeName(e[1]))
		}
		keys, de := mappingEntries(e[1])
		functions := 0
		for _, k := range keys {
			kn, vn := de[k][0], de[k][1]
			switch k {
			case "data_hash", "lookup_key", "data_dig", "datadir":
				s, err := p.nonEmptyString(vn, "entry 'defaults' ", k)
				if err != nil {
					return nil, err
				}
				defaults[k] = s
				if k != "datadir" {
					functions++
				}
			case "options":
				h, err := p.options(vn, "entry 'defaults' ")
				if err != nil {
					return nil, err
				}
				defaultOptions = h
				for _, reserved := range []string{"path", "uri"} {
					if _, ok := h.GetString(reserved); ok {
						return nil, p.fail(vn.Line, "Option key '%s' used in defaults is reserved by Puppet", reserved)
					}
				}
			default:
				return nil, p.fail(kn.Line, "The Lookup Configuration at '%s' has wrong type, entry 'defaults' has unrecognized key '%s'", p.path, k)
			}
		}
		if functions > 1 {
			return nil, p.fail(e[1].Line, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in defaults")
		}
	}
	datadir := "data"
	if d, ok := defaults["datadir"]; ok {
		datadir = d
	}
	var err error
	if e, ok := entries["hierarchy"]; ok {
		if cfg.Levels, err = p.hierarchyV5(e[1], "hierarchy", defaults, defaultOptions, datadir, cfg.Root); err != nil {
			return nil, err
		}
	} else {
		cfg.Levels = DefaultConfig(cfg.Root).Levels
	}
	if e, ok := entries["default_hierarchy"]; ok {
		if p.layer != ModuleLayer {
			return nil, p.fail(e[0].Line, "'default_hierarchy' is only allowed in the module layer")
		}
		if cfg.DefaultLevels, err = p.hierarchyV5(e[1], "default_hierarchy", defaults, defaultOptions, datadir, cfg.Root); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

func (p *configParser) hierarchyV5(n *yaml.Node, what string, defaults map[string]string, defaultOptions *value.Hash, datadir, root string) ([]Level, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, entry '%s' expects an Array value, got %s", p.path, what, nodeTypeName(n))
	}
	var levels []Level
	seen := map[string]int{}
	for i, he := range n.Content {
		at := fmt.Sprintf("entry '%s' index %d ", what, i)
		if he.Kind != yaml.MappingNode {
			return nil, p.fail(he.Line, "The Lookup Configuration at '%s' has wrong type, entry '%s' index %d expects a Struct value, got %s", p.path, what, i, nodeTypeName(he))
		}
		keys, e := mappingEntries(he)
		lv := Level{Line: he.Line, Options: defaultOptions}
		nameNode, ok := e["name"]
		if !ok {
			return nil, p.fail(he.Line, "The Lookup Configuration at '%s' has wrong type, entry '%s' index %d expects a value for key 'name'", p.path, what, i)
		}
		name, err := p.nonEmptyString(nameNode[1], at, "name")
		if err != nil {
			return nil, err
		}
		lv.Name = name
		if first, dup := seen[name]; dup {
			return nil, p.fail(nameNode[1].Line, "Hierarchy name '%s' defined more than once. First defined at line %d", name, first)
		}
		seen[name] = nameNode[1].Line
		var functionKeys, locationKeys []string
		lvDatadir := datadir
		for _, k := range keys {
			kn, vn := e[k][0], e[k][1]
			switch k {
			case "name":
			case "data_hash", "lookup_key", "data_dig", "hiera3_backend", "v4_data_hash":
				s, err := p.nonEmptyString(vn, at, k)
				if err != nil {
					return nil, err
				}
				functionKeys = append(functionKeys, k)
				lv.Function = k + ":" + s
			case "datadir":
				s, err := p.nonEmptyString(vn, at, k)
				if err != nil {
					return nil, err
				}
				lvDatadir = s
			case "path", "glob", "uri":
				s, err := p.nonEmptyString(vn, at, k)
				if err != nil {
					return nil, err
				}
				locationKeys = append(locationKeys, k)
				lv.Locations = []string{s}
			case "paths", "globs", "uris", "mapped_paths":
				ss, err := p.stringList(vn, at, k)
				if err != nil {
					return nil, err
				}
				if k == "mapped_paths" && len(ss) != 3 {
					return nil, p.fail(vn.Line, "The Lookup Configuration at '%s' has wrong type, entry '%s' index %d entry 'mapped_paths' expects size to be 3, got %d", p.path, what, i, len(ss))
				}
				locationKeys = append(locationKeys, k)
				lv.Locations = ss
			case "options":
				h, err := p.options(vn, at)
				if err != nil {
					return nil, err
				}
				for _, reserved := range []string{"path", "uri"} {
					if _, ok := h.GetString(reserved); ok {
						return nil, p.fail(vn.Line, "Option key '%s' used in hierarchy '%s' is reserved by Puppet", reserved, name)
					}
				}
				lv.Options = h
			default:
				return nil, p.fail(kn.Line, "The Lookup Configuration at '%s' has wrong type, entry '%s' index %d has unrecognized key '%s'", p.path, what, i, k)
			}
		}
		switch len(functionKeys) {
		case 0:
			fk := ""
			for _, k := range []string{"data_hash", "lookup_key", "data_dig"} {
				if v, ok := defaults[k]; ok {
					fk = k + ":" + v
					break
				}
			}
			if fk == "" {
				return nil, p.fail(he.Line, "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '%s'", name)
			}
			lv.Function = fk
		case 1:
		default:
			return nil, p.fail(he.Line, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '%s'", name)
		}
		if len(locationKeys) > 1 {
			return nil, p.fail(he.Line, "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy '%s'", name)
		}
		kind, fn, _ := strings.Cut(lv.Function, ":")
		switch {
		case kind == "data_hash" && (fn == "yaml_data" || fn == "json_data" || fn == "hocon_data"),
			kind == "lookup_key" && fn == eyamlLookupKey:
			lv.Function = fn
		case (kind == dataHashKind || kind == lookupKeyKind || kind == dataDigKind) && !builtinFunction(fn):
			// A module's function, found when a lookup reaches the level.
			lv.Function, lv.FunctionKind = fn, kind
		case kind == "hiera3_backend":
			if p.layer != GlobalLayer {
				return nil, p.fail(he.Line, "'hiera3_backend' is only allowed in the global layer")
			}
			if fn == "yaml" || fn == "json" {
				return nil, p.fail(he.Line, "Use \"data_hash: %s_data\" instead of \"hiera3_backend: %s\"", fn, fn)
			}
			return nil, p.fail(he.Line, "hierarchy '%s': hiera3_backend '%s' is not supported by marionette", name, fn)
		default:
			return nil, p.fail(he.Line, "hierarchy '%s': %s function '%s' is not supported by marionette (built in: data_hash yaml_data, json_data and hocon_data, lookup_key eyaml_lookup_key)", name, kind, fn)
		}
		if len(locationKeys) == 1 {
			switch locationKeys[0] {
			case "path", "paths":
				lv.Kind = Paths
			case "glob", "globs":
				lv.Kind = Globs
			case "mapped_paths":
				lv.Kind = MappedPaths
				copy(lv.Mapped[:], lv.Locations)
				lv.Locations = nil
			case "uri", "uris":
				if lv.FunctionKind == "" {
					return nil, p.fail(he.Line, "hierarchy '%s': '%s' locations are only for custom backend functions", name, locationKeys[0])
				}
				lv.Kind = URIs
			}
		} else if lv.FunctionKind != "" {
			// A custom function may need no location: it is called once.
			lv.Kind = NoLocation
		} else {
			// Without a location the data_hash function gets no path; yaml_data
			// and json_data then fail as Puppet's do.
			if lv.Function == eyamlLookupKey {
				return nil, p.fail(he.Line, "'%s': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function", lv.Function)
			}
			return nil, p.fail(he.Line, "hierarchy '%s': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function", name)
		}
		lv.Datadir = joinRoot(root, lvDatadir)
		levels = append(levels, lv)
	}
	return levels, nil
}

func joinRoot(root, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(root, dir)
}

func (p *configParser) parseV4(cfg *Config, entries map[string][2]*yaml.Node) (*Config, error) {
	datadir := "data"
	if e, ok := entries["datadir"]; ok {
		s, err := p.nonEmptyString(e[1], "", "datadir")
		if err != nil {
			return nil, err
		}
		datadir = s
	}
	e, ok := entries["hierarchy"]
	if !ok {
		cfg.Levels = []Level{{Name: "common", Function: "yaml_data", Datadir: joinRoot(cfg.Root, datadir), Kind: Paths, Locations: []string{"common"}, Extension: ".yaml"}}
		return cfg, nil
	}
	if e[1].Kind != yaml.SequenceNode {
		return nil, p.fail(e[1].Line, "The Lookup Configuration at '%s' has wrong type, entry 'hierarchy' expects an Array value, got %s", p.path, nodeTypeName(e[1]))
	}
	for i, he := range e[1].Content {
		if he.Kind != yaml.MappingNode {
			return nil, p.fail(he.Line, "The Lookup Configuration at '%s' has wrong type, entry 'hierarchy' index %d expects a Struct value, got %s", p.path, i, nodeTypeName(he))
		}
		_, m := mappingEntries(he)
		get := func(k string) (string, error) {
			if n, ok := m[k]; ok {
				return p.nonEmptyString(n[1], fmt.Sprintf("entry 'hierarchy' index %d ", i), k)
			}
			return "", nil
		}
		name, err := get("name")
		if err != nil {
			return nil, err
		}
		backend, err := get("backend")
		if err != nil {
			return nil, err
		}
		dd, err := get("datadir")
		if err != nil {
			return nil, err
		}
		if dd == "" {
			dd = datadir
		}
		lv := Level{Name: name, Datadir: joinRoot(cfg.Root, dd), Kind: Paths, Line: he.Line}
		switch backend {
		case "yaml", "json":
			lv.Function, lv.Extension = backend+"_data", "."+backend
		default:
			return nil, p.fail(he.Line, "No data provider is registered for backend '%s'", backend)
		}
		if n, ok := m["paths"]; ok {
			if lv.Locations, err = p.stringList(n[1], fmt.Sprintf("entry 'hierarchy' index %d ", i), "paths"); err != nil {
				return nil, err
			}
		} else if s, err := get("path"); err != nil {
			return nil, err
		} else if s != "" {
			lv.Locations = []string{s}
		} else {
			lv.Locations = []string{name}
		}
		cfg.Levels = append(cfg.Levels, lv)
	}
	return cfg, nil
}

func (p *configParser) parseV3(cfg *Config, entries map[string][2]*yaml.Node) (*Config, error) {
	backends := []string{"yaml"}
	hierarchy := []string{"nodes/%{::trusted.certname}", "common"}
	var err error
	if e, ok := entries["backends"]; ok {
		if backends, err = p.stringOrList(e[1], "backends"); err != nil {
			return nil, err
		}
	}
	if e, ok := entries["hierarchy"]; ok {
		if hierarchy, err = p.stringOrList(e[1], "hierarchy"); err != nil {
			return nil, err
		}
	}
	cfg.V3Merge = "native"
	if e, ok := entries["merge_behavior"]; ok {
		s, err := p.nonEmptyString(e[1], "", "merge_behavior")
		if err != nil {
			return nil, err
		}
		if s != "deep" && s != "deeper" && s != "native" {
			return nil, p.fail(e[1].Line, "The Lookup Configuration at '%s' has wrong type, entry 'merge_behavior' expects a match for Enum['deep', 'deeper', 'native'], got '%s'", p.path, s)
		}
		cfg.V3Merge = s
	}
	if e, ok := entries["deep_merge_options"]; ok {
		v, err := dataformat.FromYAMLNode(e[1], p.path)
		if err != nil {
			return nil, err
		}
		h, ok := v.(*value.Hash)
		if !ok {
			return nil, p.fail(e[1].Line, "The Lookup Configuration at '%s' has wrong type, entry 'deep_merge_options' expects a Hash value, got %s", p.path, typeName(v))
		}
		cfg.V3DeepMergeOptions = h
	}
	seen := map[string]bool{}
	for _, b := range backends {
		if seen[b] {
			return nil, p.fail(0, "Backend '%s' is defined more than once.", b)
		}
		seen[b] = true
		// Puppet runs these backends with its own functions; eyaml's takes
		// the backend's section as its options.
		function := map[string]string{"yaml": "yaml_data", "json": "json_data", "hocon": "hocon_data", "eyaml": eyamlLookupKey}[b]
		if function == "" {
			return nil, p.fail(0, "hiera.yaml version 3 backend '%s' is not supported by marionette", b)
		}
		datadir, codedirRelative := v3DefaultDatadir, true
		ext := "." + b
		if b == "hocon" {
			ext = ".conf"
		}
		var options *value.Hash
		if e, ok := entries[b]; ok && e[1].Kind == yaml.MappingNode && b == "eyaml" {
			v, err := dataformat.FromYAMLNode(e[1], p.path)
			if err != nil {
				return nil, err
			}
			options, _ = v.(*value.Hash)
		}
		if e, ok := entries[b]; ok && e[1].Kind == yaml.MappingNode {
			_, bm := mappingEntries(e[1])
			if d, ok := bm["datadir"]; ok {
				if datadir, err = p.nonEmptyString(d[1], "entry '"+b+"' ", "datadir"); err != nil {
					return nil, err
				}
				codedirRelative = false
			}
			if x, ok := bm["extension"]; ok {
				s, err := p.nonEmptyString(x[1], "entry '"+b+"' ", "extension")
				if err != nil {
					return nil, err
				}
				ext = "." + s
			}
		}
		cfg.Levels = append(cfg.Levels, Level{
			Name: b, Function: function, Datadir: datadir, Kind: Paths,
			Locations: hierarchy, Extension: ext, CodedirRelative: codedirRelative,
			Options: options,
		})
	}
	return cfg, nil
}

// nonEmptyString reads a String[1]; at locates the enclosing entry in error
// messages ("entry 'hierarchy' index 0 ", or "" at the top level).
func (p *configParser) nonEmptyString(n *yaml.Node, at, key string) (string, error) {
	v, err := dataformat.FromYAMLNode(n, p.path)
	if err != nil {
		return "", err
	}
	s, ok := v.(value.String)
	switch {
	case !ok:
		return "", p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, %sentry '%s' expects a String value, got %s", p.path, at, key, typeName(v))
	case s == "":
		return "", p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, %sentry '%s' expects a String[1] value, got String", p.path, at, key)
	}
	return string(s), nil
}

func (p *configParser) stringList(n *yaml.Node, at, key string) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, %sentry '%s' expects an Array[String[1], 1] value, got %s", p.path, at, key, nodeTypeName(n))
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		s, err := p.nonEmptyString(e, at, key)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (p *configParser) stringOrList(n *yaml.Node, key string) ([]string, error) {
	if n.Kind == yaml.SequenceNode {
		return p.stringList(n, "", key)
	}
	s, err := p.nonEmptyString(n, "", key)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

func (p *configParser) options(n *yaml.Node, at string) (*value.Hash, error) {
	v, err := dataformat.FromYAMLNode(n, p.path)
	if err != nil {
		return nil, err
	}
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, %sentry 'options' expects a Hash value, got %s", p.path, at, typeName(v))
	}
	for _, k := range h.Keys() {
		ks, ok := k.(value.String)
		if !ok || !optionNameRE().MatchString(string(ks)) {
			return nil, p.fail(n.Line, "The Lookup Configuration at '%s' has wrong type, %sentry 'options' has an invalid option name %s", p.path, at, value.Literal(k))
		}
	}
	return h, nil
}

func typeName(v value.Value) string {
	return value.TypeString(value.Generalize(value.TypeOf(v)))
}

func nodeTypeName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "Array"
	case yaml.MappingNode:
		return "Hash"
	}
	v, err := dataformat.FromYAMLNode(n, "")
	if err != nil {
		return "String"
	}
	return typeName(v)
}
