package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/value"
)

// TestNodeDeactivateUsage: as `puppet node deactivate`, no node is an
// error, and so is a puppetdb.conf the termini refuse.
func TestNodeDeactivateUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"node", "deactivate"}, &stdout, &stderr); code != 1 || stderr.String() != "Error: Please provide at least one node for deactivation\n" {
		t.Errorf("no node: %d %q", code, stderr.String())
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "puppetdb.conf"), []byte("[main]\nserver_urls = http://127.0.0.1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{"node", "deactivate", "a.example.com", "--confdir", dir}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "Error: PuppetDB 'server_urls' must be https, found 'http://127.0.0.1:1'") {
		t.Errorf("http puppetdb.conf: %d %q", code, stderr.String())
	}
	// A PuppetDB that does not answer: the first failure stops it.
	stderr.Reset()
	stdout.Reset()
	if code := run([]string{"node", "deactivate", "a.example.com", "b.example.com", "--puppetdb", "http://127.0.0.1:1"}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "Error: Failed to execute '/pdb/cmd/v1?") || strings.Contains(stderr.String(), "certname=b.example.com") || stdout.Len() != 0 {
		t.Errorf("PuppetDB down: %d %q %q", code, stdout.String(), stderr.String())
	}
}

// TestLiveNodeDeactivate: `node deactivate` and `ca clean --deactivate`
// leave the nodes deactivated in a real PuppetDB.
func TestLiveNodeDeactivate(t *testing.T) {
	url := livePuppetDBURL(t)
	c, err := puppetdb.NewURL(url, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().UnixNano()
	a, b := fmt.Sprintf("deact-a-%d.example.com", stamp), fmt.Sprintf("deact-b-%d.example.com", stamp)
	for _, n := range []string{a, b} {
		storeFacts(t, c, n, value.NewHash(value.String("role"), value.String("x")))
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"node", "deactivate", a, "--puppetdb", url}, &stdout, &stderr); code != 0 {
		t.Fatalf("node deactivate: %d %s", code, stderr.String())
	}
	uuid := `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
	if !regexp.MustCompile(`^Submitted 'deactivate node' for ` + regexp.QuoteMeta(a) + ` with UUID ` + uuid + "\n$").MatchString(stdout.String()) {
		t.Errorf("node deactivate printed %q", stdout.String())
	}
	waitDeactivated(t, c, a)

	// ca clean --deactivate: the certificate goes, and the node.
	cadir := filepath.Join(t.TempDir(), "ca")
	if code := run([]string{"ca", "setup", "--cadir", cadir, "--keylength", "2048", "--certname", "puppet.example.com"}, &stdout, &stderr); code != 0 {
		t.Fatalf("ca setup: %s", stderr.String())
	}
	if code := run([]string{"ca", "generate", b, "--cadir", cadir, "--ssldir", filepath.Join(t.TempDir(), "ssl"), "--keylength", "2048"}, &stdout, &stderr); code != 0 {
		t.Fatalf("ca generate: %s", stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"ca", "clean", b, "--cadir", cadir, "--deactivate", "--puppetdb", url}, &stdout, &stderr); code != 0 {
		t.Fatalf("ca clean --deactivate: %d %s", code, stderr.String())
	}
	if !regexp.MustCompile(`Cleaned files related to ` + regexp.QuoteMeta(b) + "\nSubmitted 'deactivate node' for " + regexp.QuoteMeta(b) + ` with UUID ` + uuid + "\n$").MatchString(stdout.String()) {
		t.Errorf("ca clean --deactivate printed %q", stdout.String())
	}
	waitDeactivated(t, c, b)
}

// waitDeactivated waits until PuppetDB shows node deactivated.
func waitDeactivated(t *testing.T, c *puppetdb.Client, node string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		body, err := c.QueryEndpoint(context.Background(), "nodes", []any{"and", []any{"=", "certname", node}, []any{"=", "node_state", "inactive"}})
		var rows []map[string]any
		if err == nil && json.Unmarshal(body, &rows) == nil && len(rows) == 1 && rows[0]["deactivated"] != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not deactivated: %v %s", node, err, body)
		}
	}
}
