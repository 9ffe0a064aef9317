package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/ca"
)

// testCSR is a PEM CSR for cn.
func testCSR(t *testing.T, cn string) []byte {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}

// TestCertificateStatus: the endpoints the `puppetserver ca` CLI uses, with
// the statuses and messages puppetserver 7.9.5 answers (measured), allowed
// only to pp_cli_auth or admin certificates.
func TestCertificateStatus(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c); cfg.AdminCertnames = []string{"db01.example.com"} })
	if _, err := c.SubmitCSR("node1.example.com", testCSR(t, "node1.example.com")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCSR("node2.example.com", testCSR(t, "node2.example.com")); err != nil {
		t.Fatal(err)
	}
	const json = "application/json"
	for _, tt := range []struct {
		as, method, path, ctype, body string
		status                        int
		want                          string // body prefix
	}{
		{"web01.example.com", "GET", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 403, "Forbidden request"},
		{"", "GET", "/puppet-ca/v1/certificate_statuses/all", "", "", 403, "Forbidden request"},
		{"web01.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"signed"}`, 403, "Forbidden request"},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 200, `{"name":"node1.example.com","state":"requested"`},
		{"db01.example.com", "GET", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 200, `{"name":"node1.example.com","state":"requested"`},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/nosuch.example.com", "", "", 404, "Resource not found."},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/BAD", "", "", 404, "Resource not found."},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/..", "", "", 404, "Resource not found."},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/nosuch.example.com", json, `{"desired_state":"signed"}`, 404, "Invalid certificate subject."},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `notjson`, 400, "Request body is not JSON."},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{}`, 400, `Missing required parameter "desired_state"`},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"bogus"}`, 400, "State bogus invalid; Must specify desired state of 'signed' or 'revoked' for host node1.example.com."},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"revoked"}`, 409, "Cannot revoke certificate for host node1.example.com without a signed certificate"},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", "text/plain", `{"desired_state":"signed"}`, 415, "Unsupported media type."},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"signed","cert_ttl":"abc"}`, 400, `cert_ttl specified for host node1.example.com must be an integer, not "abc"`},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"signed","cert_ttl":-5}`, 400, "cert_ttl specified for host node1.example.com must be a positive number of seconds, not -5"},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"signed"}`, 204, ""},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"signed"}`, 409, "Cannot sign certificate for host node1.example.com without a certificate request"},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 200, `{"name":"node1.example.com","state":"signed"`},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node2.example.com", "application/json; charset=utf-8", `{"desired_state":"signed","cert_ttl":3600}`, 204, ""},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"revoked"}`, 204, ""},
		{"admin.example.com", "PUT", "/puppet-ca/v1/certificate_status/node1.example.com", json, `{"desired_state":"revoked"}`, 204, ""},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 200, `{"name":"node1.example.com","state":"revoked"`},
		{"admin.example.com", "GET", "/puppet-ca/v1/certificate_statuses/any?state=revoked", "", "", 200, `[{"name":"node1.example.com","state":"revoked"`},
		{"admin.example.com", "DELETE", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 204, ""},
		{"admin.example.com", "DELETE", "/puppet-ca/v1/certificate_status/node1.example.com", "", "", 404, "Resource not found."},
		{"admin.example.com", "POST", "/puppet-ca/v1/certificate_status/node2.example.com", "", "", 403, "Forbidden request"},
	} {
		var resp response
		if tt.body != "" {
			resp = f.do(tt.as, tt.method, tt.path, strings.NewReader(tt.body), tt.ctype)
		} else {
			resp = f.do(tt.as, tt.method, tt.path, nil, "")
		}
		if resp.status != tt.status || !strings.HasPrefix(resp.body, tt.want) {
			t.Errorf("%s %s %s as %q: %d %.120q, want %d %q", tt.method, tt.path, tt.body, tt.as, resp.status, resp.body, tt.status, tt.want)
		}
	}
	st, err := c.Status("node2.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := time.Parse("2006-01-02T15:04:05MST", st.NotAfter); time.Until(got) > 2*time.Hour {
		t.Errorf("cert_ttl 3600: not after %s", st.NotAfter)
	}
	resp := f.do("admin.example.com", "GET", "/puppet-ca/v1/certificate_statuses/any", nil, "")
	var all []ca.Status
	if err := jsonUnmarshal(resp.body, &all); err != nil || len(all) != 1 || all[0].Name != "node2.example.com" {
		t.Errorf("statuses: %v %s", err, resp.body)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestCRLNotModified: an agent refreshing its CRL with If-Modified-Since
// gets 304 while the CRL is unchanged, and the CRL after a revoke.
func TestCRLNotModified(t *testing.T) {
	c, err := ca.Setup(filepath.Join(t.TempDir(), "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048, Autosign: ca.Autosign{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c) })
	get := func(ims string) response {
		req, _ := http.NewRequest("GET", f.ts.URL+"/puppet-ca/v1/certificate_revocation_list/ca", nil)
		if ims != "" {
			req.Header.Set("If-Modified-Since", ims)
		}
		r, err := f.clients[""].Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var b strings.Builder
		_, _ = io.Copy(&b, r.Body)
		return response{r.StatusCode, r.Header, b.String()}
	}
	first := get("")
	if first.status != 200 || !strings.Contains(first.body, "X509 CRL") {
		t.Fatalf("CRL: %d %q", first.status, first.body)
	}
	for ims, want := range map[string]int{
		time.Now().Add(time.Hour).UTC().Format(http.TimeFormat):       304,
		"Mon, 01 Jan 2001 00:00:00 GMT":                               200,
		"garbage":                                                     200,
		first.header.Get("Last-Modified"):                             304,
		time.Now().Add(-48 * time.Hour).UTC().Format(http.TimeFormat): 200,
	} {
		if r := get(ims); r.status != want || (want == 304 && r.body != "") {
			t.Errorf("If-Modified-Since %q: %d %q, want %d", ims, r.status, r.body, want)
		}
	}
	if _, err := c.SubmitCSR("node1.example.com", testCSR(t, "node1.example.com")); err != nil {
		t.Fatal(err)
	}
	lm := first.header.Get("Last-Modified")
	time.Sleep(1100 * time.Millisecond) // a later modification time, to the second
	if err := c.Revoke("node1.example.com"); err != nil {
		t.Fatal(err)
	}
	if r := get(lm); r.status != 200 || r.body == first.body {
		t.Errorf("after a revoke: %d, same CRL %v", r.status, r.body == first.body)
	}
}
