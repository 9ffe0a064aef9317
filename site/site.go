// Package site is marionette's one wiring from Puppet's settings to running
// compiles: puppet.conf with typed overrides over it (a command's flags, a
// test's fields), loaded once, and from those settings, built once, the
// environment loader, the node classifier (plain or an ENC), the PuppetDB
// client, the Ruby helper, the limits and the facts reader. Every command,
// the compile server and the conformance suite compile through a Site, so
// what the suite checks is what the commands and the server do.
package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/value"
)

// Overrides are settings given over puppet.conf, typed. An empty or nil
// field leaves its setting to puppet.conf or Puppet's default.
type Overrides struct {
	// Config is puppet.conf's path ("" reads none, but see
	// ConfigInConfdir).
	Config string
	// ConfigInConfdir reads $confdir/puppet.conf of Puppet's default
	// confdir when Config and Confdir are "", as Puppet's commands do
	// (every marionette command sets it; a library caller need not read
	// the machine's puppet.conf). A Confdir given always has its
	// puppet.conf read, when there is one, and must exist.
	ConfigInConfdir          bool
	Confdir, Codedir, Vardir string
	// EnvironmentPath is a list of directories separated by ':'.
	EnvironmentPath string
	Environment     string
	HieraConfig     string
	// Manifest and ModulePath are --manifest and --modulepath: with
	// Manifest set the compile uses no directory environment (see
	// environment.Options).
	Manifest   string
	ModulePath []string
	// ENC is an external node classifier: node_terminus = exec with this
	// external_nodes.
	ENC                    string
	StrictHostnameChecking *bool
	// PuppetVersion (7 or 8), Strict (off, warning, error),
	// StrictVariables and RubyFunctions (auto, subset, helper) are Puppet's
	// strictness settings and marionette's ruby_functions.
	PuppetVersion   string
	Strict          string
	StrictVariables *bool
	RubyFunctions   string
	// PuppetDB is the URL of a PuppetDB to collect exported resources
	// from, answer puppetdb_query and read facts with, whatever
	// storeconfigs says (--puppetdb). Without it storeconfigs, routes.yaml
	// and puppetdb.conf decide.
	PuppetDB string
}

// flags are the overrides as puppetconf takes settings given on the
// command line, by setting name.
func (o *Overrides) flags() map[string]string {
	m := map[string]string{}
	for key, v := range map[string]string{
		puppetconf.Confdir:         o.Confdir,
		puppetconf.Codedir:         o.Codedir,
		puppetconf.Vardir:          o.Vardir,
		puppetconf.EnvironmentPath: o.EnvironmentPath,
		puppetconf.Environment:     o.Environment,
		puppetconf.HieraConfig:     o.HieraConfig,
		puppetconf.PuppetVersion:   o.PuppetVersion,
		puppetconf.Strict:          o.Strict,
		puppetconf.RubyFunctions:   o.RubyFunctions,
	} {
		if v != "" {
			m[key] = v
		}
	}
	if o.ENC != "" {
		m[puppetconf.NodeTerminus] = "exec"
		m[puppetconf.ExternalNodes] = o.ENC
	}
	for key, b := range map[string]*bool{
		puppetconf.StrictHostnameChecking: o.StrictHostnameChecking,
		puppetconf.StrictVariables:        o.StrictVariables,
	} {
		if b != nil {
			m[key] = strconv.FormatBool(*b)
		}
	}
	return m
}

// Settings loads puppet.conf with the overrides over it.
func (o *Overrides) Settings() (*puppetconf.Settings, error) {
	po := puppetconf.DefaultOptions()
	po.Flags = o.flags()
	if o.Confdir != "" {
		// A confdir that is not there is a mistyped flag: going on would
		// read no settings (or set up a new CA) without a word.
		if fi, err := os.Stat(o.Confdir); err != nil || !fi.IsDir() {
			return nil, inputErrorf("confdir %s does not exist or is not a directory", o.Confdir)
		}
	}
	po.Config = o.Config
	if po.Config == "" && (o.Confdir != "" || o.ConfigInConfdir) {
		defaults, err := puppetconf.Load(po)
		if err != nil {
			return nil, err
		}
		if p := filepath.Join(defaults.Get(puppetconf.Confdir), "puppet.conf"); fileExists(p) {
			po.Config = p
		}
	}
	return puppetconf.Load(po)
}

// ServerSettings loads the settings as a compile server uses them: with
// directory environments always ($codedir/environments by default),
// unlike the one-off commands, which compile --manifest without one.
func (o *Overrides) ServerSettings() (*puppetconf.Settings, error) {
	s, err := o.Settings()
	if err != nil || s.IsSet(puppetconf.EnvironmentPath) {
		return s, err
	}
	withPath := *o
	withPath.EnvironmentPath = s.Get(puppetconf.EnvironmentPath)
	return withPath.Settings()
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Options are a Site's inputs besides the settings.
type Options struct {
	Overrides
	// Limits bound each compile (zero fields: the defaults, MaxMemory's
	// DefaultMaxMemory); MaxYAMLNodes bounds facts files and the
	// classifier's output too.
	Limits compiler.Limits
	// ENCTimeout bounds a classifier run (0: enc.DefaultTimeout);
	// ENCMaxOutput its output in bytes (0: enc.DefaultMaxOutput).
	ENCTimeout   time.Duration
	ENCMaxOutput int
	// LoaderOptions adjust the environment loader (Snapshot for a batch
	// run); its Manifest and ModulePath are the Overrides'.
	LoaderOptions environment.Options
	// Log receives the PuppetDB client's log lines and puppetdb.conf's
	// and routes.yaml's warnings (level: warning, err, info, debug); nil
	// discards them.
	Log func(level, msg string)
	// RubyHost, when set, runs module Ruby functions beyond the subset for
	// every compile, whatever ruby_functions says; the caller closes it.
	// Nil: the Site makes one when ruby_functions is auto or helper (Close
	// closes it), of RubyHostProcs sessions at most (0: rubyhost's
	// default): the helper shared by the user's marionette processes
	// (RubyHostDir), or with PrivateRubyHost one of the Site's own, which
	// Close stops (a server's).
	RubyHost        *rubyhost.Host
	RubyHostProcs   int
	PrivateRubyHost bool
	// PuppetDBClient, when set, is the Site's PuppetDB client instead of
	// one made from the settings, and Store decides the PuppetDB compiles
	// collect from (nil: none): a compile server decides both once, at its
	// start, and keeps them across reloads.
	PuppetDBClient *puppetdb.Client
	Store          func() *puppetdb.Client
	// FactsCacheDir is the compile server's facts cache (FactsCache);
	// "" is FactsCacheDir of the settings.
	FactsCacheDir string
}

// Site is everything a compile needs from the settings, built once. It is
// safe for concurrent use.
type Site struct {
	opts     Options
	settings *puppetconf.Settings
	loader   *environment.Loader
	resolver *node.Resolver

	pdbOnce sync.Once
	pdb     *puppetdb.Client
	pdbErr  error

	rubyOnce    sync.Once
	rubyHost    *rubyhost.Host
	ownRubyHost bool
	rubyErr     error
}

// Open loads the settings (puppet.conf with the overrides) and builds the
// Site. Its errors are InputErrors: about the settings, not a node.
func Open(o Options) (*Site, error) {
	s, err := o.Settings()
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return New(s, o)
}

// New builds the Site of settings s; o's Overrides are not loaded again
// (PuppetDB, Manifest, ModulePath and RubyFunctions still count).
func New(s *puppetconf.Settings, o Options) (*Site, error) {
	eo := o.LoaderOptions
	eo.Manifest = o.Manifest
	eo.ModulePath = o.ModulePath
	l := environment.New(s, eo)
	r, err := node.NewResolver(l, o.ENCTimeout)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	r.Classifier.MaxOutput = o.ENCMaxOutput
	r.Classifier.MaxYAMLNodes = o.Limits.MaxYAMLNodes
	if o.Limits.MaxMemory == 0 {
		o.Limits.MaxMemory = DefaultMaxMemory()
	}
	return &Site{opts: o, settings: s, loader: l, resolver: r}, nil
}

// Settings are the Site's Puppet settings.
func (s *Site) Settings() *puppetconf.Settings { return s.settings }

// Loader is the Site's environment loader.
func (s *Site) Loader() *environment.Loader { return s.loader }

// Resolver classifies nodes and loads their environments.
func (s *Site) Resolver() *node.Resolver { return s.resolver }

// Limits are the limits of every compile of the Site.
func (s *Site) Limits() compiler.Limits { return s.opts.Limits }

// Environment is the configured environment's name.
func (s *Site) Environment() string { return s.resolver.Environment }

// Classify checks that the configured environment exists and classifies
// node name (plain, or with the ENC).
func (s *Site) Classify(ctx context.Context, name string) (*node.Node, error) {
	return s.resolver.Classify(ctx, name)
}

// ClassifyIn classifies node name whose agent asked for environment env;
// the ENC may move it elsewhere.
func (s *Site) ClassifyIn(ctx context.Context, name, env string) (*node.Node, error) {
	return s.resolver.Classifier.Classify(ctx, name, env)
}

// LoadEnvironment loads the classified node's environment.
func (s *Site) LoadEnvironment(ctx context.Context, n *node.Node) (*compiler.Environment, error) {
	return s.resolver.LoadEnvironment(ctx, n)
}

// HasEnvironment reports whether the Site serves environment name.
func (s *Site) HasEnvironment(name string) bool {
	if s.loader.Directories() {
		_, err := s.loader.Dir(name)
		return err == nil
	}
	return name == s.settings.Get(puppetconf.Environment)
}

// Request is the compile request of the classified node n with these
// facts: the settings' strictness, the limits, the Ruby helper, and the
// PuppetDB store when storeconfigs (or --puppetdb) collects.
func (s *Site) Request(n *node.Node, facts *value.Hash) (*compiler.Request, error) {
	req := s.resolver.Request(n, facts)
	req.Limits = s.opts.Limits
	store, err := s.Store()
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if store != nil {
		req.Store = store
	}
	if req.RubyHost, err = s.RubyHost(); err != nil {
		return nil, &InputError{Err: err}
	}
	req.RubyHostOptional = s.rubyHostOptional()
	return req, nil
}

// Prepare classifies node name and loads its environment; the request
// carries facts.
func (s *Site) Prepare(ctx context.Context, name string, facts *value.Hash) (*compiler.Environment, *compiler.Request, error) {
	return s.prepare(ctx, name, facts, s.Request)
}

// PrepareLookup is Prepare for Hiera lookups (`marionette lookup`),
// which evaluate no collector or puppetdb_query: the request has no
// PuppetDB store, so that a lookup needs no PuppetDB connection.
func (s *Site) PrepareLookup(ctx context.Context, name string, facts *value.Hash) (*compiler.Environment, *compiler.Request, error) {
	return s.prepare(ctx, name, facts, func(n *node.Node, facts *value.Hash) (*compiler.Request, error) {
		req := s.resolver.Request(n, facts)
		req.Limits = s.opts.Limits
		var err error
		if req.RubyHost, err = s.RubyHost(); err != nil {
			return nil, &InputError{Err: err}
		}
		req.RubyHostOptional = s.rubyHostOptional()
		return req, nil
	})
}

func (s *Site) prepare(ctx context.Context, name string, facts *value.Hash, request func(*node.Node, *value.Hash) (*compiler.Request, error)) (*compiler.Environment, *compiler.Request, error) {
	if s.resolver.Classifier.ENC != "" {
		// The classifier is a process the compile waits for: meanwhile,
		// load the environment the node is in unless the ENC moves it
		// (the loader's cache then has it, or is loading it, when asked
		// below; if the ENC moves the node, the load only warmed a cache).
		warmed := make(chan struct{})
		go func() {
			defer close(warmed)
			_, _ = s.resolver.Loader.Get(ctx, s.resolver.Environment) // the load below reports errors
		}()
		defer func() { <-warmed }()
	}
	n, err := s.Classify(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	env, err := s.LoadEnvironment(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	req, err := request(n, facts)
	if err != nil {
		return nil, nil, err
	}
	return env, req, nil
}

// Compile prepares node name with facts and compiles its catalog.
func (s *Site) Compile(ctx context.Context, name string, facts *value.Hash) (*compiler.Result, error) {
	env, req, err := s.Prepare(ctx, name, facts)
	if err != nil {
		return nil, err
	}
	return compiler.Compile(ctx, env, req)
}

// Close stops the Ruby helper the Site started, if any.
func (s *Site) Close() error {
	if !s.ownRubyHost || s.rubyHost == nil {
		return nil
	}
	return s.rubyHost.Close()
}

// InputError is an error about the command line, the settings or the facts
// rather than about compiling the node: it is rendered without Puppet's
// " on node N".
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error itself.
func (e *InputError) Unwrap() error { return e.Err }

// inputErrorf is an InputError with a formatted message.
func inputErrorf(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}
