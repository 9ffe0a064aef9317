// Package ca is a Puppet certificate authority that reads and writes the
// on-disk layout puppetserver uses (cadir: ca_crt.pem, ca_key.pem, ca_pub.pem,
// ca_crl.pem, serial, inventory.txt, signed/, requests/), so an existing
// puppetserver CA directory can be used as it is, and moving back needs no
// re-signing.
//
// The CA private key never leaves the package: no exported function returns
// it.
//
// A *CA is safe for concurrent use: every change to the serial, inventory,
// CRL, signed/ and requests/ happens under one mutex, and every file is
// written atomically (temporary file + rename), so readers that read the
// files directly (an HTTP server serving ca_crt.pem or a signed cert) never
// see a half-written file.
package ca

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/marionette-dev/marionette/atomicfile"
)

// File and directory names inside the CA directory, as Puppet's settings
// cacert, cakey, capub, cacrl, serial, cert_inventory, signeddir and csrdir
// default to.
const (
	CACertFile    = "ca_crt.pem"
	CAKeyFile     = "ca_key.pem"
	CAPubFile     = "ca_pub.pem"
	CRLFile       = "ca_crl.pem"
	SerialFile    = "serial"
	InventoryFile = "inventory.txt"
	SignedDir     = "signed"
	RequestsDir   = "requests"
)

// Permissions as puppetserver sets them: private keys rw-r-----, everything
// else public rw-r--r--; the CA directory holds the key, so it is not world
// readable.
const (
	privateKeyPerm fs.FileMode = 0o640
	publicPerm     fs.FileMode = 0o644
	caDirPerm      fs.FileMode = 0o750
	subDirPerm     fs.FileMode = 0o755
)

// DefaultTTL is Puppet 7's ca_ttl default (5 years of 365 days), the validity
// of the CA certificate and of every certificate it signs.
const DefaultTTL = 157680000 * time.Second

// DefaultKeyLength is Puppet's keylength default.
const DefaultKeyLength = 4096

// DefaultAutosignTimeout bounds an autosign policy executable. puppetserver
// has no limit; a hung policy must not hold an agent's request forever.
const DefaultAutosignTimeout = 30 * time.Second

// NetscapeComment is the Netscape comment puppetserver puts in every
// certificate it issues.
const NetscapeComment = "Puppet Server Internal Certificate"

// Options are the CA's signing policy (puppet.conf [server] and ca.conf
// settings). The zero value is puppetserver's default policy with autosign
// off.
type Options struct {
	// TTL is the validity of signed certificates (ca_ttl); 0 means DefaultTTL.
	TTL time.Duration
	// KeyLength is the RSA key size for keys the CA generates (Setup,
	// Generate); 0 means DefaultKeyLength.
	KeyLength int
	// Autosign is the autosign policy; see ParseAutosign.
	Autosign Autosign
	// AllowSubjectAltNames (ca.conf allow-subject-alt-names) lets CSRs carry
	// subject alternative names other than DNS:<certname>.
	AllowSubjectAltNames bool
	// AllowAuthorizationExtensions (ca.conf allow-authorization-extensions)
	// lets CSRs carry pp_auth_* extensions (1.3.6.1.4.1.34380.1.3.*).
	AllowAuthorizationExtensions bool
	// AllowDuplicateCerts (allow_duplicate_certs) accepts a CSR for a name
	// that already has a CSR or a certificate.
	AllowDuplicateCerts bool
	// Now is the clock; nil means time.Now. Tests set it.
	Now func() time.Time
	// Logf receives warnings puppetserver logs (a failing autosign policy);
	// nil discards them.
	Logf func(format string, args ...any)
}

func (o *Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Options) ttl() time.Duration {
	if o.TTL > 0 {
		return o.TTL
	}
	return DefaultTTL
}

func (o *Options) keyLength() int {
	if o.KeyLength > 0 {
		return o.KeyLength
	}
	return DefaultKeyLength
}

// CA is an opened certificate authority directory.
type CA struct {
	dir string
	// policy is the signing policy; SetOptions replaces it while the CA
	// serves (a server's SIGHUP).
	policy atomic.Pointer[Options]

	// mu serialises every change to the directory: serial, inventory, CRL,
	// signed/ and requests/.
	mu sync.Mutex
	// cert is the signing certificate (the one matching key; the first of
	// ca_crt.pem when that is a chain).
	cert *x509.Certificate
	key  crypto.Signer
}

// ErrNotFound reports a missing certificate, request or file.
var ErrNotFound = errors.New("not found")

// opts is the current signing policy.
func (c *CA) opts() *Options { return c.policy.Load() }

// SetOptions replaces the signing policy (autosign, TTL, key length,
// duplicate and extension rules) for every request from now on, as a
// server applies a changed puppet.conf without a restart.
func (c *CA) SetOptions(o Options) { c.policy.Store(&o) }

// Dir returns the CA directory.
func (c *CA) Dir() string { return c.dir }

// Certificate returns the CA's signing certificate.
func (c *CA) Certificate() *x509.Certificate { return c.cert }

func (c *CA) path(name string) string { return filepath.Join(c.dir, name) }

func (c *CA) signedPath(name string) string {
	return filepath.Join(c.dir, SignedDir, name+".pem")
}

func (c *CA) requestPath(name string) string {
	return filepath.Join(c.dir, RequestsDir, name+".pem")
}

// Open opens an existing CA directory (one made by Setup or by puppetserver).
// A partial CA (some of the required files missing) is an error naming them,
// as puppetserver refuses to start on one.
func Open(dir string, opts Options) (*CA, error) {
	var missing []string
	for _, f := range []string{CACertFile, CAKeyFile, CRLFile, SerialFile, InventoryFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) == 5 {
		return nil, fmt.Errorf("%s: no CA here (run setup first): %w", dir, ErrNotFound)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: the CA is incomplete, missing %v", dir, missing)
	}
	c := &CA{dir: dir}
	c.policy.Store(&opts)
	keyPEM, err := os.ReadFile(c.path(CAKeyFile))
	if err != nil {
		return nil, err
	}
	c.key, err = parsePrivateKey(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.path(CAKeyFile), err)
	}
	certPEM, err := os.ReadFile(c.path(CACertFile))
	if err != nil {
		return nil, err
	}
	certs, err := parseCerts(certPEM)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.path(CACertFile), err)
	}
	// With an intermediate CA, ca_crt.pem is a chain; the signing cert is
	// the one whose public key is ours (puppetserver puts it first).
	for _, ct := range certs {
		if publicKeysEqual(ct.PublicKey, c.key.Public()) {
			c.cert = ct
			break
		}
	}
	if c.cert == nil {
		return nil, fmt.Errorf("%s: no certificate matches the CA key %s", c.path(CACertFile), c.path(CAKeyFile))
	}
	for _, d := range []string{SignedDir, RequestsDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), subDirPerm); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// SetupOptions say how Setup makes a new CA.
type SetupOptions struct {
	// Name is the CA certificate's common name (ca_name); puppetserver's
	// default is "Puppet CA: <certname>".
	Name string
}

// Setup creates a new CA in dir the way puppetserver does on first start: an
// RSA key of opts.KeyLength bits, a self-signed certificate "CN=<Name>" with
// serial 1 valid from a day ago for opts.TTL, an empty CRL (number 0), the
// serial file at 0002 and the CA certificate in the inventory. It refuses to
// overwrite an existing CA.
func Setup(dir string, so SetupOptions, opts Options) (*CA, error) {
	if so.Name == "" {
		return nil, errors.New("setup: the CA name is empty")
	}
	for _, f := range []string{CACertFile, CAKeyFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return nil, fmt.Errorf("%s already exists; refusing to overwrite an existing CA", filepath.Join(dir, f))
		}
	}
	if err := os.MkdirAll(dir, caDirPerm); err != nil {
		return nil, err
	}
	for _, d := range []string{SignedDir, RequestsDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), subDirPerm); err != nil {
			return nil, err
		}
	}
	key, err := rsa.GenerateKey(rand.Reader, opts.keyLength())
	if err != nil {
		return nil, err
	}
	c := &CA{dir: dir, key: key}
	c.policy.Store(&opts)
	defer c.lock()()
	if err := writeSerial(c.path(SerialFile), bigOne); err != nil {
		return nil, err
	}
	if err := atomicWrite(c.path(InventoryFile), nil, publicPerm); err != nil {
		return nil, err
	}
	serial, err := c.nextSerialLocked()
	if err != nil {
		return nil, err
	}
	cert, err := createCACert(so.Name, key, serial, opts.now(), opts.ttl())
	if err != nil {
		return nil, err
	}
	c.cert = cert
	if err := c.appendInventoryLocked(cert); err != nil {
		return nil, err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, err
	}
	if err := atomicWrite(c.path(CAPubFile), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), publicPerm); err != nil {
		return nil, err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := atomicWrite(c.path(CAKeyFile), keyPEM, privateKeyPerm); err != nil {
		return nil, err
	}
	if err := atomicWrite(c.path(CACertFile), pemCert(cert.Raw), publicPerm); err != nil {
		return nil, err
	}
	crl, err := c.createCRL(nil, bigZero, opts.now(), opts.now().Add(DefaultTTL))
	if err != nil {
		return nil, err
	}
	if err := atomicWrite(c.path(CRLFile), crl, publicPerm); err != nil {
		return nil, err
	}
	return c, nil
}

// DefaultDir is where Puppet 7 looks for the CA: $ssldir/ca when that exists
// (Puppet ≤ 6's place; followed when it is a symlink), otherwise
// puppetserver's /etc/puppetlabs/puppetserver/ca.
func DefaultDir(ssldir string) string {
	old := filepath.Join(ssldir, "ca")
	if fi, err := os.Lstat(old); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(old); err == nil {
				return t
			}
		}
		return old
	}
	return "/etc/puppetlabs/puppetserver/ca"
}

// CACertPEM returns ca_crt.pem as it is on disk (the whole chain), what
// GET /puppet-ca/v1/certificate/ca serves.
func (c *CA) CACertPEM() ([]byte, error) { return os.ReadFile(c.path(CACertFile)) }

// CRLPEM returns ca_crl.pem as it is on disk, what
// GET /puppet-ca/v1/certificate_revocation_list/ca serves.
func (c *CA) CRLPEM() ([]byte, error) { return os.ReadFile(c.path(CRLFile)) }

// CertificatePEM returns signed/<name>.pem, or the CA certificate for "ca" as
// puppetserver does; ErrNotFound when there is none.
func (c *CA) CertificatePEM(name string) ([]byte, error) {
	if name == "ca" {
		return c.CACertPEM()
	}
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	return readOrNotFound(c.signedPath(name))
}

// CSRPEM returns requests/<name>.pem; ErrNotFound when there is none.
func (c *CA) CSRPEM(name string) ([]byte, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	return readOrNotFound(c.requestPath(name))
}

func readOrNotFound(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
	}
	return b, err
}

// atomicWrite replaces path with data, with mode perm, synced before the
// rename: a crash leaves the old or the new content, never a CA file lost.
func atomicWrite(path string, data []byte, perm fs.FileMode) error {
	return atomicfile.WriteSynced(path, perm, atomicfile.Bytes(data))
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// parsePrivateKey reads a PKCS#1, SEC 1 or PKCS#8 PEM private key.
func parsePrivateKey(b []byte) (crypto.Signer, error) {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil, errors.New("no private key found")
		}
		switch blk.Type {
		case "RSA PRIVATE KEY":
			return x509.ParsePKCS1PrivateKey(blk.Bytes)
		case "EC PRIVATE KEY":
			return x509.ParseECPrivateKey(blk.Bytes)
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
			if err != nil {
				return nil, err
			}
			s, ok := k.(crypto.Signer)
			if !ok {
				return nil, fmt.Errorf("unsupported private key type %T", k)
			}
			return s, nil
		}
	}
}

// parseCerts reads every CERTIFICATE block of a PEM bundle.
func parseCerts(b []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			break
		}
		if blk.Type != "CERTIFICATE" {
			continue
		}
		ct, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			return nil, err
		}
		out = append(out, ct)
	}
	if len(out) == 0 {
		return nil, errors.New("no certificate found")
	}
	return out, nil
}

func publicKeysEqual(a, b crypto.PublicKey) bool {
	switch k := a.(type) {
	case *rsa.PublicKey:
		return k.Equal(b)
	case *ecdsa.PublicKey:
		return k.Equal(b)
	}
	type equaler interface{ Equal(crypto.PublicKey) bool }
	if e, ok := a.(equaler); ok {
		return e.Equal(b)
	}
	return false
}
