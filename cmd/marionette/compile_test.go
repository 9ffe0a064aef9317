package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/conformance"
)

// TestExampleEnvironmentMatchesPuppet runs the README's main command on every
// node of the bundled example environment and compares the catalog with the
// one real Puppet 7.23 compiled (testdata/example-NODE.json, written by
// scripts/regen-example).
func TestExampleEnvironmentMatchesPuppet(t *testing.T) {
	factsFiles, err := filepath.Glob("../../examples/facts/*.yaml")
	if err != nil || len(factsFiles) == 0 {
		t.Fatalf("no example facts: %v", err)
	}
	envBase, err := filepath.Abs("../../examples/production")
	if err != nil {
		t.Fatal(err)
	}
	for _, facts := range factsFiles {
		node := strings.TrimSuffix(filepath.Base(facts), ".yaml")
		t.Run(node, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"compile", node, "--environmentpath", "../../examples", "--environment", "production", "--facts", facts}, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			got, err := conformance.Normalize(stdout.Bytes(), []string{envBase}, false)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join("testdata", "example-"+node+".json"))
			if err != nil {
				t.Fatal(err)
			}
			// Numbers stay json.Number, as Normalize leaves them.
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var want map[string]any
			if err := dec.Decode(&want); err != nil {
				t.Fatal(err)
			}
			for _, d := range conformance.DiffCatalogs(want, got) {
				t.Error(d)
			}
		})
	}
}

func TestCompileUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compile"}, 2, "usage: marionette compile NODE"},
		{[]string{"compile", "bad/name", "--manifest", "../../examples/production/manifests/site.pp", "--facts", "none"}, 1, "illegal characters"},
		{[]string{"compile", "n1.example.com", "--environmentpath", "../../examples", "--facts", "/nonexistent/facts.yaml"}, 1, "no such file"},
		{[]string{"nosuchcommand"}, 2, "unknown command"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
		}
		if code != 0 && stdout.Len() != 0 {
			t.Errorf("%v: a failed compile printed a catalog", tt.args)
		}
	}
}

// TestLookupExample checks `marionette lookup` on the example environment;
// the expected outputs are what `puppet lookup --render-as json` printed for
// the same keys, node and facts.
func TestLookupExample(t *testing.T) {
	tests := []struct{ key, want string }{
		{"ntp::servers", `["time1.example.com","time2.example.com"]`},
		{"profile::web::sites", `{"www":80,"shop":8443}`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run([]string{"lookup", tt.key, "--node", "web01.example.com", "--environmentpath", "../../examples",
			"--facts", "../../examples/facts/web01.example.com.yaml", "--render-as", "json"}, &stdout, &stderr)
		if code != 0 || strings.TrimSpace(stdout.String()) != tt.want {
			t.Errorf("lookup %s: exit %d, %q (stderr %q); want %s", tt.key, code, stdout.String(), stderr.String(), tt.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lookup", "no::such::key", "--node", "web01.example.com", "--environmentpath", "../../examples", "--facts", "none"}, &stdout, &stderr); code == 0 ||
		!strings.Contains(stderr.String(), "did not find a value for the name 'no::such::key'") {
		t.Errorf("missing key: exit %d, stderr %q", code, stderr.String())
	}
}

func TestNodeCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"node", "db02.example.com", "--environmentpath", "../../examples",
		"--facts", "../../examples/facts/db02.example.com.yaml"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"name: db02.example.com", "environment: production", `node_definition: __node_regexp__dbd.example.com`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestCompileENCFailureGivesNoCatalog checks end to end that a classifier
// failure (here a timeout) fails the compile with the classifier's error and
// prints no partial catalog.
func TestCompileENCFailureGivesNoCatalog(t *testing.T) {
	dir := t.TempDir()
	encPath := filepath.Join(dir, "enc.sh")
	if err := os.WriteFile(encPath, []byte("#!/bin/sh\nsleep 20\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site.pp")
	if err := os.WriteFile(site, []byte("notify { 'x': }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"compile", "web01.example.com", "--manifest", site, "--facts", "none", "--enc", encPath, "--enc-timeout", "200ms"}, &stdout, &stderr)
	if code == 0 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "timed out after 200ms") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestCompileReportsEveryValidationError: as Puppet does, each validation
// error of a file gets its own line before the summary (checked with Puppet
// 7.23 on the same manifest).
func TestCompileReportsEveryValidationError(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site.pp")
	if err := os.WriteFile(site, []byte("class A {}\n$1 = 2\nnotify{'x':}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compile", "n1", "--manifest", site, "--facts", "none"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := strings.Join([]string{
		"Error: Unacceptable name. The name 'A' is unacceptable as the name of a Host Class Definition (file: " + site + ", line: 1, column: 1)",
		"Error: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable (file: " + site + ", line: 2, column: 1)",
		"Error: Language validation logged 2 errors. Giving up",
		"Error: Could not parse for environment production: Language validation logged 2 errors. Giving up (file: " + site + ") on node n1",
	}, "\n") + "\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("a catalog was printed: %.80s", stdout.String())
	}
}

// A bad limit flag is a usage error (exit 2), as a bad --timeout is.
func TestCompileBadLimitFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--enc-timeout", "0"},
		{"--enc-timeout=-1s"},
		{"--max-resources", "0"},
		{"--enc-max-output", "-5"},
		{"--max-yaml-nodes", "many"},
		{"--max-template-size", "0"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"compile", "n1", "--manifest", "site.pp", "--facts", "none"}, args...), &stdout, &stderr)
		if code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "invalid ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}
