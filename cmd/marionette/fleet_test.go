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

// copyFile copies src to dst for a test.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFleetExampleEnvironment compiles every node of the example
// environment with --all-nodes and checks each catalog against the one real
// Puppet compiled, as TestExampleEnvironmentMatchesPuppet does one by one.
func TestFleetExampleEnvironment(t *testing.T) {
	envBase, err := filepath.Abs("../../examples/production")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := runFleet([]string{"--all-nodes", "--environmentpath", "../../examples", "--environment", "production",
		"--facts-dir", "../../examples/facts", "--out", out, "--jobs", "2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Compiled 2 nodes") || !strings.Contains(stdout.String(), "2 ok, 0 failed") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	for _, node := range []string{"db02.example.com", "web01.example.com"} {
		data, err := os.ReadFile(filepath.Join(out, node+".json"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := conformance.Normalize(data, []string{envBase}, false)
		if err != nil {
			t.Fatal(err)
		}
		wantData, err := os.ReadFile(filepath.Join("testdata", "example-"+node+".json"))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(wantData))
		dec.UseNumber()
		var want map[string]any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		for _, d := range conformance.DiffCatalogs(want, got) {
			t.Errorf("%s: %s", node, d)
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("%d files in --out, want 2 (no temporary files left)", len(entries))
	}
}

// TestFleetFailures checks that failing nodes do not stop the others, are
// listed in the summary, have no catalog written, and make the exit status 1.
func TestFleetFailures(t *testing.T) {
	dir := t.TempDir()
	factsDir := filepath.Join(dir, "facts")
	if err := os.Mkdir(factsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, node := range []string{"db02.example.com", "web01.example.com"} {
		copyFile(t, filepath.Join("../../examples/facts", node+".yaml"), filepath.Join(factsDir, node+".yaml"))
	}
	if err := os.WriteFile(filepath.Join(factsDir, "broken.example.com.yaml"), []byte("a: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The ENC moves db02 to an environment that does not exist, and
	// classifies the others.
	encPath := filepath.Join(dir, "enc.sh")
	script := "#!/bin/sh\ncase \"$1\" in\n db02*) printf 'environment: staging\\n' ;;\n *) printf 'classes:\\n  - ntp\\n' ;;\nesac\n"
	if err := os.WriteFile(encPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	nodesFile := filepath.Join(dir, "nodes.txt")
	if err := os.WriteFile(nodesFile, []byte("# fleet\nweb01.example.com\ndb02.example.com\nbroken.example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		ok       []string
		failed   []string
		wantText []string
	}{
		{"facts dir", []string{"--facts-dir", factsDir}, []string{"db02.example.com", "web01.example.com"},
			[]string{"broken.example.com"}, []string{"2 ok, 1 failed", "broken.example.com: could not read facts"}},
		{"nodes file and ENC", []string{"--nodes-from", nodesFile, "--facts-dir", factsDir, "--enc", encPath},
			[]string{"web01.example.com"}, []string{"db02.example.com", "broken.example.com"},
			[]string{"1 ok, 2 failed", "db02.example.com: Failed when searching for node db02.example.com: Could not find a directory environment named 'staging'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"--all-nodes", "--environmentpath", "../../examples", "--out", out, "--jobs", "3"}, tt.args...)
			var stdout, stderr bytes.Buffer
			if code := runFleet(args, &stdout, &stderr); code != 1 {
				t.Errorf("exit %d, want 1\nstderr:\n%s", code, stderr.String())
			}
			for _, want := range tt.wantText {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("summary lacks %q:\n%s", want, stdout.String())
				}
			}
			for _, node := range tt.ok {
				if _, err := os.Stat(filepath.Join(out, node+".json")); err != nil {
					t.Errorf("%s: %v", node, err)
				}
			}
			for _, node := range tt.failed {
				if _, err := os.Stat(filepath.Join(out, node+".json")); err == nil {
					t.Errorf("%s failed but has a catalog", node)
				}
			}
		})
	}
}

func TestFleetUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"--all-nodes", "--out", dir}, 2, "needs --facts-dir or --nodes-from"},
		{"no out", []string{"--all-nodes", "--facts-dir", "../../examples/facts"}, 2, "needs --out"},
		{"node name", []string{"--all-nodes", "web01", "--facts-dir", "x", "--out", dir}, 2, "takes no node name"},
		{"single facts", []string{"--all-nodes", "--facts", "f.yaml", "--facts-dir", "x", "--out", dir}, 2, "use --facts-dir"},
		{"negative jobs", []string{"--all-nodes", "--facts-dir", "x", "--out", dir, "--jobs", "-1"}, 2, "must not be negative"},
		{"bad flag", []string{"--all-nodes", "--nope"}, 2, "flag provided but not defined"},
		{"missing facts dir", []string{"--all-nodes", "--facts-dir", filepath.Join(dir, "none"), "--out", dir}, 2, "no such file"},
		{"empty facts dir", []string{"--all-nodes", "--facts-dir", dir, "--out", dir}, 2, "no nodes to compile"},
		{"bad environment", []string{"--all-nodes", "--facts-dir", "../../examples/facts", "--out", filepath.Join(dir, "o"),
			"--environmentpath", "../../examples", "--environment", "nosuch"}, 1, "Could not find a directory environment named 'nosuch'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runFleet(tt.args, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

// TestFleetENCEnvironment: the ENC moves a node to another environment and
// the fleet run compiles it there (it used to refuse).
func TestFleetENCEnvironment(t *testing.T) {
	dir := t.TempDir()
	prod, err := filepath.Abs("../../examples/production")
	if err != nil {
		t.Fatal(err)
	}
	envs := filepath.Join(dir, "envs")
	writeFiles(t, envs, map[string]string{
		"staging/manifests/site.pp": "node default { notify { \"staging ${trusted['certname']}\": } }\n",
		"enc.sh":                    "#!/bin/sh\ncase \"$1\" in\n db02*) printf 'environment: staging\\n' ;;\n *) printf 'environment: production\\n' ;;\nesac\n",
	})
	if err := os.Symlink(prod, filepath.Join(envs, "production")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(envs, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := runFleet([]string{"--all-nodes", "--environmentpath", envs, "--facts-dir", "../../examples/facts",
		"--enc", filepath.Join(envs, "enc.sh"), "--out", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	for node, want := range map[string]string{
		"db02.example.com":  `"environment":"staging"`,
		"web01.example.com": `"environment":"production"`,
	} {
		data, err := os.ReadFile(filepath.Join(out, node+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) || strings.Contains(node, "db02") && !strings.Contains(string(data), "staging db02.example.com") {
			t.Errorf("%s: catalog lacks %s:\n%.400s", node, want, data)
		}
	}
}
