package ca

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Certificate states of a Status.
const (
	StateRequested = "requested"
	StateSigned    = "signed"
	StateRevoked   = "revoked"
)

// Fingerprints are the digests puppetserver reports of a cert or CSR.
type Fingerprints struct {
	SHA1    string `json:"SHA1"`
	SHA256  string `json:"SHA256"`
	SHA512  string `json:"SHA512"`
	Default string `json:"default"`
}

// Status is one entry of puppetserver's certificate_status API; it marshals
// to the same JSON. The dates and serial are only set for certificates.
type Status struct {
	Name                    string            `json:"name"`
	State                   string            `json:"state"`
	Fingerprint             string            `json:"fingerprint"`
	Fingerprints            Fingerprints      `json:"fingerprints"`
	DNSAltNames             []string          `json:"dns_alt_names"`
	SubjectAltNames         []string          `json:"subject_alt_names"`
	AuthorizationExtensions map[string]string `json:"authorization_extensions"`
	NotBefore               string            `json:"not_before,omitempty"`
	NotAfter                string            `json:"not_after,omitempty"`
	SerialNumber            *big.Int          `json:"serial_number,omitempty"`
}

// fingerprint is a digest as uppercase hex pairs joined by ":".
func fingerprint(sum []byte) string {
	var b strings.Builder
	for i, x := range sum {
		if i > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%02X", x)
	}
	return b.String()
}

func fingerprints(der []byte) Fingerprints {
	s1 := sha1.Sum(der)
	s256 := sha256.Sum256(der)
	s512 := sha512.Sum512(der)
	d := fingerprint(s256[:])
	return Fingerprints{SHA1: fingerprint(s1[:]), SHA256: d, SHA512: fingerprint(s512[:]), Default: d}
}

func csrStatus(name string, csr *x509.CertificateRequest) Status {
	fp := fingerprints(csr.Raw)
	dns, all := altNames(csr.DNSNames, csr.IPAddresses)
	return Status{
		Name: name, State: StateRequested, Fingerprint: fp.Default, Fingerprints: fp,
		DNSAltNames: dns, SubjectAltNames: all,
		AuthorizationExtensions: authorizationExtensions(csr.Extensions),
	}
}

func certStatus(name string, cert *x509.Certificate, revoked map[string]bool) Status {
	fp := fingerprints(cert.Raw)
	dns, all := altNames(cert.DNSNames, cert.IPAddresses)
	state := StateSigned
	if revoked[cert.SerialNumber.String()] {
		state = StateRevoked
	}
	return Status{
		Name: name, State: state, Fingerprint: fp.Default, Fingerprints: fp,
		DNSAltNames: dns, SubjectAltNames: all,
		AuthorizationExtensions: authorizationExtensions(cert.Extensions),
		NotBefore:               inventoryTime(cert.NotBefore),
		NotAfter:                inventoryTime(cert.NotAfter),
		SerialNumber:            cert.SerialNumber,
	}
}

// Status returns name's certificate status: its certificate when it has
// one, otherwise its pending request; ErrNotFound when neither exists.
func (c *CA) Status(name string) (Status, error) {
	if err := ValidateName(name); err != nil {
		return Status{}, err
	}
	if b, err := os.ReadFile(c.signedPath(name)); err == nil {
		certs, err := parseCerts(b)
		if err != nil {
			return Status{}, fmt.Errorf("%s: %v", c.signedPath(name), err)
		}
		revoked, err := c.revokedSerials()
		if err != nil {
			return Status{}, err
		}
		return certStatus(name, certs[0], revoked), nil
	}
	b, err := readOrNotFound(c.requestPath(name))
	if err != nil {
		return Status{}, err
	}
	csr, err := ParseCSR(b)
	if err != nil {
		return Status{}, err
	}
	return csrStatus(name, csr), nil
}

// List returns the status of every pending request, then of every
// certificate in signed/, each sorted by name (puppetserver ca list --all).
// Unreadable files are skipped and reported in the error, the rest listed.
func (c *CA) List() ([]Status, error) {
	revoked, err := c.revokedSerials()
	if err != nil {
		return nil, err
	}
	var out []Status
	var errs []error
	for _, dir := range []string{RequestsDir, SignedDir} {
		names, err := pemNames(filepath.Join(c.dir, dir))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, name := range names {
			p := filepath.Join(c.dir, dir, name+".pem")
			b, err := os.ReadFile(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if dir == RequestsDir {
				csr, err := ParseCSR(b)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", p, err))
					continue
				}
				out = append(out, csrStatus(name, csr))
				continue
			}
			certs, err := parseCerts(b)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", p, err))
				continue
			}
			out = append(out, certStatus(name, certs[0], revoked))
		}
	}
	return out, errors.Join(errs...)
}

// pemNames lists the *.pem files of dir by name without the extension.
func pemNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".pem") && !strings.HasPrefix(n, ".") {
			names = append(names, strings.TrimSuffix(n, ".pem"))
		}
	}
	sort.Strings(names)
	return names, nil
}
