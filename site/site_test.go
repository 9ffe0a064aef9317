package site

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetconf"
)

func boolp(b bool) *bool { return &b }

func TestAddFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    Options
		wantErr string
	}{
		{"files", []string{"--manifest", "site.pp", "--modulepath", "a:b", "--config", "p.conf"},
			Options{Overrides: Overrides{Manifest: "site.pp", ModulePath: []string{"a", "b"}, Config: "p.conf"}}, ""},
		{"settings", []string{"--environment", "qa", "--environmentpath", "/e", "--hiera-config", "/h.yaml", "--codedir", "/c", "--confdir", "/d"},
			Options{Overrides: Overrides{Environment: "qa", EnvironmentPath: "/e", HieraConfig: "/h.yaml", Codedir: "/c", Confdir: "/d"}}, ""},
		{"enc", []string{"--enc", "/enc.sh", "--enc-timeout", "3s"},
			Options{Overrides: Overrides{ENC: "/enc.sh"}, ENCTimeout: 3 * time.Second}, ""},
		// An empty value is no flag: puppet.conf's setting stays.
		{"empty values", []string{"--enc", "", "--environmentpath=", "--hiera-config", "", "--modulepath", "", "--environment", ""},
			Options{}, ""},
		{"strictness", []string{"--strict-hostname-checking=false", "--puppet-version", "8", "--strict", "off", "--strict-variables", "--ruby-functions", "helper"},
			Options{Overrides: Overrides{StrictHostnameChecking: boolp(false), PuppetVersion: "8", Strict: "off", StrictVariables: boolp(true), RubyFunctions: "helper"}}, ""},
		{"limits", []string{"--enc-max-output", "100", "--max-yaml-nodes", "200", "--max-template-size", "300", "--max-resources", "400"},
			Options{ENCMaxOutput: 100, Limits: compiler.Limits{MaxYAMLNodes: 200, MaxTemplateSize: 300, MaxResources: 400}}, ""},
		{"not an environment flag", []string{"--jobs", "2"}, Options{}, "flag provided but not defined: -jobs"},
		{"bad duration", []string{"--enc-timeout", "soon"}, Options{}, `invalid value "soon" for flag -enc-timeout`},
		{"zero duration", []string{"--enc-timeout", "0"}, Options{}, "it must be positive"},
		{"bad bool", []string{"--strict-hostname-checking=perhaps"}, Options{}, `invalid boolean value "perhaps" for -strict-hostname-checking`},
		{"zero limit", []string{"--max-resources", "0"}, Options{}, `invalid value "0" for flag -max-resources: invalid limit 0: the limit must be a positive integer`},
		{"negative limit", []string{"--enc-max-output", "-1"}, Options{}, "the limit must be a positive integer"},
		{"limit not a number", []string{"--max-yaml-nodes", "lots"}, Options{}, "invalid limit lots"},
		{"bad puppet version", []string{"--puppet-version", "6"}, Options{}, "for flag -puppet-version"},
		{"bad strict", []string{"--strict", "loud"}, Options{}, "Invalid value 'loud' for parameter strict"},
		{"bad strict variables", []string{"--strict-variables=maybe"}, Options{}, "-strict-variables"},
		{"bad ruby functions", []string{"--ruby-functions", "ruby"}, Options{}, "ruby_functions must be auto, subset or helper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o Options
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			o.AddFlags(fs)
			err := fs.Parse(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(o, tt.want) {
				t.Errorf("got %+v\nwant %+v", o, tt.want)
			}
		})
	}
}

// TestOverridesSettings: the overrides become settings over puppet.conf.
func TestOverridesSettings(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"puppet.conf": "[main]\nenvironment = qa\nstrict = off\n"})
	o := Overrides{Confdir: dir, ConfigInConfdir: true, ENC: "/enc.sh", StrictHostnameChecking: boolp(false), PuppetVersion: "8"}
	s, err := o.Settings()
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		puppetconf.Environment: "qa", puppetconf.Strict: "off", puppetconf.NodeTerminus: "exec",
		puppetconf.ExternalNodes: "/enc.sh", puppetconf.StrictHostnameChecking: "false", puppetconf.PuppetVersion: "8",
	} {
		if got := s.Get(key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	// A confdir given is always read, as Puppet's --confdir; one that is
	// not there is an error, not an empty site.
	o.ConfigInConfdir = false
	if s, err = o.Settings(); err != nil || s.Get(puppetconf.Environment) != "qa" {
		t.Errorf("--confdir's puppet.conf not read: %v %v", s.Get(puppetconf.Environment), err)
	}
	missing := Overrides{Confdir: filepath.Join(dir, "nosuch")}
	if _, err := missing.Settings(); err == nil || !strings.Contains(err.Error(), "confdir "+missing.Confdir+" does not exist") {
		t.Errorf("a missing confdir: %v", err)
	}
	if s, err = o.ServerSettings(); err != nil || !s.IsSet(puppetconf.EnvironmentPath) {
		t.Errorf("server settings without an environmentpath: %v", err)
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
			o := Options{Overrides: Overrides{ModulePath: []string{filepath.Join(dir, "modules")}}}
			facts := filepath.Join(dir, "facts.yaml")
			if tt.manifest != "" {
				o.Manifest = filepath.Join(dir, tt.manifest)
			} else {
				o.Manifest, facts = filepath.Join(dir, "ok.pp"), filepath.Join(dir, "nonexistent.yaml")
			}
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), o, "n1", FactsFlag(facts), &stdout, &stderr)
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

// TestENCWhileEnvironmentLoads: with an ENC, the environment the node is
// in is loaded while the classifier runs; the ENC's answer still decides
// (a node it moves compiles in the other environment), and a classifier
// that fails fails the compile.
func TestENCWhileEnvironmentLoads(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"envs/production/manifests/site.pp": "notify { \"in production\": }\n",
		"envs/other/manifests/site.pp":      "notify { \"in other\": }\n",
		"facts.yaml":                        "os: linux\n",
		"enc.sh": "#!/bin/sh\ncase $1 in\n" +
			"mover) printf 'environment: other\\n' ;;\n" +
			"broken) echo 'no such node' >&2; exit 1 ;;\n" +
			"*) printf 'classes: {}\\n' ;;\nesac\n",
	})
	if err := os.Chmod(filepath.Join(dir, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		node, want string
		code       int
	}{
		{"stayer", `"title":"in production"`, 0},
		{"mover", `"title":"in other"`, 0},
		{"broken", "", 1},
	} {
		t.Run(tt.node, func(t *testing.T) {
			o := Options{Overrides: Overrides{EnvironmentPath: filepath.Join(dir, "envs"), ENC: filepath.Join(dir, "enc.sh")}}
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), o, tt.node, FactsFlag(filepath.Join(dir, "facts.yaml")), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.want) {
				t.Errorf("catalog lacks %s:\n%.400s", tt.want, stdout.String())
			}
			if tt.code != 0 && !strings.Contains(stderr.String(), "no such node") {
				t.Errorf("stderr does not carry the classifier's failure:\n%s", stderr.String())
			}
		})
	}
}
