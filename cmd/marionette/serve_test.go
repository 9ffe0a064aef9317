package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testCert makes a certificate for cn signed by ca (self-signed CA when
// ca is nil) and writes cert and key PEM files named name.* into dir.
func testCert(t *testing.T, dir, name, cn string, ca *tls.Certificate) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:     []string{cn},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	parent, signer := tmpl, any(key)
	if ca == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	} else {
		parent, signer = ca.Leaf, ca.PrivateKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	_ = os.WriteFile(filepath.Join(dir, name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(filepath.Join(dir, name+".key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}

// TestServe runs `marionette serve` with a puppet.conf in --confdir, asks
// it for a catalog over TLS with a client certificate, and stops it.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	ca := testCert(t, dir, "ca", "Puppet CA: test", nil)
	testCert(t, dir, "server", "localhost", &ca)
	agent := testCert(t, dir, "agent", "agent.example.com", &ca)
	env := filepath.Join(dir, "code", "environments", "production", "manifests")
	if err := os.MkdirAll(env, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(env, "site.pp"), []byte("notify { \"hello ${trusted['certname']}\": }\n"), 0o644)
	conf := "[main]\ncodedir = " + filepath.Join(dir, "code") + "\nvardir = " + filepath.Join(dir, "var") + "\n"
	_ = os.WriteFile(filepath.Join(dir, "puppet.conf"), []byte(conf), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := serve(ctx, []string{"--confdir", dir, "--bind", "127.0.0.1:0", "--max-compiles", "2",
			"--ssl-cert", filepath.Join(dir, "server.pem"), "--ssl-key", filepath.Join(dir, "server.key"), "--ssl-ca", filepath.Join(dir, "ca.pem")}, pw, io.Discard)
		pw.Close()
		done <- code
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing; exit %d", <-done)
	}
	base, ok := strings.CutPrefix(lines.Text(), "marionette serve: listening on ")
	if !ok {
		t.Fatalf("first line %q", lines.Text())
	}
	go func() {
		for lines.Scan() {
		}
	}()
	pool := x509.NewCertPool()
	pool.AddCert(ca.Leaf)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "localhost", Certificates: []tls.Certificate{agent}}}}
	form := url.Values{"facts_format": {"application/json"}, "facts": {url.QueryEscape(`{"name":"agent.example.com","values":{}}`)}, "environment": {"production"}}
	resp, err := client.Post(base+"/puppet/v3/catalog/agent.example.com?environment=production", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"title":"hello agent.example.com"`) {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	// The server writes a node's facts from a goroutine of its own, after
	// the catalog's answer: wait for the file, for a while.
	factsFile := filepath.Join(dir, "var", "yaml", "facts", "agent.example.com.yaml")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := os.Stat(factsFile)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("facts not stored under the puppet.conf vardir: %v", err)
			break
		}
	}

	// SIGHUP: puppet.conf is read again (another codedir) and the
	// environments flushed.
	env2 := filepath.Join(dir, "code2", "environments", "production", "manifests")
	if err := os.MkdirAll(env2, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(env2, "site.pp"), []byte("notify { 'reloaded': }\n"), 0o644)
	conf = "[main]\ncodedir = " + filepath.Join(dir, "code2") + "\nvardir = " + filepath.Join(dir, "var") + "\n"
	_ = os.WriteFile(filepath.Join(dir, "puppet.conf"), []byte(conf), 0o644)
	self, _ := os.FindProcess(os.Getpid())
	if err := self.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	reloaded := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !reloaded; time.Sleep(50 * time.Millisecond) {
		resp, err := client.Post(base+"/puppet/v3/catalog/agent.example.com?environment=production", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		reloaded = strings.Contains(string(body), `"title":"reloaded"`)
	}
	if !reloaded {
		t.Error("SIGHUP: the new codedir of puppet.conf was not used")
	}
	resp, err = client.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"marionette_environment_cache_flushes_total 1\n", `marionette_compiles_total{result="success"} `, "marionette_compile_slots 2\n", "marionette_compile_queue_limit 64\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeRefusesBrokenAuthConf: a site's auth.conf that does not parse,
// found where puppetserver's packages put it (puppetserver/conf.d beside
// the confdir), stops `marionette serve` before it listens, with the file
// and the line of the syntax error; it is not replaced by the default rules.
func TestServeRefusesBrokenAuthConf(t *testing.T) {
	dir := t.TempDir()
	ca := testCert(t, dir, "ca", "Puppet CA: test", nil)
	testCert(t, dir, "server", "localhost", &ca)
	confdir := filepath.Join(dir, "puppet")
	authDir := filepath.Join(dir, "puppetserver", "conf.d")
	for _, d := range []string{confdir, authDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := "[main]\ncodedir = " + filepath.Join(dir, "code") + "\nvardir = " + filepath.Join(dir, "var") + "\n"
	if err := os.WriteFile(filepath.Join(confdir, "puppet.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	authConf := filepath.Join(authDir, "auth.conf")
	// Line 4 opens a rule that line 6 never closes.
	broken := "authorization: {\n    version: 1\n    rules: [\n        { name: \"site rule\"\n          allow: [\n}\n"
	if err := os.WriteFile(authConf, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code := serve(ctx, []string{"--confdir", confdir, "--bind", "127.0.0.1:0",
		"--ssl-cert", filepath.Join(dir, "server.pem"), "--ssl-key", filepath.Join(dir, "server.key"), "--ssl-ca", filepath.Join(dir, "ca.pem")}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
	if strings.Contains(stdout.String(), "listening on") {
		t.Errorf("serve listened with a broken auth.conf: %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), authConf+":6: ") {
		t.Errorf("stderr %q does not name %s:6", stderr.String(), authConf)
	}
	if testing.Verbose() {
		t.Log(stderr.String())
	}
}
