package oneshot

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

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
)

// Settings of Puppet's storeconfigs that marionette reads.
const (
	StoreConfigs        = "storeconfigs"
	StoreConfigsBackend = "storeconfigs_backend"
)

// StoreClient returns the PuppetDB client the settings ask for, nil when
// they ask for none: --puppetdb URL (PuppetDB flag) wins; otherwise
// storeconfigs = true with storeconfigs_backend = puppetdb (Puppet 7's
// default backend), or a route file sending facts or catalogs to
// PuppetDB (StoreTermini), reads $confdir/puppetdb.conf as the termini
// do, with Puppet's certificate for https server_urls (ConfClient). logf receives the client's
// log lines and puppetdb.conf's warnings (nil discards them).
func (o *Options) StoreClient(s *puppetconf.Settings, logf func(level, msg string)) (*puppetdb.Client, error) {
	if o.PuppetDB != "" {
		hc, err := tlsClientFor(s, o.PuppetDB)
		if err != nil {
			return nil, err
		}
		return puppetdb.NewURL(o.PuppetDB, puppetdb.Options{HTTPClient: hc, Logf: logf})
	}
	if s.Get(StoreConfigs) == "true" {
		if b := s.Get(StoreConfigsBackend); b != "" && b != "puppetdb" {
			return nil, fmt.Errorf("storeconfigs_backend '%s' is not supported: marionette stores to PuppetDB only", b)
		}
	}
	// routes.yaml may send facts or catalogs to PuppetDB without
	// storeconfigs.
	t, _, err := StoreTermini(s)
	if err != nil {
		return nil, err
	}
	if !t.Any() {
		return nil, nil
	}
	return ConfClient(s, logf)
}

// ConfClient is a client for the PuppetDB of $confdir/puppetdb.conf,
// whatever storeconfigs says, as `puppet node deactivate` finds it.
func ConfClient(s *puppetconf.Settings, logf func(level, msg string)) (*puppetdb.Client, error) {
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

// attachStore sets req.Store from the settings.
func (o *Options) attachStore(req *compiler.Request) error {
	s, err := o.LoadSettings()
	if err != nil {
		return &InputError{Err: err}
	}
	c, err := o.StoreClient(s, o.StoreLog)
	if err != nil {
		return &InputError{Err: err}
	}
	// Only storeconfigs collects (routes alone do not).
	if c != nil && (o.PuppetDB != "" || s.Get(StoreConfigs) == "true") {
		req.Store = c
	}
	return nil
}

// LogTo returns a StoreLog that prints to w as Puppet prints its log at
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
