package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileWithPuppetConf: puppet.conf's [server] section (over [main])
// gives the environmentpath, the environment and the ENC; a flag given on
// the command line wins over it.
func TestCompileWithPuppetConf(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"code/environments/production/manifests/site.pp": "notify { \"prod ${cls}\": }\n",
		"code/environments/qa/manifests/site.pp":         "notify { \"qa ${cls}\": }\n",
		"code/environments/other/manifests/site.pp":      "notify { 'other': }\n",
		"elsewhere/manifests/site.pp":                    "notify { 'escaped': }\n",
		"enc.sh":                                         "#!/bin/sh\nprintf 'parameters:\\n  cls: from-enc\\n'\n",
		"puppet.conf": "[main]\nenvironmentpath = /nonexistent\n[server]\ncodedir = " + filepath.Join(dir, "code") +
			"\nenvironmentpath = $codedir/environments\nenvironment = qa\nnode_terminus = exec\nexternal_nodes = " + filepath.Join(dir, "enc.sh") + "\n",
		"junk.conf": "[main]\ncertname = a\nthis is junk\n",
	})
	if err := os.Chmod(filepath.Join(dir, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "puppet.conf")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		want     string
		unwanted string
	}{
		{"settings from puppet.conf", []string{"--config", conf}, 0, `"title":"qa from-enc"`, ""},
		{"flag wins", []string{"--config", conf, "--environment", "other"}, 0, `"title":"other"`, ""},
		{"stage profile", []string{"--config", conf, "--profile-stages"}, 0, "stage ", ""},
		{"name escaping the environmentpath", []string{"--config", conf, "--environment", "../../elsewhere"}, 1,
			"Could not find a directory environment named '../../elsewhere'", "escaped"},
		{"junk line", []string{"--config", filepath.Join(dir, "junk.conf")}, 1,
			"Could not match line this is junk (file: " + filepath.Join(dir, "junk.conf") + ", line: 3)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"compile", "web01.example.com", "--facts", "none"}, tc.args...), &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tc.code || !strings.Contains(out, tc.want) || tc.unwanted != "" && strings.Contains(out, tc.unwanted) {
				t.Errorf("exit %d, want %d with %q\nstdout: %.300s\nstderr: %s", code, tc.code, tc.want, stdout.String(), stderr.String())
			}
		})
	}
	// --profile-stages prints every stage, and only to stderr.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compile", "web01.example.com", "--facts", "none", "--config", conf, "--profile-stages"}, &stdout, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	if n := strings.Count(stderr.String(), "\nstage ") + 1; !strings.HasPrefix(stderr.String(), "stage ") || n < 3 || !strings.HasSuffix(stderr.String(), " ms\n") {
		t.Errorf("stage lines:\n%s", stderr.String())
	}
	if strings.Contains(stdout.String(), "stage ") {
		t.Error("stage timings in the catalog output")
	}
}
