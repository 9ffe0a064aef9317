package server

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
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/site"
)

// TestReloadAppliesSettings: each setting SIGHUP claims to apply takes
// effect on Reload, without a restart; autosign = false stops signing at
// once (the security defect of issue 21).
func TestReloadAppliesSettings(t *testing.T) {
	csr := func(t *testing.T, cn string) []byte {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
	}
	for _, tt := range []struct {
		name    string
		before  map[string]string // settings at the start
		after   map[string]string // settings on SIGHUP
		files   map[string]string // written under the test directory before SIGHUP
		check   func(t *testing.T, f *fixture, c *ca.CA)
		restart string // the setting RestartNeeded names, if any
	}{
		{
			name:   "autosign true to false",
			before: map[string]string{"autosign": "true"}, after: map[string]string{"autosign": "false"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				resp := f.do("", "PUT", "/puppet-ca/v1/certificate_request/new.example.com?environment=production", bytes.NewReader(csr(t, "new.example.com")), "text/plain")
				if resp.status != 200 {
					t.Fatalf("CSR: %d %s", resp.status, resp.body)
				}
				if resp := f.do("", "GET", "/puppet-ca/v1/certificate/new.example.com", nil, ""); resp.status != 404 {
					t.Errorf("autosign = false still signs: %d", resp.status)
				}
			},
		},
		{
			name:   "autosign false to a whitelist",
			before: map[string]string{"autosign": "false"}, after: map[string]string{"autosign": "$TEST/autosign.conf"},
			files: map[string]string{"autosign.conf": "*.example.com\n"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				f.do("", "PUT", "/puppet-ca/v1/certificate_request/ok.example.com?environment=production", bytes.NewReader(csr(t, "ok.example.com")), "text/plain")
				f.do("", "PUT", "/puppet-ca/v1/certificate_request/no.example.org?environment=production", bytes.NewReader(csr(t, "no.example.org")), "text/plain")
				if resp := f.do("", "GET", "/puppet-ca/v1/certificate/ok.example.com", nil, ""); resp.status != 200 {
					t.Errorf("whitelisted name not signed: %d", resp.status)
				}
				if resp := f.do("", "GET", "/puppet-ca/v1/certificate/no.example.org", nil, ""); resp.status != 404 {
					t.Errorf("name off the whitelist signed: %d", resp.status)
				}
			},
		},
		{
			name:  "autosign policy executable",
			after: map[string]string{"autosign": "$TEST/policy.sh"},
			files: map[string]string{"policy.sh": "#!/bin/sh\n[ \"$1\" = yes.example.com ]\n"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				f.do("", "PUT", "/puppet-ca/v1/certificate_request/yes.example.com?environment=production", bytes.NewReader(csr(t, "yes.example.com")), "text/plain")
				f.do("", "PUT", "/puppet-ca/v1/certificate_request/nope.example.com?environment=production", bytes.NewReader(csr(t, "nope.example.com")), "text/plain")
				if resp := f.do("", "GET", "/puppet-ca/v1/certificate/yes.example.com", nil, ""); resp.status != 200 {
					t.Errorf("policy's yes not signed: %d", resp.status)
				}
				if resp := f.do("", "GET", "/puppet-ca/v1/certificate/nope.example.com", nil, ""); resp.status != 404 {
					t.Errorf("policy's no signed: %d", resp.status)
				}
			},
		},
		{
			name:  "ENC",
			after: map[string]string{puppetconf.ExternalNodes: "$TEST/enc2.sh"},
			files: map[string]string{"enc2.sh": "#!/bin/sh\necho 'environment: other'\necho 'classes: {}'\n"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				resp := f.do("db01.example.com", "GET", "/puppet/v3/node/db01.example.com?environment=production", nil, "")
				if resp.status != 200 || !strings.Contains(resp.body, `"environment":"other"`) {
					t.Errorf("new ENC not used: %d %s", resp.status, resp.body)
				}
			},
		},
		{
			name:  "environmentpath",
			after: map[string]string{puppetconf.EnvironmentPath: "$TEST/envs2", puppetconf.NodeTerminus: "plain"},
			files: map[string]string{"envs2/fresh/manifests/site.pp": "notify { 'fresh': }\n"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				resp := f.do("db01.example.com", "GET", "/puppet/v3/catalog/db01.example.com?environment=fresh", nil, "")
				if resp.status != 200 || !strings.Contains(resp.body, `Notify[fresh]`) {
					t.Errorf("new environmentpath not used: %d %.300s", resp.status, resp.body)
				}
			},
		},
		{
			name:  "fileserver.conf",
			after: map[string]string{"fileserverconfig": "$TEST/fs.conf"},
			files: map[string]string{"fs.conf": "[extra]\npath $TEST/extra\n", "extra/x.txt": "x\n"},
			check: func(t *testing.T, f *fixture, c *ca.CA) {
				resp := f.do("db01.example.com", "GET", "/puppet/v3/file_content/extra/x.txt?environment=production", nil, "")
				if resp.status != 200 || resp.body != "x\n" {
					t.Errorf("new mount not served: %d %s", resp.status, resp.body)
				}
			},
		},
		{name: "vardir needs a restart", after: map[string]string{puppetconf.Vardir: "$TEST/var2"}, restart: "vardir"},
		{name: "certname needs a restart", after: map[string]string{puppetconf.Certname: "other"}, restart: "certname"},
		{name: "reports need a restart", after: map[string]string{"reports": "store,http"}, restart: "reports"},
		{name: "storeconfigs needs a restart", after: map[string]string{"storeconfigs": "true"}, restart: "storeconfigs"},
		{name: "puppetdb.conf needs a restart", files: map[string]string{"conf/puppetdb.conf": "[main]\nserver_urls = https://pdb:8081\n"}, restart: "puppetdb.conf"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c, err := ca.Setup(filepath.Join(dir, "ca"), ca.SetupOptions{Name: "Puppet CA: test"}, ca.Options{KeyLength: 2048})
			if err != nil {
				t.Fatal(err)
			}
			f := newFixture(t, func(cfg *Config) { cfg.CA = FromCA(c) })
			load := func(over map[string]string) *puppetconf.Settings {
				flags := map[string]string{
					puppetconf.Codedir:         filepath.Join(f.dir, "code"),
					puppetconf.Confdir:         filepath.Join(dir, "conf"),
					puppetconf.EnvironmentPath: filepath.Join(f.dir, "code", "environments"),
					puppetconf.Vardir:          filepath.Join(f.dir, "var"),
					puppetconf.NodeTerminus:    "exec",
					puppetconf.ExternalNodes:   filepath.Join(f.dir, "enc.sh"),
					puppetconf.BaseModulePath:  filepath.Join(f.dir, "code", "modules"),
					puppetconf.Certname:        "server",
				}
				for k, v := range over {
					flags[k] = strings.ReplaceAll(v, "$TEST", dir)
				}
				s, err := puppetconf.Load(puppetconf.Options{Home: f.dir, Hostname: "server", Flags: flags})
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			if err := f.srv.Reload(load(tt.before)); err != nil {
				t.Fatal(err)
			}
			f.srv.fixed = fixedOfStart(load(tt.before))
			for name, text := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				mode := os.FileMode(0o644)
				if strings.HasSuffix(name, ".sh") {
					mode = 0o755
				}
				if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "$TEST", dir)), mode); err != nil {
					t.Fatal(err)
				}
			}
			after := load(tt.after)
			if err := f.srv.Reload(after); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(f.srv.RestartNeeded(after), ",")
			// Files are named by their path.
			if got != tt.restart && !(tt.restart != "" && strings.HasSuffix(got, "/"+tt.restart)) {
				t.Errorf("RestartNeeded = %q, want %q", got, tt.restart)
			}
			if tt.check != nil {
				tt.check(t, f, c)
			}
		})
	}
}

// fixedOfStart is what a server started with settings would keep.
func fixedOfStart(s *puppetconf.Settings) map[string]string { return site.FixedOf(s) }
