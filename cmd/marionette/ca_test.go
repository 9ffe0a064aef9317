package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestCACommand(t *testing.T) {
	tmp := t.TempDir()
	cadir := filepath.Join(tmp, "ca")
	ssldir := filepath.Join(tmp, "ssl")
	flags := []string{"--cadir", cadir, "--keylength", "2048"}
	writeCSR := func(name string) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: name}}, key)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(cadir, "requests", name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}), 0o644)
	}
	fp := `(?:[0-9A-F]{2}:){31}[0-9A-F]{2}`
	steps := []struct {
		args       []string
		before     func()
		code       int
		stdout     string // a regexp of the whole output
		stderrPart string
	}{
		{args: []string{"setup", "--certname", "puppet.example.com"}, stdout: `Generation succeeded. Find your files in .*/ca\n`},
		{args: []string{"setup"}, code: 1, stderrPart: "refusing to overwrite"},
		{args: []string{"list"}, stdout: "No certificates to list\n"},
		{args: []string{"list"}, before: func() { writeCSR("agent1"); writeCSR("agent22") }, stdout: "Requested Certificates:\n    agent1        \\(SHA256\\)  " + fp + "\n    agent22       \\(SHA256\\)  " + fp + "\n"},
		{args: []string{"sign", "agent1"}, stdout: "Successfully signed certificate request for agent1\n"},
		{args: []string{"sign", "nobody"}, code: 1, stderrPart: "Error:\n    Could not find certificate request for nobody\n"},
		{args: []string{"sign", "../etc"}, code: 1, stderrPart: "Subject hostname format is invalid"},
		{args: []string{"sign"}, code: 2, stderrPart: "At least one certname is required to sign"},
		{args: []string{"revoke", "agent1"}, stdout: "Certificate for agent1 has been revoked\n"},
		{args: []string{"generate", "srv.example.com", "--ssldir", ssldir, "--dns-alt-names", "puppet,IP:10.0.0.1", "--ca-client"},
			stdout: "Successfully saved certificate for srv.example.com to .*/ssl/certs/srv.example.com.pem\n" +
				"Successfully saved private key for srv.example.com to .*/ssl/private_keys/srv.example.com.pem\n" +
				"Successfully saved public key for srv.example.com to .*/ssl/public_keys/srv.example.com.pem\n"},
		{args: []string{"generate", "srv.example.com", "--ssldir", ssldir}, code: 1, stderrPart: "Certificate srv.example.com.pem already exists."},
		{args: []string{"list", "--all"}, stdout: "Requested Certificates:\n    agent22       \\(SHA256\\)  " + fp + "\n" +
			"Signed Certificates:\n    srv.example.com       \\(SHA256\\)  " + fp + `\talt names: \["IP:10.0.0.1", "DNS:puppet", "DNS:srv.example.com"\]\tauthorization extensions: \[pp_cli_auth: true\]` + "\n" +
			"Revoked Certificates:\n    agent1       \\(SHA256\\)  " + fp + `\talt names: \["DNS:agent1"\]` + "\n"},
		{args: []string{"clean", "agent22"}, stdout: "Cleaned files related to agent22\n"},
		{args: []string{"clean", "srv.example.com"}, stdout: "Certificate for srv.example.com has been revoked\nCleaned files related to srv.example.com\n"},
		{args: []string{"clean", "agent22"}, code: 1, stderrPart: "Could not find files to clean for agent22"},
		{args: []string{"list", "--all", "--format", "json"}, stdout: `\{"requested":\[\],"revoked":\[\{"name":"agent1","state":"revoked",.*"serial_number":2\}\],"signed":\[\]\}` + "\n"},
		{args: []string{"frobnicate"}, code: 2, stderrPart: `unknown action "frobnicate"`},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		var out, errb bytes.Buffer
		args := append(append([]string{"ca"}, s.args...), flags...)
		code := run(args, &out, &errb)
		if code != s.code {
			t.Errorf("%v: exit %d, want %d\nstderr: %s", s.args, code, s.code, errb.String())
		}
		if s.stdout != "" && !regexp.MustCompile(`^(?s:`+s.stdout+`)$`).MatchString(out.String()) {
			t.Errorf("%v: stdout\n%q\ndoes not match\n%q", s.args, out.String(), s.stdout)
		}
		if s.stderrPart != "" && !strings.Contains(errb.String(), s.stderrPart) {
			t.Errorf("%v: stderr %q lacks %q", s.args, errb.String(), s.stderrPart)
		}
	}
	if _, err := os.Stat(filepath.Join(ssldir, "private_keys", "srv.example.com.pem")); err != nil {
		t.Error("generate saved no key")
	}
}

func TestParsePuppetDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"157680000", 157680000 * time.Second, true},
		{"5y", 5 * 365 * 24 * time.Hour, true},
		{"90d", 90 * 24 * time.Hour, true},
		{"0", 0, false},
		{"5x", 0, false},
		{"99999999999999999999y", 0, false},
	} {
		got, err := parsePuppetDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parsePuppetDuration(%q) = %v, %v", tc.in, got, err)
		}
	}
}
