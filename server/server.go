// Package server is marionette's compile server: the HTTP API that real
// Puppet agents speak to puppetserver (/puppet/v3: node, catalog, report,
// facts, environments), the status API, the v4 catalog endpoint for services
// and the environment-cache admin endpoint, over TLS with client
// certificates, authorized as puppetserver's default auth.conf does.
//
// The certificate authority (/puppet-ca/v1) is not part of this package: a
// CertAuthority plugs in through Config.CA.
package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// PuppetVersion is the Puppet version the server speaks as, sent in the
// X-Puppet-Version header: agents pick report formats by it.
const PuppetVersion = "7.23.0"

// Defaults of the Config fields left zero.
const (
	DefaultCompileTimeout = 5 * time.Minute
	DefaultMaxBodyBytes   = 32 << 20
	DefaultMaxRetryDelay  = 60 * time.Second
	DefaultENCTimeout     = 30 * time.Second
	// DefaultHandshakeTimeout is the agent's own connect and read bound
	// (http_connect_timeout, 2 minutes): a herd of agents whose TLS
	// handshakes queue for the CPU behind each other is served, not cut
	// off while the agents are still willing to wait.
	DefaultHandshakeTimeout = 2 * time.Minute
)

// Config configures a Server.
type Config struct {
	// Settings are Puppet's settings (puppet.conf): environmentpath,
	// node_terminus, vardir and the rest. Required.
	Settings *puppetconf.Settings
	// Site, when set, is the site of Settings the server starts with (its
	// loader, classifier, store and Ruby helper, built by the caller);
	// flushes and reloads build new ones like it. Nil: the server builds
	// it from the fields below.
	Site *site.Site
	// Environment adjusts the environment loader (e.g. a manifest and
	// module path that replace directory environments).
	Environment environment.Options
	// ENCTimeout bounds an external node classifier run
	// (DefaultENCTimeout when 0).
	ENCTimeout time.Duration

	// CertFile, KeyFile and CAFile are PEM files: the server's certificate
	// and key, and the CA certificates that client certificates must chain
	// to. CRLFile, when set, is the CA's CRL: certificates it revokes are
	// refused. TLSConfig, when set, is used instead of all four.
	CertFile, KeyFile, CAFile, CRLFile string
	TLSConfig                          *tls.Config

	// CA serves /puppet-ca/v1; nil answers 404 there.
	CA CertAuthority

	// MaxCompiles is how many catalogs compile at once (GOMAXPROCS when
	// 0); MaxQueued how many more wait for a slot (32 × MaxCompiles when
	// 0, none when negative: waiting costs little more than the request
	// body, and a warm compile takes milliseconds, so a queue long enough
	// for 16 agents per core keeps 503s for real overload). Past both
	// the server answers 503 with a Retry-After of at most MaxRetryDelay
	// (DefaultMaxRetryDelay when 0), which agents honour.
	MaxCompiles   int
	MaxQueued     int
	MaxRetryDelay time.Duration
	// CompileTimeout bounds one compile, queueing included
	// (DefaultCompileTimeout when 0).
	CompileTimeout time.Duration
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// HandshakeTimeout bounds a connection's TLS handshake and request
	// headers (DefaultHandshakeTimeout when 0).
	HandshakeTimeout time.Duration

	// CommandTimeout bounds an environment's config_version and
	// trusted_external_command (DefaultCommandTimeout when 0).
	CommandTimeout time.Duration

	// AuthConf is puppetserver's auth.conf (HOCON) to authorize requests
	// by; "" is puppetserver's default rules, built in. It is read again
	// on Reload.
	AuthConf string

	// Pprof serves Go's runtime profiles at /debug/pprof/ to admins
	// (--pprof); off, that path answers 404 saying how to turn it on.
	Pprof bool

	// AdminCertnames may use the admin API and /puppet/v4/catalog, as may
	// any certificate with the pp_cli_auth extension set to "true"
	// (puppetserver's own certificate carries it).
	AdminCertnames []string

	// Logger receives one line per request and the compiles' messages
	// (slog.Default() when nil).
	Logger *slog.Logger

	// PuppetDB, when set, is the storeconfigs backend: compiles collect
	// exported resources from it, and facts and catalogs are submitted to
	// it as Puppet's termini do (server/puppetdb.go). PuppetDBQueue bounds
	// the commands waiting for submission (DefaultPuppetDBQueue when 0).
	PuppetDB      *puppetdb.Client
	PuppetDBQueue int
	// PuppetDBTermini says what reaches PuppetDB (storeconfigs and
	// routes.yaml, site.StoreTermini); nil: everything.
	PuppetDBTermini *puppetdb.Termini

	// RubyHost, when set, runs the module Ruby functions beyond the Ruby
	// subset for every compile (ruby_functions = helper); the caller
	// closes it.
	RubyHost *rubyhost.Host

	// NoReuse turns catalog reuse off: every catalog request compiles.
	// Otherwise a node that asks again gets its last catalog when nothing
	// its compile read changed (server/reuse.go), kept in at most
	// ReuseBytes (DefaultReuseBytes when 0).
	NoReuse    bool
	ReuseBytes int64
}

// Server is a compile server. It is safe for concurrent use.
type Server struct {
	cfg Config
	log *slog.Logger
	// site classifies nodes and loads environments; flush and Reload
	// replace it.
	site  atomic.Pointer[site.Site]
	limit *limiter
	// uploads are the places of unauthenticated requests sending a body.
	uploads chan struct{}
	// factsDir and reportDir are where facts and reports are written:
	// puppetserver's $vardir/yaml/facts and $reportdir.
	factsDir, reportDir string
	// factsOut writes the facts cache off the request path.
	factsOut *factsWriter
	tls      *tls.Config
	start    time.Time
	admins   map[string]bool
	rules    atomic.Pointer[[]rule]
	pdb      *pdbWriter
	metrics  *metrics
	// settings are those environments load with: Config.Settings, or the
	// last Reload's.
	settings atomic.Pointer[puppetconf.Settings]
	// reports are the report processors, fixed at the start.
	reports *reportProcessors
	// serverFacts are the server's own facts, added to every compile.
	serverFacts *value.Hash
	// fixed is what of the start's settings Reload cannot change.
	fixed site.Fixed
	// fileMounts are fileserver.conf's mounts, read with the settings.
	fileMounts atomic.Pointer[[]puppetconf.Mount]
	// reuse keeps the nodes' last catalogs for reuse; nil with NoReuse.
	reuse *reuseCache
	// compileFn is compiler.Compile; tests replace it.
	compileFn func(context.Context, *compiler.Environment, *compiler.Request) (*compiler.Result, error)
}

// New makes a Server; it loads the TLS files but no environment yet.
func New(cfg Config) (*Server, error) {
	if cfg.Settings == nil {
		return nil, errors.New("server: Config.Settings is required")
	}
	if cfg.ENCTimeout == 0 {
		cfg.ENCTimeout = DefaultENCTimeout
	}
	if cfg.MaxCompiles <= 0 {
		cfg.MaxCompiles = runtime.GOMAXPROCS(0)
	}
	switch {
	case cfg.MaxQueued == 0:
		cfg.MaxQueued = 32 * cfg.MaxCompiles
	case cfg.MaxQueued < 0:
		cfg.MaxQueued = 0
	}
	if cfg.MaxRetryDelay <= 0 {
		cfg.MaxRetryDelay = DefaultMaxRetryDelay
	}
	if cfg.CompileTimeout <= 0 {
		cfg.CompileTimeout = DefaultCompileTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		limit:   newLimiter(cfg.MaxCompiles, cfg.MaxQueued),
		uploads: make(chan struct{}, MaxUnauthenticatedUploads),
		start:   time.Now(),
		admins:  make(map[string]bool),
		metrics: newMetrics(),
	}
	if !cfg.NoReuse {
		s.reuse = newReuseCache(cfg.ReuseBytes)
	}
	rules, err := authRules(cfg.AuthConf)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.rules.Store(&rules)
	s.settings.Store(cfg.Settings)
	s.fixed = site.FixedOf(cfg.Settings)
	mounts, err := cfg.Settings.FileserverMounts()
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.fileMounts.Store(&mounts)
	if s.reports, err = parseReportProcessors(cfg.Settings); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if err := checkTrustedExternal(cfg.Settings); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.compileFn = compiler.Compile
	s.serverFacts = serverFacts()
	for _, n := range cfg.AdminCertnames {
		s.admins[n] = true
	}
	vardir := cfg.Settings.Get(puppetconf.Vardir)
	if vardir == "" {
		return nil, errors.New("server: the vardir setting is empty")
	}
	s.factsDir = site.FactsCacheDir(cfg.Settings)
	s.reportDir = cfg.Settings.Get("reportdir")
	if s.reportDir == "" {
		s.reportDir = filepath.Join(vardir, "reports")
	}
	if cfg.Site != nil {
		s.site.Store(cfg.Site)
	} else if err := s.flush(); err != nil {
		return nil, err
	}
	t, err := s.tlsConfig()
	if err != nil {
		return nil, err
	}
	s.tls = t
	s.pdb = newPDBWriter(cfg.PuppetDB, cfg.PuppetDBQueue, s.log, cfg.Settings.Get(puppetconf.Certname), cfg.PuppetDBTermini)
	s.factsOut = newFactsWriter(DefaultFactsQueue, s.log, s.writeFactsFile)
	return s, nil
}

// flush replaces the environment loader by a new one, so that every
// environment is read afresh on its next use (the environment-cache admin
// endpoint). Compiles under way keep the environment they hold.
func (s *Server) flush() error {
	st, err := s.newSite(s.settings.Load())
	if err != nil {
		return err
	}
	s.site.Store(st)
	return nil
}

// newSite is the server's site of settings: its environment loader and
// classifier, with the PuppetDB store and the Ruby helper the server was
// started with (kept across reloads), and its facts cache.
func (s *Server) newSite(settings *puppetconf.Settings) (*site.Site, error) {
	o := site.Options{
		Overrides:      site.Overrides{Manifest: s.cfg.Environment.Manifest, ModulePath: s.cfg.Environment.ModulePath},
		LoaderOptions:  s.cfg.Environment,
		ENCTimeout:     s.cfg.ENCTimeout,
		RubyHost:       s.cfg.RubyHost,
		Store:          s.store,
		PuppetDBClient: s.cfg.PuppetDB,
		FactsCacheDir:  s.factsDir,
	}
	if o.RubyHost == nil {
		// No helper of the site's own: the caller gives the server one.
		o.RubyFunctions = puppetconf.RubyFunctionsSubset
	}
	return site.New(settings, o)
}

// store is the PuppetDB compiles collect from: the server's, when
// storeconfigs (or --puppetdb) says to collect.
func (s *Server) store() *puppetdb.Client {
	if s.pdb != nil && s.pdb.termini.Collect {
		return s.pdb.client
	}
	return nil
}

// FlushEnvironments makes every environment load afresh on its next use,
// as the environment-cache admin endpoint does (SIGHUP).
func (s *Server) FlushEnvironments() error {
	if err := s.flush(); err != nil {
		return err
	}
	s.metrics.flushes.Add(1)
	return nil
}

// Reload takes new settings for loading environments and classifying nodes
// (environmentpath, basemodulepath, node_terminus, external_nodes,
// hiera_config, environment_timeout, ...), fileserver.conf, and the CA's
// signing policy (autosign, keylength) when the server is its own CA, and
// flushes every environment. What is fixed at the start stays (see
// RestartNeeded). On an error nothing changes.
func (s *Server) Reload(settings *puppetconf.Settings) error {
	if settings == nil {
		return errors.New("server: Reload: no settings")
	}
	st, err := s.newSite(settings)
	if err != nil {
		return err
	}
	mounts, err := settings.FileserverMounts()
	if err != nil {
		return err
	}
	rules, err := authRules(s.cfg.AuthConf)
	if err != nil {
		return err
	}
	if err := checkTrustedExternal(settings); err != nil {
		return err
	}
	if a, ok := s.cfg.CA.(caAdapter); ok {
		opts, err := site.CAOptions(settings, s.log)
		if err != nil {
			return err
		}
		a.c.SetOptions(opts)
	}
	s.rules.Store(&rules)
	s.fileMounts.Store(&mounts)
	s.settings.Store(settings)
	s.site.Store(st)
	s.metrics.flushes.Add(1)
	return nil
}

func (s *Server) commandTimeout() time.Duration {
	if s.cfg.CommandTimeout > 0 {
		return s.cfg.CommandTimeout
	}
	return DefaultCommandTimeout
}

// RestartNeeded lists the settings and files that differ between the
// server's start and settings but apply only after a restart (certname,
// ssldir, vardir, reports, PuppetDB, ...; site.FixedOf).
func (s *Server) RestartNeeded(settings *puppetconf.Settings) []string {
	return site.RestartNeeded(s.fixed, site.FixedOf(settings))
}

// TLSConfig is the server's TLS configuration: TLS 1.2 or later, client
// certificates verified when given but optional (agents without a
// certificate yet need the CA endpoints).
func (s *Server) TLSConfig() *tls.Config { return s.tls.Clone() }

func (s *Server) tlsConfig() (*tls.Config, error) {
	if s.cfg.TLSConfig != nil {
		return s.cfg.TLSConfig.Clone(), nil
	}
	if s.cfg.CertFile == "" || s.cfg.KeyFile == "" || s.cfg.CAFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(s.cfg.CertFile, s.cfg.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	caPEM, err := os.ReadFile(s.cfg.CAFile)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("server: no certificate in %s", s.cfg.CAFile)
	}
	t := &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.VerifyClientCertIfGiven,
		ClientCAs:    pool,
		// Records of 16 KB from the first: agents talk to their server
		// on a LAN, on a new connection every run, where records growing
		// from a packet's size only cost seals and writes.
		DynamicRecordSizingDisabled: true,
	}
	if s.cfg.CRLFile != "" {
		w := &crlWatcher{path: s.cfg.CRLFile}
		if _, err := w.revoked(); err != nil {
			return nil, err
		}
		// VerifyConnection, not VerifyPeerCertificate: it runs for resumed
		// TLS sessions too, so that a certificate revoked after its
		// session began cannot resume it (agents resume sessions).
		t.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return nil
			}
			revoked, err := w.revoked()
			if err != nil {
				return err
			}
			if revoked[cs.PeerCertificates[0].SerialNumber.String()] {
				return errors.New("client certificate revoked")
			}
			return nil
		}
	}
	return t, nil
}

// crlWatcher holds the serials a CRL file revokes, read again when the
// file changes (a revoke by `marionette ca revoke` while the server runs);
// a stat per handshake is the cost.
type crlWatcher struct {
	path string

	mu      sync.Mutex
	mtime   time.Time
	size    int64
	serials map[string]bool
}

// revoked returns the current revoked serials. A CRL that turns unreadable
// after a good read keeps the last good list rather than refusing everyone.
func (w *crlWatcher) revoked() (map[string]bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fi, err := os.Stat(w.path)
	if err != nil {
		if w.serials != nil {
			return w.serials, nil
		}
		return nil, fmt.Errorf("server: %w", err)
	}
	if w.serials != nil && fi.ModTime().Equal(w.mtime) && fi.Size() == w.size {
		return w.serials, nil
	}
	serials, err := readCRL(w.path)
	if err != nil {
		if w.serials != nil {
			return w.serials, nil
		}
		return nil, err
	}
	w.serials, w.mtime, w.size = serials, fi.ModTime(), fi.Size()
	return serials, nil
}

// readCRL returns the serial numbers a PEM CRL file revokes.
func readCRL(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	revoked := make(map[string]bool)
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "X509 CRL" {
			continue
		}
		crl, err := x509.ParseRevocationList(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("server: %s: %w", path, err)
		}
		for _, e := range crl.RevokedCertificateEntries {
			revoked[e.SerialNumber.String()] = true
		}
	}
	return revoked, nil
}

// Serve serves HTTPS on l until ctx is cancelled, then shuts down
// gracefully: requests under way get up to 30 seconds to finish.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	if s.tls == nil {
		return errors.New("server: no TLS configuration (certificate, key and CA files)")
	}
	hs := &http.Server{
		Handler:   s.Handler(),
		TLSConfig: s.TLSConfig(),
		// Go bounds the TLS handshake by this too.
		ReadHeaderTimeout: s.cfg.HandshakeTimeout,
		// Bounds reading a request body (not the compile, which runs after
		// the body is read).
		ReadTimeout:    5 * time.Minute,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
		BaseContext:    func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(tls.NewListener(l, hs.TLSConfig)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	<-done
	// The facts of the last requests reach the disk before Serve returns.
	s.factsOut.flush()
	return err
}

// ListenAndServeTLS listens on addr (host:port) and serves until ctx is
// cancelled.
func (s *Server) ListenAndServeTLS(ctx context.Context, addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, l)
}
