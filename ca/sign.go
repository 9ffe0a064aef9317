package ca

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ParseCSR decodes a PEM certificate signing request.
func ParseCSR(pemBytes []byte) (*x509.CertificateRequest, error) {
	rest := pemBytes
	for {
		var blk *pem.Block
		blk, rest = pem.Decode(rest)
		if blk == nil {
			return nil, reqErr(KindInvalidCSR, "Could not parse the certificate request: no PEM CERTIFICATE REQUEST found")
		}
		if blk.Type != "CERTIFICATE REQUEST" && blk.Type != "NEW CERTIFICATE REQUEST" {
			continue
		}
		csr, err := x509.ParseCertificateRequest(blk.Bytes)
		if err != nil {
			return nil, reqErr(KindInvalidCSR, "Could not parse the certificate request: %v", err)
		}
		return csr, nil
	}
}

// SubmitResult says what became of a submitted CSR.
type SubmitResult struct {
	// Signed is true when the autosign policy accepted the CSR and the
	// certificate is now in signed/.
	Signed bool
}

// SubmitCSR handles PUT /puppet-ca/v1/certificate_request/<name> as
// puppetserver does: it refuses a CSR for a name that already has a request
// or certificate (unless AllowDuplicateCerts), checks that the CSR's CN is
// the name and a valid certname, saves it to requests/<name>.pem, and signs
// it when the autosign policy says so (after the checks Sign makes). Policy
// refusals are *RequestError; the CSR stays saved when only signing was
// refused.
//
// Saving and signing are two steps, with the autosign decision (perhaps a
// policy executable) between them: a server killed there would leave the
// request pending for ever, the agent's every retry refused as a
// duplicate. So the decision is recorded as pending (AutosignPendingDir)
// before the CSR is saved, and cleared once made; a retry of the same
// request (the same key) that finds it pending makes the decision again.
func (c *CA) SubmitCSR(name string, pemBytes []byte) (SubmitResult, error) {
	csr, err := ParseCSR(pemBytes)
	if err != nil {
		return SubmitResult{}, err
	}
	if err := c.saveCSR(name, csr); err != nil {
		return SubmitResult{}, err
	}
	ok, err := c.opts().Autosign.allows(name, pemCSR(csr.Raw))
	if err != nil {
		// A failing policy executable is a refusal, not a request error:
		// the CSR waits for a manual sign.
		c.opts().logf("%v", err)
		return SubmitResult{}, c.autosignDecided(name)
	}
	if !ok {
		return SubmitResult{}, c.autosignDecided(name)
	}
	defer c.lock()()
	if _, err := c.signCSRLocked(name, csr, 0); err != nil {
		var re *RequestError
		if errors.As(err, &re) {
			// Refused by policy: decided, the request waits.
			_ = c.autosignDecided(name)
		}
		return SubmitResult{}, err
	}
	return SubmitResult{Signed: true}, c.autosignDecided(name)
}

// AutosignPendingDir, in the CA directory, holds a file for each request
// whose autosign decision was not made yet. puppetserver reads nothing
// from it.
const AutosignPendingDir = "autosign-pending"

func (c *CA) autosignPendingPath(name string) string {
	return filepath.Join(c.dir, AutosignPendingDir, name)
}

// autosignDecided clears a request's pending autosign decision.
func (c *CA) autosignDecided(name string) error {
	if err := os.Remove(c.autosignPendingPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// resumesAutosign reports whether csr for name repeats a request saved
// before an autosign decision that was never made: the same key, the
// decision still pending.
func (c *CA) resumesAutosign(name string, csr *x509.CertificateRequest) bool {
	if _, err := os.Stat(c.autosignPendingPath(name)); err != nil {
		return false
	}
	b, err := os.ReadFile(c.requestPath(name))
	if err != nil {
		return false
	}
	saved, err := ParseCSR(b)
	return err == nil && publicKeysEqual(saved.PublicKey, csr.PublicKey)
}

func (c *CA) saveCSR(name string, csr *x509.CertificateRequest) error {
	defer c.lock()()
	cn := FirstCommonName(csr.Subject)
	if cn == name && ValidateName(name) == nil && c.resumesAutosign(name, csr) {
		return nil
	}
	// Like puppetserver, the duplicate check looks at the CSR's own name.
	if err := c.checkDuplicateLocked(cn); err != nil {
		return err
	}
	if err := validateSubject(name, cn); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.dir, AutosignPendingDir), subDirPerm); err != nil {
		return err
	}
	if err := atomicWrite(c.autosignPendingPath(name), nil, publicPerm); err != nil {
		return err
	}
	return atomicWrite(c.requestPath(name), pemCSR(csr.Raw), publicPerm)
}

// checkDuplicateLocked is puppetserver's duplicate-cert policy.
func (c *CA) checkDuplicateLocked(name string) error {
	if c.opts().AllowDuplicateCerts {
		return nil
	}
	// The name is checked by validateSubject afterwards; an invalid one
	// must not reach the file system here.
	if ValidateName(name) != nil {
		return nil
	}
	state := ""
	if b, err := os.ReadFile(c.signedPath(name)); err == nil {
		state = "signed"
		if certs, err := parseCerts(b); err == nil {
			if revoked, _ := c.revokedSerials(); revoked[certs[0].SerialNumber.String()] {
				state = "revoked"
			}
		}
	} else if _, err := os.Stat(c.requestPath(name)); err == nil {
		state = "requested"
	}
	if state != "" {
		return reqErr(KindDuplicateCert, "%s already has a %s certificate; ignoring certificate request", name, state)
	}
	return nil
}

func pemCSR(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}

// Sign signs the pending request requests/<name>.pem (puppetserver ca sign),
// after the checks puppetserver makes: the CN, subject alternative names,
// authorization extensions, permitted extensions and the CSR's signature.
// It returns ErrNotFound when there is no request.
func (c *CA) Sign(name string) (*x509.Certificate, error) {
	return c.SignTTL(name, 0)
}

// SignTTL is Sign with the certificate valid for ttl instead of the CA's
// TTL (0: the CA's), as puppetserver's cert_ttl of a sign request.
func (c *CA) SignTTL(name string, ttl time.Duration) (*x509.Certificate, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	defer c.lock()()
	b, err := readOrNotFound(c.requestPath(name))
	if err != nil {
		return nil, err
	}
	csr, err := ParseCSR(b)
	if err != nil {
		return nil, err
	}
	return c.signCSRLocked(name, csr, ttl)
}

// ValidateCSR makes Sign's checks on csr for name without signing it.
func (c *CA) ValidateCSR(name string, csr *x509.CertificateRequest) error {
	if err := validateSubject(name, FirstCommonName(csr.Subject)); err != nil {
		return err
	}
	if err := c.checkAltNames(csr); err != nil {
		return err
	}
	var bad []string
	for _, e := range csr.Extensions {
		if subtreeOf(oidPuppetAuthCertExt, e.Id) && !c.opts().AllowAuthorizationExtensions {
			return reqErr(KindDisallowedExtension, "CSR '%s' contains an authorization extension, which is disallowed. "+
				"To allow authorization extensions, set allow-authorization-extensions to true in your ca.conf file. "+
				"Then restart the puppetserver and try signing this certificate again.", FirstCommonName(csr.Subject))
		}
		if !allowedCSRExtension(e.Id) {
			bad = append(bad, e.Id.String())
		}
	}
	if len(bad) > 0 {
		return reqErr(KindDisallowedExtension, "Found extensions that are not permitted: %s", strings.Join(bad, ", "))
	}
	if err := csr.CheckSignature(); err != nil {
		return reqErr(KindInvalidSignature, "CSR contains a public key that does not correspond to the signing key")
	}
	return nil
}

// checkAltNames refuses SANs other than DNS:<cn> unless allowed.
func (c *CA) checkAltNames(csr *x509.CertificateRequest) error {
	if c.opts().AllowSubjectAltNames {
		return nil
	}
	_, all := altNames(csr.DNSNames, csr.IPAddresses)
	// Email and URI names are not listed by puppetserver but still make
	// the CSR one with alternative names.
	for _, e := range csr.EmailAddresses {
		all = append(all, "email:"+e)
	}
	for _, u := range csr.URIs {
		all = append(all, "URI:"+u.String())
	}
	cnName := "DNS:" + FirstCommonName(csr.Subject)
	if len(all) == 0 || len(all) == 1 && all[0] == cnName {
		return nil
	}
	var extra []string
	for _, n := range all {
		if n != cnName {
			extra = append(extra, n)
		}
	}
	return reqErr(KindDisallowedExtension, "CSR '%s' contains extra subject alternative names (%s), which are disallowed. "+
		"To allow subject alternative names, set allow-subject-alt-names to true in your ca.conf file. "+
		"Then restart the puppetserver and try signing this certificate again.", FirstCommonName(csr.Subject), strings.Join(extra, ", "))
}

// signCSRLocked validates and signs csr as name's certificate, records it
// in the inventory, writes signed/<name>.pem and removes the pending request
// when it is this CSR. c.mu must be held.
func (c *CA) signCSRLocked(name string, csr *x509.CertificateRequest, ttl time.Duration) (*x509.Certificate, error) {
	if err := c.ValidateCSR(name, csr); err != nil {
		return nil, err
	}
	exts, err := c.agentExtensions(name, csr.PublicKey, csr.Extensions)
	if err != nil {
		return nil, err
	}
	cert, err := c.issueLocked(name, csr.PublicKey, exts, ttl)
	if err != nil {
		return nil, err
	}
	// A newer CSR submitted meanwhile (allow_duplicate_certs) stays pending.
	if b, err := os.ReadFile(c.requestPath(name)); err == nil {
		if on, err := ParseCSR(b); err == nil && bytes.Equal(on.Raw, csr.Raw) {
			if err := os.Remove(c.requestPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return cert, err
			}
		}
	}
	return cert, nil
}

// agentExtensions are the extensions puppetserver signs onto an agent's
// certificate: its base list, then the CSR's requested extensions, with
// DNS:<certname> always among the subject alternative names.
func (c *CA) agentExtensions(name string, pub crypto.PublicKey, requested []pkix.Extension) ([]pkix.Extension, error) {
	ski, err := keyID(pub)
	if err != nil {
		return nil, err
	}
	exts := []pkix.Extension{
		netscapeCommentExt(),
		authorityKeyIDExt(c.authorityKeyID()),
		basicConstraintsExt(false),
		extKeyUsageExt(),
		keyUsageExt(0, 2), // digitalSignature, keyEncipherment
		subjectKeyIDExt(ski),
	}
	var san *pkix.Extension
	for _, e := range requested {
		if e.Id.Equal(oidSubjectAltName) {
			s, err := ensureCNInSAN(e, name)
			if err != nil {
				return nil, reqErr(KindInvalidCSR, "Could not parse the subject alternative names of the certificate request: %v", err)
			}
			san = &s
			continue
		}
		exts = append(exts, e)
	}
	if san == nil {
		s := sanExt([]string{name}, nil)
		san = &s
	}
	return orderExtensions(append([]pkix.Extension{*san}, exts...)), nil
}

// orderExtensions puts non-critical extensions before critical ones, the
// order BouncyCastle writes them in puppetserver's certificates.
func orderExtensions(exts []pkix.Extension) []pkix.Extension {
	out := make([]pkix.Extension, 0, len(exts))
	for _, crit := range []bool{false, true} {
		for _, e := range exts {
			if e.Critical == crit {
				out = append(out, e)
			}
		}
	}
	return out
}

// authorityKeyID is the CA's subject key identifier, copied into issued
// certificates as puppetserver does, or computed when the CA has none.
func (c *CA) authorityKeyID() []byte {
	if len(c.cert.SubjectKeyId) > 0 {
		return c.cert.SubjectKeyId
	}
	id, err := keyID(c.cert.PublicKey)
	if err != nil {
		return nil
	}
	return id
}

// issueLocked creates and records a certificate "CN=name" for pub, valid
// from a day ago for ttl (the CA's TTL when 0), with the next serial. c.mu
// must be held.
func (c *CA) issueLocked(name string, pub crypto.PublicKey, exts []pkix.Extension, ttl time.Duration) (*x509.Certificate, error) {
	if ttl <= 0 {
		ttl = c.opts().ttl()
	}
	serial, err := c.nextSerialLocked()
	if err != nil {
		return nil, err
	}
	now := c.opts().now().Truncate(time.Second)
	tmpl := &x509.Certificate{
		SerialNumber:    serial,
		RawSubject:      cnSubject(name),
		NotBefore:       now.Add(-24 * time.Hour),
		NotAfter:        now.Add(ttl),
		ExtraExtensions: exts,
	}
	// Every extension comes from ExtraExtensions, so that Go adds none of
	// its own (such as an authority key id computed differently).
	tmpl.AuthorityKeyId = nil
	if _, ok := c.key.(*rsa.PrivateKey); ok {
		tmpl.SignatureAlgorithm = x509.SHA256WithRSA
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, pub, c.key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	if err := c.appendInventoryLocked(cert); err != nil {
		return nil, err
	}
	if err := atomicWrite(c.signedPath(name), pemCert(der), publicPerm); err != nil {
		return nil, err
	}
	return cert, nil
}

// cnSubject encodes the subject "CN=name" with a UTF8String value, as
// BouncyCastle writes it in puppetserver's certificates (Go would choose
// PrintableString for most names).
func cnSubject(name string) []byte {
	return mustMarshal(pkix.RDNSequence{{{Type: asn1.ObjectIdentifier{2, 5, 4, 3}, Value: asn1.RawValue{Tag: asn1.TagUTF8String, Bytes: []byte(name)}}}})
}

// createCACert makes the self-signed CA certificate with puppetserver's CA
// extensions.
func createCACert(name string, key crypto.Signer, serial *big.Int, now time.Time, ttl time.Duration) (*x509.Certificate, error) {
	id, err := keyID(key.Public())
	if err != nil {
		return nil, err
	}
	now = now.Truncate(time.Second)
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		RawSubject:   cnSubject(name),
		NotBefore:    now.Add(-24 * time.Hour),
		NotAfter:     now.Add(ttl),
		ExtraExtensions: orderExtensions([]pkix.Extension{
			netscapeCommentExt(),
			authorityKeyIDExt(id),
			basicConstraintsExt(true),
			keyUsageExt(5, 6), // keyCertSign, cRLSign
			subjectKeyIDExt(id),
		}),
	}
	if _, ok := key.(*rsa.PrivateKey); ok {
		tmpl.SignatureAlgorithm = x509.SHA256WithRSA
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

// GenerateOptions say what Generate puts in a certificate.
type GenerateOptions struct {
	// DNSAltNames are subject alternative names ("name", "DNS:name" or
	// "IP:addr"); the certname is always added. Empty means puppetserver's
	// default for its own certificate, DNS:puppet and DNS:<certname>.
	DNSAltNames []string
	// CLIAuth adds pp_cli_auth, which the CA admin API requires; puppetserver
	// gives it to its own certificate.
	CLIAuth bool
}

// Generated is a key and the certificate Generate signed for it.
type Generated struct {
	Cert    *x509.Certificate
	CertPEM []byte
	// KeyPEM is the new private key (PKCS#1 PEM, as Puppet writes keys).
	// Only the caller gets it; the CA keeps no copy.
	KeyPEM []byte
}

// Generate makes a key and a signed certificate for name in one step, as
// puppetserver does for its own certificate (puppetserver ca generate). It
// refuses a name that already has a signed certificate.
func (c *CA) Generate(name string, o GenerateOptions) (*Generated, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	var dns []string
	var ips []net.IP
	for _, a := range o.DNSAltNames {
		a = strings.TrimSpace(a)
		switch {
		case a == "":
		case strings.HasPrefix(a, "IP:"):
			ip := net.ParseIP(strings.TrimPrefix(a, "IP:"))
			if ip == nil {
				return nil, fmt.Errorf("invalid IP alt name %q", a)
			}
			ips = append(ips, ip)
		default:
			d := strings.TrimPrefix(a, "DNS:")
			if strings.Contains(d, "*") {
				return nil, fmt.Errorf("Cert subjectAltName contains a wildcard, which is not allowed: %s", d)
			}
			dns = append(dns, d)
		}
	}
	if len(dns) == 0 && len(ips) == 0 {
		dns = []string{"puppet"}
	}
	if !contains(dns, name) {
		dns = append(dns, name)
	}
	key, err := rsa.GenerateKey(rand.Reader, c.opts().keyLength())
	if err != nil {
		return nil, err
	}
	var extra []pkix.Extension
	extra = append(extra, sanExt(dns, ips))
	if o.CLIAuth {
		extra = append(extra, utf8StringExt(OIDCLIAuth, "true"))
	}
	defer c.lock()()
	if _, err := os.Stat(c.signedPath(name)); err == nil {
		return nil, fmt.Errorf("%s already has a signed certificate; clean it first", name)
	}
	exts, err := c.agentExtensions(name, key.Public(), extra)
	if err != nil {
		return nil, err
	}
	cert, err := c.issueLocked(name, key.Public(), exts, 0)
	if err != nil {
		return nil, err
	}
	return &Generated{
		Cert:    cert,
		CertPEM: pemCert(cert.Raw),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
	}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
