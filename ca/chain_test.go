package ca

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenIntermediateChain opens a CA directory laid out as
// `puppetserver ca setup` makes it: ca_crt.pem holds the intermediate (the
// signing CA) then the root, ca_crl.pem the intermediate's CRL then the
// root's, and the serial file lowercase as the Ruby CLI writes it. Signing
// and revoking must use the intermediate and keep the root CRL as it is.
func TestOpenIntermediateChain(t *testing.T) {
	dir := t.TempDir()
	now := fixedNow
	mk := func(name string, serial int64, parent *x509.Certificate, parentKey *rsa.PrivateKey) (*x509.Certificate, *rsa.PrivateKey) {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour * 365),
			IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		}
		if parent == nil {
			parent, parentKey = tmpl, key
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := x509.ParseCertificate(der)
		return c, key
	}
	root, rootKey := mk("Puppet Root CA: 0123456789abcd", 1, nil, nil)
	inter, interKey := mk("Puppet CA: puppet.example.com", 2, root, rootKey)
	crlOf := func(issuer *x509.Certificate, key *rsa.PrivateKey, entries []x509.RevocationListEntry) []byte {
		der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
			Number: big.NewInt(0), ThisUpdate: now.Add(-time.Hour), NextUpdate: now.Add(24 * time.Hour * 365),
			RevokedCertificateEntries: entries,
		}, issuer, key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der})
	}
	rootCRL := crlOf(root, rootKey, []x509.RevocationListEntry{{SerialNumber: big.NewInt(77), RevocationTime: now}})
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(CACertFile, append(pemCert(inter.Raw), pemCert(root.Raw)...))
	write(CAKeyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(interKey)}))
	write(CRLFile, append(crlOf(inter, interKey, nil), rootCRL...))
	write(SerialFile, []byte("3"))
	write(InventoryFile, []byte("0x0001 2024-01-01T00:00:00UTC 2029-01-01T00:00:00UTC /CN=Puppet Root CA: 0123456789abcd\n"+
		"0x0002 2024-01-01T00:00:00UTC 2029-01-01T00:00:00UTC /CN=Puppet CA: puppet.example.com"))

	c, err := Open(dir, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !c.Certificate().Equal(inter) {
		t.Fatal("the signing certificate is not the intermediate")
	}
	if _, err := c.SubmitCSR("agent", makeCSR(t, csrSpec{cn: "agent"})); err != nil {
		t.Fatal(err)
	}
	cert, err := c.Sign("agent")
	if err != nil {
		t.Fatal(err)
	}
	if cert.SerialNumber.Int64() != 3 || cert.Issuer.CommonName != inter.Subject.CommonName {
		t.Errorf("serial %v issuer %v", cert.SerialNumber, cert.Issuer)
	}
	roots, inters := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(root)
	inters.AddCert(inter)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inters, CurrentTime: now}); err != nil {
		t.Errorf("chain: %v", err)
	}
	if err := c.Revoke("agent"); err != nil {
		t.Fatal(err)
	}
	b, _ := c.CRLPEM()
	if !bytes.HasSuffix(b, rootCRL) {
		t.Error("the root CRL was not kept as it was")
	}
	crl := readCRL(t, c)
	if len(crl.RevokedCertificateEntries) != 1 || crl.RevokedCertificateEntries[0].SerialNumber.Int64() != 3 || crl.Number.Int64() != 1 {
		t.Errorf("intermediate CRL %+v", crl.RevokedCertificateEntries)
	}
	// The inventory's last line had no newline; the new entry is on its own line.
	if inv := readFile(t, filepath.Join(dir, InventoryFile)); !bytes.HasSuffix([]byte(inv), []byte("puppet.example.com\n0x0003 2024-01-01T03:04:05UTC 2028-12-31T03:04:05UTC /CN=agent\n")) {
		t.Errorf("inventory:\n%s", inv)
	}
}
