package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/compiler"
)

// zeros is an endless body of zero bytes that allocates nothing.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestUnauthenticatedUploadsBounded: a CSR, or any body from a client
// without a certificate, is capped at MaxUnauthenticatedBody (413 past it,
// whether the length is announced or the body is chunked), and 50
// concurrent 32 MiB uploads leave the server's heap where it was: the
// issue's 2.1 GB RSS came from 50 such uploads read whole.
func TestUnauthenticatedUploadsBounded(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c); cfg.MaxBodyBytes = DefaultMaxBodyBytes })
	put := func(body io.Reader, length int64) response {
		req, _ := http.NewRequest("PUT", f.ts.URL+"/puppet-ca/v1/certificate_request/agent.example.com", body)
		req.ContentLength = length
		req.Header.Set("Content-Type", "text/plain")
		resp, err := f.clients[""].Do(req)
		if err != nil {
			// The server may close the connection once it has answered
			// 413 without reading the rest.
			return response{status: -1, body: err.Error()}
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return response{resp.StatusCode, resp.Header, string(b)}
	}
	const size = 32 << 20
	if r := put(io.LimitReader(zeros{}, MaxUnauthenticatedBody+1), MaxUnauthenticatedBody+1); r.status != http.StatusRequestEntityTooLarge || !strings.Contains(r.body, "exceeds 65536 bytes") {
		t.Errorf("announced body past the cap: %d %s", r.status, r.body)
	}
	if r := put(io.LimitReader(zeros{}, 1<<20), -1); r.status != http.StatusRequestEntityTooLarge && r.status != -1 {
		t.Errorf("chunked body past the cap: %d %s", r.status, r.body)
	}
	// A CSR within the cap is read and handled.
	if r := put(strings.NewReader(string(csrPEM(t, "agent.example.com"))), -1); r.status != http.StatusOK {
		t.Errorf("CSR: %d %s", r.status, r.body)
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			length := int64(size)
			if i%2 == 1 {
				length = -1 // chunked: the server must stop reading at the cap
			}
			statuses[i] = put(io.LimitReader(zeros{}, size), length).status
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	for i, s := range statuses {
		if s != http.StatusRequestEntityTooLarge && s != http.StatusServiceUnavailable && s != -1 {
			t.Errorf("upload %d: status %d", i, s)
		}
	}
	growth := int64(peak.Load()) - int64(before.HeapAlloc)
	t.Logf("heap before %d MiB, peak during 50 uploads of 32 MiB: +%d MiB", before.HeapAlloc>>20, growth>>20)
	if growth > 64<<20 {
		t.Errorf("50 unauthenticated uploads grew the heap by %d MiB", growth>>20)
	}
}

// TestUploadSlots: unauthenticated requests sending a body take one of
// MaxUnauthenticatedUploads places; past them the answer is 503 with
// Retry-After, and a request with a certificate takes none.
func TestUploadSlots(t *testing.T) {
	f := newFixture(t)
	for range MaxUnauthenticatedUploads {
		f.srv.uploads <- struct{}{}
	}
	r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/agent.example.com", strings.NewReader("x"), "text/plain")
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
		t.Errorf("upload past the slots: %d %v %s", r.status, r.header, r.body)
	}
	if r := f.do("", "GET", "/puppet-ca/v1/certificate/ca", nil, ""); r.status == http.StatusServiceUnavailable {
		t.Errorf("a request without a body was refused: %s", r.body)
	}
	if r := f.do("web01.example.com", "PUT", "/puppet/v3/facts/web01.example.com?environment=production", strings.NewReader(factsJSON("web01.example.com", nil)), "application/json"); r.status != http.StatusOK {
		t.Errorf("an authenticated upload was refused: %d %s", r.status, r.body)
	}
}

// TestHerdDeadlineIs503: a compile whose deadline passes while it waits
// for a slot was never started; the agent gets 503 + Retry-After and comes
// back, as for a full queue, not a 500.
func TestHerdDeadlineIs503(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxCompiles = 1; c.MaxQueued = 8; c.CompileTimeout = time.Second })
	// db01's compile holds the only slot until the test ends.
	hold := make(chan struct{})
	defer close(hold)
	compile := f.srv.compileFn
	f.srv.compileFn = func(ctx context.Context, env *compiler.Environment, req *compiler.Request) (*compiler.Result, error) {
		if req.Node == "db01.example.com" {
			<-hold
		}
		return compile(ctx, env, req)
	}
	go f.postCatalog("db01.example.com", "db01.example.com", "production", factsJSON("db01.example.com", nil))
	deadline := time.Now().Add(10 * time.Second)
	for len(f.srv.limit.slots) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	r := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil))
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "retry later") {
		t.Fatalf("deadline in the queue: %d %v %s", r.status, r.header, r.body)
	}
}

// waitIdle waits until no compile runs and no request is served but the
// caller's own, failing after limit.
func waitIdle(t *testing.T, f *fixture, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		if len(f.srv.limit.slots) == 0 && f.srv.metrics.inFlight.Load() == 0 {
			return time.Since(start)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("still busy %v after the client went: %d compiles, %d requests", limit, len(f.srv.limit.slots), f.srv.metrics.inFlight.Load())
	return 0
}

// TestClientGoneCancels: a compile, and a file_metadatas walk, stop soon
// after the agent hangs up, long before the server's deadline.
func TestClientGoneCancels(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.CompileTimeout = 5 * time.Minute })
	files := filepath.Join(f.dir, "code/environments/production/modules/hello/files/tree")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	// Two links back to the root: with a depth limit of 40 the walk has
	// 2^40 paths to list, which the depth limit allows.
	for _, l := range []string{"a", "b"} {
		if err := os.Symlink(".", filepath.Join(files, l)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, method, path, body, ctype string }{
		{"compile", "POST", "/puppet/v3/catalog/db01.example.com?environment=slow", catalogForm("db01.example.com", "slow", factsJSON("db01.example.com", nil)), "application/x-www-form-urlencoded"},
		{"file_metadatas", "GET", "/puppet/v3/file_metadatas/modules/hello/tree?recurse=true&recurselimit=40&links=follow&environment=production", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, tc.method, f.ts.URL+tc.path, strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			resp, err := f.clients["db01.example.com"].Do(req)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("answered %d before the client went", resp.StatusCode)
			}
			d := waitIdle(t, f, 20*time.Second)
			t.Logf("ended %v after the client went", d)
		})
	}
}

// TestFileMetadatasSymlinkLoop: following links, a directory that holds a
// link to its parent fails as puppetserver's file server fails (500, Ruby's
// ELOOP at the path with one link more than the system allows: 41 on
// Linux; checked with puppetserver 7.9.5 and puppet apply 7.23), however
// many such links it holds; a
// depth limit that ends the walk first lists it; without following links
// the links are links.
func TestFileMetadatasSymlinkLoop(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.CompileTimeout = 10 * time.Second })
	root := filepath.Join(f.dir, "code/environments/production/modules/hello/files/tree")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(root, "sub/a.txt"), []byte("a\n"), 0o644)
	for _, l := range []string{"up", "up2", "up3"} {
		if err := os.Symlink("..", filepath.Join(root, "sub", l)); err != nil {
			t.Fatal(err)
		}
	}
	get := func(query string) response {
		return f.do("db01.example.com", "GET", "/puppet/v3/file_metadatas/modules/hello/tree?environment=production&"+query, nil, "")
	}
	start := time.Now()
	r := get("recurse=true&links=follow&max_files=-1")
	want := "Server Error: Too many levels of symbolic links - " + root + strings.Repeat("/sub/up", 41)
	if r.status != http.StatusInternalServerError || r.json(t)["message"] != want {
		t.Errorf("loop: %d %s\nwant message %s", r.status, r.body, want)
	}
	if d := time.Since(start); d > timeScale*5*time.Second {
		t.Errorf("loop took %v", d)
	}
	relPaths := func(r response) []string {
		var mds []struct {
			Rel  string `json:"relative_path"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(r.body), &mds); err != nil {
			t.Fatalf("%d %s", r.status, r.body)
		}
		var out []string
		for _, m := range mds {
			out = append(out, m.Rel+":"+m.Type)
		}
		return out
	}
	r = get("recurse=true&links=follow&recurselimit=2")
	if got := strings.Join(relPaths(r), " "); got != ".:directory sub:directory sub/a.txt:file sub/up:directory sub/up2:directory sub/up3:directory" {
		t.Errorf("loop under a depth limit: %s", got)
	}
	r = get("recurse=true&links=manage")
	if got := strings.Join(relPaths(r), " "); got != ".:directory sub:directory sub/a.txt:file sub/up:link sub/up2:link sub/up3:link" {
		t.Errorf("links managed: %s", got)
	}
}

// TestFileMetadatasDeadline: a walk the depth limit allows but that cannot
// end in time fails at the server's deadline with an error naming it.
func TestFileMetadatasDeadline(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.CompileTimeout = time.Second })
	root := filepath.Join(f.dir, "code/environments/production/modules/hello/files/tree")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"a", "b", "c"} {
		_ = os.Symlink(".", filepath.Join(root, l))
	}
	start := time.Now()
	r := f.do("db01.example.com", "GET", "/puppet/v3/file_metadatas/modules/hello/tree?environment=production&recurse=true&recurselimit=30&links=follow", nil, "")
	if r.status != http.StatusInternalServerError || !strings.Contains(r.body, "were not listed within 1s (--compile-timeout)") {
		t.Errorf("%d %s", r.status, r.body)
	}
	if d := time.Since(start); d > timeScale*10*time.Second {
		t.Errorf("took %v under a 1 s deadline", d)
	}
}

// issueSubject signs a certificate whose subject is exactly the RDNs
// given, in order.
func issueSubject(t *testing.T, p *pki, rdns ...pkix.AttributeTypeAndValue) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.serial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(p.serial),
		Subject:      pkix.Name{ExtraNames: rdns},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &key.PublicKey, p.key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}
}

var oidCN = asn1.ObjectIdentifier{2, 5, 4, 3}

// TestFirstCommonName: a certificate with two CNs is its first CN's, as
// Puppet has it (Go's parser keeps the last); so is a CSR with two.
func TestFirstCommonName(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c) })
	cert := issueSubject(t, f.pki, pkix.AttributeTypeAndValue{Type: oidCN, Value: "web01.example.com"}, pkix.AttributeTypeAndValue{Type: oidCN, Value: "db01.example.com"})
	f.clients["two-cns"] = f.client(&cert)
	if r := f.do("two-cns", "GET", "/puppet/v3/node/web01.example.com?environment=production", nil, ""); r.status != http.StatusOK {
		t.Errorf("own node by the first CN: %d %s", r.status, r.body)
	}
	if r := f.do("two-cns", "GET", "/puppet/v3/node/db01.example.com?environment=production", nil, ""); r.status != http.StatusForbidden {
		t.Errorf("node of the last CN: %d %s", r.status, r.body)
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{ExtraNames: []pkix.AttributeTypeAndValue{{Type: oidCN, Value: "first.example.com"}, {Type: oidCN, Value: "last.example.com"}}}}, key)
	if err != nil {
		t.Fatal(err)
	}
	csr := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
	if r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/last.example.com", strings.NewReader(string(csr)), "text/plain"); r.status != http.StatusBadRequest || !strings.Contains(r.body, `Instance name "first.example.com" does not match requested key "last.example.com"`) {
		t.Errorf("CSR under its last CN: %d %s", r.status, r.body)
	}
	if r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/first.example.com", strings.NewReader(string(csr)), "text/plain"); r.status != http.StatusOK {
		t.Errorf("CSR under its first CN: %d %s", r.status, r.body)
	}
}

// TestCertnameLength: a certname longer than names.MaxCertname (229, the
// longest puppetserver's CA signs) is refused as invalid before it reaches
// a file; the longest is served; and a CA failure shows the CA's directory
// as $cadir, never its path.
func TestCertnameLength(t *testing.T) {
	caDir := filepath.Join(t.TempDir(), "ca")
	c, err := ca.Setup(caDir, ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048, Autosign: ca.Autosign{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c) })
	name := func(n int) string { return strings.Repeat("a", n-len(".example.com")) + ".example.com" }
	for _, n := range []int{230, 251, 255, 300} {
		cn := name(n)
		r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/"+cn, strings.NewReader(string(csrPEM(t, cn))), "text/plain")
		if r.status != http.StatusBadRequest || !strings.Contains(r.body, "Invalid certname") {
			t.Errorf("%d characters: %d %s", n, r.status, r.body)
		}
		if r := f.do("", "GET", "/puppet-ca/v1/certificate/"+cn, nil, ""); r.status != http.StatusBadRequest {
			t.Errorf("%d characters, GET: %d %s", n, r.status, r.body)
		}
	}
	cn := name(229)
	if r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/"+cn, strings.NewReader(string(csrPEM(t, cn))), "text/plain"); r.status != http.StatusOK {
		t.Errorf("229 characters: %d %s", r.status, r.body)
	}
	if r := f.do("", "GET", "/puppet-ca/v1/certificate/"+cn, nil, ""); r.status != http.StatusOK {
		t.Errorf("229 characters, GET: %d %s", r.status, r.body)
	}
	// The CA cannot write: requests/ is a file.
	if err := os.RemoveAll(filepath.Join(caDir, "requests")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(caDir, "requests"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.do("", "PUT", "/puppet-ca/v1/certificate_request/agent.example.com", strings.NewReader(string(csrPEM(t, "agent.example.com"))), "text/plain")
	if r.status != http.StatusInternalServerError || strings.Contains(r.body, caDir) || !strings.Contains(r.body, "$cadir/requests") {
		t.Errorf("CA failure: %d %s", r.status, r.body)
	}
	if !strings.Contains(f.logs.String(), caDir) {
		t.Errorf("the log lost the CA's path")
	}
}

// TestAgentMessage: private directories become their settings' names
// where they stand as paths, and only there.
func TestAgentMessage(t *testing.T) {
	for _, tc := range []struct{ msg, dir, want string }{
		{"open /var/lib/puppet/yaml/x.yaml: no space", "/var/lib/puppet", "open $vardir/yaml/x.yaml: no space"},
		{"/var/lib/puppet", "/var/lib/puppet", "$vardir"},
		{"/var/lib/puppetlabs/x and /var/lib/puppet/y", "/var/lib/puppet", "/var/lib/puppetlabs/x and $vardir/y"},
		{"x/var/lib/puppet/y", "/var/lib/puppet", "x/var/lib/puppet/y"},
	} {
		if got := replacePath(tc.msg, tc.dir, "$vardir"); got != tc.want {
			t.Errorf("replacePath(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// TestAgentMessageKeepsCode: a code directory inside a private one (code
// kept under vardir) keeps that private directory's paths shown, since
// errors name manifests as Puppet's do; the confdir is never hidden.
func TestAgentMessageKeepsCode(t *testing.T) {
	f := newFixture(t)
	code := filepath.Join(f.dir, "code", "environments", "production", "manifests", "site.pp")
	conf := filepath.Join(f.dir, "conf", "hiera.yaml")
	vardir := filepath.Join(f.vardir, "yaml", "facts", "x.yaml")
	got := f.srv.agentMessage(code + " " + conf + " " + vardir)
	if want := code + " " + conf + " $vardir/yaml/facts/x.yaml"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
