package node

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

func TestReadFacts(t *testing.T) {
	files := fstest.MapFS{
		"f/plain.yaml":  {Data: []byte("os: linux\nn: 1\n")},
		"f/named.json":  {Data: []byte(`{"name": "web", "values": {"os": "bsd"}}`)},
		"f/empty.yaml":  {Data: []byte("")},
		"f/list.yaml":   {Data: []byte("- a\n")},
		"f/broken.json": {Data: []byte("{")},
		"f/values.yaml": {Data: []byte("values: {os: x}\n")},
		// As Puppet 7.23's yaml facts terminus writes them (yaml/facts/).
		"f/cached.yaml": {Data: []byte("--- !ruby/object:Puppet::Node::Facts\nname: web01\nvalues:\n  os: debian\n  :sym: 1\ntimestamp: '2026-11-24T21:35:21.749999476+00:00'\n")},
	}
	for _, tc := range []struct{ path, os, err string }{
		{"/f/plain.yaml", "linux", ""},
		{"/f/named.json", "bsd", ""},
		{"/f/empty.yaml", "", ""},
		{"", "", ""},
		{"/f/values.yaml", "", ""},
		{"/f/cached.yaml", "debian", ""},
		{"/f/list.yaml", "", "must hold a hash of facts"},
		{"/f/broken.json", "", "could not read facts"},
		{"/f/nosuch.yaml", "", "not exist"},
	} {
		h, err := ReadFacts(files, tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.path, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		got := ""
		if v, ok := h.GetString("os"); ok {
			got = string(v.(value.String))
		}
		if got != tc.os {
			t.Errorf("%s: os = %q, want %q", tc.path, got, tc.os)
		}
	}
}

func writeENC(t *testing.T, dir, answer string) string {
	t.Helper()
	p := filepath.Join(dir, "enc.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\ncat <<'EOF'\n"+answer+"\nEOF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestResolver: classification with and without an ENC, including the
// ENC moving the node to another environment.
func TestResolver(t *testing.T) {
	dir := t.TempDir()
	for _, e := range []string{"production", "staging"} {
		p := filepath.Join(dir, "environments", e, "manifests", "site.pp")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("notify { '"+e+"': }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, enc, flagEnv string
		wantEnv, wantErr   string
		classes            int
	}{
		{name: "plain", wantEnv: "production"},
		{name: "plain other environment", flagEnv: "staging", wantEnv: "staging"},
		{name: "enc same environment", enc: "classes: [a, b]\nenvironment: production", wantEnv: "production", classes: 2},
		{name: "enc moves node", enc: "classes: [a]\nenvironment: staging", wantEnv: "staging", classes: 1},
		{name: "enc names missing environment", enc: "environment: nosuch",
			wantErr: "Failed when searching for node web01: Could not find a directory environment named 'nosuch'"},
		{name: "enc names invalid environment", enc: "environment: ../staging",
			wantErr: "Could not find a directory environment named '../staging'"},
		{name: "configured environment missing", flagEnv: "gone", enc: "environment: staging",
			wantErr: "Could not find a directory environment named 'gone'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			flags := map[string]string{puppetconf.EnvironmentPath: filepath.Join(dir, "environments")}
			if tc.flagEnv != "" {
				flags[puppetconf.Environment] = tc.flagEnv
			}
			if tc.enc != "" {
				flags[puppetconf.NodeTerminus] = "exec"
				flags[puppetconf.ExternalNodes] = writeENC(t, t.TempDir(), tc.enc)
			}
			s, err := puppetconf.Load(puppetconf.Options{Root: true, Flags: flags})
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewResolver(environment.New(s, environment.Options{}), 0)
			if err != nil {
				t.Fatal(err)
			}
			env, req, err := r.Prepare(context.Background(), "web01", value.EmptyHash)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if env.Name != tc.wantEnv || len(req.Classes) != tc.classes || req.Node != "web01" || req.FuzzyNodeMatching {
				t.Errorf("env %s, request %+v", env.Name, req)
			}
		})
	}
}
