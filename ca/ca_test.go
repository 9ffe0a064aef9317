package ca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixedNow is the test clock.
var fixedNow = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testOptions() Options {
	return Options{KeyLength: 2048, Now: func() time.Time { return fixedNow }}
}

func newCA(t *testing.T, mod func(*Options)) *CA {
	t.Helper()
	o := testOptions()
	if mod != nil {
		mod(&o)
	}
	c, err := Setup(filepath.Join(t.TempDir(), "ca"), SetupOptions{Name: "Puppet CA: puppet.example.com"}, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type csrSpec struct {
	cn   string
	dns  []string
	ips  []net.IP
	exts []pkix.Extension
}

func makeCSR(t *testing.T, s csrSpec) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
		Subject: pkix.Name{CommonName: s.cn}, DNSNames: s.dns, IPAddresses: s.ips, ExtraExtensions: s.exts,
	}, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}

func readCRL(t *testing.T, c *CA) *x509.RevocationList {
	t.Helper()
	b, err := c.CRLPEM()
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(b)
	crl, err := x509.ParseRevocationList(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := crl.CheckSignatureFrom(c.Certificate()); err != nil {
		t.Fatalf("CRL signature: %v", err)
	}
	return crl
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSetupLayout(t *testing.T) {
	c := newCA(t, nil)
	files := []struct {
		name string
		perm os.FileMode
	}{
		{CACertFile, 0o644}, {CAKeyFile, 0o640}, {CAPubFile, 0o644}, {CRLFile, 0o644},
		{SerialFile, 0o644}, {InventoryFile, 0o644}, {SignedDir, 0o755 | os.ModeDir}, {RequestsDir, 0o755 | os.ModeDir},
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(c.Dir(), f.name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != f.perm {
			t.Errorf("%s: mode %v, want %v", f.name, fi.Mode(), f.perm)
		}
	}
	if fi, _ := os.Stat(c.Dir()); fi.Mode().Perm() != 0o750 {
		t.Errorf("cadir mode %v", fi.Mode())
	}
	if got := readFile(t, filepath.Join(c.Dir(), SerialFile)); got != "0002" {
		t.Errorf("serial = %q, want 0002", got)
	}
	inv := readFile(t, filepath.Join(c.Dir(), InventoryFile))
	if want := "0x0001 2024-01-01T03:04:05UTC 2028-12-31T03:04:05UTC /CN=Puppet CA: puppet.example.com\n"; inv != want {
		t.Errorf("inventory = %q, want %q", inv, want)
	}
	ca := c.Certificate()
	if !ca.IsCA || ca.KeyUsage != x509.KeyUsageCertSign|x509.KeyUsageCRLSign || ca.SerialNumber.Int64() != 1 {
		t.Errorf("CA cert: IsCA %v KeyUsage %v serial %v", ca.IsCA, ca.KeyUsage, ca.SerialNumber)
	}
	if ca.Subject.String() != "CN=Puppet CA: puppet.example.com" || ca.Issuer.String() != ca.Subject.String() {
		t.Errorf("subject %q issuer %q", ca.Subject, ca.Issuer)
	}
	if len(ca.SubjectKeyId) != 20 || string(ca.AuthorityKeyId) != string(ca.SubjectKeyId) {
		t.Errorf("key ids: %x %x", ca.SubjectKeyId, ca.AuthorityKeyId)
	}
	if ca.PublicKey.(*rsa.PublicKey).N.BitLen() != 2048 {
		t.Error("key length")
	}
	if k := readFile(t, filepath.Join(c.Dir(), CAKeyFile)); !strings.HasPrefix(k, "-----BEGIN RSA PRIVATE KEY-----") {
		t.Error("key is not PKCS#1 PEM")
	}
	crl := readCRL(t, c)
	if crl.Number.Int64() != 0 || len(crl.RevokedCertificateEntries) != 0 {
		t.Errorf("CRL number %v entries %d", crl.Number, len(crl.RevokedCertificateEntries))
	}
	// Setup never overwrites, and Open reads it back.
	if _, err := Setup(c.Dir(), SetupOptions{Name: "x"}, testOptions()); err == nil {
		t.Error("Setup overwrote an existing CA")
	}
	o, err := Open(c.Dir(), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !o.Certificate().Equal(ca) {
		t.Error("Open found another certificate")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir, testOptions()); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty dir: %v", err)
	}
	c := newCA(t, nil)
	os.Remove(filepath.Join(c.Dir(), SerialFile))
	if _, err := Open(c.Dir(), testOptions()); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("partial CA: %v", err)
	}
}

func TestSignAndInventory(t *testing.T) {
	c := newCA(t, nil)
	for _, n := range []string{"agent1.example.com", "agent2.example.com"} {
		if r, err := c.SubmitCSR(n, makeCSR(t, csrSpec{cn: n})); err != nil || r.Signed {
			t.Fatalf("submit %s: %v %v", n, r, err)
		}
	}
	if _, err := os.Stat(filepath.Join(c.Dir(), RequestsDir, "agent1.example.com.pem")); err != nil {
		t.Fatal("CSR not saved")
	}
	cert, err := c.Sign("agent1.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sign("agent2.example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir(), RequestsDir, "agent1.example.com.pem")); !os.IsNotExist(err) {
		t.Error("CSR not removed after signing")
	}
	if got := readFile(t, filepath.Join(c.Dir(), SerialFile)); got != "0004" {
		t.Errorf("serial = %q", got)
	}
	lines := strings.Split(readFile(t, filepath.Join(c.Dir(), InventoryFile)), "\n")
	if len(lines) != 4 || lines[1] != "0x0002 2024-01-01T03:04:05UTC 2028-12-31T03:04:05UTC /CN=agent1.example.com" ||
		lines[2] != "0x0003 2024-01-01T03:04:05UTC 2028-12-31T03:04:05UTC /CN=agent2.example.com" {
		t.Errorf("inventory:\n%s", strings.Join(lines, "\n"))
	}
	// The certificate: puppetserver's extensions.
	if cert.SerialNumber.Int64() != 2 || cert.Subject.String() != "CN=agent1.example.com" {
		t.Errorf("serial %v subject %v", cert.SerialNumber, cert.Subject)
	}
	if want := "\x0c\x12agent1.example.com"; !strings.HasSuffix(string(cert.RawSubject), want) {
		t.Errorf("the CN is not a UTF8String: %x", cert.RawSubject)
	}
	if cert.IsCA || !cert.BasicConstraintsValid || cert.KeyUsage != x509.KeyUsageDigitalSignature|x509.KeyUsageKeyEncipherment {
		t.Errorf("constraints/usage: %v %v %v", cert.IsCA, cert.BasicConstraintsValid, cert.KeyUsage)
	}
	if len(cert.ExtKeyUsage) != 2 || cert.ExtKeyUsage[0] != x509.ExtKeyUsageServerAuth || cert.ExtKeyUsage[1] != x509.ExtKeyUsageClientAuth {
		t.Errorf("ext key usage %v", cert.ExtKeyUsage)
	}
	if string(cert.AuthorityKeyId) != string(c.Certificate().SubjectKeyId) || len(cert.SubjectKeyId) != 20 {
		t.Error("key ids")
	}
	if len(cert.DNSNames) != 1 || cert.DNSNames[0] != "agent1.example.com" {
		t.Errorf("SAN %v: the certname must always be a SAN", cert.DNSNames)
	}
	crit := map[string]bool{}
	comment := ""
	for _, e := range cert.Extensions {
		crit[e.Id.String()] = e.Critical
		if e.Id.Equal(oidNetscapeComment) {
			comment = extensionString(e.Value)
		}
	}
	if comment != NetscapeComment {
		t.Errorf("netscape comment %q", comment)
	}
	for oid, want := range map[string]bool{"2.5.29.19": true, "2.5.29.15": true, "2.5.29.37": true, "2.5.29.14": false, "2.5.29.35": false, "2.5.29.17": false} {
		if got, ok := crit[oid]; !ok || got != want {
			t.Errorf("extension %s: present %v critical %v", oid, ok, got)
		}
	}
	if !cert.NotAfter.Equal(fixedNow.Add(DefaultTTL)) || !cert.NotBefore.Equal(fixedNow.Add(-24*time.Hour)) {
		t.Errorf("validity %v - %v", cert.NotBefore, cert.NotAfter)
	}
	pool := x509.NewCertPool()
	pool.AddCert(c.Certificate())
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: fixedNow, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("verify: %v", err)
	}
	if b, err := c.CertificatePEM("agent1.example.com"); err != nil || !strings.Contains(string(b), "BEGIN CERTIFICATE") {
		t.Errorf("CertificatePEM: %v", err)
	}
	if b, _ := c.CertificatePEM("ca"); string(b) != readFile(t, filepath.Join(c.Dir(), CACertFile)) {
		t.Error("CertificatePEM(ca) is not ca_crt.pem")
	}
	if _, err := c.CertificatePEM("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing cert: %v", err)
	}
	if _, err := c.Sign("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("sign without CSR: %v", err)
	}
}

func TestSerialRead(t *testing.T) {
	// The Ruby CA CLI writes the serial lowercase and unpadded.
	c := newCA(t, nil)
	os.WriteFile(filepath.Join(c.Dir(), SerialFile), []byte("2f\n"), 0o644)
	c.SubmitCSR("a", makeCSR(t, csrSpec{cn: "a"}))
	cert, err := c.Sign("a")
	if err != nil {
		t.Fatal(err)
	}
	if cert.SerialNumber.Int64() != 0x2f || readFile(t, filepath.Join(c.Dir(), SerialFile)) != "0030" {
		t.Errorf("serial %v, file %q", cert.SerialNumber, readFile(t, filepath.Join(c.Dir(), SerialFile)))
	}
	os.WriteFile(filepath.Join(c.Dir(), SerialFile), []byte("zz"), 0o644)
	c.SubmitCSR("b", makeCSR(t, csrSpec{cn: "b"}))
	if _, err := c.Sign("b"); err == nil {
		t.Error("a corrupt serial file was accepted")
	}
}

func TestBadCSRs(t *testing.T) {
	c := newCA(t, nil)
	c.SubmitCSR("taken", makeCSR(t, csrSpec{cn: "taken"}))
	c.SubmitCSR("signed", makeCSR(t, csrSpec{cn: "signed"}))
	if _, err := c.Sign("signed"); err != nil {
		t.Fatal(err)
	}
	ppAuth := utf8StringExt(asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 3, 1}, "true")
	badSig := makeCSR(t, csrSpec{cn: "badsig"})
	{
		blk, _ := pem.Decode(badSig)
		blk.Bytes[len(blk.Bytes)-3] ^= 0xff
		badSig = pem.EncodeToMemory(blk)
	}
	tests := []struct {
		name, certname string
		csr            []byte
		kind, msg      string
	}{
		{"wrong CN", "agent", makeCSR(t, csrSpec{cn: "other"}), KindHostnameMismatch, `Instance name "other" does not match requested key "agent"`},
		{"uppercase", "Agent", makeCSR(t, csrSpec{cn: "Agent"}), KindInvalidSubjectName, "Certificate names must be lower case."},
		{"wildcard", "*.x", makeCSR(t, csrSpec{cn: "*.x"}), KindInvalidSubjectName, "Subject contains a wildcard, which is not allowed: *.x"},
		{"dotdot", "../x", makeCSR(t, csrSpec{cn: "../x"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"slash", "a/b", makeCSR(t, csrSpec{cn: "a/b"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"shell", "a;rm", makeCSR(t, csrSpec{cn: "a;rm"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"space", "a b", makeCSR(t, csrSpec{cn: "a b"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"dash end", "a-", makeCSR(t, csrSpec{cn: "a-"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"dash start", "-a", makeCSR(t, csrSpec{cn: "-a"}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"empty", "", makeCSR(t, csrSpec{cn: ""}), KindInvalidSubjectName, "Subject hostname format is invalid"},
		{"duplicate csr", "taken", makeCSR(t, csrSpec{cn: "taken"}), KindDuplicateCert, "taken already has a requested certificate; ignoring certificate request"},
		{"duplicate cert", "signed", makeCSR(t, csrSpec{cn: "signed"}), KindDuplicateCert, "signed already has a signed certificate; ignoring certificate request"},
		{"duplicate by the CSR's CN", "fresh", makeCSR(t, csrSpec{cn: "taken"}), KindDuplicateCert, "taken already has a requested certificate; ignoring certificate request"},
		{"not a CSR", "x", []byte("hello"), KindInvalidCSR, "Could not parse the certificate request: no PEM CERTIFICATE REQUEST found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.SubmitCSR(tc.certname, tc.csr)
			var re *RequestError
			if !errors.As(err, &re) || re.Kind != tc.kind || re.Message != tc.msg {
				t.Fatalf("got %v, want %s %q", err, tc.kind, tc.msg)
			}
		})
	}
	// The sign-time checks: the CSR is saved, then refused at signing.
	signTests := []struct {
		name string
		spec csrSpec
		pem  []byte
		kind string
		msg  string
	}{
		{"alt names", csrSpec{cn: "alt", dns: []string{"alt", "www.example.com"}, ips: []net.IP{net.ParseIP("10.0.0.1")}}, nil, KindDisallowedExtension,
			"CSR 'alt' contains extra subject alternative names (IP:10.0.0.1, DNS:www.example.com), which are disallowed. To allow subject alternative names, set allow-subject-alt-names to true in your ca.conf file. Then restart the puppetserver and try signing this certificate again."},
		{"auth extension", csrSpec{cn: "auth", exts: []pkix.Extension{ppAuth}}, nil, KindDisallowedExtension,
			"CSR 'auth' contains an authorization extension, which is disallowed. To allow authorization extensions, set allow-authorization-extensions to true in your ca.conf file. Then restart the puppetserver and try signing this certificate again."},
		{"cli auth", csrSpec{cn: "cli", exts: []pkix.Extension{utf8StringExt(OIDCLIAuth, "true")}}, nil, KindDisallowedExtension, ""},
		{"foreign extension", csrSpec{cn: "foreign", exts: []pkix.Extension{basicConstraintsExt(true)}}, nil, KindDisallowedExtension,
			"Found extensions that are not permitted: 2.5.29.19"},
		{"bad signature", csrSpec{}, badSig, KindInvalidSignature, "CSR contains a public key that does not correspond to the signing key"},
	}
	for _, tc := range signTests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pem
			if p == nil {
				p = makeCSR(t, tc.spec)
			}
			name := tc.spec.cn
			if name == "" {
				name = "badsig"
			}
			if _, err := c.SubmitCSR(name, p); err != nil {
				t.Fatalf("submit: %v", err)
			}
			_, err := c.Sign(name)
			var re *RequestError
			if !errors.As(err, &re) || re.Kind != tc.kind || tc.msg != "" && re.Message != tc.msg {
				t.Fatalf("got %v, want %s %q", err, tc.kind, tc.msg)
			}
			if _, err := os.Stat(filepath.Join(c.Dir(), SignedDir, name+".pem")); !os.IsNotExist(err) {
				t.Error("a refused CSR was signed")
			}
		})
	}
	for _, bad := range []string{"../x", "a/b", "A"} {
		if err := c.Revoke(bad); err == nil {
			t.Errorf("Revoke(%q) accepted", bad)
		}
		if _, err := c.CertificatePEM(bad); err == nil {
			t.Errorf("CertificatePEM(%q) accepted", bad)
		}
	}
}

func TestAllowedExtensionsAreCopied(t *testing.T) {
	c := newCA(t, func(o *Options) { o.AllowSubjectAltNames = true; o.AllowAuthorizationExtensions = true })
	ppRole := asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 1, 13}
	csr := makeCSR(t, csrSpec{cn: "web", dns: []string{"www.example.com"}, ips: []net.IP{net.ParseIP("10.0.0.1")},
		exts: []pkix.Extension{utf8StringExt(ppRole, "webserver"), utf8StringExt(asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 3, 1}, "catalog")}})
	if _, err := c.SubmitCSR("web", csr); err != nil {
		t.Fatal(err)
	}
	st, err := c.Status("web")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != StateRequested || st.SerialNumber != nil || strings.Join(st.SubjectAltNames, ",") != "IP:10.0.0.1,DNS:www.example.com" ||
		st.AuthorizationExtensions["pp_authorization"] != "catalog" {
		t.Errorf("CSR status %+v", st)
	}
	cert, err := c.Sign("web")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cert.DNSNames, ",") != "www.example.com,web" {
		t.Errorf("SAN %v: the certname is appended", cert.DNSNames)
	}
	role := ""
	for _, e := range cert.Extensions {
		if e.Id.Equal(ppRole) {
			role = extensionString(e.Value)
		}
	}
	if role != "webserver" {
		t.Errorf("pp_role = %q", role)
	}
	st, _ = c.Status("web")
	j, _ := json.Marshal(st)
	for _, want := range []string{`"state":"signed"`, `"serial_number":2`, `"not_before":"2024-01-01T03:04:05UTC"`,
		`"dns_alt_names":["DNS:www.example.com","DNS:web"]`, `"authorization_extensions":{"pp_authorization":"catalog"}`} {
		if !strings.Contains(string(j), want) {
			t.Errorf("status JSON %s lacks %s", j, want)
		}
	}
	if !regexp.MustCompile(`^([0-9A-F]{2}:){31}[0-9A-F]{2}$`).MatchString(st.Fingerprint) || st.Fingerprints.SHA256 != st.Fingerprint ||
		len(st.Fingerprints.SHA1) != 59 || len(st.Fingerprints.SHA512) != 191 {
		t.Errorf("fingerprints %+v", st.Fingerprints)
	}
}

func TestRevokeAndCRL(t *testing.T) {
	c := newCA(t, nil)
	for _, n := range []string{"a", "b"} {
		c.SubmitCSR(n, makeCSR(t, csrSpec{cn: n}))
		if _, err := c.Sign(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Revoke("a"); err != nil {
		t.Fatal(err)
	}
	crl := readCRL(t, c)
	if crl.Number.Int64() != 1 || len(crl.RevokedCertificateEntries) != 1 || crl.RevokedCertificateEntries[0].SerialNumber.Int64() != 2 ||
		crl.RevokedCertificateEntries[0].ReasonCode != 1 {
		t.Fatalf("CRL after revoke: number %v entries %+v", crl.Number, crl.RevokedCertificateEntries)
	}
	if string(crl.AuthorityKeyId) != string(c.Certificate().SubjectKeyId) {
		t.Error("CRL authority key id")
	}
	// Revoking again changes nothing.
	if err := c.Revoke("a"); err != nil {
		t.Fatal(err)
	}
	if readCRL(t, c).Number.Int64() != 1 {
		t.Error("a repeated revoke bumped the CRL")
	}
	if err := c.Clean("b"); err != nil {
		t.Fatal(err)
	}
	crl = readCRL(t, c)
	if crl.Number.Int64() != 2 || len(crl.RevokedCertificateEntries) != 2 || crl.RevokedCertificateEntries[1].SerialNumber.Int64() != 3 ||
		crl.RevokedCertificateEntries[0].ReasonCode != 1 {
		t.Fatalf("CRL after clean: %v %+v", crl.Number, crl.RevokedCertificateEntries)
	}
	if _, err := c.CertificatePEM("b"); !errors.Is(err, ErrNotFound) {
		t.Error("clean left the certificate")
	}
	if err := c.Clean("b"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second clean: %v", err)
	}
	if err := c.Revoke("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoke unknown: %v", err)
	}
	st, err := c.Status("a")
	if err != nil || st.State != StateRevoked {
		t.Errorf("status of a: %+v %v", st, err)
	}
	// A revoked name is still a duplicate.
	_, err = c.SubmitCSR("a", makeCSR(t, csrSpec{cn: "a"}))
	if err == nil || err.Error() != "a already has a revoked certificate; ignoring certificate request" {
		t.Errorf("resubmit revoked: %v", err)
	}
	if err := c.RevokeSerials(big.NewInt(0x99)); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.IsRevoked(big.NewInt(0x99)); !r {
		t.Error("RevokeSerials")
	}
}

func TestList(t *testing.T) {
	c := newCA(t, nil)
	for _, n := range []string{"zed", "alpha", "mid"} {
		c.SubmitCSR(n, makeCSR(t, csrSpec{cn: n}))
	}
	c.Sign("zed")
	c.Sign("mid")
	c.Revoke("mid")
	l, err := c.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range l {
		got = append(got, s.Name+"="+s.State)
	}
	if strings.Join(got, " ") != "alpha=requested mid=revoked zed=signed" {
		t.Errorf("List = %v", got)
	}
}

func TestGenerate(t *testing.T) {
	c := newCA(t, nil)
	g, err := c.Generate("puppet.example.com", GenerateOptions{CLIAuth: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(g.Cert.DNSNames, ",") != "puppet,puppet.example.com" {
		t.Errorf("default alt names %v", g.Cert.DNSNames)
	}
	cli := false
	for _, e := range g.Cert.Extensions {
		if e.Id.Equal(OIDCLIAuth) && extensionString(e.Value) == "true" {
			cli = true
		}
	}
	if !cli {
		t.Error("no pp_cli_auth")
	}
	blk, _ := pem.Decode(g.KeyPEM)
	key, err := x509.ParsePKCS1PrivateKey(blk.Bytes)
	if err != nil || !key.PublicKey.Equal(g.Cert.PublicKey) {
		t.Errorf("key does not match the certificate: %v", err)
	}
	g2, err := c.Generate("other", GenerateOptions{DNSAltNames: []string{"a.example.com", "DNS:b", "IP:192.168.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(g2.Cert.DNSNames, ",") != "a.example.com,b,other" || len(g2.Cert.IPAddresses) != 1 {
		t.Errorf("alt names %v %v", g2.Cert.DNSNames, g2.Cert.IPAddresses)
	}
	if _, err := c.Generate("other", GenerateOptions{}); err == nil {
		t.Error("Generate replaced a signed certificate")
	}
}

func TestAutosign(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "autosign.conf")
	os.WriteFile(conf, []byte("# comment\n\n*.example.com\nexact.host\n*.BAZ\nbad entry\nx.org # trailing\n"), 0o644)
	policy := filepath.Join(dir, "policy.sh")
	os.WriteFile(policy, []byte("#!/bin/sh\nread first\n[ \"$first\" = '-----BEGIN CERTIFICATE REQUEST-----' ] || exit 3\ncase \"$1\" in good*) exit 0;; slow*) sleep 5; exit 0;; *) exit 1;; esac\n"), 0o755)
	tests := []struct {
		name     string
		autosign Autosign
		certname string
		signed   bool
		log      string
	}{
		{"true", ParseAutosign("true"), "any", true, ""},
		{"false", ParseAutosign("false"), "any", false, ""},
		{"missing file", ParseAutosign(filepath.Join(dir, "nope")), "any", false, ""},
		{"glob", ParseAutosign(conf), "a.example.com", true, ""},
		{"deep glob", ParseAutosign(conf), "a.b.example.com", true, ""},
		{"glob no match", ParseAutosign(conf), "example.org", false, ""},
		{"glob suffix only", ParseAutosign(conf), "badexample.com", false, ""},
		{"glob matches its domain", ParseAutosign(conf), "baz", true, ""},
		{"case-insensitive glob", ParseAutosign(conf), "q.baz", true, ""},
		{"exact", ParseAutosign(conf), "exact.host", true, ""},
		{"invalid lines ignored", ParseAutosign(conf), "x.org", false, ""},
		{"policy yes", ParseAutosign(policy), "good.node", true, ""},
		{"policy no", ParseAutosign(policy), "evil.node", false, "autosign command '" + policy + "' rejected certificate 'evil.node' because the exit code was 1, not zero"},
		{"policy timeout", Autosign{Path: policy, Timeout: 200 * time.Millisecond}, "slow.node", false, "timed out after 200ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logs []string
			c := newCA(t, func(o *Options) {
				o.Autosign = tc.autosign
				o.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
			})
			start := time.Now()
			r, err := c.SubmitCSR(tc.certname, makeCSR(t, csrSpec{cn: tc.certname}))
			if err != nil {
				t.Fatal(err)
			}
			if r.Signed != tc.signed {
				t.Fatalf("signed = %v, want %v", r.Signed, tc.signed)
			}
			_, err = c.CertificatePEM(tc.certname)
			if (err == nil) != tc.signed {
				t.Errorf("certificate on disk: %v", err)
			}
			if time.Since(start) > 3*time.Second {
				t.Error("policy timeout not honoured")
			}
			if got := strings.Join(logs, "\n"); tc.log == "" && got != "" || !strings.Contains(got, tc.log) {
				t.Errorf("log %q, want %q", got, tc.log)
			}
		})
	}
	// Autosigned CSRs still go through the signing checks.
	c := newCA(t, func(o *Options) { o.Autosign = Autosign{All: true} })
	_, err := c.SubmitCSR("alt", makeCSR(t, csrSpec{cn: "alt", dns: []string{"evil.example.com"}}))
	var re *RequestError
	if !errors.As(err, &re) || re.Kind != KindDisallowedExtension {
		t.Errorf("autosigned alt names: %v", err)
	}
	if _, err := c.CSRPEM("alt"); err != nil {
		t.Error("a refused autosign must leave the CSR pending")
	}
}

func TestConcurrentSigning(t *testing.T) {
	c := newCA(t, func(o *Options) { o.Autosign = Autosign{All: true} })
	const n = 16
	csrs := make([][]byte, n)
	for i := range csrs {
		csrs[i] = makeCSR(t, csrSpec{cn: nodeName(i)})
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); _, errs[i] = c.SubmitCSR(nodeName(i), csrs[i]) }()
		go func() { defer wg.Done(); c.List(); c.CRLPEM() }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var wg2 sync.WaitGroup
	for i := 0; i < n; i += 2 {
		wg2.Add(1)
		go func() { defer wg2.Done(); errs[i] = c.Revoke(nodeName(i)) }()
	}
	wg2.Wait()
	seen := map[int64]bool{}
	l, _ := c.List()
	for _, s := range l {
		if seen[s.SerialNumber.Int64()] {
			t.Errorf("serial %v issued twice", s.SerialNumber)
		}
		seen[s.SerialNumber.Int64()] = true
	}
	if len(seen) != n || readFile(t, filepath.Join(c.Dir(), SerialFile)) != "0012" {
		t.Errorf("%d serials, serial file %q", len(seen), readFile(t, filepath.Join(c.Dir(), SerialFile)))
	}
	if lines := strings.Count(readFile(t, filepath.Join(c.Dir(), InventoryFile)), "\n"); lines != n+1 {
		t.Errorf("inventory has %d lines", lines)
	}
	crl := readCRL(t, c)
	if len(crl.RevokedCertificateEntries) != n/2 || crl.Number.Int64() != n/2 {
		t.Errorf("CRL: %d entries, number %v", len(crl.RevokedCertificateEntries), crl.Number)
	}
}

func nodeName(i int) string { return "node" + string(rune('a'+i)) + ".example.com" }

func TestRenewCRL(t *testing.T) {
	now := fixedNow
	c := newCA(t, func(o *Options) { o.Now = func() time.Time { return now } })
	c.SubmitCSR("a", makeCSR(t, csrSpec{cn: "a"}))
	c.Sign("a")
	c.Revoke("a")
	if renewed, err := c.RenewCRL(); err != nil || renewed {
		t.Fatalf("a fresh CRL was renewed: %v %v", renewed, err)
	}
	now = fixedNow.AddDate(5, 0, -20)
	renewed, err := c.RenewCRL()
	if err != nil || !renewed {
		t.Fatalf("an expiring CRL was not renewed: %v", err)
	}
	crl := readCRL(t, c)
	if crl.Number.Int64() != 2 || len(crl.RevokedCertificateEntries) != 1 || !crl.NextUpdate.After(now.AddDate(4, 0, 0)) {
		t.Errorf("renewed CRL: number %v, %d entries, next update %v", crl.Number, len(crl.RevokedCertificateEntries), crl.NextUpdate)
	}
}

// TestHostileCSRBytes feeds truncated and corrupted CSRs: each must be
// refused as an invalid CSR, never panic, and leave nothing on disk.
func TestHostileCSRBytes(t *testing.T) {
	c := newCA(t, func(o *Options) { o.Autosign = Autosign{All: true} })
	good := makeCSR(t, csrSpec{cn: "h", dns: []string{"h"}})
	blk, _ := pem.Decode(good)
	for i := 0; i < len(blk.Bytes); i += 7 {
		// The byte at i changed (flipped, so that it differs even when it
		// was 0xff: a CSR one byte short of its end plus its own last byte
		// is the good CSR).
		corrupt := append(append([]byte{}, blk.Bytes[:i]...), blk.Bytes[i]^0xff)
		for _, der := range [][]byte{blk.Bytes[:i], corrupt} {
			p := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
			if _, err := c.SubmitCSR("h", p); err == nil {
				t.Fatalf("a truncated CSR (%d bytes) was accepted", i)
			}
			if _, err := c.CertificatePEM("h"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("a refused CSR (%d bytes) was signed", i)
			}
			// Like puppetserver, a CSR that parses (the last signature
			// byte changed) is saved before autosigning refuses it; clear
			// it so the next one is not refused as a duplicate instead.
			os.Remove(filepath.Join(c.Dir(), RequestsDir, "h.pem"))
		}
	}
}

// TestTwoInstancesShareTheDirectory: two CAs opened on one directory (as a
// server and the ca command are) must not hand out one serial twice; the
// directory's file lock serialises them.
func TestTwoInstancesShareTheDirectory(t *testing.T) {
	a := newCA(t, func(o *Options) { o.Autosign = Autosign{All: true} })
	o := testOptions()
	o.Autosign = Autosign{All: true}
	b, err := Open(a.Dir(), o)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	csrs := make([][]byte, n)
	for i := range csrs {
		csrs[i] = makeCSR(t, csrSpec{cn: nodeName(i)})
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a
			if i%2 == 1 {
				c = b
			}
			if _, err := c.SubmitCSR(nodeName(i), csrs[i]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	l, _ := a.List()
	seen := map[int64]bool{}
	for _, s := range l {
		seen[s.SerialNumber.Int64()] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct serials for %d certificates", len(seen), n)
	}
}
