package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/names"
)

// CertAuthority is the certificate authority behind /puppet-ca/v1, what an
// agent's SSL bootstrap needs. Certificates, CRLs and CSRs are PEM.
type CertAuthority interface {
	// CACertificate is the CA certificate (or chain) agents trust.
	CACertificate() ([]byte, error)
	// CRL is the CA's certificate revocation list.
	CRL() ([]byte, error)
	// SubmitCSR takes an agent's certificate request, and signs it when
	// the autosign policy says so. An error with a method
	// CSRRejected() bool that returns true is the CA refusing the request
	// (a duplicate, a name mismatch, a disallowed extension): agents get
	// 400 and its message.
	SubmitCSR(certname string, csrPEM []byte) error
	// Certificate is a node's signed certificate; an error wrapping
	// fs.ErrNotExist when there is none (yet).
	Certificate(certname string) ([]byte, error)
}

// csrRejection is the error a CertAuthority returns for a refused CSR.
type csrRejection interface{ CSRRejected() bool }

// ca serves /puppet-ca/v1/<rest>. Puppet's CA answers in text/plain.
func (s *Server) ca(w http.ResponseWriter, r *http.Request, rest string) error {
	if s.cfg.CA == nil {
		return notFound(issueHandlerNotFound, "this server has no certificate authority")
	}
	kind, name, _ := strings.Cut(rest, "/")
	text := func(status int, body []byte) error {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return nil
	}
	caErr := func(err error, what string) error {
		if errors.Is(err, fs.ErrNotExist) {
			return text(http.StatusNotFound, []byte("Could not find "+what))
		}
		s.log.Error("certificate authority", "error", err)
		return text(http.StatusInternalServerError, []byte(s.agentMessage(err.Error())))
	}
	switch {
	case kind == "certificate" && name == "ca" && r.Method == http.MethodGet:
		pem, err := s.cfg.CA.CACertificate()
		if err != nil {
			return caErr(err, "certificate ca")
		}
		return text(http.StatusOK, pem)
	case kind == "certificate_revocation_list" && name == "ca" && r.Method == http.MethodGet:
		pem, notModified, err := s.crl(w, r)
		if notModified {
			return nil
		}
		if err != nil {
			return caErr(err, "certificate_revocation_list ca")
		}
		return text(http.StatusOK, pem)
	case kind == "expirations" && name == "" && r.Method == http.MethodGet:
		return s.caExpirations(w)
	case kind == "certificate_status" || kind == "certificate_statuses":
		return s.certStatus(w, r, kind, name)
	case kind == "certificate" && r.Method == http.MethodGet:
		if !names.ValidCertname(name) {
			return text(http.StatusBadRequest, []byte("Invalid certname '"+name+"'"))
		}
		pem, err := s.cfg.CA.Certificate(name)
		if err != nil {
			return caErr(err, "certificate "+name)
		}
		return text(http.StatusOK, pem)
	case kind == "certificate_request" && r.Method == http.MethodPut:
		if !names.ValidCertname(name) {
			return text(http.StatusBadRequest, []byte("Invalid certname '"+name+"'"))
		}
		body, err := readBody(r)
		if err != nil {
			return err
		}
		if err := s.cfg.CA.SubmitCSR(name, body); err != nil {
			var rej csrRejection
			if errors.As(err, &rej) && rej.CSRRejected() {
				return text(http.StatusBadRequest, []byte(err.Error()))
			}
			return caErr(err, "certificate_request "+name)
		}
		return text(http.StatusOK, nil)
	}
	return notFound(issueHandlerNotFound, "No route for %s %s", r.Method, r.URL.Path)
}

// FromCA makes marionette's own CA (package ca) the server's
// CertAuthority: its policy refusals answer 400, and a certificate it has
// not signed 404.
func FromCA(c *ca.CA) CertAuthority { return caAdapter{c} }

type caAdapter struct{ c *ca.CA }

func (a caAdapter) CACertificate() ([]byte, error) { return a.c.CACertPEM() }

func (a caAdapter) CRL() ([]byte, error) { return a.c.CRLPEM() }

func (a caAdapter) SubmitCSR(certname string, csrPEM []byte) error {
	_, err := a.c.SubmitCSR(certname, csrPEM)
	var re *ca.RequestError
	if errors.As(err, &re) {
		return rejectedCSR{re}
	}
	return err
}

func (a caAdapter) Certificate(certname string) ([]byte, error) {
	b, err := a.c.CertificatePEM(certname)
	if errors.Is(err, ca.ErrNotFound) {
		return nil, fmt.Errorf("%w (%w)", fs.ErrNotExist, err)
	}
	return b, err
}

// rejectedCSR is a CA policy refusal, shown to the agent as it is.
type rejectedCSR struct{ err *ca.RequestError }

func (r rejectedCSR) Error() string     { return r.err.Error() }
func (r rejectedCSR) Unwrap() error     { return r.err }
func (r rejectedCSR) CSRRejected() bool { return true }
