package server

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
)

// fakeCA is a CertAuthority in memory.
type fakeCA struct {
	mu    sync.Mutex
	csrs  map[string]string
	certs map[string]string
}

type rejected struct{ msg string }

func (r *rejected) Error() string                { return r.msg }
func (r *rejected) CSRRejected() bool            { return true }
func (c *fakeCA) CACertificate() ([]byte, error) { return []byte("CA PEM\n"), nil }
func (c *fakeCA) CRL() ([]byte, error)           { return []byte("CRL PEM\n"), nil }

func (c *fakeCA) SubmitCSR(name string, csr []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.csrs[name]; dup {
		return &rejected{name + " already has a requested certificate; ignoring certificate request"}
	}
	if string(csr) == "disk full" {
		return errors.New("disk full")
	}
	c.csrs[name] = string(csr)
	return nil
}

func (c *fakeCA) Certificate(name string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cert, ok := c.certs[name]
	if !ok {
		return nil, fmt.Errorf("certificate %s: %w", name, fs.ErrNotExist)
	}
	return []byte(cert), nil
}

// TestCAEndpoints: the CA plugs in through CertAuthority; an agent
// without a certificate may bootstrap.
func TestCAEndpoints(t *testing.T) {
	ca := &fakeCA{csrs: map[string]string{}, certs: map[string]string{"signed.example.com": "CERT PEM\n"}}
	f := newFixture(t, func(c *Config) { c.CA = ca })
	for _, tt := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/puppet-ca/v1/certificate/ca", "", 200, "CA PEM\n"},
		{"GET", "/puppet-ca/v1/certificate_revocation_list/ca", "", 200, "CRL PEM\n"},
		{"GET", "/puppet-ca/v1/certificate/signed.example.com", "", 200, "CERT PEM\n"},
		{"GET", "/puppet-ca/v1/certificate/new.example.com", "", 404, "Could not find certificate new.example.com"},
		{"PUT", "/puppet-ca/v1/certificate_request/new.example.com", "CSR", 200, ""},
		{"PUT", "/puppet-ca/v1/certificate_request/new.example.com", "CSR", 400, "new.example.com already has a requested certificate; ignoring certificate request"},
		{"PUT", "/puppet-ca/v1/certificate_request/full.example.com", "disk full", 500, "disk full"},
		{"PUT", "/puppet-ca/v1/certificate_request/..", "CSR", 400, "Invalid certname '..'"},
		{"GET", "/puppet-ca/v1/certificate_statuses/all", "", 403, "Forbidden request"},
	} {
		var resp response
		if tt.body != "" {
			resp = f.do("", tt.method, tt.path, strings.NewReader(tt.body), "text/plain")
		} else {
			resp = f.do("", tt.method, tt.path, nil, "")
		}
		if resp.status != tt.status || !strings.HasPrefix(resp.body, tt.want) {
			t.Errorf("%s %s: %d %q, want %d %q", tt.method, tt.path, resp.status, resp.body, tt.status, tt.want)
		}
		if tt.status != 403 && !strings.HasPrefix(resp.header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s %s: Content-Type %q", tt.method, tt.path, resp.header.Get("Content-Type"))
		}
	}
	if ca.csrs["new.example.com"] != "CSR" {
		t.Errorf("CSR not handed to the CA: %v", ca.csrs)
	}
}
