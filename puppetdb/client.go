package puppetdb

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Command names as PuppetDB knows them, and the versions the termini of
// Puppet 7 submit.
const (
	ReplaceFacts   = "replace facts"
	ReplaceCatalog = "replace catalog"
	StoreReport    = "store report"
	DeactivateNode = "deactivate node"

	ReplaceFactsVersion   = 5
	ReplaceCatalogVersion = 9
	StoreReportVersion    = 8
	DeactivateNodeVersion = 3
)

// Paths of PuppetDB's HTTP API the client uses.
const (
	CommandsPath = "/pdb/cmd/v1"
	QueryPath    = "/pdb/query/v4"
	StatusPath   = "/status/v1/services/puppetdb-status"
)

// failMsg ends each per-server warning, as in the termini.
const failMsg = "Failing over to the next PuppetDB server_url in the 'server_urls' list"

// Client talks to the PuppetDB servers of a Config. It is safe for
// concurrent use.
type Client struct {
	cfg  *Config
	http *http.Client
	// Logf receives the warnings and errors the termini log (failover,
	// soft write failures); nil discards them.
	logf func(level, msg string)
	// lastGood is the index of the server that last answered a query,
	// where sticky_read_failover starts.
	lastGood atomic.Int64
	now      func() time.Time
}

// Options configure a Client beyond puppetdb.conf.
type Options struct {
	// HTTPClient carries TLS settings (Puppet's certificate, key and CA
	// for https server_urls); nil means a plain http.Client. Timeouts come
	// from Config.ServerURLTimeout, per server.
	HTTPClient *http.Client
	// Logf receives log lines with Puppet's levels ("warning", "err",
	// "info", "debug").
	Logf func(level, msg string)
	// Now is the clock for producer timestamps; nil means time.Now.
	Now func() time.Time
}

// New returns a client for cfg. Unlike ParseConfig, it accepts http URLs
// (a PuppetDB on loopback for tests).
func New(cfg *Config, o Options) (*Client, error) {
	if cfg == nil || len(cfg.ServerURLs) == 0 {
		return nil, errors.New("puppetdb: no server_urls")
	}
	c := &Client{cfg: cfg, http: keepAlive(o.HTTPClient), logf: o.Logf, now: o.Now}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// idleConns is how many idle connections to one PuppetDB a client keeps:
// a compile server submits from each request and each queue worker at
// once, and Go's default of 2 closes the rest after each command, so
// that the next one pays a new connection (and TLS handshake).
const idleConns = 64

// keepAlive returns hc (nil: a plain client) with a transport that keeps
// idleConns idle connections per host; hc itself is not changed.
func keepAlive(hc *http.Client) *http.Client {
	if hc == nil {
		hc = &http.Client{}
	}
	var tr *http.Transport
	switch t := hc.Transport.(type) {
	case nil:
		tr = http.DefaultTransport.(*http.Transport).Clone()
	case *http.Transport:
		if t.MaxIdleConnsPerHost >= idleConns {
			return hc
		}
		tr = t.Clone()
	default:
		return hc // someone else's RoundTripper: theirs to tune
	}
	tr.MaxIdleConnsPerHost = idleConns
	if tr.MaxIdleConns != 0 && tr.MaxIdleConns < idleConns {
		tr.MaxIdleConns = idleConns
	}
	out := *hc
	out.Transport = tr
	return &out
}

// NewURL is New with one server URL (as `--puppetdb URL` gives it) and
// the termini's other defaults.
func NewURL(server string, o Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSuffix(server, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid PuppetDB URL '%s'", server)
	}
	cfg := DefaultConfig()
	cfg.ServerURLs = []*url.URL{u}
	return New(cfg, o)
}

// Config returns the client's settings.
func (c *Client) Config() *Config { return c.cfg }

func (c *Client) log(level, format string, args ...any) {
	if c.logf != nil {
		c.logf(level, fmt.Sprintf(format, args...))
	}
}

// ResponseError is a PuppetDB answer that is not a success, worded as the
// termini word it: "[400 Bad Request] body".
type ResponseError struct {
	Code   int
	Reason string
	Body   string
}

func (e *ResponseError) Error() string {
	body := strings.NewReplacer("\r", "", "\n", "").Replace(e.Body)
	return fmt.Sprintf("[%d %s] %s", e.Code, e.Reason, body)
}

// AllServersFailedError is the termini's failure when no server (or too
// few, for a broadcast) accepted a request.
type AllServersFailedError struct {
	Path          string
	MinSuccessful int
	ServerURLs    []string
	NotFound      bool
}

func (e *AllServersFailedError) Error() string {
	urls := strings.Join(e.ServerURLs, ", ")
	if e.NotFound {
		return fmt.Sprintf("Failed to find '%s' on any of the following 'server_urls': %s", e.Path, urls)
	}
	return fmt.Sprintf("Failed to execute '%s' on at least %d of the following 'server_urls': %s", e.Path, e.MinSuccessful, urls)
}

// CommandError is a command PuppetDB did not accept, with the context the
// termini log it with.
type CommandError struct {
	Command  string // with underscores, as on the wire
	Certname string
	Err      error
}

func (e *CommandError) Error() string { return e.Err.Error() }
func (e *CommandError) Unwrap() error { return e.Err }

// response is a finished HTTP exchange.
type response struct {
	code   int
	reason string
	body   []byte
	header http.Header
}

func (r *response) success() bool { return r.code >= 200 && r.code < 300 }

// request builds one HTTP request against a server.
type request func(ctx context.Context, base *url.URL) (*http.Request, error)

// do sends one request to one server within the server_url_timeout.
func (c *Client) do(ctx context.Context, base *url.URL, build request) (*response, error) {
	if c.cfg.ServerURLTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.ServerURLTimeout)
		defer cancel()
	}
	req, err := build(ctx, base)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
	if reason == "" {
		reason = http.StatusText(resp.StatusCode)
	}
	return &response{code: resp.StatusCode, reason: reason, body: body, header: resp.Header}, nil
}

// maxResponse bounds a response body read into memory (a fleet-wide query
// can be large, but not unbounded).
const maxResponse = 1 << 30

func route(base *url.URL, suffix string) string {
	return strings.TrimSuffix(base.String(), "/") + suffix
}

func hostPort(u *url.URL) (string, string) {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Hostname(), port
}

// attempt sends to one server, logs a failure as the termini do and says
// whether the answer counts as an answer; classification is :notfound
// (a JSON 404) or another failure.
func (c *Client) attempt(ctx context.Context, base *url.URL, suffix string, build request) (resp *response, notFound bool, ok bool) {
	host, port := hostPort(base)
	r := route(base, suffix)
	resp, err := c.do(ctx, base, build)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			c.log("warning", "Request to %s on %s at route %s timed out after %d seconds. %s", host, port, r, int(c.cfg.ServerURLTimeout/time.Second), failMsg)
		} else {
			c.log("warning", "Error connecting to %s on %s at route %s, error message received was '%v'. %s", host, port, r, err, failMsg)
		}
		return nil, false, false
	}
	switch {
	case resp.code >= 500:
		c.log("warning", "Error connecting to %s on %s at route %s, error message received was '%s'. %s", host, port, r, resp.reason, failMsg)
		return resp, false, false
	case resp.code == 404:
		if bytes.HasPrefix(resp.body, []byte("{")) {
			c.log("debug", "HTTP 404 (probably normal) when connecting to %s on %s at route %s, error message received was '%s'. %s", host, port, r, resp.reason, failMsg)
			return resp, true, false
		}
		c.log("warning", "Error connecting to %s on %s at route %s, error message received was '%s'. %s", host, port, r, resp.reason, failMsg)
		return resp, false, false
	}
	return resp, false, true
}

func (c *Client) failed(suffix string, notFound bool) error {
	urls := make([]string, len(c.cfg.ServerURLs))
	for i, u := range c.cfg.ServerURLs {
		urls[i] = u.String()
	}
	return &AllServersFailedError{Path: suffix, MinSuccessful: c.cfg.MinSuccessfulSubmissions, ServerURLs: urls, NotFound: notFound}
}

// failover tries servers in order (from the last good one when sticky) and
// returns the first answer.
func (c *Client) failover(ctx context.Context, servers []*url.URL, sticky bool, suffix string, build request) (*response, error) {
	start := 0
	if sticky {
		start = int(c.lastGood.Load()) % len(servers)
	}
	notFound := false
	for i := range servers {
		idx := (start + i) % len(servers)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		resp, nf, ok := c.attempt(ctx, servers[idx], suffix, build)
		notFound = nf
		if ok {
			if i != 0 {
				c.lastGood.Store(int64(idx))
			}
			return resp, nil
		}
	}
	return nil, c.failed(suffix, notFound)
}

// broadcast sends to every server and needs MinSuccessfulSubmissions of
// them to accept.
func (c *Client) broadcast(ctx context.Context, servers []*url.URL, suffix string, build request) (*response, error) {
	var last *response
	n, notFound := 0, false
	for _, s := range servers {
		resp, nf, ok := c.attempt(ctx, s, suffix, build)
		notFound = nf
		if ok {
			n++
			last = resp
		}
	}
	if last == nil || n < c.cfg.MinSuccessfulSubmissions {
		return nil, c.failed(suffix, notFound)
	}
	return last, nil
}

// WireTime formats a time as the termini put it on the wire (Ruby's
// Time#iso8601(3)): milliseconds, "Z" for UTC, else the offset.
func WireTime(t time.Time) string {
	if _, off := t.Zone(); off == 0 && t.Location() == time.UTC {
		return t.Format("2006-01-02T15:04:05.000Z")
	}
	return t.Format("2006-01-02T15:04:05.000-07:00")
}

// SubmitCommand posts a command to /pdb/cmd/v1 as the termini do: the
// command name (spaces as underscores), version, certname, producer
// timestamp and checksum in the query string, the payload gzipped. It
// returns the UUID PuppetDB assigned. With soft_write_failure, a failure
// is logged and the result is "" and a nil error; otherwise it is a
// *CommandError.
func (c *Client) SubmitCommand(ctx context.Context, command string, version int, certname string, payload []byte) (string, error) {
	return c.submit(ctx, command, version, certname, c.now().UTC(), payload)
}

func (c *Client) submit(ctx context.Context, command string, version int, certname string, producerTime time.Time, payload []byte) (string, error) {
	wireName := strings.ReplaceAll(command, " ", "_")
	// The termini's checksum covers the command, version, certname and
	// payload as one JSON document.
	var doc bytes.Buffer
	doc.WriteString(`{"command":`)
	doc.Write(jsonString(command))
	doc.WriteString(`,"version":`)
	doc.WriteString(strconv.Itoa(version))
	doc.WriteString(`,"certname":`)
	doc.Write(jsonString(certname))
	doc.WriteString(`,"payload":`)
	doc.Write(payload)
	doc.WriteString("}")
	sum := sha1.Sum(doc.Bytes())
	q := "checksum=" + hex.EncodeToString(sum[:]) + "&version=" + strconv.Itoa(version) +
		"&certname=" + url.QueryEscape(certname) + "&command=" + url.QueryEscape(wireName) +
		"&producer-timestamp=" + url.QueryEscape(WireTime(producerTime))
	suffix := CommandsPath + "?" + q

	var gz bytes.Buffer
	// The fastest level: a catalog compresses about as well (a few
	// percent larger) for a fifth less CPU, spent while an agent waits
	// when soft_write_failure is off.
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write(payload); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	build := func(ctx context.Context, base *url.URL) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, route(base, suffix), bytes.NewReader(gz.Bytes()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("X-Uncompressed-Length", strconv.Itoa(len(payload)))
		return req, nil
	}
	servers := append(append([]*url.URL(nil), c.cfg.ServerURLs...), c.cfg.SubmitOnlyServerURLs...)
	forWhom := ""
	if certname != "" {
		forWhom = " for " + certname
	}
	var resp *response
	if c.cfg.CommandBroadcast {
		resp, err = c.broadcast(ctx, servers, suffix, build)
	} else {
		resp, err = c.failover(ctx, servers, false, suffix, build)
	}
	if err == nil && !resp.success() {
		rerr := &ResponseError{Code: resp.code, Reason: resp.reason, Body: string(resp.body)}
		if c.cfg.SoftWriteFailure {
			c.log("err", "'%s'command%s failed during submission to PuppetDB: %s", wireName, forWhom, rerr)
			return "", nil
		}
		err = rerr
	}
	if err == nil {
		var result struct {
			UUID string `json:"uuid"`
		}
		if jerr := json.Unmarshal(resp.body, &result); jerr != nil {
			err = fmt.Errorf("could not parse PuppetDB's answer to '%s': %v", wireName, jerr)
		} else {
			c.log("info", "'%s' command%s submitted to PuppetDB with UUID %s", wireName, forWhom, result.UUID)
			return result.UUID, nil
		}
	}
	if c.cfg.SoftWriteFailure {
		c.log("err", "%s", err.Error())
		return "", nil
	}
	return "", &CommandError{Command: wireName, Certname: certname, Err: err}
}

// Query runs a query against /pdb/query/v4 as puppetdb_query does: POST
// {"query": q}, where q is a PQL string or an AST ([]any). The answer is
// PuppetDB's JSON, decoded.
func (c *Client) Query(ctx context.Context, query any) (any, error) {
	body, err := marshal(map[string]any{"query": query})
	if err != nil {
		return nil, err
	}
	resp, err := c.postQuery(ctx, body)
	if err != nil {
		return nil, err
	}
	return decodeAny(resp.body)
}

// postQuery POSTs a JSON query body to /pdb/query/v4, with failover.
func (c *Client) postQuery(ctx context.Context, body []byte) (*response, error) {
	return c.query(ctx, QueryPath, func(ctx context.Context, base *url.URL) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, route(base, QueryPath), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json; charset=UTF-8")
		return req, nil
	})
}

// QueryEndpoint runs an AST query against one endpoint of /pdb/query/v4
// ("resources", "facts", "nodes/<certname>/facts", ...) with GET, as the
// termini's finders do, and returns the raw JSON answer. A nil query asks
// for everything.
func (c *Client) QueryEndpoint(ctx context.Context, endpoint string, query any) ([]byte, error) {
	return c.queryEndpoint(ctx, endpoint, query, nil)
}

// queryEndpoint is QueryEndpoint telling tried each server it tries.
func (c *Client) queryEndpoint(ctx context.Context, endpoint string, query any, tried func(*url.URL)) ([]byte, error) {
	return c.queryParams(ctx, endpoint, query, "", tried)
}

// queryParams is queryEndpoint with more URL parameters (paging: limit,
// offset, order_by), already encoded, after the query.
func (c *Client) queryParams(ctx context.Context, endpoint string, query any, params string, tried func(*url.URL)) ([]byte, error) {
	suffix := QueryPath + "/" + strings.TrimPrefix(endpoint, "/")
	sep := "?"
	if query != nil {
		q, err := marshal(query)
		if err != nil {
			return nil, err
		}
		suffix += "?query=" + url.QueryEscape(string(q))
		sep = "&"
	}
	if params != "" {
		suffix += sep + params
	}
	resp, err := c.query(ctx, suffix, func(ctx context.Context, base *url.URL) (*http.Request, error) {
		if tried != nil {
			tried(base)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, route(base, suffix), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		return req, nil
	})
	if err != nil {
		return nil, err
	}
	return resp.body, nil
}

// query sends a read with failover and turns an unsuccessful answer into a
// ResponseError.
func (c *Client) query(ctx context.Context, suffix string, build request) (*response, error) {
	resp, err := c.failover(ctx, c.cfg.ServerURLs, c.cfg.StickyReadFailover, suffix, build)
	if err != nil {
		return nil, err
	}
	if !resp.success() {
		return nil, &ResponseError{Code: resp.code, Reason: resp.reason, Body: string(resp.body)}
	}
	if w := resp.header.Get("X-Deprecation"); w != "" {
		c.log("warning", "Deprecation from PuppetDB: %s", w)
	}
	return resp, nil
}

// Status reports PuppetDB's state from its status service ("running" when
// ready), asking the first server_url.
func (c *Client) Status(ctx context.Context) (string, error) {
	resp, err := c.do(ctx, c.cfg.ServerURLs[0], func(ctx context.Context, base *url.URL) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, route(base, StatusPath), nil)
	})
	if err != nil {
		return "", err
	}
	var st struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal(resp.body, &st); err != nil {
		return "", fmt.Errorf("PuppetDB status: %v", err)
	}
	return st.State, nil
}
