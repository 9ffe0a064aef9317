package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/puppetconf"
)

// benchServer is a marionette server on a loopback TLS listener, serving
// the shared benchmark workloads as directory environments, and an
// agent-like client of node bench01.example.com.
type benchServer struct {
	srv    *Server
	url    string
	agent  *http.Client // bench01.example.com's certificate
	admin  *http.Client // a certificate with pp_cli_auth, for v4
	facts  []byte       // the node's facts values (JSON object)
	cancel context.CancelFunc
	done   chan error
}

// newBenchServer starts the server as `marionette serve` runs it (Serve on
// a TCP listener: TLS, keep-alive, the INFO access log to a discarding text
// handler) over the shared workloads.
func newBenchServer(b *testing.B, opts ...func(*Config)) *benchServer {
	b.Helper()
	gen := filepath.Join(corpus.Bench().Require(b), "gen.py")
	work := filepath.Join(os.TempDir(), "marionette-bench-workloads")
	if _, err := os.Stat(filepath.Join(work, "summary.json")); err != nil {
		if out, err := exec.Command("python3", gen, "--out", work).CombinedOutput(); err != nil {
			b.Skipf("gen.py: %v\n%s", err, out)
		}
	}
	facts, err := os.ReadFile(filepath.Join(work, "facts", "bench01.example.com.values.json"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	settings, err := puppetconf.Load(puppetconf.Options{
		Home:     dir,
		Hostname: "server",
		Flags: map[string]string{
			puppetconf.Codedir:         filepath.Join(dir, "code"),
			puppetconf.Confdir:         filepath.Join(dir, "conf"),
			puppetconf.EnvironmentPath: filepath.Join(work, "environments"),
			puppetconf.Vardir:          filepath.Join(dir, "var"),
			puppetconf.BaseModulePath:  filepath.Join(dir, "modules"),
			"environment_timeout":      "unlimited",
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	p := newPKI(b)
	serverCert, _ := p.issue("server")
	certFile, keyFile, caFile := p.writeFiles(dir, serverCert)
	cfg := Config{
		Settings: settings,
		CertFile: certFile, KeyFile: keyFile, CAFile: caFile,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		// Every request compiles, unless a benchmark of reuse says so.
		NoReuse: true,
	}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	bs := &benchServer{srv: srv, url: "https://" + l.Addr().String(), facts: facts, cancel: cancel, done: make(chan error, 1)}
	go func() { bs.done <- srv.Serve(ctx, l) }()
	b.Cleanup(bs.close)
	agentCert, _ := p.issue("bench01.example.com")
	adminCert, _ := p.issue("admin.example.com", ext{oidCLIAuth, "true"})
	bs.agent = agentClient(p, agentCert)
	bs.admin = agentClient(p, adminCert)
	return bs
}

func (bs *benchServer) close() {
	bs.cancel()
	<-bs.done
}

// agentClient is an HTTP client as a Puppet agent has one: one keep-alive
// connection, TLS sessions resumed, gzip accepted.
func agentClient(p *pki, cert tls.Certificate) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(p.cert)
	tc := &tls.Config{RootCAs: pool, ServerName: "localhost", Certificates: []tls.Certificate{cert},
		ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: tc, MaxIdleConnsPerHost: 1}, Timeout: time.Minute}
}

// v3Body is the form a Puppet 7 agent posts for its catalog.
func (bs *benchServer) v3Body() string { return bs.v3BodyWith(bs.facts) }

// v3BodyRun is v3Body for the agent's run-th run: the volatile facts
// (uptime, free memory, load) differ from run to run, as a real agent's.
func (bs *benchServer) v3BodyRun(run int) string {
	var values map[string]any
	if err := json.Unmarshal(bs.facts, &values); err != nil {
		panic(err)
	}
	values["uptime_seconds"] = 86400 + 1800*run
	values["uptime"] = fmt.Sprintf("%d days", 1+run/48)
	values["memoryfree_mb"] = 1000 + run%97
	values["load_averages"] = map[string]any{"1m": float64(run%7) / 10}
	data, _ := json.Marshal(values)
	return bs.v3BodyWith(data)
}

func (bs *benchServer) v3BodyWith(factValues []byte) string {
	facts, _ := json.Marshal(map[string]any{"name": "bench01.example.com", "values": json.RawMessage(factValues),
		"timestamp": "2026-11-27T10:00:00.000000000+00:00", "expiration": "2026-11-27T10:30:00.000000000+00:00"})
	form := url.Values{}
	form.Set("environment", "medium")
	form.Set("facts_format", "application/json")
	form.Set("facts", url.QueryEscape(string(facts)))
	form.Set("transaction_uuid", "00000000-0000-4000-8000-000000000000")
	form.Set("static_catalog", "true")
	form.Set("checksum_type", "sha256.sha384.sha512.sha224.md5")
	form.Set("check_environment", "true")
	return form.Encode()
}

// v4Body is a service's catalog request.
func (bs *benchServer) v4Body() string {
	body, _ := json.Marshal(map[string]any{
		"certname": "bench01.example.com", "environment": "medium",
		"persistence":      map[string]bool{"facts": false, "catalog": false},
		"facts":            map[string]json.RawMessage{"values": bs.facts},
		"transaction_uuid": "00000000-0000-4000-8000-000000000000",
		"options":          map[string]any{"prefer_requested_environment": true, "capture_logs": false},
	})
	return string(body)
}

// request sends one catalog request and reads the whole answer; it returns
// the catalog's size on the wire.
func benchRequest(b *testing.B, c *http.Client, body *bytes.Buffer, method, url, contentType, reqBody string, header ...string) int {
	req, err := http.NewRequest(method, url, strings.NewReader(reqBody))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	// The client reads into one buffer, so that the allocations counted
	// are nearly all the server's.
	body.Reset()
	_, err = body.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body.Bytes(), []byte(`"resources"`)) {
		b.Fatalf("HTTP %d: %.300s", resp.StatusCode, body.Bytes())
	}
	return body.Len()
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runCatalogBench runs one catalog request per iteration and reports,
// beside time per request (which the machine's load stretches), the CPU
// time of the process (client and server) per request, and the size of
// the answer.
func runCatalogBench(b *testing.B, run func() int) {
	n := run() // parse the environment once
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		run()
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(n), "answer-bytes")
}

// BenchmarkServeCatalogV3 is one agent's catalog request end to end, as
// Puppet 7 agents send it (POST /puppet/v3/catalog, the facts
// form-encoded, rich data and gzip accepted) over TLS with a client
// certificate on a kept-alive connection: form and facts decoding, the
// facts cache, classification, the warm compile of the medium workload
// (996 resources), encoding, compression and the access log. The
// allocations counted are the client's and the server's together.
func BenchmarkServeCatalogV3(b *testing.B) {
	bs := newBenchServer(b)
	body := bs.v3Body()
	u := bs.url + "/puppet/v3/catalog/bench01.example.com?environment=medium"
	// gzip: as agents ask (Ruby's Net::HTTP accepts gzip and inflates, as
	// Go's transport does when the request does not name an encoding);
	// identity: a client that does not.
	header := []string{"Accept", "application/vnd.puppet.rich+json, application/json, application/x-msgpack, text/pson"}
	for _, enc := range []string{"gzip", "identity"} {
		h := header
		if enc == "identity" {
			h = append(h[:len(h):len(h)], "Accept-Encoding", "identity")
		}
		b.Run(enc, func(b *testing.B) {
			var answer bytes.Buffer
			runCatalogBench(b, func() int {
				return benchRequest(b, bs.agent, &answer, "POST", u, "application/x-www-form-urlencoded", body, h...)
			})
		})
	}
}

// BenchmarkServeCatalogV3Reused is BenchmarkServeCatalogV3/gzip with
// catalog reuse on, the agent sending other volatile facts (uptime, free
// memory) at every run: what a request costs when nothing the node's
// compile read changed (the facts it read, its files and modules, its
// classification and $trusted are checked; the catalog is sent as kept).
// The client asks for gzip as the agent does (its Accept-Encoding names
// it, so Go's transport does not inflate): the first answer is inflated
// and checked whole, each later one must be a gzip stream of the same
// length inflated (hitRequest), so that cpu-ms/op is nearly all the
// server's. agent-run is an agent's whole run: GET node, then the catalog.
func BenchmarkServeCatalogV3Reused(b *testing.B) {
	bs := newBenchServer(b, func(c *Config) { c.NoReuse = false })
	bodies := make([]string, 16)
	for i := range bodies {
		bodies[i] = bs.v3BodyRun(i)
	}
	u := bs.url + "/puppet/v3/catalog/bench01.example.com?environment=medium"
	nodeURL := bs.url + "/puppet/v3/node/bench01.example.com?environment=medium&configured_environment=medium&transaction_uuid=00000000-0000-4000-8000-000000000000"
	for _, sub := range []string{"catalog", "agent-run"} {
		b.Run(sub, func(b *testing.B) {
			hr := &hitRequest{}
			run := 0
			runCatalogBench(b, func() int {
				run++
				if sub == "agent-run" {
					hr.node(b, bs.agent, nodeURL)
				}
				return hr.catalog(b, bs.agent, u, bodies[run%len(bodies)])
			})
		})
	}
	if hits, _, _ := bs.srv.reuse.stats(); hits == 0 {
		b.Error("no request reused the catalog")
	}
}

// agentAcceptEncoding is what a Puppet 7 agent's requests accept.
const agentAcceptEncoding = "gzip;q=1.0,deflate;q=0.6,identity;q=0.3"

// hitRequest sends an agent's requests and checks the answers cheaply
// after the first: the first catalog is inflated and must name resources,
// every later one must be gzip whose trailer says the same inflated
// length (a reused catalog differs in its version and uuid only, of the
// same lengths).
type hitRequest struct {
	buf   bytes.Buffer
	isize []byte
}

func (h *hitRequest) do(b *testing.B, c *http.Client, method, url, contentType, body, accept string) *http.Response {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Encoding", agentAcceptEncoding)
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	h.buf.Reset()
	_, err = h.buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("HTTP %d: %.300s", resp.StatusCode, h.buf.Bytes())
	}
	return resp
}

// node asks for the node's definition.
func (h *hitRequest) node(b *testing.B, c *http.Client, url string) {
	h.do(b, c, "GET", url, "", "", "application/json, text/pson")
}

// catalog asks for the catalog, and returns its size on the wire.
func (h *hitRequest) catalog(b *testing.B, c *http.Client, url, body string) int {
	resp := h.do(b, c, "POST", url, "application/x-www-form-urlencoded", body, "application/vnd.puppet.rich+json, application/json, application/x-msgpack, text/pson")
	data := h.buf.Bytes()
	if resp.Header.Get("Content-Encoding") != "gzip" || len(data) < 18 {
		b.Fatalf("not gzip: %q, %d bytes", resp.Header.Get("Content-Encoding"), len(data))
	}
	isize := data[len(data)-4:]
	if h.isize == nil {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil || !bytes.Contains(plain, []byte(`"resources"`)) {
			b.Fatalf("not a catalog (%v): %.300s", err, plain)
		}
		h.isize = bytes.Clone(isize)
	} else if !bytes.Equal(isize, h.isize) {
		b.Fatalf("the catalog's inflated length changed: % x, first % x", isize, h.isize)
	}
	return len(data)
}

// BenchmarkServeCatalogV4 is a service's catalog request (POST
// /puppet/v4/catalog, JSON in and out) over the same TLS setup.
func BenchmarkServeCatalogV4(b *testing.B) {
	bs := newBenchServer(b)
	body := bs.v4Body()
	u := bs.url + "/puppet/v4/catalog"
	var answer bytes.Buffer
	runCatalogBench(b, func() int { return benchRequest(b, bs.admin, &answer, "POST", u, "application/json", body) })
}
