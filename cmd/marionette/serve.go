package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/server"
	"github.com/marionette-dev/marionette/site"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tuneGC(os.Getenv)
	return serve(ctx, args, stdout, stderr)
}

// Garbage collection for the server, unless GOGC or GOMEMLIMIT say
// otherwise: a compile server's live heap is small (tens of MB) and each
// catalog allocates a few MB, so Go's default GOGC=100 collects all the
// time (16% of serve's CPU, and the p99 latency at 2 clients went from
// 32 ms to 24 ms with 400). The soft memory limit keeps RSS bounded: past
// it the collector works harder instead of the heap growing.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 1 << 30
)

func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}

// serve runs the compile server until ctx is cancelled (SIGINT/SIGTERM).
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	confdir := fs.String("confdir", "", "Puppet's confdir; its puppet.conf is read when present")
	config := fs.String("config", "", "puppet.conf to read (default: $confdir/puppet.conf)")
	codedir := fs.String("codedir", "", "Puppet's codedir")
	vardir := fs.String("vardir", "", "Puppet's vardir: facts and reports are written under it")
	envPath := fs.String("environmentpath", "", "directories of directory environments, separated by ':'")
	bind := fs.String("bind", "0.0.0.0:8140", "address to listen on")
	maxCompiles := fs.Int("max-compiles", 0, "catalogs compiled at once (0: GOMAXPROCS)")
	maxQueued := fs.Int("max-queued", 0, "compiles waiting for a slot before the server answers 503 (0: 32 × max-compiles)")
	timeout := fs.Duration("compile-timeout", server.DefaultCompileTimeout, "time limit of one compile")
	encTimeout := fs.Duration("enc-timeout", server.DefaultENCTimeout, "how long the external node classifier may run")
	handshakeTimeout := fs.Duration("handshake-timeout", server.DefaultHandshakeTimeout, "how long a connection may take for its TLS handshake and request headers")
	sslCert := fs.String("ssl-cert", "", "the server's certificate, PEM (default: $ssldir/certs/$certname.pem)")
	sslKey := fs.String("ssl-key", "", "the server's private key, PEM (default: $ssldir/private_keys/$certname.pem)")
	sslCA := fs.String("ssl-ca", "", "CA certificates client certificates must chain to, PEM (default: $ssldir/certs/ca.pem)")
	sslCRL := fs.String("ssl-crl", "", "CRL of the CA, PEM (default: $ssldir/crl.pem when present)")
	rubyFunctions := fs.String("ruby-functions", "", "module Ruby functions beyond the Ruby subset: auto (run them in Ruby with Puppet's library when it can start, else fail), subset (fail) or helper (run them in Ruby; not starting is the error); default: ruby_functions in puppet.conf, else auto")
	pdbURL := fs.String("puppetdb", "", "PuppetDB `URL` to collect exported resources from and submit facts and catalogs to (default: storeconfigs and $confdir/puppetdb.conf decide)")
	authConf := fs.String("auth-conf", "", "puppetserver's auth.conf (HOCON) to authorize requests by (default: puppetserver's conf.d/auth.conf beside or inside the confdir when there is one, else puppetserver's default rules)")
	pprofOn := fs.Bool("pprof", false, "serve Go's runtime profiles at /debug/pprof/ to admins (pp_cli_auth or --admin-certnames)")
	noReuse := fs.Bool("no-reuse", false, "compile every catalog request (by default a node asking again gets its last catalog when nothing its compile read changed: facts, files, classification, trusted data, config_version)")
	reuseBytes := fs.Int64("reuse-bytes", server.DefaultReuseBytes, "bytes of encoded catalogs kept for reuse, least recently used dropped first")
	admins := fs.String("admin-certnames", "", "certnames allowed the admin API and /puppet/v4/catalog, comma-separated (besides certificates with pp_cli_auth)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette serve [--confdir DIR] [--bind ADDR] [flags]")
		fmt.Fprintln(stderr, "Without --ssl-* flags the server is its own CA (puppet.conf's cadir, autosign, certname,")
		fmt.Fprintln(stderr, "dns_alt_names, keylength): set up on the first start, with the server's certificate.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	// The settings, the environment loader, the classifier, the PuppetDB
	// client, the Ruby helper and the TLS setup come from the site layer;
	// the server builds the site again from new settings on SIGHUP.
	overrides := site.Overrides{Confdir: *confdir, Config: *config, ConfigInConfdir: true, Codedir: *codedir, Vardir: *vardir,
		EnvironmentPath: *envPath, PuppetDB: *pdbURL, RubyFunctions: *rubyFunctions}
	settings, err := overrides.ServerSettings()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	cfg := server.Config{
		Settings:         settings,
		ENCTimeout:       *encTimeout,
		HandshakeTimeout: *handshakeTimeout,
		MaxCompiles:      *maxCompiles,
		MaxQueued:        *maxQueued,
		CompileTimeout:   *timeout,
		Logger:           slog.New(slog.NewTextHandler(stderr, nil)),
		Pprof:            *pprofOn,
		NoReuse:          *noReuse,
		ReuseBytes:       *reuseBytes,
	}
	cfg.AuthConf = *authConf
	if cfg.AuthConf == "" {
		for _, p := range server.AuthConfPaths(settings.Get(puppetconf.Confdir)) {
			if _, err := os.Stat(p); err == nil {
				cfg.AuthConf = p
				break
			}
		}
	}
	if cfg.AuthConf != "" {
		cfg.Logger.Info("authorizing requests by auth.conf", "file", cfg.AuthConf)
	}
	for _, a := range strings.Split(*admins, ",") {
		if a = strings.TrimSpace(a); a != "" {
			cfg.AdminCertnames = append(cfg.AdminCertnames, a)
		}
	}
	pdbLog := func(level, msg string) {
		lv := map[string]slog.Level{"warning": slog.LevelWarn, "err": slog.LevelError, "info": slog.LevelInfo}[level]
		if level == "debug" {
			lv = slog.LevelDebug
		}
		cfg.Logger.Log(context.Background(), lv, msg, "service", "puppetdb")
	}
	st, err := site.New(settings, site.Options{Overrides: overrides, ENCTimeout: *encTimeout, Log: pdbLog, RubyHostProcs: max(2, *maxCompiles), PrivateRubyHost: true})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer st.Close()
	tlsSetup, err := st.ServerTLS(site.TLSFiles{Cert: *sslCert, Key: *sslKey, CA: *sslCA, CRL: *sslCRL}, cfg.Logger)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if tlsSetup.CA != nil {
		cfg.CA = server.FromCA(tlsSetup.CA)
	}
	cfg.CertFile, cfg.KeyFile, cfg.CAFile, cfg.CRLFile = tlsSetup.CertFile, tlsSetup.KeyFile, tlsSetup.CAFile, tlsSetup.CRLFile
	if cfg.PuppetDB, err = st.PuppetDB(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	// storeconfigs and routes.yaml say what reaches PuppetDB.
	termini, warnings, err := st.Termini()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	for _, w := range warnings {
		cfg.Logger.Warn(w)
	}
	cfg.PuppetDBTermini = termini
	if cfg.RubyHost, err = st.RubyHost(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if mode, _ := st.RubyFunctions(); mode == puppetconf.RubyFunctionsHelper && cfg.RubyHost != nil {
		// Kept warm: the first compile that needs Ruby pays a fork, not
		// Puppet's loading; a helper that cannot start is logged here and
		// is each such compile's error.
		go func() {
			if err := cfg.RubyHost.Start(context.Background()); err != nil {
				cfg.Logger.Error("starting the Ruby helper", "error", err)
			}
		}()
	}
	cfg.Site = st
	srv, err := server.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer srv.Close()
	l, err := net.Listen("tcp", *bind)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "marionette serve: listening on https://%s\n", l.Addr())
	start := time.Now()
	// SIGHUP: puppet.conf read again, every environment flushed.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				reload(srv, overrides, cfg.Logger)
			}
		}
	}()
	if err := srv.Serve(ctx, l); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "marionette serve: stopped after %v\n", time.Since(start).Round(time.Second))
	return 0
}

// reload is SIGHUP: puppet.conf is read again and the server takes what
// may change while it runs (see server.Server.Reload); the settings that
// changed but need a restart are logged by name. A puppet.conf that no
// longer loads leaves the running settings in place, and only the
// environments are flushed.
func reload(srv *server.Server, o site.Overrides, log *slog.Logger) {
	settings, err := o.ServerSettings()
	if err == nil {
		err = srv.Reload(settings)
	}
	if err != nil {
		log.Error("SIGHUP: settings not reloaded; environments flushed", "error", err)
		if err := srv.FlushEnvironments(); err != nil {
			log.Error("SIGHUP: flushing the environments", "error", err)
		}
		return
	}
	if changed := srv.RestartNeeded(settings); len(changed) > 0 {
		log.Warn("SIGHUP: these settings changed but take effect only after a restart", "settings", strings.Join(changed, ","))
	}
	log.Info("SIGHUP: settings reloaded (environments, modules, Hiera, node classification, fileserver.conf, autosign, keylength), environments flushed")
}
