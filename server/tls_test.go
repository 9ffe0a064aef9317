package server

import (
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
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
