package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/marionette-dev/marionette/ca"
)

// CertManager is a CertAuthority that can also be managed over HTTP, as
// the `puppetserver ca` CLI manages puppetserver's CA through
// /puppet-ca/v1/certificate_status(es). Errors wrapping fs.ErrNotExist mean
// the name has neither a certificate nor a request.
type CertManager interface {
	CertAuthority
	// Status is a name's certificate status (certificate or request).
	Status(certname string) (ca.Status, error)
	// List is every request and certificate.
	List() ([]ca.Status, error)
	// Sign signs a pending request, valid for ttl (0: the CA's TTL).
	Sign(certname string, ttl time.Duration) error
	// Revoke revokes a name's certificates.
	Revoke(certname string) error
	// Clean revokes a name's certificates and deletes its certificate and
	// request.
	Clean(certname string) error
	// CRLModTime is when the CRL last changed, for If-Modified-Since.
	CRLModTime() (time.Time, error)
}

// certStatus serves certificate_status/<name> (GET, PUT, DELETE) and
// certificate_statuses/<any> (GET, ?state=), the endpoints puppetserver's CA
// CLI uses. Authorization (pp_cli_auth or an admin certname) is the rules'.
func (s *Server) certStatus(w http.ResponseWriter, r *http.Request, kind, name string) error {
	m, ok := s.cfg.CA.(CertManager)
	if !ok {
		return notFound(issueHandlerNotFound, "No route for %s %s", r.Method, r.URL.Path)
	}
	text := func(status int, msg string) error {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(msg))
		return nil
	}
	if kind == "certificate_statuses" {
		if r.Method != http.MethodGet {
			return methodNotAllowed(r)
		}
		// puppetserver ignores a state it does not know: all are listed.
		state := r.URL.Query().Get("state")
		if state != ca.StateRequested && state != ca.StateSigned && state != ca.StateRevoked {
			state = ""
		}
		all, err := m.List()
		if err != nil && len(all) == 0 {
			return s.caFailure(text, err)
		}
		if err != nil {
			s.log.Warn("certificate statuses", "error", err)
		}
		out := make([]ca.Status, 0, len(all))
		for _, st := range all {
			if state == "" || st.State == state {
				out = append(out, st)
			}
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	}
	// puppetserver's answers to a name it has nothing for: PUT says the
	// subject is invalid, GET and DELETE that the resource is not found.
	invalid := func() error {
		if r.Method == http.MethodPut {
			return text(http.StatusNotFound, "Invalid certificate subject.")
		}
		return text(http.StatusNotFound, "Resource not found.")
	}
	if ca.ValidateName(name) != nil {
		return invalid()
	}
	st, err := m.Status(name)
	if errors.Is(err, fs.ErrNotExist) {
		return invalid()
	}
	if err != nil {
		return s.caFailure(text, err)
	}
	switch r.Method {
	case http.MethodGet:
		writeJSON(w, http.StatusOK, st)
		return nil
	case http.MethodDelete:
		if err := m.Clean(name); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return invalid()
			}
			return s.caFailure(text, err)
		}
		s.log.Info("certificate cleaned", "certname", name)
		return text(http.StatusNoContent, "")
	case http.MethodPut:
		return s.putCertStatus(w, r, m, st, text)
	}
	return methodNotAllowed(r)
}

// putCertStatus signs or revokes: a JSON body {"desired_state": "signed" |
// "revoked", "cert_ttl": seconds}.
func (s *Server) putCertStatus(w http.ResponseWriter, r *http.Request, m CertManager, st ca.Status, text func(int, string) error) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return text(http.StatusUnsupportedMediaType, "Unsupported media type.")
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	var req struct {
		DesiredState *string         `json:"desired_state"`
		CertTTL      json.RawMessage `json:"cert_ttl"`
	}
	if json.Unmarshal(body, &req) != nil {
		return text(http.StatusBadRequest, "Request body is not JSON.")
	}
	if req.DesiredState == nil {
		return text(http.StatusBadRequest, "Missing required parameter \"desired_state\"")
	}
	var ttl time.Duration
	if len(req.CertTTL) > 0 && string(req.CertTTL) != "null" {
		var secs int64
		if json.Unmarshal(req.CertTTL, &secs) != nil {
			var str string
			if json.Unmarshal(req.CertTTL, &str) != nil {
				str = string(req.CertTTL)
			}
			return text(http.StatusBadRequest, fmt.Sprintf("cert_ttl specified for host %s must be an integer, not \"%s\"", st.Name, str))
		}
		// puppetserver signs a certificate already expired for a
		// negative TTL; refuse it instead.
		if secs <= 0 || secs > int64((200*365*24*time.Hour)/time.Second) {
			return text(http.StatusBadRequest, fmt.Sprintf("cert_ttl specified for host %s must be a positive number of seconds, not %d", st.Name, secs))
		}
		ttl = time.Duration(secs) * time.Second
	}
	switch *req.DesiredState {
	case ca.StateSigned:
		if st.State != ca.StateRequested {
			return text(http.StatusConflict, fmt.Sprintf("Cannot sign certificate for host %s without a certificate request", st.Name))
		}
		if err := m.Sign(st.Name, ttl); err != nil {
			var re *ca.RequestError
			if errors.As(err, &re) {
				return text(http.StatusBadRequest, re.Message)
			}
			return s.caFailure(text, err)
		}
		s.log.Info("certificate signed", "certname", st.Name)
	case ca.StateRevoked:
		if st.State == ca.StateRequested {
			return text(http.StatusConflict, fmt.Sprintf("Cannot revoke certificate for host %s without a signed certificate", st.Name))
		}
		if err := m.Revoke(st.Name); err != nil {
			return s.caFailure(text, err)
		}
		s.log.Info("certificate revoked", "certname", st.Name)
	default:
		return text(http.StatusBadRequest, fmt.Sprintf("State %s invalid; Must specify desired state of 'signed' or 'revoked' for host %s.", *req.DesiredState, st.Name))
	}
	return text(http.StatusNoContent, "")
}

// crl answers certificate_revocation_list/ca, 304 when the agent's copy
// (If-Modified-Since) is current: agents refresh their CRL this way.
func (s *Server) crl(w http.ResponseWriter, r *http.Request) ([]byte, bool, error) {
	m, ok := s.cfg.CA.(CertManager)
	if ok {
		mt, err := m.CRLModTime()
		if err == nil && !mt.IsZero() {
			w.Header().Set("Last-Modified", mt.UTC().Format(http.TimeFormat))
			if ims := r.Header.Get("If-Modified-Since"); ims != "" {
				if t, err := http.ParseTime(ims); err == nil && !mt.Truncate(time.Second).After(t) {
					w.WriteHeader(http.StatusNotModified)
					return nil, true, nil
				}
			}
		}
	}
	b, err := s.cfg.CA.CRL()
	return b, false, err
}

func (a caAdapter) Status(name string) (ca.Status, error) {
	st, err := a.c.Status(name)
	return st, notExist(err)
}

func (a caAdapter) List() ([]ca.Status, error) { return a.c.List() }

func (a caAdapter) Sign(name string, ttl time.Duration) error {
	_, err := a.c.SignTTL(name, ttl)
	return notExist(err)
}

func (a caAdapter) Revoke(name string) error { return notExist(a.c.Revoke(name)) }

func (a caAdapter) Clean(name string) error { return notExist(a.c.Clean(name)) }

func (a caAdapter) CRLModTime() (time.Time, error) {
	fi, err := os.Stat(filepath.Join(a.c.Dir(), ca.CRLFile))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// notExist makes the CA's ErrNotFound an fs.ErrNotExist as CertManager
// promises.
func notExist(err error) error {
	if errors.Is(err, ca.ErrNotFound) && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (%w)", fs.ErrNotExist, err)
	}
	return err
}

// caFailure answers a CA failure that is no refusal: 500, logged, its
// message without the CA's path.
func (s *Server) caFailure(text func(int, string) error, err error) error {
	s.log.Error("certificate authority", "error", err)
	return text(http.StatusInternalServerError, s.agentMessage(err.Error()))
}
