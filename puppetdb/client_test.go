package puppetdb

import (
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// logLines collects what a client logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(level, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, level+": "+msg)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func testConfig(t *testing.T, servers ...string) *Config {
	t.Helper()
	c := DefaultConfig()
	c.ServerURLs = nil
	for _, s := range servers {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		c.ServerURLs = append(c.ServerURLs, u)
	}
	c.ServerURLTimeout = 5 * time.Second
	return c
}

var fixedNow = time.Date(2026, 11, 24, 21, 0, 0, 123456789, time.UTC)

func TestSubmitCommandWireFormat(t *testing.T) {
	type seen struct {
		method, path string
		query        url.Values
		header       http.Header
		body         string
	}
	var got seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Errorf("body not gzipped: %v", err)
			return
		}
		b, _ := io.ReadAll(zr)
		got = seen{r.Method, r.URL.Path, r.URL.Query(), r.Header, string(b)}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"uuid":"c0ffee"}`)
	}))
	defer srv.Close()
	var logs logLines
	c, err := New(testConfig(t, srv.URL), Options{Logf: logs.logf, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"certname":"web01","values":{"a":1}}`)
	uuid, err := c.SubmitCommand(context.Background(), ReplaceFacts, ReplaceFactsVersion, "web01", payload)
	if err != nil || uuid != "c0ffee" {
		t.Fatalf("SubmitCommand = %q, %v", uuid, err)
	}
	if got.method != "POST" || got.path != "/pdb/cmd/v1" {
		t.Errorf("request %s %s", got.method, got.path)
	}
	want := map[string]string{
		"command": "replace_facts", "version": "5", "certname": "web01",
		"producer-timestamp": "2026-11-24T21:00:00.123Z",
	}
	// The checksum is the SHA-1 of the command as one document.
	sum := sha1.Sum([]byte(`{"command":"replace facts","version":5,"certname":"web01","payload":` + string(payload) + `}`))
	if got.query.Get("checksum") != hex.EncodeToString(sum[:]) {
		t.Errorf("checksum = %q", got.query.Get("checksum"))
	}
	for k, v := range want {
		if got.query.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.query.Get(k), v)
		}
	}
	if got.body != string(payload) {
		t.Errorf("body = %s", got.body)
	}
	for k, v := range map[string]string{"Content-Type": "application/json; charset=utf-8", "Accept": "application/json",
		"Content-Encoding": "gzip", "X-Uncompressed-Length": "37"} {
		if got.header.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, got.header.Get(k), v)
		}
	}
	if !strings.Contains(logs.String(), "info: 'replace_facts' command for web01 submitted to PuppetDB with UUID c0ffee") {
		t.Errorf("logs = %s", logs.String())
	}
}

func TestSubmitChecksumIsStable(t *testing.T) {
	var sums []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sums = append(sums, r.URL.Query().Get("checksum"))
		io.WriteString(w, `{"uuid":"x"}`)
	}))
	defer srv.Close()
	c, _ := New(testConfig(t, srv.URL), Options{})
	for _, p := range []string{`{"a":1}`, `{"a":1}`, `{"a":2}`} {
		if _, err := c.SubmitCommand(context.Background(), ReplaceCatalog, 9, "n", []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if sums[0] != sums[1] || sums[0] == sums[2] {
		t.Errorf("checksums %q", sums)
	}
}

func TestSubmitFailures(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close() // connection refused from now on
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	rejecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, "Supported versions are\r\n[9]")
	}))
	defer rejecting.Close()
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"uuid":"ok"}`)
	}))
	defer ok.Close()

	tests := []struct {
		name      string
		servers   []string
		soft      bool
		broadcast int // min_successful_submissions with command_broadcast
		wantUUID  string
		wantErr   string // "" means no error
		wantLog   []string
	}{
		{name: "fails over to the second server", servers: []string{failing.URL, ok.URL}, wantUUID: "ok",
			wantLog: []string{"warning: Error connecting to 127.0.0.1 on " + port(failing.URL) + " at route " + failing.URL + "/pdb/cmd/v1?", "error message received was 'Service Unavailable'. Failing over to the next PuppetDB server_url in the 'server_urls' list"}},
		{name: "all servers down", servers: []string{downURL, failing.URL},
			wantErr: "Failed to execute '/pdb/cmd/v1?checksum="},
		{name: "rejected command", servers: []string{rejecting.URL},
			wantErr: "[400 Bad Request] Supported versions are[9]"},
		{name: "rejected command, soft_write_failure", servers: []string{rejecting.URL}, soft: true,
			wantLog: []string{"err: 'replace_catalog'command for n failed during submission to PuppetDB: [400 Bad Request] Supported versions are[9]"}},
		{name: "all down, soft_write_failure", servers: []string{downURL}, soft: true,
			wantLog: []string{"err: Failed to execute '/pdb/cmd/v1?"}},
		{name: "broadcast needs two", servers: []string{ok.URL, failing.URL}, broadcast: 2,
			wantErr: "' on at least 2 of the following 'server_urls': " + ok.URL + ", " + failing.URL},
		{name: "broadcast reaches both", servers: []string{ok.URL, ok.URL + "/"}, broadcast: 2, wantUUID: "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t, tt.servers...)
			cfg.SoftWriteFailure = tt.soft
			if tt.broadcast > 0 {
				cfg.CommandBroadcast = true
				cfg.MinSuccessfulSubmissions = tt.broadcast
			}
			var logs logLines
			c, _ := New(cfg, Options{Logf: logs.logf})
			uuid, err := c.SubmitCommand(context.Background(), ReplaceCatalog, 9, "n", []byte(`{}`))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
			} else {
				var ce *CommandError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) || ce.Command != "replace_catalog" {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			}
			if uuid != tt.wantUUID {
				t.Errorf("uuid = %q", uuid)
			}
			for _, l := range tt.wantLog {
				if !strings.Contains(logs.String(), l) {
					t.Errorf("log lacks %q:\n%s", l, logs.String())
				}
			}
		})
	}
}

func port(u string) string {
	p, _ := url.Parse(u)
	return p.Port()
}

func TestTimeoutFailsOver(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `[{"certname":"a"}]`)
	}))
	defer ok.Close()
	cfg := testConfig(t, slow.URL, ok.URL)
	cfg.ServerURLTimeout = 100 * time.Millisecond
	var logs logLines
	c, _ := New(cfg, Options{Logf: logs.logf})
	v, err := c.Query(context.Background(), "nodes {}")
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := v.([]any); len(rows) != 1 {
		t.Errorf("answer %v", v)
	}
	if !strings.Contains(logs.String(), "warning: Request to 127.0.0.1 on "+port(slow.URL)+" at route "+slow.URL+"/pdb/query/v4 timed out after 0 seconds.") {
		t.Errorf("logs:\n%s", logs.String())
	}
}

func TestStickyReadFailover(t *testing.T) {
	hits := map[string]int{}
	var mu sync.Mutex
	mk := func(name string, status int) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits[name]++
			mu.Unlock()
			w.WriteHeader(status)
			io.WriteString(w, `[]`)
		}))
	}
	bad, good := mk("bad", 500), mk("good", 200)
	defer bad.Close()
	defer good.Close()
	for _, sticky := range []bool{false, true} {
		mu.Lock()
		hits = map[string]int{}
		mu.Unlock()
		cfg := testConfig(t, bad.URL, good.URL)
		cfg.StickyReadFailover = sticky
		c, _ := New(cfg, Options{})
		for range 3 {
			if _, err := c.Query(context.Background(), []any{"from", "nodes"}); err != nil {
				t.Fatal(err)
			}
		}
		want := 3
		if sticky {
			want = 1
		}
		mu.Lock()
		if hits["bad"] != want || hits["good"] != 3 {
			t.Errorf("sticky=%v: hits %v", sticky, hits)
		}
		mu.Unlock()
	}
}

func TestQueryWireFormat(t *testing.T) {
	var body map[string]any
	var ctype string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/pdb/query/v4" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		ctype = r.Header.Get("Content-Type")
		json.NewDecoder(r.Body).Decode(&body)
		io.WriteString(w, `[{"certname":"web01","count":12345678901234}]`)
	}))
	defer srv.Close()
	c, _ := New(testConfig(t, srv.URL), Options{})
	v, err := c.Query(context.Background(), `nodes[certname] { facts.os = "<Debian>" }`)
	if err != nil {
		t.Fatal(err)
	}
	if body["query"] != `nodes[certname] { facts.os = "<Debian>" }` || ctype != "application/json; charset=UTF-8" {
		t.Errorf("sent %v (%s)", body, ctype)
	}
	row := v.([]any)[0].(map[string]any)
	if row["count"].(json.Number).String() != "12345678901234" {
		t.Errorf("number not exact: %v", row["count"])
	}
}

func TestQueryErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pdb/query/v4":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "PQL parse error at line 1, column 1:\n\nnodes {\n")
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"No information is known about node"}`)
		}
	}))
	defer srv.Close()
	c, _ := New(testConfig(t, srv.URL), Options{})
	_, err := c.Query(context.Background(), "nodes {")
	if err == nil || err.Error() != "[400 Bad Request] PQL parse error at line 1, column 1:nodes {" {
		t.Errorf("Query error = %v", err)
	}
	_, err = c.QueryEndpoint(context.Background(), "nodes/x/facts", nil)
	if err == nil || err.Error() != "Failed to find '/pdb/query/v4/nodes/x/facts' on any of the following 'server_urls': "+srv.URL {
		t.Errorf("QueryEndpoint error = %v", err)
	}
}

func TestNewURL(t *testing.T) {
	for _, bad := range []string{"", "puppetdb:8080", "ftp://x", "http://"} {
		if _, err := NewURL(bad, Options{}); err == nil {
			t.Errorf("NewURL(%q) accepted", bad)
		}
	}
	c, err := NewURL("http://127.0.0.1:8080/", Options{})
	if err != nil || c.Config().ServerURLs[0].String() != "http://127.0.0.1:8080" {
		t.Errorf("NewURL = %v, %v", c, err)
	}
}

func TestWireTime(t *testing.T) {
	if got := WireTime(fixedNow); got != "2026-11-24T21:00:00.123Z" {
		t.Errorf("UTC: %s", got)
	}
	cet := time.FixedZone("CET", 3600)
	if got := WireTime(fixedNow.In(cet)); got != "2026-11-24T22:00:00.123+01:00" {
		t.Errorf("CET: %s", got)
	}
}
