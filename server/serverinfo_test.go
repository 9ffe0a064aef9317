package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetconf"
)

// writeEnv writes files under the fixture's environment dir env.
func writeEnv(t *testing.T, f *fixture, env string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(f.dir, "code", "environments", env)
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestConfigVersion: an environment's config_version command's output is
// the catalog's version; a command that fails, hangs or floods fails the
// compile with Puppet's wording, within the bound.
func TestConfigVersion(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.CommandTimeout = 2 * time.Second })
	for _, tt := range []struct {
		name, script, conf string
		status             int
		want               string // the version, or a piece of the error
	}{
		{"output is the version", "#!/bin/sh\necho ' abc123 '\n", "config_version = bin/version.sh\n", 200, `"version":"abc123"`},
		{"arguments without a shell", "#!/bin/sh\necho \"$1-$2\"\n", "config_version = bin/version.sh a b\n", 200, `"version":"a-b"`},
		{"fails", "#!/bin/sh\necho oops >&2\nexit 3\n", "config_version = bin/version.sh\n", 500, "Execution of config_version command `bin/version.sh` failed: exit status 3: oops"},
		{"hangs", "#!/bin/sh\nsleep 60\n", "config_version = bin/version.sh\n", 500, "did not finish within 2s"},
		{"prints 10 MB", "#!/bin/sh\nhead -c 10485760 /dev/zero\n", "config_version = bin/version.sh\n", 500, "its output exceeds 65536 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := "cv" + strings.NewReplacer(" ", "", "1", "", "0", "").Replace(tt.name)
			env = strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return r
				}
				return -1
			}, env)
			writeEnv(t, f, env, map[string]string{
				"manifests/site.pp": "notify { 'x': }\n", "bin/version.sh": tt.script, "environment.conf": tt.conf,
			})
			start := time.Now()
			resp := f.do("db01.example.com", "GET", "/puppet/v3/catalog/db01.example.com?environment="+env, nil, "")
			if resp.status != tt.status || !strings.Contains(resp.body, tt.want) {
				t.Errorf("%d %.300s, want %d with %q", resp.status, resp.body, tt.status, tt.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestServerFactsAndTrustedExternal: $server_facts carries the server's
// name and addresses, also as $servername and $serverip, and
// trusted_external_command fills $trusted['external'].
func TestServerFactsAndTrustedExternal(t *testing.T) {
	f := newFixture(t)
	ext := filepath.Join(f.dir, "ext.sh")
	if err := os.WriteFile(ext, []byte("#!/bin/sh\nprintf '{\"cmdb\": {\"node\": \"%s\", \"role\": \"db\"}}' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeEnv(t, f, "facts", map[string]string{"manifests/site.pp": `notify { 'sf': message => "${server_facts['servername']}|${servername}|${server_facts['serverip'] == $serverip}|${server_facts['serverversion']}|${server_facts['environment']}|${trusted['external']['cmdb']['node']}" }` + "\n"})
	settings := f.srv.settings.Load()
	flags := map[string]string{"trusted_external_command": ext}
	for _, k := range []string{puppetconf.Codedir, puppetconf.Confdir, puppetconf.EnvironmentPath, puppetconf.Vardir, puppetconf.NodeTerminus, puppetconf.ExternalNodes, puppetconf.BaseModulePath} {
		flags[k] = settings.Get(k)
	}
	s2, err := puppetconf.Load(puppetconf.Options{Home: f.dir, Hostname: "server", Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Reload(s2); err != nil {
		t.Fatal(err)
	}
	resp := f.do("db01.example.com", "GET", "/puppet/v3/catalog/db01.example.com?environment=facts", nil, "")
	if resp.status != 200 {
		t.Fatalf("%d %s", resp.status, resp.body)
	}
	var cat struct {
		Resources []struct {
			Title      string         `json:"title"`
			Parameters map[string]any `json:"parameters"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(resp.body), &cat); err != nil {
		t.Fatal(err)
	}
	name := hostFQDN()
	want := name + "|" + name + "|true|7.23.0|facts|db01.example.com"
	for _, r := range cat.Resources {
		if r.Title == "sf" && r.Parameters["message"] != want {
			t.Errorf("message %q, want %q", r.Parameters["message"], want)
		}
	}
	if err := os.WriteFile(ext, []byte("#!/bin/sh\necho '[1]'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	resp = f.do("db01.example.com", "GET", "/puppet/v3/catalog/db01.example.com?environment=facts", nil, "")
	if resp.status != 500 || !strings.Contains(resp.body, "not a JSON object") {
		t.Errorf("an array from the command: %d %s", resp.status, resp.body)
	}
	// A directory of commands (Puppet 7's other form) is refused, not
	// ignored.
	flags["trusted_external_command"] = f.dir
	s3, err := puppetconf.Load(puppetconf.Options{Home: f.dir, Hostname: "server", Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Reload(s3); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}
