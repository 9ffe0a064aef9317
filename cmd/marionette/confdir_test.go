package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/site"
)

// TestCommandsReadConfdir: every command reads --confdir's puppet.conf as
// Puppet's do (node classifies with its ENC, compile uses the facts the
// server cached under its vardir, ca finds its cadir); a confdir that is
// not there is an error, not an empty site or a new CA.
func TestCommandsReadConfdir(t *testing.T) {
	dir := t.TempDir()
	envs, err := filepath.Abs(exampleEnvs)
	if err != nil {
		t.Fatal(err)
	}
	enc := filepath.Join(dir, "enc.sh")
	files := map[string]string{
		"conf/puppet.conf": "[main]\nvardir = " + filepath.Join(dir, "var") + "\nssldir = " + filepath.Join(dir, "ssl") + "\n" +
			"cadir = " + filepath.Join(dir, "ca") + "\n[server]\nenvironmentpath = " + envs + "\nnode_terminus = exec\nexternal_nodes = " + enc + "\n",
		"enc.sh":                                "#!/bin/sh\nprintf 'classes:\\n  enc_marker: {}\\nenvironment: production\\n'\n",
		"var/yaml/facts/web01.example.com.yaml": site.CachedFactsTag + `{"name":"web01.example.com","values":{"os":{"family":"Debian"},"fromcache":"yes"}}` + "\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "conf")
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string // a piece of stdout, or of stderr when code != 0
	}{
		{"node classifies with puppet.conf's ENC", []string{"node", "web01.example.com", "--confdir", conf}, 0, "enc_marker"},
		{"ca setup in puppet.conf's cadir", []string{"ca", "setup", "--confdir", conf, "--keylength", "2048"}, 0, filepath.Join(dir, "ca")},
		{"ca list finds it", []string{"ca", "list", "--all", "--confdir", conf}, 0, ""},
		{"a missing confdir", []string{"node", "web01.example.com", "--confdir", filepath.Join(dir, "nosuch")}, 1, "confdir " + filepath.Join(dir, "nosuch") + " does not exist"},
		{"ca with a missing confdir", []string{"ca", "list", "--confdir", filepath.Join(dir, "nosuch")}, 1, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			got := stdout.String()
			if tc.code != 0 {
				got = stderr.String()
			}
			if code != tc.code || !strings.Contains(got, tc.out) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout.String(), stderr.String(), tc.code, tc.out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "nosuch")); err == nil {
		t.Error("a missing confdir was created")
	}
}
