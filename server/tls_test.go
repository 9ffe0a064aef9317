package server

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/site"
)

// TestTLSPolicy: certificates from another CA, revoked certificates and
// old TLS versions are refused at the handshake; no certificate is fine.
func TestTLSPolicy(t *testing.T) {
	p := newPKI(t)
	revokedCert, revoked := p.issue("revoked.example.com")
	crlDER, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number:                    big.NewInt(1),
		ThisUpdate:                time.Now().Add(-time.Minute),
		NextUpdate:                time.Now().Add(time.Hour),
		RevokedCertificateEntries: []x509.RevocationListEntry{{SerialNumber: revoked.SerialNumber, RevocationTime: time.Now()}},
	}, p.cert, p.key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	crl := filepath.Join(dir, "crl.pem")
	if err := os.WriteFile(crl, pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: crlDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *Config) {
		// The fixture's CA files, with this test's CA and its CRL.
		server, _ := p.issue("server")
		c.CertFile, c.KeyFile, c.CAFile = p.writeFiles(dir, server)
		c.CRLFile = crl
	})
	f.pki = p
	good, _ := p.issue("web01.example.com")
	other, _ := newPKI(t).issue("web01.example.com")

	get := func(c *http.Client) error {
		resp, err := c.Get(f.ts.URL + "/status/v1/simple")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get(f.client(&good)); err != nil {
		t.Errorf("good certificate refused: %v", err)
	}
	if err := get(f.client(nil)); err != nil {
		t.Errorf("no certificate refused: %v", err)
	}
	if err := get(f.client(&other)); err == nil {
		t.Error("a certificate of another CA was accepted")
	}
	old := f.client(&good)
	old.Transport.(*http.Transport).TLSClientConfig.MinVersion = tls.VersionTLS10
	old.Transport.(*http.Transport).TLSClientConfig.MaxVersion = tls.VersionTLS11
	if err := get(old); err == nil {
		t.Error("TLS 1.1 was accepted")
	}
	if err := get(f.client(&revokedCert)); err == nil {
		t.Error("a revoked certificate was accepted")
	}
}

// TestRevokedCannotResume: a client whose certificate is revoked after its
// TLS session began cannot resume that session (Go does not run
// VerifyPeerCertificate on resumption).
func TestRevokedCannotResume(t *testing.T) {
	p := newPKI(t)
	dir := t.TempDir()
	crl := filepath.Join(dir, "crl.pem")
	writeCRL := func(entries []x509.RevocationListEntry, number int64) {
		der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
			Number: big.NewInt(number), ThisUpdate: time.Now().Add(-time.Minute), NextUpdate: time.Now().Add(time.Hour),
			RevokedCertificateEntries: entries,
		}, p.cert, p.key)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crl, pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeCRL(nil, 1)
	f := newFixture(t, func(c *Config) {
		server, _ := p.issue("server")
		c.CertFile, c.KeyFile, c.CAFile = p.writeFiles(dir, server)
		c.CRLFile = crl
	})
	f.pki = p
	cert, leaf := p.issue("web01.example.com")
	c := f.client(&cert)
	tr := c.Transport.(*http.Transport)
	tr.TLSClientConfig.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	get := func() (resumed bool, err error) {
		resp, err := c.Get(f.ts.URL + "/status/v1/simple")
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		tr.CloseIdleConnections() // the next request makes a new connection
		return resp.TLS.DidResume, nil
	}
	for i := 0; i < 3; i++ { // a TLS 1.3 ticket arrives after the first handshake
		if _, err := get(); err != nil {
			t.Fatal(err)
		}
	}
	if resumed, err := get(); err != nil || !resumed {
		t.Fatalf("before the revocation: resumed %v, %v (the test needs resumption)", resumed, err)
	}
	writeCRL([]x509.RevocationListEntry{{SerialNumber: leaf.SerialNumber, RevocationTime: time.Now()}}, 2)
	future := time.Now().Add(time.Minute)
	_ = os.Chtimes(crl, future, future) // a new mtime whatever the clock's resolution
	if _, err := get(); err == nil {
		t.Error("a revoked certificate resumed its TLS session")
	}
}

// recordConn counts the TLS records a client reads, by their headers in
// the bytes from the server.
type recordConn struct {
	net.Conn
	pending []byte
	largest int // of the application data records
}

func (c *recordConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.pending = append(c.pending, b[:n]...)
	for len(c.pending) >= 5 {
		size := int(c.pending[3])<<8 | int(c.pending[4])
		if len(c.pending) < 5+size {
			break
		}
		if c.pending[0] == 23 && size > c.largest { // application data
			c.largest = size
		}
		c.pending = c.pending[5+size:]
	}
	return n, err
}

// TestTLSFullRecords: a large answer on a new connection goes in records
// of 16 KB, not in records that grow from one packet's size (Go's dynamic
// record sizing, which helps a slow link's first round trips and costs a
// record, a seal and a write a packet on a LAN, where agents talk to
// their server on a new connection every run).
func TestTLSFullRecords(t *testing.T) {
	f := newFixture(t)
	const node = "db01.example.com"
	values := map[string]any{}
	for i := 0; i < 400; i++ {
		values[fmt.Sprintf("fact_%03d", i)] = strings.Repeat("x", 100)
	}
	if err := writeFileAtomic(f.srv.factsDir, node+".yaml", []byte(site.CachedFactsTag+factsJSON(node, values)+"\n")); err != nil {
		t.Fatal(err)
	}
	cert, _ := f.pki.issue(node)
	pool := x509.NewCertPool()
	pool.AddCert(f.pki.cert)
	var rc *recordConn
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "localhost", Certificates: []tls.Certificate{cert}},
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				rc = &recordConn{Conn: c}
				c = rc
			}
			return c, err
		},
	}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get(f.ts.URL + "/puppet/v3/node/" + node + "?environment=production")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) < 40000 {
		t.Fatalf("node: %d, %d bytes", resp.StatusCode, len(body))
	}
	if rc.largest < 16<<10 {
		t.Errorf("largest TLS record %d bytes, want 16 KB ones", rc.largest)
	}
}
