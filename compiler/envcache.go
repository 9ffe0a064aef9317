package compiler

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// Changed reports whether the files the environment was built from differ
// from what is on disk now: a main manifest file or a module file it loaded
// changed, the main manifest directory gained or lost a file, an autoload
// path it found missing now exists, a module appeared, disappeared or
// moved to another directory of the module path, or a module's Ruby
// functions directory gained or lost a file. An environment never changes once
// loaded; a process that must follow edits loads a new one (EnvironmentCache
// does).
func (env *Environment) Changed() bool {
	files, err := manifestFiles(env.manifest)
	if err != nil || !slices.Equal(files, env.manifestFiles) {
		return true
	}
	env.mu.Lock()
	deps := make(map[string]fileStamp, len(env.deps))
	for p, s := range env.deps {
		deps[p] = s
	}
	env.mu.Unlock()
	// The module index is immutable: rescan the module path and compare.
	if modules, _ := indexModules(env.ModulePath); !maps.Equal(modules, env.modules) {
		return true
	}
	// A Ruby function file added or removed changes its directory.
	<-env.rubyIndexed
	for dir, t := range env.rubyDirs {
		if !dirTime(dir).Equal(t) {
			return true
		}
	}
	for p, s := range deps {
		now, err := statStamp(p)
		if err != nil || now != s {
			return true
		}
	}
	return false
}

// EnvironmentCache keeps one parsed Environment per environment setting
// (name, main manifest, module path) for a long-running process. Get returns
// the cached environment while none of its files changed on disk, and loads
// a fresh one otherwise, reparsing only the files that changed. Compiles
// still running keep the environment they started with.
type EnvironmentCache struct {
	sources *Sources
	mu      sync.Mutex
	envs    map[string]*Environment
}

// NewEnvironmentCache returns an empty cache parsing files through sources
// (a new Sources when nil).
func NewEnvironmentCache(sources *Sources) *EnvironmentCache {
	if sources == nil {
		sources = NewSources()
	}
	return &EnvironmentCache{sources: sources, envs: make(map[string]*Environment)}
}

// Get returns the environment for these settings, up to date with the disk.
func (c *EnvironmentCache) Get(cfg EnvironmentConfig) (*Environment, error) {
	h := cfg.Hiera
	key := strings.Join(append([]string{cfg.Name, cfg.Manifest, h.GlobalConfig, h.EnvironmentDir, h.Codedir}, cfg.ModulePath...), "\x00")
	c.mu.Lock()
	env := c.envs[key]
	c.mu.Unlock()
	if env != nil && !env.Changed() {
		return env, nil
	}
	env, err := c.sources.LoadEnvironment(cfg)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.envs[key] = env
	c.mu.Unlock()
	return env, nil
}
