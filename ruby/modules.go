package ruby

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// RubyLibrary may be implemented by a Scope whose Ruby code can require
// the Ruby files that modules ship under lib/ (elasticsearch's functions
// require 'puppet_x/elastic/deep_implode'), as Puppet puts every module's
// lib directory on Ruby's load path. RubyFile returns the file that
// require of path loads (path plus .rb under some module's lib), its
// name for messages and its source.
type RubyLibrary interface {
	RubyFile(path string) (file string, src []byte, ok bool)
}

// ModuleFiles may be implemented by a Scope to answer File.exist?,
// File.file?, File.directory? and File.read for paths inside the
// environment's module directories (extlib's has_module reads a module's
// metadata.json there). ModuleFile reports ok false for a path outside
// them, which Ruby code then cannot look at; for one inside it tells
// whether it exists, whether it is a directory, and when read is set a
// file's content.
type ModuleFiles interface {
	ModuleFile(path string, read bool) (f ModuleFile, ok bool)
}

// ModuleFile is what ModuleFiles tells of a path inside a module.
type ModuleFile struct {
	Exists, Dir bool
	Content     []byte // with read, for an existing file
}

// moduleFile asks the scope about a path for one of File's methods; a
// path it does not answer for is unsupported Ruby.
func (in *interp) moduleFile(line int, method, path string, read bool) (ModuleFile, error) {
	if mf, ok := in.scope.(ModuleFiles); ok {
		if f, inside := mf.ModuleFile(path, read); inside {
			return f, nil
		}
	}
	return ModuleFile{}, in.unsupported(line, "File.%s of %s, outside the modules", method, path)
}

// rmodule is a Ruby module that required code defined, as a value: the
// receiver of its module functions (def self.name).
type rmodule struct{ name string }

// evalModule runs a module body, recording its def self.name methods as
// the module's functions.
func (in *interp) evalModule(n *nModule, e *env) (any, error) {
	name := n.name
	if len(in.moduleStack) > 0 {
		name = in.moduleStack[len(in.moduleStack)-1] + "::" + name
	}
	if in.modules == nil {
		in.modules = map[string]map[string]*nDef{}
	}
	if in.modules[name] == nil {
		in.modules[name] = map[string]*nDef{}
	}
	if n.super != "" {
		if in.classParents == nil {
			in.classParents = map[string]string{}
		}
		in.classParents[name] = n.super
	}
	in.moduleStack = append(in.moduleStack, name)
	defer func() { in.moduleStack = in.moduleStack[:len(in.moduleStack)-1] }()
	if _, err := in.eval(n.body, &env{vars: map[string]any{}}); err != nil {
		return nil, err
	}
	return nil, nil
}

// defineModuleMethod records def self.name inside a module body; it
// reports false outside one.
func (in *interp) defineModuleMethod(d *nDef) bool {
	if !d.singleton || len(in.moduleStack) == 0 {
		return false
	}
	in.modules[in.moduleStack[len(in.moduleStack)-1]][d.name] = d
	return true
}

// moduleConstant finds a module that required code defined, by its full
// name or relative to the module being run.
func (in *interp) moduleConstant(name string) (*rmodule, bool) {
	if in.current != "" {
		if _, ok := in.modules[in.current+"::"+name]; ok {
			return &rmodule{in.current + "::" + name}, true
		}
	}
	if _, ok := in.modules[name]; ok {
		return &rmodule{name}, true
	}
	return nil, false
}

// callModule calls a module function; inside it, calls without a
// receiver reach the module's other functions first.
func (in *interp) callModule(line int, m *rmodule, name string, args []any, blk *blockVal) (any, bool, error) {
	d, ok := in.modules[m.name][name]
	if !ok {
		return nil, false, nil
	}
	saved := in.current
	in.current = m.name
	defer func() { in.current = saved }()
	v, err := in.callDef(line, d, args, blk)
	return v, true, err
}

// currentModuleMethod finds a function of the module being run.
func (in *interp) currentModuleMethod(name string) (*nDef, bool) {
	if in.current == "" {
		return nil, false
	}
	d, ok := in.modules[in.current][name]
	return d, ok
}

// require loads a Ruby file of a module's lib directory once, running its
// top level. It reports false when no module ships the file (Puppet has
// loaded most libraries code requires: json, yaml, set, ...).
func (in *interp) require(line int, path string) (bool, error) {
	// require 'x/y.rb' loads the same file as require 'x/y'.
	path = strings.TrimSuffix(path, ".rb")
	lib, ok := in.scope.(RubyLibrary)
	if !ok || path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
		return false, nil
	}
	if in.required[path] {
		return false, nil
	}
	file, src, found := lib.RubyFile(path)
	if !found {
		return false, nil
	}
	if in.required == nil {
		in.required = map[string]bool{}
	}
	in.required[path] = true
	if isPBKDF2Gem(src) {
		in.pbkdf2 = true
		return true, nil
	}
	body, err := parsedLibrary(file, src)
	if err != nil {
		return false, err
	}
	if _, err := in.eval(body, &env{vars: map[string]any{}}); err != nil {
		return false, fmt.Errorf("require '%s' (line %d): %w", path, line, err)
	}
	return true, nil
}

// A library file is required afresh by every call of a function that
// requires it (each call is a new interpreter), as Ruby would load it once
// per process: icinga2's utils.rb, 19 KB, was lexed and parsed for each
// of mon181's icinga2 objects. The parsed tree is kept per file, with the
// source it was parsed from; a changed source is parsed again. Trees are
// immutable, shared as templates are.
var (
	libraries        sync.Map // file name -> *parsedLib
	librariesKept    atomic.Int64
	libraryParses    atomic.Int64 // parses done, for the tests
	maxLibrariesKept int64        = 4096
)

type parsedLib struct {
	src  string
	body node
	err  error
}

// parsedLibrary parses a library file, or gives the tree it parsed from
// the same source before.
func parsedLibrary(file string, src []byte) (node, error) {
	if v, ok := libraries.Load(file); ok {
		if pl := v.(*parsedLib); pl.src == string(src) {
			return pl.body, pl.err
		}
	}
	libraryParses.Add(1)
	body, err := parseRubyFile(file, src)
	if librariesKept.Add(1) <= maxLibrariesKept {
		libraries.Store(file, &parsedLib{src: string(src), body: body, err: err})
	}
	return body, err
}
