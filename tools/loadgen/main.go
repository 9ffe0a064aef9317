// Command loadgen drives agent-like clients against a Puppet server
// (marionette serve or puppetserver) on the loopback interface and reports
// throughput, latency percentiles and the server's RSS.
//
// Each client is what a Puppet agent does per run, over its own keep-alive
// TLS connection with a client certificate: GET /puppet/v3/node/<certname>,
// then POST /puppet/v3/catalog/<certname> with the facts form-encoded as
// the agent sends them (-mode v3), or POST /puppet/v4/catalog (-mode v4).
// Other modes: -herd N fires N one-shot requests at once, each on a new
// connection (the top of an agents' run interval), and -startup waits for
// the server's first answers, and -fleet N runs N distinct nodes once each
// (certificates issued from the CA's key). Traffic goes only to a loopback address, and
// every mode stops by itself.
//
// Requests carry the agent's Accept-Encoding, so answers are read as the
// server sent them, and checked (see checker): every answer's status
// (200), JSON content type and whole body; a node answer names the node;
// a catalog answer, gzip or not, is one whole gzip member (header, stored
// blocks, the deflate stream inflated - or byte for byte one this client
// inflated alone before - nothing after it, the CRC-32 and length of all
// its data); it holds a version 4 catalog_uuid other than the client's
// previous one. Each client's first answer of each kind,
// then one in -full-check-every (200), is inflated and parsed in full:
// the node, the environment, the uuid, resources each with a type and a
// title; -full-check-all does so for every answer. The same checks apply
// to every server, marionette or puppetserver, so a comparison stays
// fair; loadgen's own CPU (-cpuprofile) is a fraction of a millisecond
// per agent run, most of it TLS and building the request.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type config struct {
	base                      string // https://SERVERNAME:PORT, dialled at dialAddr
	dialAddr                  string // LOOPBACK-IP:PORT
	serverName                string
	caFile, certFile, keyFile string
	certname, env, factsFile  string
	mode                      string
	clients                   int
	duration, warmup          time.Duration
	timeout                   time.Duration
	pid                       int
	herd                      int
	startup                   bool
	rssEvery                  time.Duration
	jsonOut                   bool
	fleet                     int
	fleetPattern, caKeyFile   string
	// staticFacts sends the facts file as it is at every run; otherwise
	// the volatile facts differ from run to run (volatileFacts).
	staticFacts bool
	// fullEvery and fullAll say which answers are parsed in full
	// (checker).
	fullEvery int
	fullAll   bool
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.base, "url", "https://127.0.0.1:8140", "server base URL; the host must be a loopback address")
	fs.StringVar(&c.serverName, "servername", "localhost", "name the server certificate is verified for")
	fs.StringVar(&c.caFile, "cacert", "", "CA certificate, PEM")
	fs.StringVar(&c.certFile, "cert", "", "client certificate, PEM (its CN is the certname)")
	fs.StringVar(&c.keyFile, "key", "", "client key, PEM")
	fs.StringVar(&c.certname, "certname", "bench01.example.com", "node to ask for")
	fs.StringVar(&c.env, "environment", "production", "environment to ask for")
	fs.StringVar(&c.factsFile, "facts", "", "facts: JSON hash of values, or Puppet's {\"name\":..,\"values\":..}")
	fs.StringVar(&c.mode, "mode", "v3", "v3 (agent: node + catalog) or v4 (POST /puppet/v4/catalog)")
	fs.IntVar(&c.clients, "clients", 2, "concurrent clients")
	fs.DurationVar(&c.duration, "duration", 30*time.Second, "measured time")
	fs.DurationVar(&c.warmup, "warmup", 5*time.Second, "time before measuring")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "limit of one request")
	fs.IntVar(&c.pid, "pid", 0, "server process whose RSS is sampled (Linux /proc)")
	fs.IntVar(&c.herd, "herd", 0, "fire this many one-shot catalog requests at once instead")
	fs.BoolVar(&c.startup, "startup", false, "measure the time until the first status and catalog answers instead")
	fs.DurationVar(&c.rssEvery, "rss-every", 0, "print the server's RSS at this interval")
	fs.BoolVar(&c.jsonOut, "json", false, "print the result as one JSON object")
	fs.IntVar(&c.fleet, "fleet", 0, "run this many distinct nodes once each instead (v3), each with its own certificate issued from -cakey")
	fs.StringVar(&c.fleetPattern, "fleet-pattern", "fleet%04d.example.com", "certnames of -fleet nodes (%d: 1..N)")
	fs.StringVar(&c.caKeyFile, "cakey", "", "CA private key, PEM, for -fleet")
	fs.BoolVar(&c.staticFacts, "static-facts", false, "send the facts as they are at every run (by default uptime, free memory and load averages differ from run to run, as a real agent's do)")
	fs.IntVar(&c.fullEvery, "full-check-every", 200, "besides each client's first answer of each kind, inflate and parse one in this many in full (0: the first only); every answer is checked cheaply (see checker)")
	fs.BoolVar(&c.fullAll, "full-check-all", false, "inflate and parse every answer in full")
	cpuProfile := fs.String("cpuprofile", "", "write loadgen's own CPU profile to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "loadgen:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "loadgen:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if err := c.check(); err != nil {
		fmt.Fprintln(stderr, "loadgen:", err)
		return 2
	}
	tlsConf, err := c.tlsConfig()
	if err != nil {
		fmt.Fprintln(stderr, "loadgen:", err)
		return 1
	}
	facts, err := c.agentFacts()
	if err != nil {
		fmt.Fprintln(stderr, "loadgen:", err)
		return 1
	}
	// Compact, as encoding/json writes it in the facts object sent.
	facts, _ = json.Marshal(facts)
	l := &loader{c: c, tls: tlsConf, facts: facts, runs: new(atomic.Int64), tmplOnce: new(sync.Once)}
	var res map[string]any
	switch {
	case c.startup:
		res, err = l.startupTimes()
	case c.herd > 0:
		res, err = l.thunderingHerd()
	case c.fleet > 0:
		res, err = l.fleet()
	default:
		res, err = l.steady(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadgen:", err)
		return 1
	}
	if c.jsonOut {
		b, _ := json.Marshal(res)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	keys := make([]string, 0, len(res))
	for k := range res {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(stdout, "%s=%v ", k, res[k])
	}
	fmt.Fprintln(stdout)
	return 0
}

// check refuses anything but a loopback target and sane numbers.
func (c *config) check() error {
	u, err := url.Parse(c.base)
	if err != nil || u.Scheme != "https" {
		return fmt.Errorf("-url %q: want https://LOOPBACK-IP:PORT", c.base)
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %q: the host must be a loopback IP address", c.base)
	}
	// Requests name the server as its certificate does (Jetty refuses a
	// Host that differs from the TLS server name) but every connection
	// goes to the loopback address.
	c.dialAddr = u.Host
	port := u.Port()
	if port == "" {
		port = "443"
	}
	c.base = "https://" + net.JoinHostPort(c.serverName, port)
	if c.clients < 1 || c.clients > 10000 || c.herd < 0 || c.herd > 100000 {
		return errors.New("-clients must be 1..10000 and -herd 0..100000")
	}
	if c.mode != "v3" && c.mode != "v4" {
		return fmt.Errorf("-mode %q: want v3 or v4", c.mode)
	}
	if c.fleet < 0 || c.fleet > 1000000 {
		return errors.New("-fleet must be 0..1000000")
	}
	if c.fleet > 0 && (c.caKeyFile == "" || strings.Count(c.fleetPattern, "%") != 1 || !strings.Contains(c.fleetPattern, "%d") && !strings.Contains(c.fleetPattern, "%0")) {
		return errFleetFlags
	}
	if c.caFile == "" || c.certFile == "" || c.keyFile == "" || c.factsFile == "" {
		return errors.New("-cacert, -cert, -key and -facts are required")
	}
	return nil
}

func (c *config) tlsConfig() (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return nil, err
	}
	caPEM, err := os.ReadFile(c.caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("no certificate in %s", c.caFile)
	}
	return &tls.Config{RootCAs: pool, ServerName: c.serverName, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// agentFacts reads the facts' values as a JSON object.
func (c *config) agentFacts() (json.RawMessage, error) {
	data, err := os.ReadFile(c.factsFile)
	if err != nil {
		return nil, err
	}
	var wrapped struct {
		Name   string          `json:"name"`
		Values json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(data, &wrapped); err != nil {
		return nil, fmt.Errorf("%s: %v", c.factsFile, err)
	}
	if wrapped.Name != "" && len(wrapped.Values) > 0 {
		return wrapped.Values, nil
	}
	return data, nil
}

type loader struct {
	c     config
	tls   *tls.Config
	facts json.RawMessage
	// runs counts the catalog requests made (volatileFacts).
	runs *atomic.Int64
	// tmpl writes the facts of a run (made at the first run).
	tmplOnce *sync.Once
	tmpl     *factsTemplate
}

// runFacts are the facts of one agent run: the facts file's, with the
// facts that change at every run of a real agent (uptime, free memory,
// load averages) set anew, unless -static-facts.
func (l *loader) runFacts() json.RawMessage {
	if l.c.staticFacts || l.runs == nil {
		return l.facts
	}
	if l.tmplOnce == nil {
		return volatileFacts(l.facts, l.runs.Add(1))
	}
	l.tmplOnce.Do(func() { l.tmpl = newFactsTemplate(l.facts) })
	return l.tmpl.run(l.runs.Add(1))
}

// newChecker is a checker of one client's answers.
func (l *loader) newChecker() *checker {
	return newChecker(l.c.certname, l.c.env, l.c.fullEvery, l.c.fullAll)
}

// volatileFacts is facts (a JSON object) with the volatile facts of run n:
// the uptime facts, free memory (memoryfree, memory.system's available
// and used, when the facts have memory) and load_averages.
func volatileFacts(facts json.RawMessage, n int64) json.RawMessage {
	var values map[string]json.RawMessage
	if err := json.Unmarshal(facts, &values); err != nil {
		return facts
	}
	set := func(k string, v any) { values[k], _ = json.Marshal(v) }
	secs := 86400 + 1800*n
	set("uptime_seconds", secs)
	set("uptime_hours", secs/3600)
	set("uptime_days", secs/86400)
	set("uptime", fmt.Sprintf("%d days", secs/86400))
	set("system_uptime", map[string]any{"seconds": secs, "hours": secs / 3600, "days": secs / 86400, "uptime": fmt.Sprintf("%d days", secs/86400)})
	free := 1<<30 + (n%97)<<20
	set("memoryfree_mb", float64(free)/(1<<20))
	set("memoryfree", fmt.Sprintf("%.2f MiB", float64(free)/(1<<20)))
	set("load_averages", map[string]float64{"1m": float64(n%13) / 10, "5m": float64(n%7) / 10, "15m": float64(n%5) / 10})
	var memory map[string]map[string]any
	if raw, ok := values["memory"]; ok && json.Unmarshal(raw, &memory) == nil && memory["system"] != nil {
		memory["system"]["available_bytes"] = free
		memory["system"]["available"] = fmt.Sprintf("%.2f MiB", float64(free)/(1<<20))
		if total, ok := memory["system"]["total_bytes"].(float64); ok {
			memory["system"]["used_bytes"] = int64(total) - free
		}
		set("memory", memory)
	}
	data, err := json.Marshal(values)
	if err != nil {
		return facts
	}
	return data
}

// transport is one client's connection pool: one keep-alive connection,
// as an agent has.
func (l *loader) transport() *http.Transport {
	dialer := &net.Dialer{Timeout: 2 * time.Minute, KeepAlive: 30 * time.Second}
	return &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, l.c.dialAddr)
		},
		TLSClientConfig:     l.tls.Clone(),
		MaxConnsPerHost:     1,
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     30 * time.Second,
		// Puppet's http_connect_timeout, which covers the TLS handshake.
		TLSHandshakeTimeout: 2 * time.Minute,
		ForceAttemptHTTP2:   false,
	}
}

// catalogRequest is the catalog request of the mode: the agent's form POST
// (facts JSON, URL-escaped, in a form-encoded body) or the v4 JSON body.
func (l *loader) catalogRequest(ctx context.Context) (*http.Request, error) {
	now := time.Now().UTC()
	if l.c.mode == "v4" {
		body, _ := json.Marshal(map[string]any{
			"certname": l.c.certname, "environment": l.c.env,
			"persistence":      map[string]bool{"facts": false, "catalog": false},
			"facts":            map[string]json.RawMessage{"values": l.runFacts()},
			"transaction_uuid": "00000000-0000-4000-8000-000000000000",
			"options":          map[string]any{"prefer_requested_environment": true, "capture_logs": false},
		})
		req, err := http.NewRequestWithContext(ctx, "POST", l.c.base+"/puppet/v4/catalog", bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	}
	body := agentForm(l.c.certname, l.c.env, l.runFacts(), now)
	req, err := http.NewRequestWithContext(ctx, "POST", l.c.base+"/puppet/v3/catalog/"+url.PathEscape(l.c.certname)+"?environment="+url.QueryEscape(l.c.env), bytes.NewReader(body))
	if err == nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
	}
	return req, err
}

// result is one request's outcome.
type result struct {
	status     int
	retryAfter string
	latency    time.Duration
	err        error
}

// do sends req as an agent does (its Accept-Encoding: the answer is read
// as sent), reads the whole answer into buf and, for a 200, checks it
// with check (nil: not at all). The latency ends when the answer is read.
func do(client *http.Client, req *http.Request, buf *bytes.Buffer, check func(*http.Response, []byte) error) result {
	req.Header.Set("Accept-Encoding", agentAcceptEncoding)
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return result{err: err, latency: time.Since(start)}
	}
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	r := result{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), latency: time.Since(start), err: err}
	switch {
	case err != nil:
	case resp.StatusCode != 200:
		r.err = fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, buf.Bytes())
	case check != nil:
		r.err = check(resp, buf.Bytes())
	}
	return r
}

// steady runs the clients for warmup + duration and reports the measured
// part.
func (l *loader) steady(stdout io.Writer) (map[string]any, error) {
	rss := newRSSSampler(l.c.pid)
	stopRSS := rss.run(l.c.rssEvery, stdout)
	defer stopRSS()
	var (
		mu          sync.Mutex
		catLat      []time.Duration
		nodeLat     []time.Duration
		errs        atomic.Int64
		firstErr    atomic.Value
		measuring   atomic.Bool
		wg          sync.WaitGroup
		measureFrom time.Time
	)
	ctx, cancel := context.WithTimeout(context.Background(), l.c.warmup+l.c.duration)
	defer cancel()
	var cpuFrom atomic.Int64 // the server's CPU time when measuring began
	time.AfterFunc(l.c.warmup, func() {
		cpuFrom.Store(int64(processCPU(l.c.pid)))
		measuring.Store(true)
	})
	measureFrom = time.Now().Add(l.c.warmup)
	for i := 0; i < l.c.clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr := l.transport()
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: l.c.timeout}
			chk := l.newChecker()
			var buf bytes.Buffer
			for ctx.Err() == nil {
				var nodeRes result
				if l.c.mode == "v3" {
					req, _ := http.NewRequestWithContext(ctx, "GET", l.c.base+"/puppet/v3/node/"+url.PathEscape(l.c.certname)+"?environment="+url.QueryEscape(l.c.env)+"&transaction_uuid=00000000-0000-4000-8000-000000000000&configured_environment="+url.QueryEscape(l.c.env), nil)
					req.Header.Set("Accept", "application/json")
					nodeRes = do(client, req, &buf, chk.node)
					if ctx.Err() != nil {
						return
					}
				}
				req, err := l.catalogRequest(ctx)
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				catRes := do(client, req, &buf, chk.catalog)
				if ctx.Err() != nil {
					return // cut off by the end: not counted
				}
				if !measuring.Load() {
					continue
				}
				for _, r := range []result{nodeRes, catRes} {
					if r.err != nil {
						errs.Add(1)
						firstErr.CompareAndSwap(nil, r.err)
					}
				}
				mu.Lock()
				if catRes.err == nil {
					catLat = append(catLat, catRes.latency)
				}
				if l.c.mode == "v3" && nodeRes.err == nil {
					nodeLat = append(nodeLat, nodeRes.latency)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(measureFrom)
	serverCPU := processCPU(l.c.pid) - time.Duration(cpuFrom.Load())
	res := map[string]any{
		"mode": l.c.mode, "clients": l.c.clients, "environment": l.c.env,
		"catalogs": len(catLat), "errors": errs.Load(),
		"seconds":            round(elapsed.Seconds(), 1),
		"catalogs_per_sec":   round(float64(len(catLat))/elapsed.Seconds(), 2),
		"catalog_p50_ms":     ms(percentile(catLat, 50)),
		"catalog_p99_ms":     ms(percentile(catLat, 99)),
		"catalog_max_ms":     ms(percentile(catLat, 100)),
		"server_rss_max_mb":  rss.maxMB(),
		"server_rss_last_mb": rss.lastMB(),
	}
	if l.c.pid > 0 && len(catLat) > 0 {
		// The server's machine time (user and system CPU, every thread)
		// per agent run (node and catalog in v3), while measuring.
		res["server_cpu_ms_per_catalog"] = round(float64(serverCPU)/float64(time.Millisecond)/float64(len(catLat)), 2)
	}
	if l.c.mode == "v3" {
		res["node_p50_ms"] = ms(percentile(nodeLat, 50))
		res["node_p99_ms"] = ms(percentile(nodeLat, 99))
	}
	if e, ok := firstErr.Load().(error); ok {
		res["first_error"] = e.Error()
	}
	return res, nil
}

// thunderingHerd sends herd catalog requests at once, each on a new TLS
// connection, and tallies the answers; a 503 must carry Retry-After. The
// server's goroutines (from /metrics, marionette only) are read before
// and after.
func (l *loader) thunderingHerd() (map[string]any, error) {
	rss := newRSSSampler(l.c.pid)
	stopRSS := rss.run(0, io.Discard)
	defer stopRSS()
	before := l.goroutines()
	rssBefore := rss.read()
	var (
		wg                              sync.WaitGroup
		ok, busy, busyNoRetry, failures atomic.Int64
		firstErr                        atomic.Value
		mu                              sync.Mutex
		lat                             []time.Duration
	)
	gate := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), l.c.timeout)
	defer cancel()
	transports := make([]*http.Transport, l.c.herd)
	for i := range transports {
		transports[i] = l.transport()
		transports[i].DisableKeepAlives = true
	}
	start := time.Now()
	for i := 0; i < l.c.herd; i++ {
		wg.Add(1)
		go func(i int, tr *http.Transport) {
			defer wg.Done()
			client := &http.Client{Transport: tr, Timeout: l.c.timeout}
			<-gate
			req, err := l.catalogRequest(ctx)
			if err != nil {
				failures.Add(1)
				return
			}
			var buf bytes.Buffer
			// One checker a request: the i-th is the answer it counts
			// from, so that one in -full-check-every is parsed in full.
			chk := l.newChecker()
			chk.catalogs = i
			r := do(client, req, &buf, chk.catalog)
			switch {
			case r.status == 200 && r.err == nil:
				ok.Add(1)
				mu.Lock()
				lat = append(lat, r.latency)
				mu.Unlock()
			case r.status == http.StatusServiceUnavailable:
				if _, err := strconv.Atoi(r.retryAfter); err == nil {
					busy.Add(1)
				} else {
					busyNoRetry.Add(1)
				}
			default:
				failures.Add(1)
				firstErr.CompareAndSwap(nil, fmt.Errorf("status %d: %v", r.status, r.err))
			}
		}(i, transports[i])
	}
	close(gate)
	wg.Wait()
	elapsed := time.Since(start)
	for _, tr := range transports {
		tr.CloseIdleConnections()
	}
	// Let the server see the connections close before counting again.
	time.Sleep(2 * time.Second)
	after := l.goroutines()
	res := map[string]any{
		"herd": l.c.herd, "ok_200": ok.Load(), "busy_503_retry_after": busy.Load(),
		"busy_503_without_retry_after": busyNoRetry.Load(), "failed": failures.Load(),
		"seconds":               round(elapsed.Seconds(), 2),
		"ok_p50_ms":             ms(percentile(lat, 50)),
		"ok_p99_ms":             ms(percentile(lat, 99)),
		"server_rss_before_mb":  mb(rssBefore),
		"server_rss_max_mb":     rss.maxMB(),
		"server_goroutines_pre": before, "server_goroutines_post": after,
	}
	if e, ok := firstErr.Load().(error); ok {
		res["first_error"] = e.Error()
	}
	return res, nil
}

// goroutines reads go_goroutines from the server's /metrics; -1 when it
// has none (puppetserver).
func (l *loader) goroutines() int {
	tr := l.transport()
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	resp, err := client.Get(l.c.base + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return int(n)
			}
		}
	}
	return -1
}

// startupTimes polls the status endpoint until the server answers
// "running", then asks for one catalog: both times from loadgen's start
// (start it together with the server).
func (l *loader) startupTimes() (map[string]any, error) {
	start := time.Now()
	tr := l.transport()
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	deadline := start.Add(l.c.timeout)
	var status time.Duration
	for {
		resp, err := client.Get(l.c.base + "/status/v1/simple")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) == "running" {
				status = time.Since(start)
				break
			}
		}
		if time.Now().After(deadline) {
			return nil, errors.New("the server did not answer in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
	client.Timeout = l.c.timeout
	req, err := l.catalogRequest(context.Background())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	r := do(client, req, &buf, l.newChecker().catalog)
	if r.err != nil {
		return nil, r.err
	}
	return map[string]any{"status_ready_ms": ms(status), "first_catalog_ms": ms(time.Since(start)), "first_catalog_latency_ms": ms(r.latency)}, nil
}

// processCPU is a process's user and system CPU time so far, from
// /proc/PID/stat (0 when unknown).
func processCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from the last ')'. utime and stime are fields 14 and 15.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	// Clock ticks of 1/100 s (USER_HZ, fixed at 100 on Linux for /proc).
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// rssSampler samples a process's resident set size from /proc.
type rssSampler struct {
	pid       int
	max, last atomic.Int64
}

func newRSSSampler(pid int) *rssSampler { return &rssSampler{pid: pid} }

// read is the process's current RSS in bytes (0 when unknown).
func (r *rssSampler) read() int64 {
	if r.pid <= 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(r.pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// run samples every 100 ms until the returned stop is called, printing a
// sample every `every` when it is not 0.
func (r *rssSampler) run(every time.Duration, out io.Writer) (stop func()) {
	if r.pid <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		start, lastPrint := time.Now(), time.Now()
		for {
			v := r.read()
			r.last.Store(v)
			for {
				m := r.max.Load()
				if v <= m || r.max.CompareAndSwap(m, v) {
					break
				}
			}
			if every > 0 && time.Since(lastPrint) >= every {
				lastPrint = time.Now()
				fmt.Fprintf(out, "rss t=%.0fs %.1f MB\n", time.Since(start).Seconds(), float64(v)/(1<<20))
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

func (r *rssSampler) maxMB() float64  { return mb(r.max.Load()) }
func (r *rssSampler) lastMB() float64 { return mb(r.last.Load()) }

func mb(b int64) float64 { return round(float64(b)/(1<<20), 1) }

// percentile is the p-th percentile (nearest rank) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s))*p/100+0.999999) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(s) {
		i = len(s) - 1
	}
	return s[i]
}

func ms(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 2) }

func round(v float64, digits int) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
	return p
}
