package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServe runs serve with args until the returned stop is called; base
// is its https:// address.
func startServe(t *testing.T, args ...string) (base string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		code := serve(ctx, args, pw, &stderr)
		pw.Close()
		done <- code
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		cancel()
		t.Fatalf("serve printed nothing; exit %d: %s", <-done, stderr.String())
	}
	base, ok := strings.CutPrefix(lines.Text(), "marionette serve: listening on ")
	if !ok {
		t.Fatalf("first line %q", lines.Text())
	}
	go func() {
		for lines.Scan() {
		}
	}()
	return base, func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop")
			return -1
		}
	}
}

// TestServeSetsUpCA: the smallest setup, a confdir with only a puppet.conf,
// gets a CA and a server certificate (certname and dns_alt_names) on the
// first start, in Puppet's ssldir layout; the second start reuses them.
func TestServeSetsUpCA(t *testing.T) {
	dir := t.TempDir()
	env := filepath.Join(dir, "environments", "production", "manifests")
	if err := os.MkdirAll(env, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(env, "site.pp"), []byte("notify { 'hi': }\n"), 0o644)
	confdir := filepath.Join(dir, "conf")
	_ = os.MkdirAll(confdir, 0o755)
	conf := "[main]\nenvironmentpath = " + filepath.Join(dir, "environments") +
		"\ncertname = puppet.example.com\ndns_alt_names = puppet,IP:127.0.0.1\nautosign = true\nkeylength = 2048\nvardir = " + filepath.Join(dir, "var") + "\n"
	_ = os.WriteFile(filepath.Join(confdir, "puppet.conf"), []byte(conf), 0o644)

	base, stop := startServe(t, "--confdir", confdir, "--bind", "127.0.0.1:0")
	ssl := filepath.Join(confdir, "ssl")
	for _, f := range []string{"ca/ca_crt.pem", "ca/ca_key.pem", "ca/ca_crl.pem", "ca/signed/puppet.example.com.pem",
		"certs/puppet.example.com.pem", "private_keys/puppet.example.com.pem", "certs/ca.pem", "crl.pem"} {
		if _, err := os.Stat(filepath.Join(ssl, f)); err != nil {
			t.Errorf("after the first start: %v", err)
		}
	}
	caPEM, _ := os.ReadFile(filepath.Join(ssl, "certs", "ca.pem"))
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("no CA certificate in certs/ca.pem")
	}
	// The server's certificate is valid for 127.0.0.1 (dns_alt_names).
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(base + "/puppet-ca/v1/certificate/ca")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(body, caPEM) {
		t.Errorf("GET certificate/ca: %d %q", resp.StatusCode, body)
	}
	resp, err = client.Get(base + "/puppet-ca/v1/certificate/nobody.example.com")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("GET certificate/nobody: %d, want 404", resp.StatusCode)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}

	cert, _ := os.ReadFile(filepath.Join(ssl, "certs", "puppet.example.com.pem"))
	_, stop = startServe(t, "--confdir", confdir, "--bind", "127.0.0.1:0")
	stop()
	again, _ := os.ReadFile(filepath.Join(ssl, "certs", "puppet.example.com.pem"))
	caAgain, _ := os.ReadFile(filepath.Join(ssl, "ca", "ca_crt.pem"))
	if !bytes.Equal(cert, again) || !bytes.Equal(caPEM, caAgain) {
		t.Error("the second start replaced the CA or the server certificate")
	}
}
