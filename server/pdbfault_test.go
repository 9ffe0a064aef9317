package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetdb"
)

// faultProxy is a TCP proxy in front of PuppetDB that a test can stop
// (connections in flight are cut, new ones closed at once, as a stopped
// service's port would) or slow down (each request waits before it is
// passed on).
type faultProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	down    bool
	delay   time.Duration
	conns   map[net.Conn]bool
	wg      sync.WaitGroup
	stopped chan struct{}
}

func newFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target, conns: map[net.Conn]bool{}, stopped: make(chan struct{})}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// URL is the proxy's PuppetDB URL.
func (p *faultProxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *faultProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		if !down {
			p.conns[c] = true
		}
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		p.wg.Add(1)
		go p.pipe(c)
	}
}

func (p *faultProxy) pipe(c net.Conn) {
	defer p.wg.Done()
	defer p.forget(c)
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		up.Close()
		return
	}
	p.conns[up] = true
	p.mu.Unlock()
	defer p.forget(up)
	done := make(chan struct{}, 2)
	go func() { p.slowCopy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// slowCopy passes the client's bytes on, each read after the current
// delay: every request on a kept-alive connection is slowed, not just the
// first.
func (p *faultProxy) slowCopy(dst, src net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			d := p.delay
			p.mu.Unlock()
			select {
			case <-time.After(d):
			case <-p.stopped:
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *faultProxy) forget(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// setDown stops (true) or restarts (false) the proxied PuppetDB; stopping
// cuts every connection in flight.
func (p *faultProxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
	}
}

// setDelay makes what clients send wait d before it reaches PuppetDB.
func (p *faultProxy) setDelay(d time.Duration) {
	p.mu.Lock()
	p.delay = d
	p.mu.Unlock()
}

func (p *faultProxy) close() {
	select {
	case <-p.stopped:
		return
	default:
	}
	close(p.stopped)
	p.ln.Close()
	p.setDown(true)
	p.wg.Wait()
}

// liveProxy is a fault proxy in front of the PuppetDB scripts/puppetdb
// started, and a direct client to check what it holds; skipped without one
// (unless CI requires it).
func liveProxy(t *testing.T) (*faultProxy, *puppetdb.Client) {
	t.Helper()
	u := os.Getenv("MARIONETTE_PUPPETDB_URL")
	if u == "" {
		if os.Getenv("CI") == "true" && os.Getenv("MARIONETTE_REQUIRE_PUPPETDB") == "1" {
			t.Fatal("MARIONETTE_PUPPETDB_URL is not set but CI requires PuppetDB (run scripts/puppetdb up)")
		}
		t.Skip("no PuppetDB: export MARIONETTE_PUPPETDB_URL=$(scripts/puppetdb up)")
	}
	direct, err := puppetdb.NewURL(u, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return newFaultProxy(t, strings.TrimPrefix(strings.TrimSuffix(u, "/"), "http://")), direct
}

// faultFixture is a server whose PuppetDB is reached through proxy, with
// soft_write_failure as given and a server_url_timeout of one second; it
// has certificates for nodes and an environment "collect" whose code
// collects exported resources.
func faultFixture(t *testing.T, proxy *faultProxy, soft bool, nodes []string) (*fixture, *lockedWriter) {
	t.Helper()
	logs := &lockedWriter{}
	client, err := puppetdb.NewURL(proxy.URL(), puppetdb.Options{Logf: func(level, msg string) { logs.Write([]byte(level + ": " + msg + "\n")) }})
	if err != nil {
		t.Fatal(err)
	}
	client.Config().SoftWriteFailure = soft
	client.Config().ServerURLTimeout = time.Second
	f := newFixture(t, func(c *Config) { c.PuppetDB = client })
	t.Cleanup(f.srv.Close)
	site := filepath.Join(f.dir, "code/environments/collect/manifests/site.pp")
	if err := os.MkdirAll(filepath.Dir(site), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(site, []byte("@@notify { \"from ${trusted['certname']}\": }\nNotify <<| |>>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		cert, _ := f.pki.issue(n)
		f.clients[n] = f.client(&cert)
	}
	return f, logs
}

func faultNodes(prefix string, n int) []string {
	stamp := time.Now().UnixNano()
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d-%d.example.com", prefix, i, stamp)
	}
	return out
}

// TestPuppetDBFaultsAsPuppet: with PuppetDB stopped or slower than
// server_url_timeout, a catalog request ends as `puppet catalog compile`
// with the puppetdb termini ends (measured with Puppet 7.23 and
// puppet-terminus-puppetdb against a closed port and a port that never
// answers): without soft_write_failure the replace facts failure fails it
// ("Failed when searching for node N: Could not retrieve facts for N:
// Failed to execute '/pdb/cmd/v1?...' on at least 1 of the following
// 'server_urls': URL"); with it the catalog is served and each failed
// command is logged as an error, but a collector still fails ("Could not
// retrieve resources from the PuppetDB at URL: Failed to execute
// '/pdb/query/v4/resources?query=...'"): soft_write_failure covers writes
// only.
func TestPuppetDBFaultsAsPuppet(t *testing.T) {
	proxy, _ := liveProxy(t)
	node := faultNodes("fault", 1)[0]
	for _, fault := range []string{"stopped", "slow"} {
		switch fault {
		case "stopped":
			proxy.setDelay(0)
			proxy.setDown(true)
		case "slow":
			proxy.setDown(false)
			proxy.setDelay(3 * time.Second) // beyond the 1s server_url_timeout
		}
		for _, soft := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/soft=%v", fault, soft), func(t *testing.T) {
				f, logs := faultFixture(t, proxy, soft, []string{node})
				facts := factsJSON(node, map[string]any{"os": "Debian"})
				resp := f.postCatalog(node, node, "production", facts)
				failed := "Failed to execute '/pdb/cmd/v1?"
				servers := "' on at least 1 of the following 'server_urls': " + proxy.URL()
				if !soft {
					want := "Failed when searching for node " + node + ": Could not retrieve facts for " + node + ": " + failed
					if resp.status != 500 || !strings.Contains(resp.body, want) || !strings.Contains(resp.body, servers) {
						t.Errorf("status %d %s\nwant 500 with %q", resp.status, resp.body, want)
					}
					return
				}
				if resp.status != 200 {
					t.Fatalf("status %d %s", resp.status, resp.body)
				}
				f.srv.Close() // submits what is queued: the failures are logged
				for _, cmd := range []string{"replace_facts", "replace_catalog"} {
					if !strings.Contains(logs.String(), "err: "+failed) || !strings.Contains(logs.String(), "&command="+cmd+"&") {
						t.Errorf("failed %s not logged:\n%s", cmd, logs.String())
					}
				}
				if fault == "slow" && !strings.Contains(logs.String(), "timed out after 1 seconds") {
					t.Errorf("timeout not logged:\n%s", logs.String())
				}
				f2, _ := faultFixture(t, proxy, soft, []string{node})
				resp = f2.postCatalog(node, node, "collect", facts)
				want := "Could not retrieve resources from the PuppetDB at " + proxy.URL() + ": Failed to execute '/pdb/query/v4/resources?query="
				if resp.status != 500 || !strings.Contains(resp.body, want) {
					t.Errorf("collector: status %d %s\nwant 500 with %q", resp.status, resp.body, want)
				}
			})
		}
	}
}

// storedCatalog reports whether PuppetDB holds a catalog for node, waiting
// up to wait for its queue to process one.
func storedCatalog(c *puppetdb.Client, node string, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		body, err := c.QueryEndpoint(context.Background(), "catalogs", []any{"=", "certname", node})
		var rows []map[string]any
		if err == nil && json.Unmarshal(body, &rows) == nil && len(rows) == 1 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestPuppetDBComesBack: PuppetDB slow, then stopped mid-run (commands in
// flight are cut), then back. Every catalog the server served is in
// PuppetDB once the queue has drained, or its failed submission was
// logged (soft_write_failure drops a failed command as Puppet does, never
// silently); every catalog served after PuppetDB came back is there; the
// queue ends empty. Without soft_write_failure a served catalog was
// stored before it was served.
func TestPuppetDBComesBack(t *testing.T) {
	proxy, direct := liveProxy(t)
	for _, soft := range []bool{false, true} {
		t.Run(fmt.Sprintf("soft=%v", soft), func(t *testing.T) {
			nodes := faultNodes(fmt.Sprintf("back%v", soft), 9)
			f, logs := faultFixture(t, proxy, soft, nodes)
			status := map[string]int{}
			post := func(batch []string) {
				for _, n := range batch {
					resp := f.postCatalog(n, n, "production", factsJSON(n, map[string]any{"os": "Debian"}))
					status[n] = resp.status
					if resp.status != 200 && resp.status != 500 {
						t.Errorf("%s: status %d %s", n, resp.status, resp.body)
					}
				}
			}
			// Slow, within server_url_timeout: every request is served.
			proxy.setDown(false)
			proxy.setDelay(300 * time.Millisecond)
			post(nodes[:3])
			// Stopped while commands may be in flight or queued.
			proxy.setDown(true)
			post(nodes[3:6])
			// Back.
			proxy.setDelay(0)
			proxy.setDown(false)
			post(nodes[6:])
			f.srv.Close()
			if d := f.srv.PuppetDBQueueDepth(); d != 0 {
				t.Errorf("queue depth %d after Close", d)
			}
			stored, dropped := 0, 0
			defer func() { t.Logf("%d catalogs stored, %d failed submissions logged", stored, dropped) }()
			for i, n := range nodes {
				phase := []string{"slow", "stopped", "back"}[i/3]
				switch {
				case !soft && phase == "stopped":
					if status[n] != 500 {
						t.Errorf("%s (%s): status %d, want 500", n, phase, status[n])
					}
					continue
				case status[n] != 200:
					t.Errorf("%s (%s): status %d, want 200", n, phase, status[n])
					continue
				}
				logged := strings.Contains(logs.String(), "certname="+n+"&command=replace_catalog&")
				if phase == "back" || !soft {
					logged = false // must be stored
				}
				if logged {
					dropped++
				} else {
					stored++
				}
				if !logged && !storedCatalog(direct, n, 60*time.Second) {
					t.Errorf("%s (%s): catalog served but neither in PuppetDB nor logged as failed\n%s", n, phase, logs.String())
				}
			}
		})
	}
}

// pgCtl runs scripts/puppetdb pg-stop or pg-start.
func pgCtl(t *testing.T, action string) {
	t.Helper()
	out, err := exec.Command("../scripts/puppetdb", action).CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/puppetdb %s: %v\n%s", action, err, out)
	}
}

// TestPuppetDBPostgresStopped: PuppetDB up, its PostgreSQL stopped. As
// measured with Puppet 7.23 and puppet-terminus-puppetdb (`puppet catalog
// compile` with storeconfigs against scripts/puppetdb after pg-stop):
// PuppetDB still accepts commands (200, into its disk queue) and answers
// queries with 500, so a compile that only writes succeeds whatever
// soft_write_failure says, a collector fails with "Could not retrieve
// resources from the PuppetDB at URL: Failed to execute
// '/pdb/query/v4/resources?query=...' on at least 1 of the following
// 'server_urls': URL" and puppetdb_query with "Evaluation Error: Error
// while evaluating a Function Call, Failed to execute '/pdb/query/v4' on at
// least 1 of the following 'server_urls': URL (file: ..., line: 1,
// column: 26)". After pg-start every command accepted is stored. The test
// stops the PostgreSQL of a shared PuppetDB, so it runs only with
// MARIONETTE_PUPPETDB_FAULTS=1 (.ci/run sets it, last).
func TestPuppetDBPostgresStopped(t *testing.T) {
	if os.Getenv("MARIONETTE_PUPPETDB_FAULTS") != "1" {
		t.Skip("disturbs the shared PuppetDB: set MARIONETTE_PUPPETDB_FAULTS=1")
	}
	proxy, direct := liveProxy(t)
	nodes := faultNodes("pgdown", 2)
	t.Cleanup(func() {
		for _, n := range nodes {
			if p, err := puppetdb.Deactivate(n, time.Now()); err == nil {
				_, _ = direct.SubmitCommand(context.Background(), puppetdb.DeactivateNode, puppetdb.DeactivateNodeVersion, n, p)
			}
		}
	})
	pgCtl(t, "pg-stop")
	started := false
	t.Cleanup(func() {
		if !started {
			pgCtl(t, "pg-start")
		}
	})
	servers := "' on at least 1 of the following 'server_urls': " + proxy.URL()
	for i, soft := range []bool{false, true} {
		node := nodes[i]
		t.Run(fmt.Sprintf("soft=%v", soft), func(t *testing.T) {
			f, logs := faultFixture(t, proxy, soft, []string{node})
			site := filepath.Join(f.dir, "code/environments/query/manifests/site.pp")
			if err := os.MkdirAll(filepath.Dir(site), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(site, []byte("notify { 'q': message => puppetdb_query('nodes {}') }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			facts := factsJSON(node, map[string]any{"os": "Debian"})
			if resp := f.postCatalog(node, node, "production", facts); resp.status != 200 {
				t.Errorf("writes only: status %d %s, want 200 (PuppetDB queues commands)", resp.status, resp.body)
			}
			resp := f.postCatalog(node, node, "collect", facts)
			want := "Could not retrieve resources from the PuppetDB at " + proxy.URL() + ": Failed to execute '/pdb/query/v4/resources?query="
			if resp.status != 500 || !strings.Contains(resp.body, want) || !strings.Contains(resp.body, servers) {
				t.Errorf("collector: status %d %s\nwant 500 with %q", resp.status, resp.body, want)
			}
			resp = f.postCatalog(node, node, "query", facts)
			want = "Evaluation Error: Error while evaluating a Function Call, Failed to execute '/pdb/query/v4" + servers + " (file: " + site + ", line: 1, column: 26)"
			if resp.status != 500 || !strings.Contains(resp.body, want) {
				t.Errorf("puppetdb_query: status %d %s\nwant 500 with %q", resp.status, resp.body, want)
			}
			f.srv.Close()
			if strings.Contains(logs.String(), "err: ") {
				t.Errorf("a command failed although PuppetDB accepts them:\n%s", logs.String())
			}
		})
	}
	pgCtl(t, "pg-start")
	started = true
	for _, n := range nodes {
		if !storedCatalog(direct, n, 90*time.Second) {
			t.Errorf("%s: catalog accepted while PostgreSQL was down is not stored after pg-start", n)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			body, err := direct.QueryEndpoint(context.Background(), "factsets", []any{"=", "certname", n})
			if err == nil && strings.Contains(string(body), `"Debian"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: facts not stored after pg-start: %v %s", n, err, body)
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}
