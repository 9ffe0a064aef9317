package site

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
)

// Settings of Puppet's storeconfigs that marionette reads.
const (
	StoreConfigs        = "storeconfigs"
	StoreConfigsBackend = "storeconfigs_backend"
)

// PuppetDB is the PuppetDB client the settings ask for, made on first
// call; nil when they ask for none: the PuppetDB override wins; otherwise
// storeconfigs = true with storeconfigs_backend = puppetdb (Puppet 7's
// default backend), or a route file sending facts or catalogs to PuppetDB
// (StoreTermini), reads $confdir/puppetdb.conf as the termini do, with
// Puppet's certificate for https server_urls.
func (s *Site) PuppetDB() (*puppetdb.Client, error) {
	s.pdbOnce.Do(func() {
		if s.opts.PuppetDBClient != nil {
			s.pdb = s.opts.PuppetDBClient
			return
		}
		s.pdb, s.pdbErr = s.newPuppetDB(false)
	})
	return s.pdb, s.pdbErr
}

// Store is the PuppetDB that compiles collect exported resources from and
// answer puppetdb_query with: the PuppetDB override, or PuppetDB when
// storeconfigs is on (routes alone do not collect, as in Puppet); nil
// otherwise.
func (s *Site) Store() (*puppetdb.Client, error) {
	if s.opts.Store != nil {
		return s.opts.Store(), nil
	}
	if s.opts.PuppetDB == "" && s.settings.Get(StoreConfigs) != "true" {
		return nil, nil
	}
	return s.PuppetDB()
}

// NeedPuppetDB is PuppetDB for a use that cannot do without one (what
// names it, e.g. "--facts puppetdb"): naming none is an InputError.
func (s *Site) NeedPuppetDB(what string) (*puppetdb.Client, error) {
	c, err := s.PuppetDB()
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if c == nil {
		return nil, inputErrorf("%s needs a PuppetDB: give --puppetdb URL, or a puppet.conf with storeconfigs and puppetdb.conf", what)
	}
	return c, nil
}

// ConfiguredPuppetDB is a client for the PuppetDB override, else for the
// PuppetDB of $confdir/puppetdb.conf whatever storeconfigs says, as
// `puppet node deactivate` finds it.
func (s *Site) ConfiguredPuppetDB() (*puppetdb.Client, error) {
	return s.newPuppetDB(true)
}

// Termini says what a compile server sends to PuppetDB, with the route
// file's warnings: nil (everything) with the PuppetDB override, else
// StoreTermini.
func (s *Site) Termini() (*puppetdb.Termini, []string, error) {
	if s.opts.PuppetDB != "" {
		return nil, nil, nil
	}
	t, warnings, err := StoreTermini(s.settings)
	if err != nil {
		return nil, nil, err
	}
	return &t, warnings, nil
}

func (s *Site) newPuppetDB(anyway bool) (*puppetdb.Client, error) {
	if u := s.opts.PuppetDB; u != "" {
		hc, err := tlsClientFor(s.settings, u)
		if err != nil {
			return nil, err
		}
		return puppetdb.NewURL(u, puppetdb.Options{HTTPClient: hc, Logf: s.opts.Log})
	}
	if anyway {
		return confClient(s.settings, s.opts.Log)
	}
	if s.settings.Get(StoreConfigs) == "true" {
		if b := s.settings.Get(StoreConfigsBackend); b != "" && b != "puppetdb" {
			return nil, fmt.Errorf("storeconfigs_backend '%s' is not supported: marionette stores to PuppetDB only", b)
		}
	}
	// routes.yaml may send facts or catalogs to PuppetDB without
	// storeconfigs.
	t, _, err := StoreTermini(s.settings)
	if err != nil {
		return nil, err
	}
	if !t.Any() {
		return nil, nil
	}
	return confClient(s.settings, s.opts.Log)
}

// confClient is a client for the PuppetDB of $confdir/puppetdb.conf.
func confClient(s *puppetconf.Settings, logf func(level, msg string)) (*puppetdb.Client, error) {
	path := filepath.Join(s.Get(puppetconf.Confdir), "puppetdb.conf")
	cfg, warnings, err := puppetdb.ReadConfig(s.FS(), path)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		if logf != nil {
			logf("warning", w)
		}
	}
	var hc *http.Client
	for _, u := range urlStrings(cfg) {
		if strings.HasPrefix(u, "https:") {
			if hc, err = tlsClientFor(s, u); err != nil {
				return nil, err
			}
			break
		}
	}
	return puppetdb.New(cfg, puppetdb.Options{HTTPClient: hc, Logf: logf})
}

// StoreTermini says what reaches PuppetDB under these settings
// (storeconfigs, storeconfigs_backend) and the route file ($route_file,
// default $confdir/routes.yaml), as a compile server applies them; it
// returns the route file's warnings.
func StoreTermini(s *puppetconf.Settings) (puppetdb.Termini, []string, error) {
	path := s.Get("route_file")
	if path == "" {
		path = filepath.Join(s.Get(puppetconf.Confdir), "routes.yaml")
	} else if strings.Contains(path, "$") {
		p, err := s.Interpolate(path, nil)
		if err != nil {
			return puppetdb.Termini{}, nil, err
		}
		path = p
	}
	routes, warnings, err := puppetdb.ReadRoutes(s.FS(), path)
	if err != nil {
		return puppetdb.Termini{}, nil, err
	}
	return puppetdb.ServerTermini(s.Get(StoreConfigs) == "true", s.Get(StoreConfigsBackend), routes), warnings, nil
}

func urlStrings(cfg *puppetdb.Config) []string {
	var out []string
	for _, list := range [][]*url.URL{cfg.ServerURLs, cfg.SubmitOnlyServerURLs} {
		for _, u := range list {
			out = append(out, u.String())
		}
	}
	return out
}

// tlsClientFor is nil for an http URL; for https, a client presenting
// Puppet's certificate ($hostcert, $hostprivkey) and trusting its CA
// ($localcacert), as the termini connect.
func tlsClientFor(s *puppetconf.Settings, u string) (*http.Client, error) {
	if !strings.HasPrefix(u, "https:") {
		return nil, nil
	}
	get := func(name, def string) string {
		if v := s.Get(name); v != "" {
			return v
		}
		return def
	}
	ssldir := get("ssldir", filepath.Join(s.Get(puppetconf.Confdir), "ssl"))
	certname := s.Get(puppetconf.Certname)
	cert := get("hostcert", filepath.Join(ssldir, "certs", certname+".pem"))
	key := get("hostprivkey", filepath.Join(ssldir, "private_keys", certname+".pem"))
	ca := get("localcacert", filepath.Join(ssldir, "certs", "ca.pem"))
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to PuppetDB over https: %v", err)
	}
	pem, err := os.ReadFile(ca)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to PuppetDB over https: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("cannot connect to PuppetDB over https: no certificate in %s", ca)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{Certificates: []tls.Certificate{pair}, RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr}, nil
}

// LogTo returns a Log that prints to w as Puppet prints its log at
// the default level: warnings and errors only.
func LogTo(w io.Writer) func(level, msg string) {
	return func(level, msg string) {
		switch level {
		case "warning":
			fmt.Fprintf(w, "Warning: %s\n", msg)
		case "err", "error":
			fmt.Fprintf(w, "Error: %s\n", msg)
		}
	}
}
