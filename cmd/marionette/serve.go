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
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/server"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
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
	maxQueued := fs.Int("max-queued", 0, "compiles waiting for a slot before the server answers 503 (0: 4 × max-compiles)")
	timeout := fs.Duration("compile-timeout", server.DefaultCompileTimeout, "time limit of one compile")
	encTimeout := fs.Duration("enc-timeout", server.DefaultENCTimeout, "how long the external node classifier may run")
	sslCert := fs.String("ssl-cert", "", "the server's certificate, PEM (default: $ssldir/certs/$certname.pem)")
	sslKey := fs.String("ssl-key", "", "the server's private key, PEM (default: $ssldir/private_keys/$certname.pem)")
	sslCA := fs.String("ssl-ca", "", "CA certificates client certificates must chain to, PEM (default: $ssldir/certs/ca.pem)")
	sslCRL := fs.String("ssl-crl", "", "CRL of the CA, PEM (default: $ssldir/crl.pem when present)")
	admins := fs.String("admin-certnames", "", "certnames allowed the admin API and /puppet/v4/catalog, comma-separated (besides certificates with pp_cli_auth)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette serve [--confdir DIR] [--bind ADDR] [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	o := puppetconf.DefaultOptions()
	o.Flags = map[string]string{}
	for name, v := range map[string]string{puppetconf.Confdir: *confdir, puppetconf.Codedir: *codedir, puppetconf.Vardir: *vardir, puppetconf.EnvironmentPath: *envPath} {
		if v != "" {
			o.Flags[name] = v
		}
	}
	o.Config = *config
	if o.Config == "" && *confdir != "" {
		if p := filepath.Join(*confdir, "puppet.conf"); fileExists(p) {
			o.Config = p
		}
	}
	settings, err := puppetconf.Load(o)
	if err == nil && !settings.IsSet(puppetconf.EnvironmentPath) {
		// A server always serves directory environments ($codedir/environments
		// by default), unlike marionette's one-off commands.
		o.Flags[puppetconf.EnvironmentPath] = settings.Get(puppetconf.EnvironmentPath)
		settings, err = puppetconf.Load(o)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	ssldir := settings.Get("ssldir")
	if ssldir == "" {
		ssldir = filepath.Join(settings.Get(puppetconf.Confdir), "ssl")
	}
	certname := settings.Get(puppetconf.Certname)
	orDefault := func(v, def string) string {
		if v != "" {
			return v
		}
		return def
	}
	crl := *sslCRL
	if crl == "" && fileExists(filepath.Join(ssldir, "crl.pem")) {
		crl = filepath.Join(ssldir, "crl.pem")
	}
	cfg := server.Config{
		Settings:       settings,
		ENCTimeout:     *encTimeout,
		CertFile:       orDefault(*sslCert, filepath.Join(ssldir, "certs", certname+".pem")),
		KeyFile:        orDefault(*sslKey, filepath.Join(ssldir, "private_keys", certname+".pem")),
		CAFile:         orDefault(*sslCA, filepath.Join(ssldir, "certs", "ca.pem")),
		CRLFile:        crl,
		MaxCompiles:    *maxCompiles,
		MaxQueued:      *maxQueued,
		CompileTimeout: *timeout,
		Logger:         slog.New(slog.NewTextHandler(stderr, nil)),
	}
	for _, a := range strings.Split(*admins, ",") {
		if a = strings.TrimSpace(a); a != "" {
			cfg.AdminCertnames = append(cfg.AdminCertnames, a)
		}
	}
	srv, err := server.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	l, err := net.Listen("tcp", *bind)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "marionette serve: listening on https://%s\n", l.Addr())
	start := time.Now()
	if err := srv.Serve(ctx, l); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "marionette serve: stopped after %v\n", time.Since(start).Round(time.Second))
	return 0
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
