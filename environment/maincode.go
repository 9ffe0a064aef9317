package environment

import (
	"fmt"
	"maps"

	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/syntax"
)

// WithCode returns an environment made of env's modules, resource types,
// Hiera options and settings whose main manifest is code, given as text,
// instead of env's own: Puppet's code setting, which replaces the main
// manifest. A test harness compiling many small manifests against one
// module path calls it per compile: module files are parsed once, through
// env's file cache, whichever derived environment needs them first. The
// derived environment resolves definitions on its own (code may define
// classes of its own), and is never cached.
func (env *Environment) WithCode(code string) (*Environment, error) {
	<-env.indexed
	funcs := env.Functions()
	d := &Environment{
		puppetMajor: env.puppetMajor,
		settings:    env.settings,
		allLocal:    env.allLocal,
		Name:        env.Name,
		ModulePath:  env.ModulePath,
		Types:       env.Types,
		Hiera:       env.Hiera,
		files:       env.files,
		defs:        make(map[defKey]*Definition),
		loaded:      make(map[string]bool),
		loading:     make(map[string]chan struct{}),
		loadErrs:    make(map[string]error),
		deps:        make(map[string]filecache.Stamp),
		modules:     env.modules,
		moduleList:  env.moduleList,
		rubyFuncs:   env.rubyFuncs,
		rubyDirs:    maps.Clone(env.rubyDirs),
		indexed:     make(chan struct{}),
		funcs:       funcs,
		funcsBuilt:  make(chan struct{}),
	}
	close(d.indexed)
	close(d.funcsBuilt)
	// Puppet names no file for code given as text; its positions are
	// lines and columns only.
	prog, err := syntax.ParseFile("", []byte(code))
	if err != nil {
		return nil, fmt.Errorf("Could not parse for environment %s: %w", env.Name, NewParseError("", err))
	}
	sf := &SourceFile{}
	warnings, err := validateProgram(prog)
	sf.Warnings = warnings
	if err != nil {
		return nil, fmt.Errorf("Could not parse for environment %s: %w", env.Name, NewParseError("", err))
	}
	d.Manifests = []*syntax.Program{prog}
	d.mainFiles = []*SourceFile{sf}
	if err := d.register(prog, sf, true); err != nil {
		return nil, err
	}
	return d, nil
}
