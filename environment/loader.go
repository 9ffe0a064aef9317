// Package environment owns Puppet environments: it turns Puppet's settings
// into ready ones (finds a directory environment under the
// environmentpath, reads its environment.conf), loads them (the main
// manifest, module autoloading, the function table), notices when their
// files change, and caches them for a compile server, as Puppet's
// environment loaders do. A compile only reads an Environment.
package environment

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/internal/snapmap"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/puppetconf"
)

// Options adjust a Loader.
type Options struct {
	// Manifest and ModulePath, when Manifest is set or no environmentpath
	// setting was given, make the Loader serve one environment that is no
	// directory: the one the environment setting names, made of this main
	// manifest and module path (marionette's --manifest and --modulepath).
	// With directory environments a non-nil ModulePath replaces every
	// environment's own.
	Manifest   string
	ModulePath []string
	// Files keeps the parsed files (manifests, templates, Ruby functions
	// and, unless HieraCache is set, Hiera files) across environments and
	// their reloads (a new one when nil).
	Files *filecache.Cache
	// HieraCache keeps Hiera files across compiles (one on Files when nil).
	HieraCache *hiera.Cache
	// Snapshot loads each environment once and never checks it for
	// changes (environment_timeout unlimited), as a batch run wants; the
	// Hiera cache it makes (when HieraCache is nil) stats each Hiera file
	// once (hiera.NewSnapshotCacheOn).
	Snapshot bool
	// OnLoad, when set, is called with each environment the Loader loads
	// anew (not when it serves a cached one), e.g. to print its
	// deprecation warnings once.
	OnLoad func(*Environment)
}

// Loader finds and loads environments. It is safe for concurrent use.
type Loader struct {
	settings *puppetconf.Settings
	// puppetMajor is the settings' puppet_version (7 or 8).
	puppetMajor int
	opts        Options
	// envPath is the environmentpath made absolute; nil when the loader
	// serves the one non-directory environment.
	envPath []string
	codedir string
	hiera   string // the global hiera.yaml, "" for none
	// catalogSettings are the settings as compiles show them, shared by
	// every environment the Loader loads.
	catalogSettings []Setting
	now             func() time.Time

	// entries maps an environment's key to its entry, read without a
	// lock; mu serialises replacing one.
	entries snapmap.Map[string, *entry]
	mu      sync.Mutex
}

// entry is one environment as last loaded; ready is closed once the other
// fields are set, so concurrent Gets of one environment load it once.
type entry struct {
	ready chan struct{}
	env   *Environment
	// cfg is what env was loaded from: an entry gone stale reuses env when
	// the configuration is the same and no file changed.
	cfg     Config
	err     error
	at      time.Time
	timeout time.Duration
}

// New returns a Loader for the settings.
func New(s *puppetconf.Settings, o Options) *Loader {
	if o.Files == nil {
		o.Files = filecache.New()
	}
	if o.HieraCache == nil && o.Snapshot {
		o.HieraCache = hiera.NewSnapshotCacheOn(o.Files)
	} else if o.HieraCache == nil {
		o.HieraCache = hiera.NewCacheOn(o.Files)
	}
	o.Manifest = abs(o.Manifest)
	if o.ModulePath != nil {
		mp := make([]string, 0, len(o.ModulePath))
		for _, p := range o.ModulePath {
			if p != "" {
				mp = append(mp, abs(p))
			}
		}
		o.ModulePath = mp
	}
	l := &Loader{
		settings: s,
		opts:     o,
		now:      time.Now,

		catalogSettings: catalogSettings(s),
	}
	// An invalid puppet_version is reported where settings are checked
	// (node.NewResolver); here it falls back to the default.
	l.puppetMajor, _ = s.PuppetMajor()
	if s.IsSet(puppetconf.EnvironmentPath) && o.Manifest == "" {
		for _, p := range s.Path(puppetconf.EnvironmentPath) {
			l.envPath = append(l.envPath, abs(p))
		}
	}
	switch {
	case s.IsSet(puppetconf.Codedir):
		l.codedir = abs(s.Get(puppetconf.Codedir))
	case s.IsSet(puppetconf.EnvironmentPath) && len(s.Path(puppetconf.EnvironmentPath)) > 0:
		// marionette's convention when only --environmentpath is given:
		// the environments live in $codedir/environments.
		l.codedir = filepath.Dir(abs(s.Path(puppetconf.EnvironmentPath)[0]))
	}
	if p := s.HieraConfigPath(); s.IsSet(puppetconf.HieraConfig) || exists(s, p) {
		l.hiera = abs(p)
	}
	return l
}

// abs makes a path absolute: catalogs name files by absolute path, as
// Puppet's do.
func abs(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func exists(s *puppetconf.Settings, path string) bool {
	_, err := puppetconf.Stat(s.FS(), path)
	return err == nil
}

// Directories reports whether the Loader serves directory environments.
func (l *Loader) Directories() bool { return l.envPath != nil }

// Settings are the settings the Loader was made from.
func (l *Loader) Settings() *puppetconf.Settings { return l.settings }

// NotFoundError is an environment the Loader cannot find.
type NotFoundError struct {
	Name string
	// Path is the environmentpath searched; nil without directory
	// environments.
	Path []string
}

func (e *NotFoundError) Error() string {
	path := "(no environmentpath)"
	if e.Path != nil {
		path = strings.Join(e.Path, string(filepath.ListSeparator))
	}
	return fmt.Sprintf("Could not find a directory environment named '%s' anywhere in the path: %s. Does the directory exist?", e.Name, path)
}

// Dir returns the directory of environment name: the first directory of
// that name on the environmentpath.
func (l *Loader) Dir(name string) (string, error) {
	if l.envPath == nil || !names.ValidEnvironment(name) {
		return "", &NotFoundError{Name: name, Path: l.envPath}
	}
	for _, p := range l.envPath {
		dir := filepath.Join(p, name)
		if st, err := puppetconf.Stat(l.settings.FS(), dir); err == nil && st.IsDir() {
			return dir, nil
		}
	}
	return "", &NotFoundError{Name: name, Path: l.envPath}
}

// Get returns environment name, loaded, or from the cache while its files
// have not changed (checked once environment_timeout has passed since it
// was loaded).
func (l *Loader) Get(ctx context.Context, name string) (*Environment, error) {
	if l.envPath == nil {
		if name != l.settings.Get(puppetconf.Environment) {
			return nil, &NotFoundError{Name: name}
		}
		return l.get(ctx, "flags\x00"+name, func() (Config, time.Duration, error) {
			timeout, err := l.settings.EnvironmentTimeout()
			return Config{
				Name:        name,
				Manifest:    l.opts.Manifest,
				ModulePath:  l.opts.ModulePath,
				Hiera:       l.hieraOptions(""),
				Settings:    l.catalogSettings,
				PuppetMajor: l.puppetMajor,
			}, timeout, err
		})
	}
	dir, err := l.Dir(name)
	if err != nil {
		return nil, err
	}
	return l.GetDir(ctx, dir, name)
}

// GetDir returns the environment in directory dir, named name, as Get does
// for a directory environment: dir need not be on the environmentpath.
func (l *Loader) GetDir(ctx context.Context, dir, name string) (*Environment, error) {
	dir = abs(dir)
	return l.get(ctx, "dir\x00"+dir+"\x00"+name, func() (Config, time.Duration, error) {
		conf, err := l.settings.ReadEnvironmentConf(dir, name)
		if err != nil {
			return Config{}, 0, err
		}
		mp := conf.ModulePath
		if l.opts.ModulePath != nil {
			mp = l.opts.ModulePath
		}
		return Config{
			Name:        name,
			Manifest:    conf.Manifest,
			ModulePath:  mp,
			Hiera:       l.hieraOptions(dir),
			Settings:    l.catalogSettings,
			PuppetMajor: l.puppetMajor,
		}, conf.Timeout, nil
	})
}

func (l *Loader) hieraOptions(envDir string) HieraOptions {
	return HieraOptions{Cache: l.opts.HieraCache, GlobalConfig: l.hiera, EnvironmentDir: envDir, Codedir: l.codedir}
}

// get serves the environment under key from the cache while it is fresh,
// and otherwise builds its configuration and loads it (once, however many
// goroutines ask): a fresh entry is served without a lock.
func (l *Loader) get(ctx context.Context, key string, config func() (Config, time.Duration, error)) (*Environment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, ok := l.entries.Load(key)
	if !ok || !l.fresh(e) {
		l.mu.Lock()
		prev, _ := l.entries.LoadRecent(key)
		if prev != nil && l.fresh(prev) {
			// Another Get replaced it meanwhile.
			e = prev
			l.mu.Unlock()
		} else {
			e = &entry{ready: make(chan struct{})}
			l.entries.Store(key, e)
			l.mu.Unlock()
			l.load(e, prev, config)
		}
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return e.env, e.err
}

// fresh reports whether e may be served without checking the disk.
func (l *Loader) fresh(e *entry) bool {
	select {
	case <-e.ready:
	default:
		return true // being loaded: wait for it
	}
	if e.err != nil {
		return false
	}
	return l.opts.Snapshot || e.timeout == puppetconf.Unlimited || l.now().Sub(e.at) < e.timeout
}

// load fills e: prev's environment when its configuration is the same and
// none of its files changed, else one loaded anew (through the file cache,
// so that only the files that changed are parsed again).
func (l *Loader) load(e, prev *entry, config func() (Config, time.Duration, error)) {
	defer close(e.ready)
	e.at = l.now()
	cfg, timeout, err := config()
	if err != nil {
		e.err = err
		return
	}
	e.timeout, e.cfg = timeout, cfg
	if prev != nil && prev.env != nil && sameConfig(prev.cfg, cfg) && !prev.env.Changed() {
		e.env = prev.env
		return
	}
	cfg.Files = l.opts.Files
	env, err := Load(cfg)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			err = fmt.Errorf("Could not parse for environment %s: %w", cfg.Name, pe)
		}
		e.err = err
		return
	}
	e.env = env
	if l.opts.OnLoad != nil {
		l.opts.OnLoad(env)
	}
}

// sameConfig reports whether two configurations make the same environment.
// Settings, the Hiera cache and the Puppet major come from the Loader,
// which never changes them.
func sameConfig(a, b Config) bool {
	return a.Name == b.Name && a.Manifest == b.Manifest && slices.Equal(a.ModulePath, b.ModulePath) &&
		a.Hiera.GlobalConfig == b.Hiera.GlobalConfig && a.Hiera.EnvironmentDir == b.Hiera.EnvironmentDir && a.Hiera.Codedir == b.Hiera.Codedir
}
