package server

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// The fuzz targets send request bodies and query strings straight to the
// server's handler (no TLS: the client certificate is put in the request's
// TLS state, as the TLS layer would after verifying it). A request must
// never panic (the handler turns a panic into a 500 that says "internal
// error", which each target looks for) nor be answered with a status the
// endpoint does not use for bad input.

// fuzzServer is a server for fuzzing: no classifier script (a fork per
// input would make fuzzing crawl), a stub compile, a real CA, and a module
// whose files include a symlink cycle.
type fuzzServer struct {
	f     *fixture
	certs map[string]*x509.Certificate
}

func newFuzzServer(tb testing.TB, opts ...func(*Config)) *fuzzServer {
	tb.Helper()
	caDir := filepath.Join(tb.TempDir(), "ca")
	c, err := ca.Setup(caDir, ca.SetupOptions{Name: "Puppet CA: fuzz"}, ca.Options{KeyLength: 2048})
	if err != nil {
		tb.Fatal(err)
	}
	f := newFixture(tb, append([]func(*Config){func(cfg *Config) {
		cfg.CA = FromCA(c)
		s := cfg.Settings
		settings, err := puppetconf.Load(puppetconf.Options{
			Home: filepath.Dir(s.Get(puppetconf.Codedir)), Hostname: "server",
			Flags: map[string]string{
				puppetconf.Codedir:         s.Get(puppetconf.Codedir),
				puppetconf.Confdir:         s.Get(puppetconf.Confdir),
				puppetconf.EnvironmentPath: s.Get(puppetconf.EnvironmentPath),
				puppetconf.Vardir:          s.Get(puppetconf.Vardir),
				puppetconf.BaseModulePath:  s.Get(puppetconf.BaseModulePath),
				"reports":                  "store",
			},
		})
		if err != nil {
			tb.Fatal(err)
		}
		cfg.Settings = settings
	}}, opts...)...)
	f.srv.compileFn = func(_ context.Context, env *compiler.Environment, req *compiler.Request) (*compiler.Result, error) {
		return &compiler.Result{Catalog: catalog.New(req.Node, env.Name)}, nil
	}
	files := filepath.Join(f.dir, "code/environments/production/modules/hello/files")
	if err := os.MkdirAll(filepath.Join(files, "tree/sub"), 0o755); err != nil {
		tb.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(files, "tree/sub/a.txt"), []byte("a\n"), 0o644)
	_ = os.Symlink("..", filepath.Join(files, "tree/sub/up"))
	_ = os.Symlink("missing", filepath.Join(files, "tree/dangling"))
	fs := &fuzzServer{f: f, certs: map[string]*x509.Certificate{}}
	for _, cn := range []string{"web01.example.com", "admin.example.com"} {
		var exts []ext
		if cn == "admin.example.com" {
			exts = []ext{{oidCLIAuth, "true"}}
		}
		_, cert := f.pki.issue(cn, exts...)
		fs.certs[cn] = cert
	}
	return fs
}

// serve answers one request from certname ("" for none) in process.
func (fs *fuzzServer) serve(t *testing.T, certname, method, target string, body []byte, contentType string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if certname != "" {
		cert := fs.certs[certname]
		req.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{cert}, VerifiedChains: [][]*x509.Certificate{{cert, fs.f.pki.cert}}}
	}
	rec := httptest.NewRecorder()
	fs.f.srv.Handler().ServeHTTP(rec, req)
	if rec.Code == http.StatusInternalServerError && strings.Contains(rec.Body.String(), "internal error") {
		t.Fatalf("%s %s panicked: %s", method, target, rec.Body.String())
	}
	return rec
}

// checkStatus fails unless the answer's status is one of want.
func checkStatus(t *testing.T, rec *httptest.ResponseRecorder, want ...int) {
	t.Helper()
	for _, w := range want {
		if rec.Code == w {
			return
		}
	}
	t.Fatalf("status %d, want one of %v: %s", rec.Code, want, rec.Body.String())
}

// agentFacts is facts as a 7.23 agent sends them (trimmed).
const agentFacts = `{"name":"web01.example.com","values":{"os":{"family":"Debian","release":{"full":"12.5","major":"12"}},"networking":{"fqdn":"web01.example.com","ip":"10.0.0.5","interfaces":{"lo":{"mtu":65536}}},"clientcert":"web01.example.com","clientversion":"7.23.0","processors":{"count":2},"memory":{"system":{"total_bytes":2084302848}},"path":"/usr/bin:/bin","is_virtual":true,"uptime_seconds":12.5,"empty":"","nothing":null},"timestamp":"2024-05-01T10:00:00.123456789+00:00","expiration":"2024-05-01T10:30:00.123456789+00:00"}`

// FuzzFacts: facts JSON (and PSON, which may hold bytes that are no
// UTF-8) as a catalog request or a facts upload carries them. What decodes
// must decode again, the same, from the compacted form that is stored.
func FuzzFacts(f *testing.F) {
	f.Add([]byte(agentFacts))
	f.Add([]byte(`{"name":"web01.example.com","values":{"a":"\xff\xfe","b":[1,2.5e300,-0,true]}}`))
	f.Add([]byte(`{"name":"web01.example.com","values":null}`))
	f.Add([]byte(`{"name":"web01.example.com","values":[[[[[[[[[[]]]]]]]]]]}`))
	f.Add([]byte(`{"name":"web01.example.com","values":{"x":{"y":{"z":{"w":1}}}},"name":"other"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		facts, raw, err := parseFacts(data, "web01.example.com")
		if err != nil {
			var he *httpError
			if e, ok := err.(*httpError); ok {
				he = e
			}
			if he == nil || he.status != http.StatusBadRequest {
				t.Fatalf("error is no 400: %v", err)
			}
			return
		}
		again, raw2, err := parseFacts(raw, "web01.example.com")
		if err != nil {
			t.Fatalf("stored facts %q do not decode: %v", raw, err)
		}
		if !bytes.Equal(raw, raw2) || !value.Equal(again, facts) {
			t.Fatalf("stored facts decode differently: %q vs %q", raw, raw2)
		}
	})
}

// FuzzCatalogForm: the form-encoded body of an agent's catalog POST (facts
// URL-encoded once more inside it).
func FuzzCatalogForm(f *testing.F) {
	f.Add(catalogForm("web01.example.com", "production", agentFacts))
	f.Add(catalogForm("web01.example.com", "production", `{"name":"web01.example.com","values":{}}`))
	f.Add("facts_format=pson&facts=%7B%22name%22%3A%22web01.example.com%22%7D&environment=production")
	f.Add("facts=%ZZ&facts_format=application%2Fjson&environment=production")
	f.Add("environment=production&environment=other&check_environment=true")
	f.Add("facts_format=text%2Fyaml&facts=x&environment=production")
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		rec := fs.serve(t, "web01.example.com", "POST", "/puppet/v3/catalog/web01.example.com?environment=production", []byte(body), "application/x-www-form-urlencoded")
		checkStatus(t, rec, http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusInternalServerError)
		if rec.Code == http.StatusInternalServerError && !strings.Contains(rec.Body.String(), "Could not find environment") && !strings.Contains(rec.Body.String(), "Failed when searching for node") {
			t.Fatalf("500: %s", rec.Body.String())
		}
	})
}

// csrPEM is a certificate request for cn, as an agent sends it.
func csrPEM(tb testing.TB, cn string) []byte {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, key)
	if err != nil {
		tb.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}

// FuzzCSR: the PEM body of an unauthenticated certificate_request PUT.
// Whatever it holds, the CA answers 200 or 400 (413 past the size cap),
// never a server error.
func FuzzCSR(f *testing.F) {
	f.Add(csrPEM(f, "agent.example.com"))
	f.Add(csrPEM(f, "other.example.com"))
	f.Add([]byte("-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n"))
	f.Add([]byte("-----BEGIN NEW CERTIFICATE REQUEST-----\n-----END NEW CERTIFICATE REQUEST-----\n"))
	f.Add([]byte(""))
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fs.serve(t, "", "PUT", "/puppet-ca/v1/certificate_request/agent.example.com", body, "text/plain")
		checkStatus(t, rec, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	})
}

// FuzzCertificateStatus: the JSON body of a certificate_status PUT (the
// `puppetserver ca` CLI's sign and revoke). The name has a pending request,
// so that signing is tried; each input gets a fresh one.
func FuzzCertificateStatus(f *testing.F) {
	f.Add([]byte(`{"desired_state":"signed"}`))
	f.Add([]byte(`{"desired_state":"signed","cert_ttl":3600}`))
	f.Add([]byte(`{"desired_state":"revoked"}`))
	f.Add([]byte(`{"desired_state":"signed","cert_ttl":"1h"}`))
	f.Add([]byte(`{"desired_state":null,"cert_ttl":-1}`))
	f.Add([]byte(`{"cert_ttl":1e400}`))
	fs := newFuzzServer(f)
	csr := csrPEM(f, "pending.example.com")
	f.Fuzz(func(t *testing.T, body []byte) {
		fs.serve(t, "admin.example.com", "DELETE", "/puppet-ca/v1/certificate_status/pending.example.com", nil, "")
		if rec := fs.serve(t, "", "PUT", "/puppet-ca/v1/certificate_request/pending.example.com", csr, "text/plain"); rec.Code != http.StatusOK {
			t.Fatalf("CSR: %d %s", rec.Code, rec.Body.String())
		}
		rec := fs.serve(t, "admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/pending.example.com", body, "application/json")
		checkStatus(t, rec, http.StatusNoContent, http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge)
	})
}

// reportSeed is a report as a 7.23 agent sends it (testdata/report12.json,
// captured from a real run).
func reportSeed(tb testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "report12.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzReport: the JSON body of a report PUT, stored as Puppet's store
// processor writes it.
func FuzzReport(f *testing.F) {
	f.Add(reportSeed(f))
	f.Add([]byte(`{"host":"web01.example.com","logs":[],"metrics":{},"resource_statuses":{}}`))
	f.Add([]byte(`{"host":"web01.example.com","time":"2024-01-01T00:00:00Z","logs":[{"message":"\u0000\ud800"}]}`))
	f.Add([]byte(`[1,2,3]`))
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fs.serve(t, "web01.example.com", "PUT", "/puppet/v3/report/web01.example.com?environment=production", body, "application/json")
		checkStatus(t, rec, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	})
}

// FuzzReportYAML: a report written as YAML (the store and http
// processors) reads back as the same data.
func FuzzReportYAML(f *testing.F) {
	f.Add(reportSeed(f))
	f.Add([]byte(`{"host":"h","logs":[{"message":"--- !ruby/object:X\n: a"}],"s":"yes","n":"0x10","e":"","t":"~","k":{"? x":1}}`))
	f.Add([]byte(`{"a":"\u0085\u2028\ufeff","b":" lead","c":"trail ","d":"#x","e":"a: b","f":"- x","g":"1e3","h":"null"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		doc, err := ReportYAML(body)
		if err != nil {
			return
		}
		want, err := dataformat.FromJSON(body, "report")
		if err != nil {
			t.Fatalf("ReportYAML took JSON that FromJSON refuses: %v", err)
		}
		text := strings.Replace(string(doc), "--- !ruby/object:Puppet::Transaction::Report", "---", 1)
		got, err := dataformat.FromYAML([]byte(text), "report.yaml")
		if err != nil {
			t.Fatalf("the report YAML does not read back: %v\n%s", err, doc)
		}
		if !value.Equal(got, want) {
			t.Fatalf("the report YAML reads back differently:\n%s", doc)
		}
	})
}

// FuzzFileMetadatas: the key and query string of file_metadata(s) and
// file_content, over a module whose files hold a symlink cycle and a
// dangling link.
func FuzzFileMetadatas(f *testing.F) {
	agent := "recurse=true&max_files=-1&ignore=.svn&ignore=CVS&ignore=.git&ignore=.hg&links=follow&checksum_type=sha256&source_permissions=use&environment=production"
	f.Add("file_metadatas", "plugins", agent)
	f.Add("file_metadatas", "pluginfacts", agent)
	f.Add("file_metadatas", "modules/hello/tree", agent)
	f.Add("file_metadatas", "modules/hello/tree", "recurse=true&recurselimit=2&links=manage&environment=production")
	f.Add("file_metadata", "modules/hello/greeting.txt", "links=manage&checksum_type=md5lite&source_permissions=ignore&environment=production")
	f.Add("file_content", "modules/hello/greeting.txt", "environment=production")
	f.Add("file_metadatas", "modules/hello/../../x", "environment=production&max_files=1&recurse=remote")
	f.Add("file_metadata", "modules/hello/tree/dangling", "links=follow&checksum_type=mtime&environment=production")
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, kind, key, query string) {
		switch kind {
		case "file_metadata", "file_metadatas", "file_content":
		default:
			kind = "file_metadatas"
		}
		target := "/puppet/v3/" + kind + "/" + (&url.URL{Path: key}).EscapedPath() + "?" + query
		if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsAny(target, " \t\r\n#") {
			return // no request line carries it
		}
		rec := fs.serve(t, "web01.example.com", "GET", target, nil, "")
		checkStatus(t, rec, http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusInternalServerError, http.StatusServiceUnavailable)
		if rec.Code == http.StatusInternalServerError && strings.Contains(rec.Body.String(), fs.f.dir) && !strings.Contains(rec.Body.String(), "max_files") && !strings.Contains(rec.Body.String(), "No such file or directory - ") && !strings.Contains(rec.Body.String(), "Too many levels of symbolic links") {
			t.Fatalf("an error shows a server path: %s", rec.Body.String())
		}
	})
}

// FuzzAuthConf: puppetserver's auth.conf (HOCON). What parses must
// authorize a request without failing.
func FuzzAuthConf(f *testing.F) {
	f.Add(`authorization: {
    version: 1
    rules: [
        {
            match-request: { path: "^/puppet/v3/catalog/([^/]+)$", type: regex, method: [get, post] }
            allow: "$1"
            sort-order: 500
            name: "puppetlabs v3 catalog from agents"
        },
        {
            match-request: { path: "/puppet-ca/v1/certificate_status", type: path, method: [get, put, delete], query-params: { environment: [production] } }
            allow: [{ extensions: { pp_cli_auth: "true" } }, "*.example.com", "/^web\\d+$/"]
            deny: [{ certname: "bad.example.com" }]
            sort-order: 500
            name: "puppetlabs cert status"
        },
        { match-request: { path: "/", type: path }, allow-unauthenticated: true, sort-order: 999, name: "open" }
    ]
}
`)
	f.Add(`authorization { version = 1, rules = [ { match-request { path = "/" }, deny = "*", name = x, sort-order = 1 } ] }`)
	f.Add(`authorization: { version: 1, rules: [ { match-request: { path: "(", type: regex }, allow: "*", name: r, sort-order: 1 } ] }`)
	id := &identity{authenticated: true, certname: "web01.example.com", extNames: []string{"pp_role"}, extValues: []string{"web"}, extOIDs: []string{"1.3.6.1.4.1.34380.1.1.13"}}
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := parseAuthConf("auth.conf", text)
		if err != nil {
			return
		}
		s := &Server{}
		s.rules.Store(&rules)
		for _, p := range []string{"/puppet/v3/catalog/web01.example.com", "/puppet-ca/v1/certificate_status/x", "/"} {
			s.authorize("GET", p, url.Values{"environment": {"production"}}, id)
			s.authorize("PUT", p, nil, &identity{})
		}
	})
}

// FuzzV4Catalog: the JSON body of POST /puppet/v4/catalog (puppetserver's
// catalog API for tools), from an admin's certificate.
func FuzzV4Catalog(f *testing.F) {
	f.Add([]byte(`{"certname":"web01.example.com","environment":"production","persistence":{"facts":false,"catalog":false},"facts":{"values":{"os":{"family":"Debian"}}},"trusted_facts":{"values":{"certname":"web01.example.com","extensions":{}}},"options":{"prefer_requested_environment":true,"capture_logs":true,"log_level":"info"}}`))
	f.Add([]byte(`{"certname":"web01.example.com","environment":"production","persistence":{"facts":true,"catalog":true}}`))
	f.Add([]byte(`{"certname":"../x","environment":"no such","facts":{"values":[1]},"trusted_facts":{"values":"x"}}`))
	f.Add([]byte(`{"certname":"web01.example.com","persistence":{"facts":"yes"},"options":{"log_level":"trace"}}`))
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fs.serve(t, "admin.example.com", "POST", "/puppet/v4/catalog", body, "application/json")
		checkStatus(t, rec, http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusInternalServerError)
		if rec.Code == http.StatusInternalServerError && strings.Contains(rec.Body.String(), "internal error") {
			t.Fatalf("500: %s", rec.Body.String())
		}
	})
}
