package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/names"
)

// Puppet's issue kinds of HTTP errors (Puppet::Network::HTTP::Issues).
const (
	issueRuntime          = "RUNTIME_ERROR"
	issueHandlerNotFound  = "HANDLER_NOT_FOUND"
	issueResourceNotFound = "RESOURCE_NOT_FOUND"
	issueUnsupportedMedia = "UNSUPPORTED_MEDIA_TYPE"
	issueUnsupportedMeth  = "UNSUPPORTED_METHOD"
)

// httpError is an answer other than 2xx, in Puppet's JSON error form.
type httpError struct {
	status  int
	message string // with Puppet's prefix ("Not Found: ", "Server Error: ")
	kind    string
}

func (e *httpError) Error() string { return e.message }

// Puppet's HTTP error classes: each prefixes its message.
func badRequest(format string, args ...any) *httpError {
	return &httpError{http.StatusBadRequest, "Bad Request: " + fmt.Sprintf(format, args...), issueRuntime}
}

func notFound(kind, format string, args ...any) *httpError {
	return &httpError{http.StatusNotFound, "Not Found: " + fmt.Sprintf(format, args...), kind}
}

func serverError(msg string) *httpError {
	return &httpError{http.StatusInternalServerError, "Server Error: " + msg, issueRuntime}
}

// writeError answers err: an httpError as it says, anything else as a
// server error.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		he = serverError(err.Error())
	}
	body, _ := json.Marshal(struct {
		Message   string `json:"message"`
		IssueKind string `json:"issue_kind"`
	}{s.agentMessage(he.message), he.kind})
	w.Header().Set("Content-Type", "application/json")
	if he.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", s.retryAfter())
	}
	w.WriteHeader(he.status)
	_, _ = w.Write(body)
}

// writeJSON answers status with v as JSON, without Go's HTML escaping
// ("=>" stays "=>" as in puppetserver's answers).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// recorder remembers the status and size of a response for the access log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	// attrs are the access log line's fields, here so that logging takes
	// no allocation of its own (see logRequest).
	attrs [8]slog.Attr
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Handler is the server's HTTP handler: access log, X-Puppet-Version,
// panic recovery, body limit and authorization around the endpoints.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(s.serveHTTP)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w}
	id := requestIdentity(r)
	s.metrics.inFlight.Add(1)
	defer s.metrics.inFlight.Add(-1)
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if rec.status == 0 {
				s.writeError(rec, serverError(fmt.Sprintf("internal error: %v", v)))
			}
		}
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		s.metrics.request(r.Method, status)
		s.logRequest(r, rec, id, status, time.Since(start))
	}()
	rec.Header().Set("X-Puppet-Version", PuppetVersion)
	limit := s.bodyLimit(r, id)
	r.Body = http.MaxBytesReader(rec, r.Body, limit)
	if !routable(r.Method, r.URL.Path) {
		// puppetserver routes before it authorizes: a request nothing
		// answers is 404 whoever sends it.
		s.writeError(rec, notFound(issueHandlerNotFound, "No route for %s %s", r.Method, r.URL.Path))
		return
	}
	if ru := s.authorize(r.Method, r.URL.Path, r.URL.Query(), id); ru != nil {
		s.forbidden(rec, r, id, ru)
		return
	}
	if r.ContentLength > limit {
		s.writeError(rec, tooLarge(limit))
		return
	}
	release, ok := s.uploadSlot(r, id)
	if !ok {
		s.writeError(rec, &httpError{http.StatusServiceUnavailable, "Service Unavailable: too many unauthenticated uploads; retry later", issueRuntime})
		return
	}
	defer release()
	if err := s.route(rec, r, id); err != nil {
		s.writeError(rec, err)
	}
}

// route dispatches an authorized request to its endpoint.
func (s *Server) route(w http.ResponseWriter, r *http.Request, id *identity) error {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/puppet/v3/"):
		return s.v3(w, r, id, strings.TrimPrefix(p, "/puppet/v3/"))
	case p == "/puppet/v4/catalog" || p == "/puppet/v4/catalog/":
		if r.Method != http.MethodPost {
			return methodNotAllowed(r)
		}
		return s.v4Catalog(w, r)
	case strings.HasPrefix(p, "/puppet-ca/v1/"):
		return s.ca(w, r, strings.TrimPrefix(p, "/puppet-ca/v1/"))
	case p == "/status/v1/simple" || p == "/status/v1/simple/server":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("running"))
		return nil
	case p == "/status/v1/services":
		return s.statusServices(w)
	case p == "/metrics":
		if r.Method != http.MethodGet {
			return methodNotAllowed(r)
		}
		return s.serveMetrics(w)
	case p == "/puppet-admin-api/v1/environment-cache":
		if r.Method != http.MethodDelete {
			return methodNotAllowed(r)
		}
		return s.flushEnvironments(w, r)
	case strings.HasPrefix(p, pprofPrefix):
		return s.servePprof(w, r)
	}
	return notFound(issueHandlerNotFound, "No route for %s %s", r.Method, p)
}

// routable reports whether an endpoint answers method on path, as
// puppetserver's routes decide before authorization.
func routable(method, path string) bool {
	get, post, put, del := method == http.MethodGet, method == http.MethodPost, method == http.MethodPut, method == http.MethodDelete
	switch {
	case strings.HasPrefix(path, "/puppet/v3/"):
		name, _, _ := strings.Cut(strings.TrimPrefix(path, "/puppet/v3/"), "/")
		switch name {
		case "environments", "environment_classes", "environment_modules", "node", "file_metadata", "file_metadatas", "file_content":
			return get
		case "catalog":
			return get || post
		case "report", "facts":
			return put
		}
		return false
	case path == "/puppet/v4/catalog" || path == "/puppet/v4/catalog/":
		return post
	case strings.HasPrefix(path, "/puppet-ca/v1/"):
		return true // the CA answers its own methods
	case path == "/status/v1/simple" || path == "/status/v1/simple/server" || path == "/status/v1/services" || path == "/metrics":
		return get
	case path == "/puppet-admin-api/v1/environment-cache":
		return del
	case strings.HasPrefix(path, pprofPrefix):
		return get || (post && path == pprofPrefix+"symbol")
	}
	return false
}

func methodNotAllowed(r *http.Request) error {
	return &httpError{http.StatusMethodNotAllowed, "Method Not Allowed: No route for " + r.Method + " " + r.URL.Path, issueUnsupportedMeth}
}

// v3 serves the /puppet/v3 indirections: rest is "<indirection>/<key>".
func (s *Server) v3(w http.ResponseWriter, r *http.Request, id *identity, rest string) error {
	name, key, _ := strings.Cut(rest, "/")
	if name == "environments" && key == "" {
		if r.Method != http.MethodGet {
			return methodNotAllowed(r)
		}
		return s.environments(w)
	}
	if name == "environment_classes" && key == "" {
		return s.environmentClasses(w, r)
	}
	if name == "environment_modules" && key == "" {
		return s.environmentModulesInfo(w, r)
	}
	if name == "file_metadata" || name == "file_metadatas" || name == "file_content" {
		return s.fileServer(w, r, name, key)
	}
	if !names.ValidEnvironment(name) {
		return badRequest("The indirection name must be purely alphanumeric, not '%s'", name)
	}
	var handle func(http.ResponseWriter, *http.Request, *identity, string, string) error
	switch {
	case name == "node" && r.Method == http.MethodGet:
		handle = s.node
	case name == "catalog" && (r.Method == http.MethodGet || r.Method == http.MethodPost):
		handle = s.catalog
	case name == "report" && r.Method == http.MethodPut:
		handle = s.report
	case name == "facts" && r.Method == http.MethodPut:
		handle = s.facts
	case name == "node" || name == "catalog" || name == "report" || name == "facts":
		return methodNotAllowed(r)
	default:
		return notFound(issueHandlerNotFound, "Could not find indirection '%s'", name)
	}
	if err := parseForm(r); err != nil {
		return err
	}
	env := r.Form.Get("environment")
	if env == "" {
		return badRequest("An environment parameter must be specified")
	}
	if !names.ValidEnvironment(env) {
		return badRequest("The environment must be purely alphanumeric, not '%s'", env)
	}
	if key == "" {
		return badRequest("No request key specified in %s", r.URL.Path)
	}
	if !names.ValidCertname(key) {
		return badRequest("Invalid certname '%s'", key)
	}
	return handle(w, r, id, key, env)
}

// parseForm parses the query and a form body, answering 413 for a body
// past the limit and 400 for a malformed one.
func parseForm(r *http.Request) error {
	handled, err := parsePostForm(r)
	if !handled {
		err = r.ParseForm()
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return tooLarge(mb.Limit)
		}
		return badRequest("could not read the request: %v", err)
	}
	return nil
}

// readBody reads a request body within the limit.
func readBody(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge(mb.Limit)
		}
		return nil, badRequest("could not read the request: %v", err)
	}
	return data, nil
}
