package site

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/puppetconf"
)

// TLSFiles are a compile server's TLS files given on its command line
// (--ssl-cert, --ssl-key, --ssl-ca, --ssl-crl); "" leaves each to the
// settings.
type TLSFiles struct {
	Cert, Key, CA, CRL string
}

// ServerTLS is a compile server's TLS setup: its certificate, key, the CA
// certificates client certificates chain to, the CRL, and its own CA when
// it is one.
type ServerTLS struct {
	// CA is the server's CA; nil when it is none (TLS files given, or the
	// CA runs elsewhere).
	CA                                 *ca.CA
	CertFile, KeyFile, CAFile, CRLFile string
}

// ServerTLS sets up the compile server's TLS from the settings (certname,
// ssldir, cadir, autosign, dns_alt_names, keylength, ca_name): without
// any of files, the server is its own CA (see serverCA); files given win
// over $ssldir's.
func (s *Site) ServerTLS(files TLSFiles, log *slog.Logger) (*ServerTLS, error) {
	settings := s.settings
	ssldir := settings.Get("ssldir")
	if ssldir == "" {
		ssldir = filepath.Join(settings.Get(puppetconf.Confdir), "ssl")
	}
	certname := settings.Get(puppetconf.Certname)
	t := &ServerTLS{}
	if files == (TLSFiles{}) {
		c, err := serverCA(settings, ssldir, certname, log)
		if err != nil {
			return nil, err
		}
		if c != nil {
			t.CA = c
			// The CA's own CRL, so that a revoke takes effect at once.
			t.CRLFile = filepath.Join(c.Dir(), ca.CRLFile)
		}
	}
	crl := files.CRL
	if crl == "" && t.CRLFile == "" && fileExists(filepath.Join(ssldir, "crl.pem")) {
		crl = filepath.Join(ssldir, "crl.pem")
	}
	if crl != "" {
		t.CRLFile = crl
	}
	t.CertFile = orDefault(files.Cert, filepath.Join(ssldir, "certs", certname+".pem"))
	t.KeyFile = orDefault(files.Key, filepath.Join(ssldir, "private_keys", certname+".pem"))
	t.CAFile = orDefault(files.CA, filepath.Join(ssldir, "certs", "ca.pem"))
	return t, nil
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// CAOptions is the CA's signing policy of the settings: autosign (true,
// false, a whitelist or a policy executable; Puppet's default is
// $confdir/autosign.conf) and keylength. A server applies it again on
// SIGHUP (ca.CA.SetOptions).
func CAOptions(settings *puppetconf.Settings, log *slog.Logger) (ca.Options, error) {
	opts := ca.Options{
		Autosign: ca.ParseAutosign(settings.Get("autosign")),
		Logf:     func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) },
	}
	if kl := settings.Get("keylength"); kl != "" {
		n, err := strconv.Atoi(kl)
		if err != nil || n < 2048 {
			return ca.Options{}, fmt.Errorf("keylength %q: want a number of bits, at least 2048", kl)
		}
		opts.KeyLength = n
	}
	if !settings.IsSet("autosign") {
		// Puppet's default: the whitelist $confdir/autosign.conf.
		opts.Autosign = ca.Autosign{Path: filepath.Join(settings.Get(puppetconf.Confdir), "autosign.conf")}
	}
	if v := settings.Get("ca_ttl"); v != "" {
		d, err := PuppetDuration(v)
		if err != nil {
			return ca.Options{}, fmt.Errorf("ca_ttl: %v", err)
		}
		opts.TTL = d
	}
	if v := settings.Get("allow_duplicate_certs"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return ca.Options{}, fmt.Errorf("allow_duplicate_certs %q: want true or false", v)
		}
		opts.AllowDuplicateCerts = b
	}
	return opts, nil
}

// PuppetDuration reads a Puppet duration setting: seconds, or a number
// with s, m, h, d or y.
func PuppetDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	unit := time.Second
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			unit, s = time.Minute, s[:n-1]
		case 'h':
			unit, s = time.Hour, s[:n-1]
		case 'd':
			unit, s = 24*time.Hour, s[:n-1]
		case 'y':
			unit, s = 365*24*time.Hour, s[:n-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > int64(1<<62)/int64(unit) {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	return time.Duration(n) * unit, nil
}

// serverCA opens the server's CA, as puppetserver's CA service does, or
// creates it on first start: the cadir setting, else ca.DefaultDir($ssldir)
// when a CA is there, else a new CA in $ssldir/ca (which DefaultDir finds
// from then on). It also gives the server a certificate for certname and
// dns_alt_names, signed by the CA, in Puppet's ssldir layout. It returns nil
// when there is no CA but the server already has a certificate: a compile
// server of a CA that runs elsewhere.
func serverCA(settings *puppetconf.Settings, ssldir, certname string, log *slog.Logger) (*ca.CA, error) {
	opts, err := CAOptions(settings, log)
	if err != nil {
		return nil, err
	}
	certFile := filepath.Join(ssldir, "certs", certname+".pem")
	keyFile := filepath.Join(ssldir, "private_keys", certname+".pem")
	dir := settings.Get("cadir")
	if dir == "" {
		dir = ca.DefaultDir(ssldir)
		if !fileExists(filepath.Join(dir, ca.CACertFile)) {
			if fileExists(certFile) && fileExists(keyFile) {
				return nil, nil
			}
			dir = filepath.Join(ssldir, "ca")
		}
	}
	var c *ca.CA
	if fileExists(filepath.Join(dir, ca.CACertFile)) {
		c, err = ca.Open(dir, opts)
	} else {
		name := orDefault(settings.Get("ca_name"), "Puppet CA: "+certname)
		c, err = ca.Setup(dir, ca.SetupOptions{Name: name}, opts)
		if err == nil {
			log.Info("created a certificate authority", "dir", dir, "name", name)
		}
	}
	if err != nil {
		return nil, err
	}
	for _, d := range []string{"certs", "private_keys"} {
		if err := os.MkdirAll(filepath.Join(ssldir, d), 0o750); err != nil {
			return nil, err
		}
	}
	if !fileExists(certFile) || !fileExists(keyFile) {
		var alt []string
		for _, a := range strings.Split(settings.Get("dns_alt_names"), ",") {
			if a = strings.TrimSpace(a); a != "" {
				alt = append(alt, a)
			}
		}
		g, err := c.Generate(certname, ca.GenerateOptions{DNSAltNames: alt, CLIAuth: true})
		if err != nil {
			return nil, fmt.Errorf("the server's certificate: %w", err)
		}
		if err := os.WriteFile(keyFile, g.KeyPEM, 0o600); err != nil {
			return nil, err
		}
		if err := os.WriteFile(certFile, g.CertPEM, 0o644); err != nil {
			return nil, err
		}
		log.Info("signed the server's certificate", "certname", certname, "cert", certFile)
	}
	// Puppet's copies of the CA certificate and CRL, refreshed each start.
	for file, read := range map[string]func() ([]byte, error){"certs/ca.pem": c.CACertPEM, "crl.pem": c.CRLPEM} {
		b, err := read()
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(ssldir, file), b, 0o644); err != nil {
			return nil, err
		}
	}
	return c, nil
}
