package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// reuseFiles are the environment reuse: its catalog reads a fact, Hiera
// data, a template of a module and a top-scope variable; nodes named
// random* and generate* read what cannot be followed.
var reuseFiles = map[string]string{
	"code/environments/reuse/manifests/site.pp": `node default {
  notify { "os=${facts['os']['family']} role=${::role} data=${lookup('k')}": }
  notify { inline_template('<%= @hostname %>'): }
  notify { template('m/t.erb'): }
}
node /^random/ { notify { inline_template('<%= rand(1000000) %>'): } }
node /^generate/ { notify { generate('/bin/echo', 'hi'): } }
`,
	"code/environments/reuse/environment.conf":          "modulepath = modules\n",
	"code/environments/reuse/hiera.yaml":                "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
	"code/environments/reuse/data/common.yaml":          "k: one\n",
	"code/environments/reuse/modules/m/templates/t.erb": "template <%= @fqdn %>\n",
}

// reuseFixture is a fixture with reuse on, the environment reuse, and
// every file dated an hour ago (a file changed within racyWindow of a
// compile is not trusted).
func reuseFixture(t *testing.T, opts ...func(*Config)) (*fixture, *atomic.Int64) {
	t.Helper()
	f := newFixture(t, append([]func(*Config){func(c *Config) { c.NoReuse = false }}, opts...)...)
	for name, text := range reuseFiles {
		writeOld(t, filepath.Join(f.dir, name), text, time.Hour)
	}
	_ = filepath.Walk(f.dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			old := time.Now().Add(-time.Hour)
			_ = os.Chtimes(p, old, old)
		}
		return nil
	})
	compiles := &atomic.Int64{}
	orig := f.srv.compileFn
	f.srv.compileFn = func(ctx context.Context, env *compiler.Environment, req *compiler.Request) (*compiler.Result, error) {
		compiles.Add(1)
		return orig(ctx, env, req)
	}
	return f, compiles
}

// writeOld writes a file dated age ago.
func writeOld(t *testing.T, path, text string, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-age)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func reuseFacts(certname string, extra map[string]any) string {
	values := map[string]any{"os": map[string]any{"family": "Debian"}, "role": "web", "hostname": "web01",
		"fqdn": certname, "uptime_seconds": 100, "memoryfree": "1 GiB"}
	for k, v := range extra {
		if v == nil {
			delete(values, k)
		} else {
			values[k] = v
		}
	}
	return factsJSON(certname, values)
}

var uuidRE = regexp.MustCompile(`"catalog_uuid":"[^"]*"`)
var versionRE = regexp.MustCompile(`"version":[0-9]+`)

// sameCatalog reports whether two catalog answers are the same but for
// what Puppet makes anew for every compile.
func sameCatalog(a, b string) bool {
	norm := func(s string) string {
		return versionRE.ReplaceAllString(uuidRE.ReplaceAllString(s, `"catalog_uuid":""`), `"version":0`)
	}
	return norm(a) == norm(b)
}

func uuidOf(t *testing.T, body string) string {
	t.Helper()
	var c struct {
		UUID string `json:"catalog_uuid"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatalf("not a catalog: %v: %s", err, body)
	}
	return c.UUID
}

// TestCatalogReuse: a node asking again gets its last catalog, with a
// fresh catalog_uuid, while the facts its compile read, the files and
// modules it read, its environment, its classification and $trusted are
// the same; any of them changed compiles again. Through the real TLS path,
// gzip included (Go's client asks for it and checks the CRC).
func TestCatalogReuse(t *testing.T) {
	f, compiles := reuseFixture(t)
	const node = "web01.example.com"
	post := func(facts string) response {
		t.Helper()
		r := f.postCatalog(node, node, "reuse", facts)
		if r.status != 200 {
			t.Fatalf("catalog: %d %s", r.status, r.body)
		}
		return r
	}
	first := post(reuseFacts(node, nil))
	if !strings.Contains(first.body, "os=Debian role=web data=one") || !strings.Contains(first.body, "template web01.example.com") {
		t.Fatalf("catalog: %s", first.body)
	}
	steps := []struct {
		name    string
		change  func()
		facts   map[string]any
		as      string
		compile bool
	}{
		{name: "the same request", compile: false},
		{name: "facts nothing reads changed", facts: map[string]any{"uptime_seconds": 200, "memoryfree": nil, "new_fact": "x"}, compile: false},
		{name: "a fact read changed", facts: map[string]any{"os": map[string]any{"family": "RedHat"}}, compile: true},
		{name: "back to the first facts", compile: true},
		{name: "and again", compile: false},
		{name: "a legacy fact read appears", facts: map[string]any{"role": "db"}, compile: true},
		{name: "back", compile: true},
		{name: "Hiera data changed", change: func() {
			writeOld(t, filepath.Join(f.dir, "code/environments/reuse/data/common.yaml"), "k: two\n", 50*time.Minute)
		}, compile: true},
		{name: "unchanged since", compile: false},
		{name: "a module's template changed", change: func() {
			writeOld(t, filepath.Join(f.dir, "code/environments/reuse/modules/m/templates/t.erb"), "template2 <%= @fqdn %>\n", 40*time.Minute)
		}, compile: true},
		{name: "a file added to a module used", change: func() {
			writeOld(t, filepath.Join(f.dir, "code/environments/reuse/modules/m/files/new"), "x\n", 30*time.Minute)
		}, compile: true},
		{name: "the classifier's script changed, not its output", change: func() {
			writeOld(t, filepath.Join(f.dir, "enc.sh"), testENC+"# v2\n", 30*time.Minute)
		}, compile: false},
		{name: "the classifier's parameters changed", change: func() {
			writeOld(t, filepath.Join(f.dir, "enc.sh"), "#!/bin/sh\nprintf 'classes: []\\nparameters:\\n  p: 2\\n'\n", 20*time.Minute)
		}, compile: true},
		{name: "the same parameters", compile: false},
		{name: "trusted data changed (another certificate)", as: "web01-other", compile: true},
		{name: "the first certificate again", compile: true},
		{name: "the environment changed", change: func() {
			if r := f.do("admin.example.com", "DELETE", "/puppet-admin-api/v1/environment-cache", nil, ""); r.status != 204 {
				t.Fatalf("flush: %d", r.status)
			}
		}, compile: true},
		{name: "unchanged at last", compile: false},
	}
	cert, _ := f.pki.issue(node, ext{"1.3.6.1.4.1.34380.1.1.13", "dbserver"})
	f.clients["web01-other"] = f.client(&cert)
	prev := first
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		before := compiles.Load()
		as := node
		if st.as != "" {
			as = st.as
		}
		r := f.do(as, "POST", "/puppet/v3/catalog/"+node+"?environment=reuse", strings.NewReader(catalogForm(node, "reuse", reuseFacts(node, st.facts))), "application/x-www-form-urlencoded")
		if r.status != 200 {
			t.Fatalf("%s: %d %s", st.name, r.status, r.body)
		}
		if compiled := compiles.Load() > before; compiled != st.compile {
			t.Errorf("%s: compiled = %v, want %v", st.name, compiled, st.compile)
		}
		if !st.compile {
			if !sameCatalog(r.body, prev.body) {
				t.Errorf("%s: the reused catalog differs:\n%s\n%s", st.name, r.body, prev.body)
			}
			if uuidOf(t, r.body) == uuidOf(t, prev.body) {
				t.Errorf("%s: the reused catalog has the same catalog_uuid", st.name)
			}
		}
		prev = r
	}
	if !strings.Contains(prev.body, "data=two") || !strings.Contains(prev.body, "template2") {
		t.Errorf("the last catalog does not show the changes: %s", prev.body)
	}
	m := f.do("", "GET", "/metrics", nil, "")
	for _, want := range []string{`marionette_catalog_reuse_total{result="hit"} 7`, `marionette_catalog_reuse_total{result="miss"} 12`, `marionette_catalog_reuse_total{result="not_kept"} 0`} {
		if !strings.Contains(m.body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, m.body)
		}
	}
	if !strings.Contains(f.logs.String(), "Reused catalog for web01.example.com in environment reuse") {
		t.Errorf("no log line says the catalog was reused:\n%s", f.logs.String())
	}
}

// TestCatalogReuseUntracked: a catalog whose compile read what cannot be
// followed (a random draw, a command's output) is never reused, nor with
// reuse turned off.
func TestCatalogReuseUntracked(t *testing.T) {
	for _, tt := range []struct {
		name, node string
		off        bool
	}{
		{"a random draw", "random01.example.com", false},
		{"generate()", "generate01.example.com", false},
		{"reuse off", "web01.example.com", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, compiles := reuseFixture(t, func(c *Config) { c.NoReuse = tt.off })
			cert, _ := f.pki.issue(tt.node)
			f.clients[tt.node] = f.client(&cert)
			for range 3 {
				if r := f.postCatalog(tt.node, tt.node, "reuse", reuseFacts(tt.node, nil)); r.status != 200 {
					t.Fatalf("catalog: %d %s", r.status, r.body)
				}
			}
			if n := compiles.Load(); n != 3 {
				t.Errorf("%d compiles, want 3", n)
			}
		})
	}
}

// TestCatalogReuseConcurrent: many requests of a few nodes at once, some
// with changed facts, each answered with its node's own catalog (run
// with -race).
func TestCatalogReuseConcurrent(t *testing.T) {
	f, _ := reuseFixture(t, func(c *Config) { c.ReuseBytes = 1 << 14 })
	nodes := []string{"web01.example.com", "db01.example.com"}
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := nodes[i%2]
			family := []string{"Debian", "RedHat"}[(i/2)%2]
			body := catalogForm(node, "reuse", reuseFacts(node, map[string]any{"os": map[string]any{"family": family}}))
			r := f.do(node, "POST", "/puppet/v3/catalog/"+node+"?environment=reuse", strings.NewReader(body), "application/x-www-form-urlencoded")
			if r.status != 200 {
				t.Errorf("catalog: %d %s", r.status, r.body)
				return
			}
			if !strings.Contains(r.body, `"name":"`+node+`"`) || !strings.Contains(r.body, "os="+family) {
				t.Errorf("%s with %s got another catalog: %s", node, family, r.body)
			}
		}()
	}
	wg.Wait()
	if b := f.srv.reuse.bytes(); b > 1<<14 {
		t.Errorf("the cache keeps %d bytes, more than its bound", b)
	}
}

// TestCatalogReuseUncompressed: a client that does not accept gzip gets
// the kept catalog as JSON (and one that does, gzip: another entry).
func TestCatalogReuseUncompressed(t *testing.T) {
	f, compiles := reuseFixture(t)
	const node = "web01.example.com"
	var bodies []string
	for i, enc := range []string{"identity", "identity", "gzip", "gzip"} {
		r := f.do(node, "POST", "/puppet/v3/catalog/"+node+"?environment=reuse", strings.NewReader(catalogForm(node, "reuse", reuseFacts(node, nil))),
			"application/x-www-form-urlencoded", "Accept-Encoding", enc)
		if r.status != 200 {
			t.Fatalf("catalog: %d %s", r.status, r.body)
		}
		body := r.body
		if enc == "gzip" {
			if r.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("request %d: not gzipped: %v", i, r.header)
			}
			zr, err := gzip.NewReader(strings.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("request %d: the gzip stream: %v", i, err)
			}
			body = string(data)
		}
		bodies = append(bodies, body)
	}
	if n := compiles.Load(); n != 2 {
		t.Errorf("%d compiles, want 2 (one per encoding)", n)
	}
	for i := 1; i < len(bodies); i++ {
		if !sameCatalog(bodies[i], bodies[0]) {
			t.Errorf("answer %d differs:\n%s\n%s", i, bodies[i], bodies[0])
		}
	}
}

// TestCRC32Combine: the CRC of a concatenation from its parts' CRCs.
func TestCRC32Combine(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"", ""}, {"a", ""}, {"", "b"}, {"hello ", "world"},
		{strings.Repeat("x", 1000), strings.Repeat("yz", 40000)},
	} {
		want := crc32.ChecksumIEEE([]byte(tt.a + tt.b))
		got := crc32Combine(crc32.ChecksumIEEE([]byte(tt.a)), crc32.ChecksumIEEE([]byte(tt.b)), int64(len(tt.b)))
		if got != want {
			t.Errorf("%d+%d bytes: %08x, want %08x", len(tt.a), len(tt.b), got, want)
		}
	}
}

// TestGzipSplice: a stored head and a deflated tail make one gzip member
// that inflates to head and tail, heads of more than a stored block too.
func TestGzipSplice(t *testing.T) {
	for _, n := range []int{0, 1, 300, 65535, 70000} {
		head := bytes.Repeat([]byte("h"), n)
		tail := []byte(strings.Repeat(`,"catalog_format":2 and the rest`, 100))
		body, err := splitCatalog(append(append([]byte(`{"tags":[],"name":"n","version":1,"code_id":null,"catalog_uuid":"u"`), tail...), '}'), true)
		if err != nil {
			t.Fatal(err)
		}
		e := &reuseEntry{gz: true, body: body}
		w := &respRecorder{h: make(http.Header)}
		e.write(w, string(head), "id")
		zr, err := gzip.NewReader(bytes.NewReader(w.buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		want := `{"tags":[],"name":"n","version":` + string(head) + `,"code_id":null,"catalog_uuid":"id"` + string(tail) + "}"
		if string(got) != want {
			t.Errorf("%d: inflated to %d bytes, want %d", n, len(got), len(want))
		}
	}
}

// TestCompileKey: the request key tells $trusted, classification and
// server facts apart, and leaves the facts to the facts key.
func TestCompileKey(t *testing.T) {
	base := func() *compiler.Request {
		return &compiler.Request{Node: "n", Trusted: &compiler.TrustedInfo{Authenticated: "remote", Certname: "n"},
			Facts: value.NewHash(value.String("a"), value.String("1"))}
	}
	key := compileKey(base(), "production")
	for name, change := range map[string]func(*compiler.Request){
		"trusted extensions": func(r *compiler.Request) {
			r.Trusted.Extensions = value.NewHash(value.String("pp_role"), value.String("x"))
		},
		"trusted external": func(r *compiler.Request) { r.Trusted.External = value.NewHash(value.String("k"), value.String("v")) },
		"authentication":   func(r *compiler.Request) { r.Trusted.Authenticated = "" },
		"parameters":       func(r *compiler.Request) { r.Parameters = value.NewHash(value.String("p"), value.Integer(1)) },
		"classes":          func(r *compiler.Request) { r.Classes = []compiler.ENCClass{{Name: "c"}} },
		"server facts":     func(r *compiler.Request) { r.ServerFacts = value.NewHash(value.String("serverip"), value.String("1")) },
		"node":             func(r *compiler.Request) { r.Node = "m" },
	} {
		r := base()
		change(r)
		if compileKey(r, "production") == key {
			t.Errorf("%s: same key", name)
		}
	}
	r := base()
	r.Facts = value.NewHash(value.String("a"), value.String("2"))
	if compileKey(r, "production") != key {
		t.Error("the facts changed the request key")
	}
	if compileKey(base(), "other") == key {
		t.Error("the environment did not change the key")
	}
	if readset.FactsDigest(base().Facts, []string{"a"}, false) == readset.FactsDigest(r.Facts, []string{"a"}, false) {
		t.Error("a fact read changed, the facts key did not")
	}
	if readset.FactsDigest(base().Facts, []string{"b"}, false) != readset.FactsDigest(r.Facts, []string{"b"}, false) {
		t.Error("a fact not read changed the facts key")
	}
}

// respRecorder is a minimal http.ResponseWriter.
type respRecorder struct {
	h   http.Header
	buf bytes.Buffer
}

func (r *respRecorder) Header() http.Header         { return r.h }
func (r *respRecorder) Write(b []byte) (int, error) { return r.buf.Write(b) }
func (r *respRecorder) WriteHeader(int)             {}

// TestCatalogReuseRichData: an agent asking for rich data gets it from the
// kept catalog too (Deferred values stay Deferred), with its media type.
func TestCatalogReuseRichData(t *testing.T) {
	f, compiles := reuseFixture(t)
	const node = "web01.example.com"
	var bodies []string
	for range 2 {
		r := f.do(node, "POST", "/puppet/v3/catalog/"+node+"?environment=deferred", strings.NewReader(catalogForm(node, "deferred", reuseFacts(node, nil))),
			"application/x-www-form-urlencoded", "Accept", richDataType+", application/json")
		if r.status != 200 {
			t.Fatalf("catalog: %d %s", r.status, r.body)
		}
		if ct := r.header.Get("Content-Type"); ct != richDataType {
			t.Errorf("Content-Type %q", ct)
		}
		if !strings.Contains(r.body, `"__ptype":"Deferred"`) {
			t.Errorf("no Deferred: %s", r.body)
		}
		bodies = append(bodies, r.body)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("%d compiles, want 1", n)
	}
	if !sameCatalog(bodies[0], bodies[1]) {
		t.Errorf("the kept catalog differs:\n%s\n%s", bodies[0], bodies[1])
	}
}

// TestCatalogReuseFactsText: facts as agents send them are compared by
// the text of the facts read; facts the scan leaves to the decoder (not
// compact), or whose names are not plain text, by their values: each
// kind is reused when the same facts come again, and a catalog kept from
// one kind is not reused for the other.
func TestCatalogReuseFactsText(t *testing.T) {
	f, compiles := reuseFixture(t)
	const node = "db01.example.com"
	compact := reuseFacts(node, nil)
	spaced := strings.Replace(compact, `"values":{`, `"values": {`, 1)
	escapedKey := strings.Replace(compact, `"values":{`, `"values":{"x\u0079":1,`, 1)
	for _, st := range []struct {
		name, facts string
		compile     bool
	}{
		{"first", compact, true},
		{"again", compact, false},
		{"not compact", spaced, true},
		{"not compact again", spaced, false},
		{"compact", compact, true},
		{"an escaped name", escapedKey, true},
		{"an escaped name again", escapedKey, false},
		{"a read fact written otherwise", strings.Replace(compact, `"role":"web"`, `"role":"w\u0065b"`, 1), true},
	} {
		before := compiles.Load()
		r := f.postCatalog(node, node, "reuse", st.facts)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", st.name, r.status, r.body)
		}
		if compiled := compiles.Load() > before; compiled != st.compile {
			t.Errorf("%s: compiled = %v, want %v", st.name, compiled, st.compile)
		}
		// The facts cache holds them as sent (compact) or compacted.
		f.srv.factsOut.flush()
		data, err := os.ReadFile(filepath.Join(f.vardir, "yaml", "facts", node+".yaml"))
		want := strings.Replace(st.facts, `"values": {`, `"values":{`, 1)
		if err != nil || string(data) != site.CachedFactsTag+want+"\n" {
			t.Errorf("%s: facts cache %q, %v; want the facts sent", st.name, data, err)
		}
	}
}
