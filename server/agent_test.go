package server

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealAgent runs the real `puppet agent -t` against the server on
// loopback: SSL from a pre-seeded ssldir, node, pluginsync, catalog, file
// source, report. It takes a while (Facter), so it runs only with
// MARIONETTE_REAL_AGENT=1 and a puppet on the PATH.
func TestRealAgent(t *testing.T) {
	if os.Getenv("MARIONETTE_REAL_AGENT") == "" {
		t.Skip("set MARIONETTE_REAL_AGENT=1 to run the real Puppet agent")
	}
	puppet, err := exec.LookPath("puppet")
	if err != nil {
		t.Skip("no puppet on the PATH")
	}
	f := newFixture(t)
	out := filepath.Join(f.dir, "agent", "out.txt")
	site := filepath.Join(f.dir, "code", "environments", "production", "manifests", "site.pp")
	if err := os.WriteFile(site, []byte(`node default {
  notify { "agent ${trusted['certname']} role=${trusted['extensions']['pp_role']} static=${facts['static']}": }
  file { '`+out+`': source => 'puppet:///modules/hello/greeting.txt' }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The agent's ssldir: CA, its certificate and key.
	ssl := filepath.Join(f.dir, "agent", "ssl")
	cert, _ := f.pki.issue("web01.example.com", ext{"1.3.6.1.4.1.34380.1.1.13", "webserver"})
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey.(*ecdsa.PrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	for path, block := range map[string]*pem.Block{
		filepath.Join(ssl, "certs", "ca.pem"):                       {Type: "CERTIFICATE", Bytes: f.pki.cert.Raw},
		filepath.Join(ssl, "certs", "web01.example.com.pem"):        {Type: "CERTIFICATE", Bytes: cert.Certificate[0]},
		filepath.Join(ssl, "private_keys", "web01.example.com.pem"): {Type: "PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	agent := filepath.Join(f.dir, "agent")
	if err := os.WriteFile(filepath.Join(agent, "puppet.conf"), []byte("[main]\ncertificate_revocation = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(f.ts.URL)
	cmd := exec.Command(puppet, "agent", "-t", "--confdir", agent, "--vardir", filepath.Join(agent, "var"),
		"--ssldir", ssl, "--publicdir", filepath.Join(agent, "public"), "--rundir", filepath.Join(agent, "run"),
		"--logdir", filepath.Join(agent, "log"), "--codedir", filepath.Join(agent, "code"),
		"--server", "localhost", "--serverport", u.Port(), "--certname", "web01.example.com", "--color", "false")
	done := make(chan struct{})
	var output []byte
	go func() { output, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("agent hung:\n%s", output)
	}
	// Exit 2: changes applied, no failures.
	if code := cmd.ProcessState.ExitCode(); code != 2 {
		t.Fatalf("agent exit %d:\n%s", code, output)
	}
	for _, want := range []string{
		"Notice: agent web01.example.com role=webserver static=1",
		"/Stage[main]/Main/Node[default]/File[" + out + "]/ensure: defined content as",
	} {
		if !strings.Contains(string(output), want) {
			t.Errorf("agent output lacks %q:\n%s", want, output)
		}
	}
	if data, err := os.ReadFile(out); err != nil || string(data) != "hello world\n" {
		t.Errorf("file from the module: %q %v", data, err)
	}
	reports, _ := os.ReadDir(filepath.Join(f.vardir, "reports", "web01.example.com"))
	if len(reports) != 1 {
		t.Errorf("reports stored: %v", reports)
	}
	for _, path := range []string{"/puppet/v3/node/web01.example.com", "/puppet/v3/file_metadatas/pluginfacts", "/puppet/v3/file_content/plugins/facter/hello.rb", "/puppet/v3/catalog/web01.example.com", "/puppet/v3/file_content/modules/hello/greeting.txt", "/puppet/v3/report/web01.example.com"} {
		if !strings.Contains(f.logs.String(), "path="+path+" status=200") {
			t.Errorf("no 200 for %s in the access log:\n%s", path, f.logs.String())
		}
	}
}
