package environment

import (
	"maps"
	"slices"

	"github.com/marionette-dev/marionette/filecache"
)

// Changed reports whether the files the environment was built from differ
// from what is on disk now: a main manifest file or a module file it loaded
// changed, the main manifest directory gained or lost a file, an autoload
// path it found missing now exists, a module appeared, disappeared or
// moved to another directory of the module path, or a module's Ruby
// functions directory gained or lost a file. An environment never changes once
// loaded; a process that must follow edits loads a new one (Loader does).
func (env *Environment) Changed() bool {
	files, err := manifestFiles(env.manifest)
	if err != nil || !slices.Equal(files, env.manifestFiles) {
		return true
	}
	env.mu.Lock()
	deps := maps.Clone(env.deps)
	env.mu.Unlock()
	// The module index is immutable: rescan the module path and compare.
	if modules, _ := indexModules(env.ModulePath); !maps.Equal(modules, env.modules) {
		return true
	}
	// A Ruby function file added or removed changes its directory.
	<-env.indexed
	for dir, t := range env.rubyDirs {
		if !dirTime(dir).Equal(t) {
			return true
		}
	}
	for p, s := range deps {
		now, err := filecache.Stat(p)
		if err != nil || now != s {
			return true
		}
	}
	return false
}
