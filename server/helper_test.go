package server

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetconf"
)

// pki is a test certificate authority.
type pki struct {
	t      testing.TB
	cert   *x509.Certificate
	key    *ecdsa.PrivateKey
	serial int64
}

func newPKI(t testing.TB) *pki {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "Puppet CA: test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &pki{t: t, cert: cert, key: key, serial: 1}
}

// ext is a certificate extension: a Puppet OID and its string value.
type ext struct{ oid, value string }

// issue signs a certificate for cn with the extensions.
func (p *pki) issue(cn string, exts ...ext) (tls.Certificate, *x509.Certificate) {
	p.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		p.t.Fatal(err)
	}
	p.serial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(p.serial),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:     []string{cn},
	}
	if cn == "server" {
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	}
	for _, e := range exts {
		var oid asn1.ObjectIdentifier
		for _, part := range strings.Split(e.oid, ".") {
			n := 0
			for _, c := range part {
				n = n*10 + int(c-'0')
			}
			oid = append(oid, n)
		}
		val, err := asn1.MarshalWithParams(e.value, "utf8")
		if err != nil {
			p.t.Fatal(err)
		}
		tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, pkix.Extension{Id: oid, Value: val})
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &key.PublicKey, p.key)
	if err != nil {
		p.t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, cert
}

// writePEM writes the CA certificate, and cert + key, as PEM files in dir.
func (p *pki) writeFiles(dir string, c tls.Certificate) (certFile, keyFile, caFile string) {
	p.t.Helper()
	write := func(name, typ string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			p.t.Fatal(err)
		}
		return path
	}
	keyDER, err := x509.MarshalECPrivateKey(c.PrivateKey.(*ecdsa.PrivateKey))
	if err != nil {
		p.t.Fatal(err)
	}
	return write("cert.pem", "CERTIFICATE", c.Certificate[0]), write("key.pem", "EC PRIVATE KEY", keyDER), write("ca.pem", "CERTIFICATE", p.cert.Raw)
}

// fixture is a running test server with its directories and certificates.
type fixture struct {
	t       testing.TB
	srv     *Server
	ts      *httptest.Server
	pki     *pki
	dir     string // everything the server may write is under dir/var
	vardir  string
	clients map[string]*http.Client // by certname; "" has no certificate
	logs    *lockedWriter
}

// testSite is the production environment's main manifest.
const testSite = `node default {
  notify { "trusted ${trusted['authenticated']} ${trusted['certname']} ${trusted['hostname']} role=${trusted['extensions']['pp_role']}": }
  notify { "fact os=${facts['os']} clientcert=${facts['clientcert']}": }
  notify { "env ${environment}": }
}
`

// testENC moves node mover.example.com to environment other.
const testENC = `#!/bin/sh
case "$1" in
mover.example.com) printf 'environment: other\nclasses: []\n' ;;
*) printf 'classes: []\n' ;;
esac
`

func newFixture(t testing.TB, opts ...func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"code/environments/production/manifests/site.pp": testSite,
		"code/environments/other/manifests/site.pp":      "notify { \"in other\": }\n",
		"code/environments/broken/manifests/site.pp":     "notify { 'a': }\nfail('boom')\n",
		"code/environments/deferred/manifests/site.pp":   "notify { 'd': message => Deferred('x::y', ['a']) }\n",
		"code/environments/settings/manifests/site.pp":   "notify { \"env=${settings::environment} ${environment}\": }\n",
		"code/environments/slow/manifests/site.pp":       "Integer[1, 16000000].each |$x| { Integer[1, 16000000].each |$y| { } }\n",
		"enc.sh": testENC,
		"code/environments/production/modules/hello/lib/facter/hello.rb": "Facter.add(:hello) { setcode { 'hi' } }\n",
		"code/environments/production/modules/hello/lib/puppet/x/y.rb":   "# y\n",
		"code/environments/production/modules/hello/facts.d/static.txt":  "static=1\n",
		"code/environments/production/modules/hello/files/greeting.txt":  "hello world\n",
		"code/environments/production/modules/other/lib/facter/hello.rb": "# shadowed by hello's\n",
		"code/environments/production/modules/other/lib/facter/other.rb": "# other\n",
		"code/environments/production/modules/other/lib/facter/.git/x":   "# ignored\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vardir := filepath.Join(dir, "var")
	settings, err := puppetconf.Load(puppetconf.Options{
		Home:     dir,
		Hostname: "server",
		Flags: map[string]string{
			puppetconf.Codedir:         filepath.Join(dir, "code"),
			puppetconf.Confdir:         filepath.Join(dir, "conf"),
			puppetconf.EnvironmentPath: filepath.Join(dir, "code", "environments"),
			puppetconf.Vardir:          vardir,
			puppetconf.NodeTerminus:    "exec",
			puppetconf.ExternalNodes:   filepath.Join(dir, "enc.sh"),
			puppetconf.BaseModulePath:  filepath.Join(dir, "code", "modules"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := newPKI(t)
	serverCert, _ := p.issue("server")
	certFile, keyFile, caFile := p.writeFiles(dir, serverCert)
	logs := &lockedWriter{}
	cfg := Config{
		Settings: settings,
		CertFile: certFile, KeyFile: keyFile, CAFile: caFile,
		Logger:         slog.New(slog.NewTextHandler(logs, nil)),
		CompileTimeout: 20 * time.Second,
		MaxBodyBytes:   1 << 20,
		// Tests that count or replace compiles compile every request;
		// reuse_test.go turns reuse on.
		NoReuse: true,
	}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close) // after ts.Close: cleanups run last first
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.TLS = srv.TLSConfig()
	ts.StartTLS()
	t.Cleanup(ts.Close)
	f := &fixture{t: t, srv: srv, ts: ts, pki: p, dir: dir, vardir: vardir, clients: map[string]*http.Client{}, logs: logs}
	f.clients[""] = f.client(nil)
	for _, c := range []struct {
		cn   string
		exts []ext
	}{
		{"web01.example.com", []ext{{"1.3.6.1.4.1.34380.1.1.13", "webserver"}, {"1.3.6.1.4.1.34380.1.2.1", "secret"}}},
		{"db01.example.com", nil},
		{"mover.example.com", nil},
		{"admin.example.com", []ext{{oidCLIAuth, "true"}}},
	} {
		cert, _ := p.issue(c.cn, c.exts...)
		f.clients[c.cn] = f.client(&cert)
	}
	return f
}

// lockedWriter serializes log writes from concurrent handlers.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(b)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (f *fixture) client(cert *tls.Certificate) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(f.pki.cert)
	tc := &tls.Config{RootCAs: pool, ServerName: "localhost"}
	if cert != nil {
		tc.Certificates = []tls.Certificate{*cert}
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: tc}, Timeout: 60 * time.Second}
}

// response is a finished request.
type response struct {
	status int
	header http.Header
	body   string
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body is no JSON object: %v: %q", err, r.body)
	}
	return m
}

func (f *fixture) do(as, method, path string, body io.Reader, contentType string, header ...string) response {
	f.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, f.ts.URL+path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	c, ok := f.clients[as]
	if !ok {
		f.t.Fatalf("no client %q", as)
	}
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, string(b)}
}

// factsJSON is an agent's facts object for certname.
func factsJSON(certname string, values map[string]any) string {
	b, _ := json.Marshal(map[string]any{"name": certname, "values": values, "timestamp": "2024-01-01T00:00:00.000000000+00:00", "expiration": "2024-01-01T00:30:00.000000000+00:00"})
	return string(b)
}

// catalogForm is the form an agent posts for its catalog.
func catalogForm(certname, env, facts string) string {
	v := url.Values{}
	v.Set("facts_format", "application/json")
	v.Set("facts", url.QueryEscape(facts))
	v.Set("environment", env)
	v.Set("check_environment", "true")
	v.Set("transaction_uuid", "11111111-2222-3333-4444-555555555555")
	v.Set("job_uuid", "")
	v.Set("static_catalog", "true")
	v.Set("checksum_type", "sha256.sha384.sha512.sha224.md5")
	return v.Encode()
}

func (f *fixture) postCatalog(as, certname, env, facts string) response {
	f.t.Helper()
	return f.do(as, "POST", "/puppet/v3/catalog/"+certname+"?environment="+env, strings.NewReader(catalogForm(certname, env, facts)), "application/x-www-form-urlencoded")
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
