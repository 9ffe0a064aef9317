package oneshot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetconf"
)

func TestSetFlag(t *testing.T) {
	type flag struct{ name, value string }
	tests := []struct {
		name    string
		flags   []flag
		want    Options
		unknown bool
		wantErr string
	}{
		{"files", []flag{{"manifest", "site.pp"}, {"modulepath", "a:b"}, {"facts", "f.yaml"}, {"config", "p.conf"}},
			Options{Manifest: "site.pp", ModulePath: []string{"a", "b"}, Facts: "f.yaml", Config: "p.conf", Settings: map[string]string{}}, false, ""},
		{"settings", []flag{{"environment", "qa"}, {"environmentpath", "/e"}, {"hiera-config", "/h.yaml"}, {"codedir", "/c"}, {"confdir", "/d"}},
			Options{Settings: map[string]string{puppetconf.Environment: "qa", puppetconf.EnvironmentPath: "/e",
				puppetconf.HieraConfig: "/h.yaml", puppetconf.Codedir: "/c", puppetconf.Confdir: "/d"}}, false, ""},
		{"enc selects the exec terminus", []flag{{"enc", "/enc.sh"}, {"enc-timeout", "3s"}},
			Options{ENCTimeout: 3 * time.Second, Settings: map[string]string{puppetconf.NodeTerminus: "exec", puppetconf.ExternalNodes: "/enc.sh"}}, false, ""},
		// An empty path is no flag: puppet.conf's setting stays.
		{"empty paths", []flag{{"enc", ""}, {"environmentpath", ""}, {"hiera-config", ""}, {"modulepath", ""}},
			Options{Settings: map[string]string{}}, false, ""},
		{"an empty environment is kept", []flag{{"environment", ""}},
			Options{Settings: map[string]string{puppetconf.Environment: ""}}, false, ""},
		{"strict", []flag{{"strict-hostname-checking", "false"}},
			Options{Settings: map[string]string{puppetconf.StrictHostnameChecking: "false"}}, false, ""},
		{"not an environment flag", []flag{{"jobs", "2"}}, Options{Settings: map[string]string{}}, true, ""},
		{"bad duration", []flag{{"enc-timeout", "soon"}}, Options{}, false, "--enc-timeout"},
		{"bad bool", []flag{{"strict-hostname-checking", "perhaps"}}, Options{}, false, "--strict-hostname-checking"},
		{"limits", []flag{{"enc-max-output", "100"}, {"max-yaml-nodes", "200"}, {"max-template-size", "300"}, {"max-resources", "400"}},
			Options{ENCMaxOutput: 100, Limits: compiler.Limits{MaxYAMLNodes: 200, MaxTemplateSize: 300, MaxResources: 400}, Settings: map[string]string{}}, false, ""},
		{"zero limit", []flag{{"max-resources", "0"}}, Options{}, false, "invalid --max-resources 0: the limit must be a positive integer"},
		{"negative limit", []flag{{"enc-max-output", "-1"}}, Options{}, false, "invalid --enc-max-output -1: the limit must be a positive integer"},
		{"limit not a number", []flag{{"max-yaml-nodes", "lots"}}, Options{}, false, "invalid --max-yaml-nodes lots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o Options
			for _, f := range tt.flags {
				known, err := o.SetFlag(f.name, f.value)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if known == tt.unknown {
					t.Errorf("SetFlag(%q) known = %v", f.name, known)
				}
			}
			if !reflect.DeepEqual(o, tt.want) {
				t.Errorf("got %+v\nwant %+v", o, tt.want)
			}
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRun checks the rendering of each outcome: the catalog on stdout, the
// compile's warnings before it on stderr, and Puppet's error lines.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ok.pp":                         "warning('careful')\nnotify { 'hi': }\n",
		"fail.pp":                       "warning('first')\nfail('boom')\n",
		"invalid.pp":                    "include web\n",
		"modules/web/manifests/init.pp": "class web {}\nnotify { 'stray': }\n$port = 80\n",
		"facts.yaml":                    "os: linux\n",
	})
	tests := []struct {
		name, manifest string
		code           int
		stdout         string // a substring; "" wants none
		stderr         []string
	}{
		{"catalog", "ok.pp", 0, `"title":"hi"`,
			[]string{"Warning: careful\n"}},
		{"failure", "fail.pp", 1, "",
			[]string{"Warning: first\n", "Error: Evaluation Error: Error while evaluating a Function Call, boom (file: " + filepath.Join(dir, "fail.pp") + ", line: 2, column: 1) on node n1\n"}},
		{"several validation errors", "invalid.pp", 1, "",
			[]string{"Error: This Resource Statement is unacceptable as a top level construct in this location (file: " + filepath.Join(dir, "modules/web/manifests/init.pp") + ", line: 2, column: 1)\n",
				"Error: This '=' expression is unacceptable", "Error: Language validation logged 2 errors. Giving up\n",
				"Error: Language validation logged 2 errors. Giving up (file: " + filepath.Join(dir, "modules/web/manifests/init.pp") + ") on node n1\n"}},
		// A facts file is not the node's compile: no " on node N".
		{"missing facts", "", 1, "", []string{"Error: ", "no such file or directory\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Node: "n1", Facts: filepath.Join(dir, "facts.yaml"), ModulePath: []string{filepath.Join(dir, "modules")}}
			if tt.manifest != "" {
				o.Manifest = filepath.Join(dir, tt.manifest)
			} else {
				o.Manifest, o.Facts = filepath.Join(dir, "ok.pp"), filepath.Join(dir, "nonexistent.yaml")
			}
			var stdout, stderr bytes.Buffer
			code := o.Run(context.Background(), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if tt.stdout == "" && stdout.Len() > 0 || !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout %.300q, want %q", stdout.String(), tt.stdout)
			}
			rest := stderr.String()
			for _, w := range tt.stderr {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("stderr lacks %q (in order):\n%s", w, stderr.String())
					break
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
