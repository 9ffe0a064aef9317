package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/ca"
)

// TestFromCA: the adapter signs an autosigned CSR, answers a missing
// certificate with fs.ErrNotExist (404) and a policy refusal with
// CSRRejected (400).
func TestFromCA(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048, Autosign: ca.Autosign{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := FromCA(c)
	if _, err := a.Certificate("web01.example.com"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing certificate: %v, want fs.ErrNotExist", err)
	}
	csr := func(cn string) []byte {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
	}
	if err := a.SubmitCSR("web01.example.com", csr("web01.example.com")); err != nil {
		t.Fatalf("SubmitCSR: %v", err)
	}
	if b, err := a.Certificate("web01.example.com"); err != nil || len(b) == 0 {
		t.Errorf("autosigned certificate: %d bytes, %v", len(b), err)
	}
	for name, body := range map[string][]byte{
		"db01.example.com": csr("other.example.com"), // CN is not the name
		"db02.example.com": []byte("not a CSR"),
	} {
		err := a.SubmitCSR(name, body)
		var rej csrRejection
		if !errors.As(err, &rej) || !rej.CSRRejected() {
			t.Errorf("SubmitCSR(%s): %v, want a rejection", name, err)
		}
	}
	for _, get := range []func() ([]byte, error){a.CACertificate, a.CRL} {
		if b, err := get(); err != nil || len(b) == 0 {
			t.Errorf("CA file: %d bytes, %v", len(b), err)
		}
	}
}

// TestCRLReloaded: a CRL rewritten while the server runs (a revoke) takes
// effect on the next connection.
func TestCRLReloaded(t *testing.T) {
	p := newPKI(t)
	dir := t.TempDir()
	crl := filepath.Join(dir, "crl.pem")
	writeCRL := func(number int64, revoked ...*x509.Certificate) {
		var entries []x509.RevocationListEntry
		for _, c := range revoked {
			entries = append(entries, x509.RevocationListEntry{SerialNumber: c.SerialNumber, RevocationTime: time.Now()})
		}
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
		// A distinct modification time even on coarse-grained file systems.
		mt := time.Now().Add(time.Duration(number) * time.Second)
		if err := os.Chtimes(crl, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	writeCRL(1)
	f := newFixture(t, func(c *Config) {
		server, _ := p.issue("server")
		c.CertFile, c.KeyFile, c.CAFile = p.writeFiles(dir, server)
		c.CRLFile = crl
	})
	f.pki = p
	good, goodCert := p.issue("web01.example.com")
	get := func() error {
		resp, err := f.client(&good).Get(f.ts.URL + "/status/v1/simple")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get(); err != nil {
		t.Fatalf("before the revoke: %v", err)
	}
	writeCRL(2, goodCert)
	if err := get(); err == nil {
		t.Error("a certificate revoked after the start was accepted")
	} else {
		t.Log("refused:", err)
	}
	if err := os.Remove(crl); err != nil {
		t.Fatal(err)
	}
	if err := get(); err == nil {
		t.Error("a vanished CRL forgot the revocation")
	}
}

// TestCAExpirations: /puppet-ca/v1/expirations answers any certificate
// with the CA certificate's expiry and the CRL's next update, by common
// name, in puppetserver 7.9.5's form (measured by scripts/site-migration-e2e:
// {"ca-certs":{"Puppet CA: x":"2041-11-23T17:20:44UTC"},"crls":{...}});
// without a certificate it is denied, as by puppetserver's auth.conf.
func TestCAExpirations(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c) })
	resp := f.do("web01.example.com", "GET", "/puppet-ca/v1/expirations", nil, "")
	if resp.status != 200 || !strings.HasPrefix(resp.header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d %q: %s", resp.status, resp.header.Get("Content-Type"), resp.body)
	}
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(resp.body), &got); err != nil {
		t.Fatal(err)
	}
	crlPEM, _ := c.CRLPEM()
	block, _ := pem.Decode(crlPEM)
	crl, err := x509.ParseRevocationList(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"ca-certs": {"Puppet CA: test": c.Certificate().NotAfter.UTC().Format("2006-01-02T15:04:05") + "UTC"},
		"crls":     {"Puppet CA: test": crl.NextUpdate.UTC().Format("2006-01-02T15:04:05") + "UTC"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if resp := f.do("", "GET", "/puppet-ca/v1/expirations", nil, ""); resp.status != 403 {
		t.Errorf("without a certificate: %d", resp.status)
	}
}
