package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvironmentClasses: the classes of an environment's manifests as
// puppetserver 7.9.5 lists them (the expected JSON is its answer for the
// same files), an ETag and 304 on If-None-Match, and the modules.
func TestEnvironmentClasses(t *testing.T) {
	f := newFixture(t)
	mod := filepath.Join(f.dir, "code", "environments", "production", "modules", "m")
	for name, text := range map[string]string{
		"manifests/init.pp": "class m (\n  String $a = 'x',\n  Integer[1,5] $b = 3,\n  $c = [1, 'two', true],\n  Hash $d = { 'k' => undef },\n" +
			"  $e = \"interp ${facts['os']}\",\n  Optional[String] $f = undef,\n  $g,\n  Enum[yes, 'no'] $h = present,\n  Stdlib::Port $i = -1,\n) {\n  class inner ($z = 1) {}\n}\n",
		"manifests/broken.pp":    "class m::broken ( {\n",
		"manifests/elsewhere.pp": "class other::elsewhere {}\n",
		"metadata.json":          `{"name": "acme-m", "version": "1.2.3"}`,
	} {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const as = "admin.example.com"
	resp := f.do(as, "GET", "/puppet/v3/environment_classes?environment=production", nil, "")
	if resp.status != 200 || resp.header.Get("Etag") == "" {
		t.Fatalf("status %d, etag %q: %s", resp.status, resp.header.Get("Etag"), resp.body)
	}
	var got struct {
		Name  string            `json:"name"`
		Files []json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal([]byte(resp.body), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"broken.pp":    `{"path":"` + mod + `/manifests/broken.pp","error":"Syntax error at '{' (file: ` + mod + `/manifests/broken.pp, line: 1, column: 19)"}`,
		"elsewhere.pp": `{"path":"` + mod + `/manifests/elsewhere.pp","error":"Unacceptable location. The name 'other::elsewhere' is unacceptable in file '` + mod + `/manifests/elsewhere.pp' (file: ` + mod + `/manifests/elsewhere.pp, line: 1, column: 1)"}`,
		"init.pp": `{"path":"` + mod + `/manifests/init.pp","classes":[{"name":"m::inner","params":[{"name":"z","default_literal":1,"default_source":"1"}]},` +
			`{"name":"m","params":[{"name":"a","type":"String","default_literal":"x","default_source":"'x'"},{"name":"b","type":"Integer[1, 5]","default_literal":3,"default_source":"3"},` +
			`{"name":"c","default_literal":[1,"two",true],"default_source":"[1, 'two', true]"},{"name":"d","type":"Hash","default_literal":{"k":null},"default_source":"{ 'k' => undef }"},` +
			`{"name":"e","default_source":"\"interp ${facts['os']}\""},{"name":"f","type":"Optional[String]","default_source":"undef"},{"name":"g"},` +
			`{"name":"h","type":"Enum['no', 'yes']","default_literal":"present","default_source":"present"},{"name":"i","type":"TypeReference['Stdlib::Port']","default_source":"-1"}]}]}`,
	}
	for _, raw := range got.Files {
		s := string(raw)
		for file, w := range want {
			if strings.Contains(s, "/manifests/"+file+`"`) {
				if !strings.HasPrefix(s, w) {
					t.Errorf("%s:\n got %s\nwant %s", file, s, w)
				}
				delete(want, file)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("files missing: %v", want)
	}
	again := f.do(as, "GET", "/puppet/v3/environment_classes?environment=production", nil, "", "If-None-Match", resp.header.Get("Etag"))
	if again.status != 304 || again.body != "" {
		t.Errorf("If-None-Match: %d %q", again.status, again.body)
	}
	for _, tt := range []struct {
		path   string
		status int
		body   string
	}{
		{"/puppet/v3/environment_classes", 400, "An environment parameter must be specified"},
		{"/puppet/v3/environment_classes?environment=nosuch", 404, "Could not find environment 'nosuch'"},
		{"/puppet/v3/environment_modules?environment=nosuch", 404, "Could not find environment 'nosuch'"},
		{"/puppet/v3/environment_modules?environment=production", 200, `{"name":"production","modules":[{"name":"hello","version":null},{"name":"acme/m","version":"1.2.3"},{"name":"other","version":null}]}`},
	} {
		if resp := f.do(as, "GET", tt.path, nil, ""); resp.status != tt.status || resp.body != tt.body {
			t.Errorf("%s: %d %s, want %d %s", tt.path, resp.status, resp.body, tt.status, tt.body)
		}
	}
	// Any certificate may read them, as puppetserver's rules allow; no
	// certificate may not.
	if resp := f.do("web01.example.com", "GET", "/puppet/v3/environment_modules?environment=production", nil, ""); resp.status != 200 {
		t.Errorf("an agent's certificate: %d", resp.status)
	}
	if resp := f.do("", "GET", "/puppet/v3/environment_classes?environment=production", nil, ""); resp.status != 403 {
		t.Errorf("no certificate: %d", resp.status)
	}
}
