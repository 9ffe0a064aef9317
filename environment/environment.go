package environment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/internal/snapmap"
	"github.com/marionette-dev/marionette/resourcetype"
	"github.com/marionette-dev/marionette/stdlib"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
	"github.com/marionette-dev/marionette/value"
)

// Environment is a parsed Puppet environment: the main manifest and the
// modules on the module path. It is shared by every compile that uses it;
// module files are parsed on first use and kept, so concurrent compiles see
// one consistent set of definitions. A definition found before is found
// again without a lock; loading a module file reads and parses it with no
// lock held, only recording its definitions takes one.
type Environment struct {
	Name       string
	ModulePath []string
	// Types are the resource types compiles check resources against:
	// Puppet's built-in types and those the modules define.
	Types *resourcetype.Set
	// Hiera says where the environment's Hiera data comes from.
	Hiera HieraOptions
	// Manifests are the main manifest files in evaluation order.
	Manifests []*syntax.Program
	// Nodes are the node definitions of the main manifest, in order.
	Nodes []*NodeDef
	// mainFiles are the main manifest's files with their warnings, in
	// load order; every compile reports their warnings first.
	mainFiles []*SourceFile

	// settings are the $settings:: variables, in name order, and
	// allLocal is $settings::all_local, the hash of them all: built once,
	// immutable, shared by every compile.
	settings []Setting
	allLocal *value.Hash

	// files holds the parsed files, shared with other environments of
	// the process; templates and module Ruby functions are parsed through it.
	files *filecache.Cache
	// manifest is the main manifest setting and manifestFiles the files it
	// named when the environment was loaded (see Changed).
	manifest      string
	manifestFiles []string

	// resolved answers lookups by the name as asked (no lowercasing, no
	// stat calls, no lock on a repeat): a resolvedDef. A definition found
	// stays found (the first definition of a name wins); an answer of
	// "none" holds only while epoch is what it was, since a file loaded
	// later may define the name.
	resolved snapmap.Map[defKey, resolvedDef]
	epoch    atomic.Uint64

	// mu guards the fields below. It is never held while reading or
	// parsing a file.
	mu   sync.Mutex
	defs map[defKey]*Definition
	// loaded lists the module files already registered (or found missing),
	// and loading those a lookup is loading now, each with a channel
	// closed once it is loaded.
	loaded  map[string]bool
	loading map[string]chan struct{}
	// loadErrs remembers files that failed to parse, so every compile that
	// needs them reports the same error.
	loadErrs map[string]error
	// deps holds the version of every file the definitions came from, and
	// the zero stamp for autoload paths found missing (see Changed).
	deps map[string]filecache.Stamp

	// modules is the module index built at load time: each module name
	// to its directory, the first on the module path winning, so that
	// compiles find modules without touching the disk. Changed rescans
	// the module path and compares.
	modules map[string]string
	// moduleList lists every module directory of the module path, in path
	// order, shadowed ones included (resource types and Ruby functions
	// are looked for in all of them).
	moduleList []string
	// rubyFuncs holds the Ruby function files found at load time, for
	// RubyFunctionFile, and rubyDirs the directories that would show a new
	// one (see indexRubyFunctions); funcs is the function table. Each is
	// built on a goroutine of its own while the main manifest is parsed;
	// indexed and funcsBuilt are closed once they are set.
	rubyFuncs map[string]bool
	rubyDirs  map[string]time.Time
	// rubyFuncFiles memoizes RubyFunctionFile by function name (up to
	// maxRubyFuncFiles names): a compile asks for every function it calls,
	// and the answer walks the whole module list.
	rubyFuncFiles     sync.Map
	rubyFuncFilesSize atomic.Int64
	indexed           chan struct{}
	funcs             functions.Table
	funcsBuilt        chan struct{}
	// rubyFunc3Files memoizes RubyFunction3File as rubyFuncFiles does
	// RubyFunctionFile (counted in rubyFuncFilesSize too).
	rubyFunc3Files sync.Map
	// puppetMajor is the Puppet major whose behaviour compiles follow (7
	// or 8; see Config.PuppetMajor).
	puppetMajor int

	// Sizes are how big the last compile of the environment grew its
	// tables: the next one makes them that big at once (a fleet or a
	// compile server compiles the same code again and again).
	Sizes CompileSizes
	// literals are the string literals of the environment's code boxed
	// as values by its compiles (see Literals).
	literals atomic.Pointer[map[*syntax.StringLit]value.Value]
}

// Literals returns the string literals boxed by earlier compiles of the
// environment (eval.Evaluator.Literals): read only, shared by every
// compile. A boxed literal is an immutable value, the same in any compile.
func (e *Environment) Literals() map[*syntax.StringLit]value.Value {
	if m := e.literals.Load(); m != nil {
		return *m
	}
	return nil
}

// AddLiterals adds a compile's newly boxed literals (those Literals
// lacked) for later compiles: a new map, the old one being shared. Two
// compiles adding at once may lose one's additions, found again later.
func (e *Environment) AddLiterals(more map[*syntax.StringLit]value.Value) {
	if len(more) == 0 {
		return
	}
	old := e.Literals()
	m := make(map[*syntax.StringLit]value.Value, len(old)+len(more))
	for k, v := range old {
		m[k] = v
	}
	for k, v := range more {
		m[k] = v
	}
	e.literals.Store(&m)
}

// CompileSizes are the sizes of a compile's tables (resources, their
// references and uniqueness keys, scopes), kept as capacity hints for the
// next compile of the same environment: they change how much room a
// compile allocates up front, never what it computes.
type CompileSizes struct {
	Resources, Refs, Uniq, Scopes atomic.Int32
}

// maxSizeHint bounds a capacity hint: one huge compile does not make
// every later one allocate as much.
const maxSizeHint = 1 << 16

// Note records a compile's sizes for the next one.
func (s *CompileSizes) Note(resources, refs, uniq, scopes int) {
	store := func(a *atomic.Int32, n int) {
		a.Store(int32(min(n, maxSizeHint)))
	}
	store(&s.Resources, resources)
	store(&s.Refs, refs)
	store(&s.Uniq, uniq)
	store(&s.Scopes, scopes)
}

// Kind is the namespace a definition lives in.
type Kind uint8

// The namespaces of definitions.
const (
	KindClass Kind = iota
	KindDefine
	KindFunction
	KindTypeAlias
)

// resolvedDef is a lookup's answer: def, or none (nil) as of epoch.
type resolvedDef struct {
	def   *Definition
	epoch uint64
}

type defKey struct {
	kind Kind
	name string // lowercase, no leading "::"
}

// Definition is a class, defined type, function or type alias with the file
// it came from.
type Definition struct {
	Name string
	File *syntax.File
	// Exactly one of these is set.
	Class     *syntax.ClassDef
	Define    *syntax.DefineDef
	Function  *syntax.FunctionDef
	TypeAlias *syntax.TypeAlias
	// Source is the file's entry, for its warnings.
	Source *SourceFile
}

// SourceFile is a manifest file of the environment with the warnings
// Puppet logs when it loads the file (legacy constructs marionette accepts,
// a hash key given twice, ...). A compile reports them when it first uses
// the file, whichever compile loaded it. It does not change once loaded.
type SourceFile struct {
	Path     string
	Warnings diag.List
}

// NodeDef is a node definition with its file.
type NodeDef struct {
	Def  *syntax.NodeDef
	File *syntax.File
}

// HieraOptions say where a compile's Hiera data comes from.
type HieraOptions struct {
	// Cache holds parsed hiera.yaml and data files across compiles; nil
	// gives each compile its own.
	Cache *hiera.Cache
	// GlobalConfig is the global hiera.yaml ("" for none).
	GlobalConfig string
	// EnvironmentDir holds the environment layer's hiera.yaml ("" for none).
	EnvironmentDir string
	// Codedir is Puppet's codedir, where a version 3 global hiera.yaml
	// without :datadir: finds its data.
	Codedir string
}

// Config says what an environment is made of.
type Config struct {
	Name string
	// Manifest is the main manifest: a .pp file, or a directory whose .pp
	// files are read recursively in alphabetical order ("" for none).
	Manifest string
	// ModulePath lists the directories modules are autoloaded from.
	ModulePath []string
	// Hiera says where Hiera data comes from.
	Hiera HieraOptions
	// Types overrides the resource types; nil means Puppet's built-in
	// types and those of the modules on ModulePath.
	Types *resourcetype.Set
	// Settings are the server's settings as the code sees them
	// ($settings::name), typed; the environment's own (environment,
	// manifest, modulepath) are set from the fields above. Nil shows only
	// those three.
	Settings []Setting
	// PuppetMajor is the Puppet major whose behaviour compiles follow: 8
	// for Puppet 8.10's functions and $serverversion, else Puppet 7.23's.
	PuppetMajor int
	// Files parses the environment's files; a cache of its own when nil.
	// Environments that share one parse an unchanged file once.
	Files *filecache.Cache
}

// Setting is one setting as a compile shows it to the code.
type Setting struct {
	Name  string
	Value value.Value
}

// Load parses the main manifest and prepares module autoloading. Files
// are parsed through cfg.Files: one that has not changed since it was
// parsed there is not parsed again.
func Load(cfg Config) (*Environment, error) {
	files := cfg.Files
	if files == nil {
		files = filecache.New()
	}
	name, manifest, modulePath := cfg.Name, cfg.Manifest, cfg.ModulePath
	modules, moduleList := indexModules(modulePath)
	types := cfg.Types
	if types == nil {
		types = resourcetype.NewLazySet(moduleList)
	}
	settings := environmentSettings(cfg)
	all := value.NewHashBuilder(len(settings))
	for _, st := range settings {
		all.Set(value.String(st.Name), st.Value)
	}
	allLocal := all.Build()
	major := cfg.PuppetMajor
	if major == 0 {
		major = 7
	}
	env := &Environment{
		puppetMajor: major,
		settings:    settings,
		allLocal:    allLocal,
		Name:        name,
		ModulePath:  modulePath,
		Types:       types,
		Hiera:       cfg.Hiera,
		files:       files,
		manifest:    manifest,
		defs:        make(map[defKey]*Definition),
		loaded:      make(map[string]bool),
		loading:     make(map[string]chan struct{}),
		loadErrs:    make(map[string]error),
		deps:        make(map[string]filecache.Stamp),
		modules:     modules,
		moduleList:  moduleList,
		indexed:     make(chan struct{}),
		funcsBuilt:  make(chan struct{}),
	}
	go func() {
		env.rubyFuncs, env.rubyDirs = indexRubyFunctions(moduleList)
		close(env.indexed)
	}()
	go func() {
		env.funcs = functionTable(major, modules)
		close(env.funcsBuilt)
	}()
	mainFiles, err := manifestFiles(manifest)
	if err != nil {
		return nil, err
	}
	env.manifestFiles = mainFiles
	seen := make(map[string]bool)
	for _, f := range mainFiles {
		if err := env.loadManifest(f, seen); err != nil {
			return nil, err
		}
	}
	return env, nil
}

// loadManifest parses one main-manifest file and, after it, the files its
// legacy import statements name (globs relative to the importing file).
func (env *Environment) loadManifest(path string, seen map[string]bool) error {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if seen[path] {
		return nil
	}
	seen[path] = true
	stamp, err := filecache.Stat(path)
	if err != nil {
		return err
	}
	if !stamp.Exists() {
		return fmt.Errorf("could not read manifest %s: no such file", path)
	}
	env.deps[path] = stamp
	prog, sf, err := env.parseFile(path, stamp)
	if err != nil {
		return err
	}
	env.Manifests = append(env.Manifests, prog)
	env.mainFiles = append(env.mainFiles, sf)
	if err := env.register(prog, sf, true); err != nil {
		return err
	}
	for _, stmt := range prog.Body {
		imp, ok := stmt.(*syntax.ImportStmt)
		if !ok {
			continue
		}
		p := prog.File.Position(imp.Pos())
		sf.Warnings.Add(lineWarningf(p, "'import' is deprecated and not supported by Puppet >= 4.0.0; use a manifest directory"))
		for _, f := range imp.Files {
			lit, ok := f.(*syntax.StringLit)
			if !ok {
				return lineErrorf(p, "import needs a literal file pattern")
			}
			pattern := lit.Value
			if filepath.Ext(pattern) == "" {
				pattern += ".pp"
			}
			if !filepath.IsAbs(pattern) {
				pattern = filepath.Join(filepath.Dir(path), pattern)
			}
			matches, err := filepath.Glob(pattern)
			if err != nil {
				return lineErrorf(p, "bad import pattern '%s'", lit.Value)
			}
			sort.Strings(matches)
			for _, m := range matches {
				if err := env.loadManifest(m, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// indexModules lists every module directory on a module path, in path
// order, and maps each module name to the first directory of that name.
func indexModules(modulePath []string) (map[string]string, []string) {
	index := make(map[string]string)
	var dirs []string
	for _, mp := range modulePath {
		entries, err := os.ReadDir(mp)
		if err != nil {
			continue
		}
		for _, e := range entries {
			d := filepath.Join(mp, e.Name())
			// Modules are often symlinks (Debian installs them so): only
			// those need a stat to see what they point to.
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				st, err := os.Stat(d)
				isDir = err == nil && st.IsDir()
			}
			if isDir {
				dirs = append(dirs, d)
				if _, shadowed := index[e.Name()]; !shadowed {
					index[e.Name()] = d
				}
			}
		}
	}
	return index, dirs
}

// indexRubyFunctions finds the Ruby function files of the modules, under
// lib/puppet/functions (any depth) and lib/puppet/parser/functions. dirs
// holds the modification time of every directory a new function file
// would change, for Changed: the two roots (zero when missing, so that
// creating one shows) and every directory under them.
func indexRubyFunctions(moduleList []string) (files map[string]bool, dirs map[string]time.Time) {
	files = make(map[string]bool)
	dirs = make(map[string]time.Time)
	for _, mod := range moduleList {
		puppet := filepath.Join(mod, "lib", "puppet")
		for _, root := range []string{filepath.Join(puppet, "functions"), filepath.Join(puppet, "parser", "functions")} {
			dirs[root] = time.Time{}
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
				case d.IsDir():
					// WalkDir has the root's Lstat already, and reads
					// the others' types from their parent: Info is one
					// lstat at most, as dirTime's stat would be.
					if info, err := d.Info(); err == nil {
						dirs[p] = info.ModTime()
					}
				case strings.HasSuffix(p, ".rb"):
					files[p] = true
				}
				return nil
			})
		}
	}
	return files, dirs
}

// dirTime is a directory's modification time, zero when it is missing.
func dirTime(dir string) time.Time {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return st.ModTime()
	}
	return time.Time{}
}

// manifestFiles lists the main manifest's files in the order Puppet evaluates them.
func manifestFiles(manifest string) ([]string, error) {
	if manifest == "" {
		return nil, nil
	}
	st, err := os.Stat(manifest)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Puppet accepts a missing main manifest and compiles no code.
			return nil, nil
		}
		return nil, err
	}
	if !st.IsDir() {
		return []string{manifest}, nil
	}
	var files []string
	// The trailing separator makes WalkDir enter a main manifest directory
	// that is itself a symlink, as Puppet does (the paths stay as given).
	root := manifest
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".pp") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// manifestKind is the file cache's kind for parsed and validated manifests.
const manifestKind = "manifest"

// parsedManifest is what the file cache keeps of a manifest: the tree and
// the validator's warnings (with a parse error too, when it validated).
type parsedManifest struct {
	prog     *syntax.Program
	warnings diag.List
}

// parseFile returns the parsed manifest at path (stat'ed as stamp), with a
// new entry for its warnings. It takes no lock: the file cache parses a
// file once however many goroutines need it.
func (env *Environment) parseFile(path string, stamp filecache.Stamp) (*syntax.Program, *SourceFile, error) {
	v, err := env.files.Load(manifestKind, path, stamp, parseManifestFile(path))
	return parsedFile(path, v, err)
}

// parseManifestFile is the filecache parser of the manifest at path.
func parseManifestFile(path string) filecache.Parser {
	return func(src []byte) (any, error) { return parseManifest(path, src) }
}

// parsedFile is parseFile's answer from the cached parse v.
func parsedFile(path string, v any, err error) (*syntax.Program, *SourceFile, error) {
	sf := &SourceFile{Path: path}
	pm, _ := v.(*parsedManifest)
	if pm == nil {
		return nil, sf, err
	}
	// The cached list is shared: the environment's entry gets its own.
	sf.Warnings = slices.Clone(pm.warnings)
	return pm.prog, sf, err
}

// parseManifest parses and validates a manifest. A parse or validation
// error is a *ParseError.
func parseManifest(path string, src []byte) (any, error) {
	// src is this parse's own: the tree may point into it.
	prog, err := syntax.ParseFileOwned(path, src)
	if err != nil {
		return nil, NewParseError(path, err)
	}
	warnings, err := validateProgram(prog)
	if err != nil {
		return &parsedManifest{warnings: warnings}, NewParseError(path, err)
	}
	return &parsedManifest{prog: prog, warnings: warnings}, nil
}

// register records the definitions of a parsed file. Node definitions count
// only in the main manifest.
func (env *Environment) register(prog *syntax.Program, sf *SourceFile, main bool) error {
	env.epoch.Add(1)
	return env.registerIn(prog, sf, prog.Body, main)
}

// registerIn registers the definitions among stmts and, recursively, those
// nested in class bodies (the parser has already qualified their names:
// class a { class b {} } defines a::b).
func (env *Environment) registerIn(prog *syntax.Program, sf *SourceFile, stmts []syntax.Expr, main bool) error {
	qualify := CanonicalName
	for _, d := range stmts {
		switch d := d.(type) {
		case *syntax.ClassDef:
			name := qualify(d.Name)
			if err := env.addDef(KindClass, name, &Definition{Name: name, File: prog.File, Class: d, Source: sf}); err != nil {
				return err
			}
			if d.Body != nil {
				if err := env.registerIn(prog, sf, d.Body.Stmts, main); err != nil {
					return err
				}
			}
		case *syntax.DefineDef:
			name := qualify(d.Name)
			if err := env.addDef(KindDefine, name, &Definition{Name: name, File: prog.File, Define: d, Source: sf}); err != nil {
				return err
			}
		case *syntax.FunctionDef:
			_ = env.addDef(KindFunction, d.Name, &Definition{Name: CanonicalName(d.Name), File: prog.File, Function: d, Source: sf})
		case *syntax.TypeAlias:
			_ = env.addDef(KindTypeAlias, d.Name, &Definition{Name: d.Name, File: prog.File, TypeAlias: d, Source: sf})
		case *syntax.NodeDef:
			if main {
				if err := env.addNode(&NodeDef{Def: d, File: prog.File}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// addDef records a definition. Classes and defined types share one
// namespace and cannot be defined twice, as Puppet checks when it loads them;
// for functions and type aliases the first definition wins.
func (env *Environment) addDef(kind Kind, name string, d *Definition) error {
	k := defKey{kind, CanonicalName(name)}
	if kind == KindClass || kind == KindDefine {
		if prev, dup := env.defs[defKey{KindClass, k.name}]; dup {
			return redefinition(prev, d)
		}
		if prev, dup := env.defs[defKey{KindDefine, k.name}]; dup {
			return redefinition(prev, d)
		}
	}
	if _, dup := env.defs[k]; !dup {
		env.defs[k] = d
	}
	return nil
}

// redefinition is Puppet's error for a class or define defined twice.
func redefinition(prev, d *Definition) error {
	p, n := prev.File.Position(prev.node().Pos()), d.File.Position(d.node().Pos())
	switch {
	case prev.Class != nil && d.Class != nil:
		return lineErrorf(n, "Class '%s' is already defined%s; cannot redefine", d.Name, declaredAt(p))
	case prev.Define != nil && d.Define != nil:
		return fmt.Errorf("Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/%s'. Originally set at file://%s?line=%d&pos=%d.", d.Name, p.Filename, p.Line, p.Column)
	}
	what := func(x *Definition) string {
		if x.Class != nil {
			return "a class"
		}
		return "a definition"
	}
	return lineErrorf(n, "'%s' is already defined%s as %s; cannot redefine as %s", d.Name, declaredAt(p), what(prev), what(d))
}

// node returns the syntax node of a definition.
func (d *Definition) node() syntax.Node {
	switch {
	case d.Class != nil:
		return d.Class
	case d.Define != nil:
		return d.Define
	case d.Function != nil:
		return d.Function
	}
	return d.TypeAlias
}

func (env *Environment) addNode(n *NodeDef) error {
	for _, name := range n.Def.Names {
		key, ok := NodeKey(name)
		if !ok {
			continue
		}
		for _, other := range env.Nodes {
			for _, on := range other.Def.Names {
				if ok2, _ := NodeKey(on); ok2 == key {
					return lineErrorf(n.File.Position(n.Def.Pos()), "Node '%s' is already defined%s; cannot redefine",
						nodeDisplayName(name), declaredAt(other.File.Position(other.Def.Pos())))
				}
			}
		}
	}
	env.Nodes = append(env.Nodes, n)
	return nil
}

// NodeKey is the identity of a node name (duplicates, inheritance): names are
// case-insensitive, regexes compare by source.
func NodeKey(x syntax.Expr) (string, bool) {
	switch n := x.(type) {
	case *syntax.StringLit:
		return "n:" + strings.ToLower(n.Value), true
	case *syntax.QualifiedName:
		return "n:" + strings.ToLower(n.Name), true
	case *syntax.DefaultLit:
		return "n:default", true
	case *syntax.RegexLit:
		return "r:" + n.Pattern, true
	}
	return "", false
}

func nodeDisplayName(x syntax.Expr) string {
	switch n := x.(type) {
	case *syntax.StringLit:
		return strings.ToLower(n.Value)
	case *syntax.QualifiedName:
		return strings.ToLower(n.Name)
	case *syntax.DefaultLit:
		return "default"
	case *syntax.RegexLit:
		return "/" + n.Pattern + "/"
	}
	return "?"
}

// CanonicalName lowercases a class/define/function name and drops a leading "::".
func CanonicalName(name string) string {
	return strings.ToLower(strings.TrimPrefix(name, "::"))
}

// Lookup finds a definition by its name as written, autoloading it from
// the module path when needed; nil when no file defines it. loaded (when
// not nil) is handed each file this call loads, so that the compile that
// caused the load reports the file's warnings.
func (env *Environment) Lookup(kind Kind, name string, loaded func(*SourceFile)) (*Definition, error) {
	asked := defKey{kind, name}
	if r, ok := env.resolved.Load(asked); ok && env.current(r) {
		return r.def, nil
	}
	if r, ok := env.resolved.LoadRecent(asked); ok && env.current(r) {
		return r.def, nil
	}
	key := defKey{kind, CanonicalName(name)}
	for {
		env.mu.Lock()
		d, path, err := env.nextLocked(key)
		if err != nil || path == "" {
			if err == nil {
				env.resolved.Store(asked, resolvedDef{d, env.epoch.Load()})
			}
			env.mu.Unlock()
			return d, err
		}
		if busy, ok := env.loading[path]; ok {
			// Another lookup is loading the file: wait for it, then
			// look again.
			env.mu.Unlock()
			<-busy
			continue
		}
		done := make(chan struct{})
		env.loading[path] = done
		env.mu.Unlock()
		if err := env.autoload(path, done, loaded); err != nil {
			return nil, err
		}
	}
}

// current reports whether a lookup's answer still holds.
func (env *Environment) current(r resolvedDef) bool {
	return r.def != nil || r.epoch == env.epoch.Load()
}

// nextLocked answers a lookup of key from the definitions registered so
// far, or names the next autoload path to load for it (path != ""); a path
// that failed to load fails the lookup again. env.mu held.
func (env *Environment) nextLocked(key defKey) (d *Definition, path string, err error) {
	if d, ok := env.defs[key]; ok {
		return d, "", nil
	}
	for _, p := range env.autoloadPaths(key.kind, key.name) {
		if !env.loaded[p] {
			return nil, p, nil
		}
		if err := env.loadErrs[p]; err != nil {
			return nil, "", err
		}
	}
	return nil, "", nil
}

// autoload loads the module file at path, which this goroutine has
// claimed in env.loading with done, hands it to loaded, and releases the
// claim whatever happens (a panic included: a compile server recovers from
// it, and the lookups waiting for the file must go on).
func (env *Environment) autoload(path string, done chan struct{}, loaded func(*SourceFile)) error {
	defer func() {
		env.mu.Lock()
		delete(env.loading, path)
		env.mu.Unlock()
		close(done)
	}()
	sf, err := env.loadModuleFile(path)
	if sf != nil && loaded != nil {
		loaded(sf)
	}
	return err
}

// loadModuleFile reads, parses and checks a module file with no lock
// held, then registers its definitions. sf is nil when the file does not
// exist or could not be stat'ed.
func (env *Environment) loadModuleFile(path string) (sf *SourceFile, err error) {
	// Stat and parse in one look at the file (filecache.LoadFile).
	stamp, v, err := env.files.LoadFile(manifestKind, path, parseManifestFile(path))
	var prog *syntax.Program
	if stamp.Exists() {
		prog, sf, err = parsedFile(path, v, err)
		if err == nil {
			err = env.checkModuleFile(prog, path)
		}
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	env.loaded[path] = true
	if sf == nil {
		// Missing (a dependency all the same: see Changed) or not stat'ed.
		if err == nil {
			env.deps[path] = stamp
		}
		return nil, err
	}
	env.deps[path] = stamp
	if err != nil {
		env.loadErrs[path] = err
		return sf, err
	}
	return sf, env.register(prog, sf, false)
}

// autoloadPaths lists the files that may define name, in the order
// Puppet's loader tries them. Only the first module of the module path with
// the name's first segment counts (a module shadows its namesakes further
// along the path). In it, a class or defined type a::b::c is looked for in
// manifests/b/c.pp, then in the files of the enclosing namespaces,
// manifests/b.pp and manifests/init.pp; a function or type alias only in
// its own file under functions/ or types/.
func (env *Environment) autoloadPaths(kind Kind, name string) []string {
	segs := strings.Split(name, "::")
	if len(segs) == 0 || segs[0] == "" {
		return nil
	}
	if len(segs) == 1 && (kind == KindFunction || kind == KindTypeAlias) {
		return nil // only classes and defines live in init.pp
	}
	mod, ok := env.ModuleDir(segs[0])
	if !ok {
		return nil
	}
	switch kind {
	case KindFunction, KindTypeAlias:
		dir := "functions"
		if kind == KindTypeAlias {
			dir = "types"
		}
		return []string{filepath.Join(mod, dir, filepath.Join(segs[1:]...)+".pp")}
	}
	paths := make([]string, 0, len(segs))
	for n := len(segs); n > 1; n-- {
		paths = append(paths, filepath.Join(mod, "manifests", filepath.Join(segs[1:n]...)+".pp"))
	}
	return append(paths, filepath.Join(mod, "manifests", "init.pp"))
}

// ModuleDir returns the directory of a module on the module path, from
// the index built when the environment was loaded (no disk access).
func (env *Environment) ModuleDir(module string) (string, bool) {
	d, ok := env.modules[module]
	return d, ok
}

// RubyFunctionFile returns the Ruby file of a module that defines function
// name (lib/puppet/functions/NS/NAME.rb or lib/puppet/parser/functions/NAME.rb),
// or "", from the index built at load time (no disk access).
func (env *Environment) RubyFunctionFile(name string) string {
	<-env.indexed
	if len(env.rubyFuncs) == 0 {
		return ""
	}
	if f, ok := env.rubyFuncFiles.Load(name); ok {
		return f.(string)
	}
	f := env.rubyFunctionFile(name)
	if env.rubyFuncFilesSize.Add(1) <= maxRubyFuncFiles {
		env.rubyFuncFiles.Store(name, f)
	}
	return f
}

// maxRubyFuncFiles bounds the names RubyFunctionFile remembers.
const maxRubyFuncFiles = 1 << 16

func (env *Environment) rubyFunctionFile(name string) string {
	segs := strings.Split(CanonicalName(name), "::")
	for _, mod := range env.moduleList {
		dir := filepath.Join(mod, "lib", "puppet")
		for _, p := range []string{
			filepath.Join(append([]string{dir, "functions"}, segs...)...) + ".rb",
			filepath.Join(dir, "parser", "functions", segs[len(segs)-1]+".rb"),
		} {
			if env.rubyFuncs[p] {
				return p
			}
		}
	}
	return ""
}

// checkModuleFile applies Puppet's rules for autoloaded module files: only
// definitions at top level (validate.ModuleFile), and a class, define or
// function in <module>/manifests/a/b.pp must be named within module::a::b
// (init.pp: within module), and files outside manifests, functions or types
// hold no definitions.
func (env *Environment) checkModuleFile(prog *syntax.Program, path string) error {
	if errs := validate.ModuleFile(prog); len(errs) > 0 {
		return NewParseError(path, errs)
	}
	ns, ok := env.fileNamespace(path)
	// The parser lists every definition, nested ones too, in source order:
	// no need to walk the whole tree for them.
	for _, def := range prog.Definitions {
		var name string
		switch d := def.(type) {
		case *syntax.ClassDef:
			name = d.Name
		case *syntax.DefineDef:
			name = d.Name
		case *syntax.FunctionDef:
			name = d.Name
		default:
			continue
		}
		if !ok || !strings.HasPrefix(strings.ToLower(name), ns) {
			p := prog.File.Position(def.Pos())
			return &ParseError{File: path, Diagnostics: diag.List{diag.Errorf(diag.At(p),
				"Unacceptable location. The name '%s' is unacceptable in file '%s'", name, path)}}
		}
	}
	return nil
}

// fileNamespace is the namespace a module file's definitions must be in;
// ok is false for a file in the wrong directory of its module.
func (env *Environment) fileNamespace(path string) (ns string, ok bool) {
	for _, mp := range env.ModulePath {
		rel, err := filepath.Rel(mp, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		parts := strings.Split(strings.ToLower(filepath.ToSlash(rel)), "/")
		if len(parts) < 3 {
			return "", false
		}
		switch parts[1] {
		case "manifests", "functions", "types", "plans":
		default:
			return "", false
		}
		names := append([]string{parts[0]}, parts[2:len(parts)-1]...)
		file := parts[len(parts)-1]
		if !(len(parts) == 3 && file == "init.pp") {
			names = append(names, strings.TrimSuffix(file, ".pp"))
		}
		return strings.Join(names, "::"), true
	}
	return "", true
}

// environmentSettings are cfg's settings with the environment's own
// replaced, in name order.
func environmentSettings(cfg Config) []Setting {
	manifest := cfg.Manifest
	if manifest == "" {
		manifest = "no_manifest"
	}
	own := map[string]value.Value{
		"manifest":   value.String(manifest),
		"modulepath": value.String(strings.Join(cfg.ModulePath, string(filepath.ListSeparator))),
	}
	// $settings::environment is the process's environment setting, not the
	// environment compiled: puppetserver shows its own (production) to every
	// node. Without settings, the environment's name stands in.
	if cfg.Settings == nil {
		own["environment"] = value.String(cfg.Name)
	}
	out := make([]Setting, 0, len(cfg.Settings)+len(own))
	for _, st := range cfg.Settings {
		if v, ok := own[st.Name]; ok {
			st.Value = v
			delete(own, st.Name)
		}
		out = append(out, st)
	}
	for name, v := range own {
		out = append(out, Setting{Name: name, Value: v})
	}
	slices.SortFunc(out, func(a, b Setting) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// RubyFunction3File finds a module's 3.x Ruby function file of that name
// (lib/puppet/parser/functions/NAME.rb), in module path order, or "".
func (env *Environment) RubyFunction3File(name string) string {
	if strings.Contains(name, ":") {
		return ""
	}
	<-env.indexed
	if len(env.rubyFuncs) == 0 {
		return ""
	}
	if f, ok := env.rubyFunc3Files.Load(name); ok {
		return f.(string)
	}
	f := ""
	for _, mod := range env.moduleList {
		p := filepath.Join(mod, "lib", "puppet", "parser", "functions", name+".rb")
		if env.rubyFuncs[p] {
			f = p
			break
		}
	}
	if env.rubyFuncFilesSize.Add(1) <= maxRubyFuncFiles {
		env.rubyFunc3Files.Store(name, f)
	}
	return f
}

// ModuleDirs lists every module directory of the module path, in path
// order, shadowed ones included.
func (env *Environment) ModuleDirs() []string { return env.moduleList }

// MainFiles are the main manifest's files with their warnings, in load
// order.
func (env *Environment) MainFiles() []*SourceFile { return env.mainFiles }

// Settings are the $settings:: variables, in name order, and AllSettings
// $settings::all_local, the hash of them all. Both are shared: read only.
func (env *Environment) Settings() []Setting { return env.settings }

// AllSettings is $settings::all_local (see Settings).
func (env *Environment) AllSettings() *value.Hash { return env.allLocal }

// PuppetMajor is the Puppet major whose behaviour compiles follow (7 or 8).
func (env *Environment) PuppetMajor() int { return env.puppetMajor }

// Files is the file cache the environment parses through; compiles parse
// templates and module Ruby functions through it too.
func (env *Environment) Files() *filecache.Cache { return env.files }

// Functions is the environment's function table, built when it was
// loaded: Puppet's core functions for its Puppet major and
// puppetlabs-stdlib's when a module named stdlib is on the module path.
// Compiles only read it.
func (env *Environment) Functions() functions.Table {
	<-env.funcsBuilt
	return env.funcs
}

// functionTable is Puppet's core functions plus stdlib's, for the version
// its metadata.json gives (core functions win where both define a name,
// as in Puppet).
func functionTable(major int, modules map[string]string) functions.Table {
	t := functions.BuiltinsFor(major)
	if dir, ok := modules["stdlib"]; ok {
		for name, f := range stdlib.FunctionsFor(moduleVersion(dir)) {
			if _, core := t[name]; !core {
				t[name] = f
			}
		}
	}
	// The functions that expand their arguments (join, flatten, to_json,
	// ...) first check them against the compile's value size budget.
	functions.GuardExpansion(t)
	return t
}

// moduleVersion is the "version" of a module's metadata.json, "" when
// there is none to read.
func moduleVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		return ""
	}
	var md struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &md) != nil {
		return ""
	}
	return md.Version
}

// lineErrorf is an error about the declaration at p (file and line).
func lineErrorf(p syntax.Position, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(diag.At(p).Line(), format, args...)
}

// declaredAt formats a second position inside a message, as Puppet names
// where something was declared before: " (file: F, line: L)".
func declaredAt(p syntax.Position) string { return diag.Location(diag.At(p).Line()) }
