package server

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetdb"
)

// fakePuppetDB records the commands it receives; fail makes it answer 503.
type fakePuppetDB struct {
	mu       sync.Mutex
	commands []string // "command certname"
	payloads []map[string]any
	fail     bool
}

func (p *fakePuppetDB) handler(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/pdb/query/v4/nodes/") {
		w.Write([]byte(`[{"name":"os","value":"FromPuppetDB"}]`))
		return
	}
	if strings.HasPrefix(r.URL.Path, "/pdb/query/v4/resources") {
		w.Write([]byte(`[{"certname":"db01.example.com","type":"Notify","title":"from db01","exported":true,"tags":["notify"],"parameters":{"message":"hi"}}]`))
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body, _ := io.ReadAll(zr)
	var m map[string]any
	json.Unmarshal(body, &m)
	p.commands = append(p.commands, r.URL.Query().Get("command")+" "+r.URL.Query().Get("certname"))
	p.payloads = append(p.payloads, m)
	w.Write([]byte(`{"uuid":"x"}`))
}

func (p *fakePuppetDB) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.commands...)
}

func pdbFixture(t *testing.T, soft bool, opts ...func(*Config)) (*fixture, *fakePuppetDB, *lockedWriter) {
	fake := &fakePuppetDB{}
	ts := httptest.NewServer(http.HandlerFunc(fake.handler))
	t.Cleanup(ts.Close)
	logs := &lockedWriter{}
	client, err := puppetdb.NewURL(ts.URL, puppetdb.Options{Logf: func(level, msg string) { logs.Write([]byte(level + ": " + msg + "\n")) }})
	if err != nil {
		t.Fatal(err)
	}
	client.Config().SoftWriteFailure = soft
	f := newFixture(t, append([]func(*Config){func(c *Config) { c.PuppetDB = client }}, opts...)...)
	t.Cleanup(f.srv.Close)
	return f, fake, logs
}

// TestPuppetDBWrites: a catalog request submits replace facts before the
// compile and replace catalog after it; the compile collects from PuppetDB.
func TestPuppetDBWrites(t *testing.T) {
	f, fake, _ := pdbFixture(t, false)
	resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", map[string]any{"os": "Debian"}))
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	got := strings.Join(fake.seen(), "|")
	if got != "replace_facts web01.example.com|replace_catalog web01.example.com" {
		t.Fatalf("commands = %s", got)
	}
	fake.mu.Lock()
	facts, cat := fake.payloads[0], fake.payloads[1]
	fake.mu.Unlock()
	if facts["producer"] != "server" || facts["values"].(map[string]any)["trusted"].(map[string]any)["certname"] != "web01.example.com" {
		t.Errorf("facts payload = %v", facts)
	}
	if cat["transaction_uuid"] != "11111111-2222-3333-4444-555555555555" || cat["producer"] != "server" {
		t.Errorf("catalog payload = %v", cat)
	}
}

// TestPuppetDBWriteFailure: without soft_write_failure a failed command
// fails the catalog request; with it the request succeeds and the failure
// is logged.
func TestPuppetDBWriteFailure(t *testing.T) {
	f, fake, _ := pdbFixture(t, false)
	fake.fail = true
	resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil))
	if resp.status != 500 || !strings.Contains(resp.body, "Could not retrieve facts for web01.example.com") {
		t.Errorf("hard failure: status %d %s", resp.status, resp.body)
	}

	f, fake, logs := pdbFixture(t, true)
	fake.fail = true
	resp = f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil))
	if resp.status != 200 {
		t.Errorf("soft failure: status %d %s", resp.status, resp.body)
	}
	f.srv.Close() // drains the queue
	if !strings.Contains(logs.String(), "err: Failed to execute '/pdb/cmd/v1?") {
		t.Errorf("soft failure not logged:\n%s", logs.String())
	}
	if f.srv.PuppetDBQueueDepth() != 0 {
		t.Errorf("queue depth %d after Close", f.srv.PuppetDBQueueDepth())
	}
}

// TestPuppetDBReport: a report PUT submits store report in the background;
// a report the processor cannot convert is logged and still stored.
func TestPuppetDBReport(t *testing.T) {
	f, fake, _ := pdbFixture(t, false)
	data, err := os.ReadFile("../puppetdb/testdata/agent-report.json")
	if err != nil {
		t.Fatal(err)
	}
	report := strings.Replace(string(data), "agent.example.com", "web01.example.com", 1)
	resp := f.do("web01.example.com", "PUT", "/puppet/v3/report/web01.example.com?environment=production", strings.NewReader(report), "application/json")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	resp = f.do("web01.example.com", "PUT", "/puppet/v3/report/web01.example.com?environment=production", strings.NewReader(`{"host":"web01.example.com"}`), "application/json")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	f.srv.Close()
	if got := strings.Join(fake.seen(), "|"); got != "store_report web01.example.com" {
		t.Errorf("commands = %s", got)
	}
	if !strings.Contains(f.logs.String(), "Report processor failed: Environment is nil") {
		t.Errorf("bad report not logged:\n%s", f.logs.String())
	}
}

// TestPuppetDBTermini: what reaches PuppetDB follows storeconfigs and
// routes.yaml (puppetdb.ServerTermini): routes can store facts without
// storeconfigs, or keep facts or catalogs out of PuppetDB with it; only
// storeconfigs collects; a facts terminus puppetdb answers a catalog
// request that brings no facts.
func TestPuppetDBTermini(t *testing.T) {
	for _, tc := range []struct {
		name     string
		termini  puppetdb.Termini
		commands string
		collects bool
	}{
		{"routes facts only", puppetdb.Termini{Facts: true, FactsFind: true}, "replace_facts web01.example.com", false},
		{"catalog cache elsewhere", puppetdb.Termini{Collect: true, Facts: true}, "replace_facts web01.example.com", true},
		{"facts cache elsewhere", puppetdb.Termini{Collect: true, Catalogs: true}, "replace_catalog web01.example.com", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			termini := tc.termini
			f, fake, _ := pdbFixture(t, false, func(c *Config) { c.PuppetDBTermini = &termini })
			site := filepath.Join(f.dir, "code/environments/production/manifests/site.pp")
			if err := os.WriteFile(site, []byte("Notify <<| |>>\nnotify { \"os=${facts['os']}\": }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", map[string]any{"os": "Debian"}))
			if resp.status != 200 {
				t.Fatalf("status %d: %s", resp.status, resp.body)
			}
			if got := strings.Join(fake.seen(), "|"); got != tc.commands {
				t.Errorf("commands = %q, want %q", got, tc.commands)
			}
			if got := strings.Contains(resp.body, "from db01"); got != tc.collects {
				t.Errorf("collected = %v, want %v", got, tc.collects)
			}
			// No facts in the request: PuppetDB's when it is the facts
			// terminus, the saved YAML's otherwise.
			resp = f.do("web01.example.com", "GET", "/puppet/v3/catalog/web01.example.com?environment=production", nil, "")
			want := "os=Debian"
			if tc.termini.FactsFind {
				want = "os=FromPuppetDB"
			}
			if resp.status != 200 || !strings.Contains(resp.body, want) {
				t.Errorf("catalog without facts: status %d, want %s: %s", resp.status, want, resp.body)
			}
		})
	}
}

// TestPuppetDBFactsDuringCompile: without soft_write_failure, replace
// facts is submitted while the catalog compiles (PuppetDB answers the
// facts here only once the compile's collector has queried it), replace
// catalog only after the facts were accepted, and a facts failure is the
// request's error even when the compile fails too, as when the facts are
// stored first.
func TestPuppetDBFactsDuringCompile(t *testing.T) {
	queried := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var order []string
	failFacts := false
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/pdb/query/v4/resources") {
			once.Do(func() { close(queried) })
			w.Write([]byte(`[]`))
			return
		}
		cmd := r.URL.Query().Get("command")
		if cmd == "replace_facts" {
			select {
			case <-queried:
			case <-time.After(5 * time.Second):
				http.Error(w, "the compile did not run while the facts were submitted", http.StatusServiceUnavailable)
				return
			}
		}
		mu.Lock()
		order = append(order, cmd)
		fail := failFacts
		mu.Unlock()
		if fail {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"uuid":"x"}`))
	}))
	t.Cleanup(ts.Close)
	client, err := puppetdb.NewURL(ts.URL, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *Config) { c.PuppetDB = client })
	t.Cleanup(f.srv.Close)
	site := filepath.Join(f.dir, "code/environments/production/manifests/site.pp")
	if err := os.WriteFile(site, []byte("Notify <<| |>>\nnotify { 'x': }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	facts := factsJSON("web01.example.com", map[string]any{"os": "Debian"})
	resp := f.postCatalog("web01.example.com", "web01.example.com", "production", facts)
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	mu.Lock()
	got := strings.Join(order, "|")
	failFacts = true
	mu.Unlock()
	if got != "replace_facts|replace_catalog" {
		t.Errorf("commands %s", got)
	}
	resp = f.postCatalog("web01.example.com", "web01.example.com", "broken", facts)
	if resp.status != 500 || !strings.Contains(resp.body, "Failed when searching for node web01.example.com: Could not retrieve facts for web01.example.com") || strings.Contains(resp.body, "boom") {
		t.Errorf("facts and compile failing: status %d %s", resp.status, resp.body)
	}
}
