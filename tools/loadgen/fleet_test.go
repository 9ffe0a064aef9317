package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestFleet: every node runs once with a certificate for its own name,
// issued by the CA the server trusts, and its facts name it.
func TestFleet(t *testing.T) {
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	keyDER, _ := x509.MarshalPKCS8PrivateKey(caKey)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyFile := write("ca_key.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	factsFile := write("facts.json", []byte(`{"name":"orig.example.com","values":{"fqdn":"orig.example.com"}}`))

	var mu sync.Mutex
	seen := map[string]string{} // certname -> facts form field
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cn := r.TLS.PeerCertificates[0].Subject.CommonName
		if !strings.HasSuffix(r.URL.Path, "/"+cn) {
			http.Error(w, "wrong node", http.StatusForbidden)
			return
		}
		if r.Method == "POST" {
			_ = r.ParseForm()
			f, _ := url.QueryUnescape(r.Form.Get("facts"))
			mu.Lock()
			seen[cn] = f
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"tags":[],"name":"`+cn+`","version":1,"code_id":null,"catalog_uuid":"6c1d5a8e-6f3e-4b8a-9d2c-0a1b2c3d4e5f","catalog_format":1,"environment":"production","resources":[{"type":"Class","title":"main"}]}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"`+cn+`","environment":"production","parameters":{},"classes":[]}`)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.StartTLS()
	defer srv.Close()
	serverCA := write("server_ca.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	// The minter reads the CA certificate from -cacert; the client trusts
	// the server through it too, so put both in the file.
	caFile := write("ca.pem", append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), mustRead(serverCA)...))

	c := config{base: srv.URL, serverName: "example.com", caFile: caFile, certFile: "unused", keyFile: "unused", factsFile: factsFile,
		mode: "v3", clients: 2, timeout: time.Minute, fleet: 5, fleetPattern: "n%02d.test", caKeyFile: keyFile, env: "production"}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	pool2 := x509.NewCertPool()
	pool2.AppendCertsFromPEM(mustRead(caFile))
	facts, err := c.agentFacts()
	if err != nil {
		t.Fatal(err)
	}
	l := &loader{c: c, tls: &tls.Config{RootCAs: pool2, ServerName: c.serverName}, facts: facts}
	res, err := l.fleet()
	if err != nil {
		t.Fatal(err)
	}
	if res["catalogs"] != 5 || res["errors"] != int64(0) {
		t.Fatalf("result %v", res)
	}
	for i := 1; i <= 5; i++ {
		n := "n0" + string(rune('0'+i)) + ".test"
		if !strings.Contains(seen[n], `"fqdn":"`+n+`"`) || !strings.Contains(seen[n], `"name":"`+n+`"`) {
			t.Errorf("%s: facts %q", n, seen[n])
		}
	}
}

func TestFleetFlags(t *testing.T) {
	base := config{base: "https://127.0.0.1:8140", clients: 1, mode: "v3", caFile: "a", certFile: "b", keyFile: "c", factsFile: "d", fleetPattern: "n%d"}
	for _, tc := range []struct {
		fleet   int
		key     string
		pattern string
		ok      bool
	}{
		{5, "k", "n%d", true}, {5, "k", "n%04d.x", true}, {5, "", "n%d", false}, {5, "k", "n", false}, {5, "k", "%s%d", false}, {-1, "k", "n%d", false},
	} {
		c := base
		c.fleet, c.caKeyFile, c.fleetPattern = tc.fleet, tc.key, tc.pattern
		if err := c.check(); (err == nil) != tc.ok {
			t.Errorf("%+v: %v", tc, err)
		}
	}
}
