package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/value"
)

// TestFactsFromUsage: --facts-from is checked against the other node
// flags, and facts from PuppetDB need a PuppetDB.
func TestFactsFromUsage(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site.pp")
	if err := os.WriteFile(site, []byte("notify { 'x': }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		run  func(args []string, stdout, stderr io.Writer) int
		args []string
		code int
		want string
	}{
		{runFleet, []string{"--all-nodes", "--manifest", site, "--out", dir}, 2, "--all-nodes needs --facts-dir or --nodes-from (or --facts-from puppetdb)"},
		{runFleet, []string{"--all-nodes", "--manifest", site, "--out", dir, "--facts-from", "yaml"}, 2, `--facts-from takes puppetdb, not "yaml"`},
		{runFleet, []string{"--all-nodes", "--manifest", site, "--out", dir, "--facts-from", "puppetdb", "--facts-dir", dir}, 2, "--facts-dir and --facts-from puppetdb both say"},
		{runFleet, []string{"--all-nodes", "--manifest", site, "--out", dir, "--facts-from", "puppetdb"}, 2, "--facts-from puppetdb needs a PuppetDB: give --puppetdb URL"},
		{runDiffAll, []string{"--all-nodes", "--from", dir, "--to", dir, "--facts-from", "puppetdb"}, 2, "--facts-from puppetdb needs a PuppetDB"},
		{runCompile, []string{"n1", "--manifest", site, "--facts-from", "puppetdb"}, 2, "--facts-from needs --all-nodes"},
		{runCompile, []string{"n1", "--manifest", site, "--facts", "puppetdb"}, 1, "--facts puppetdb needs a PuppetDB"},
		{runNode, []string{"n1", "--manifest", site, "--facts", "puppetdb"}, 1, "--facts puppetdb needs a PuppetDB"},
	} {
		var stdout, stderr bytes.Buffer
		code := c.run(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// livePuppetDBURL is the PuppetDB scripts/puppetdb started; without one
// the test is skipped, unless CI requires it.
func livePuppetDBURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("MARIONETTE_PUPPETDB_URL")
	if u == "" {
		if os.Getenv("CI") == "true" && os.Getenv("MARIONETTE_REQUIRE_PUPPETDB") == "1" {
			t.Fatal("MARIONETTE_PUPPETDB_URL is not set but CI requires PuppetDB (run scripts/puppetdb up)")
		}
		t.Skip("no PuppetDB: export MARIONETTE_PUPPETDB_URL=$(scripts/puppetdb up)")
	}
	return u
}

// storeFacts replaces a node's facts in PuppetDB and waits until they can
// be read back.
func storeFacts(t *testing.T, c *puppetdb.Client, certname string, facts *value.Hash) {
	t.Helper()
	ctx := context.Background()
	payload, err := puppetdb.Facts(certname, "production", "marionette.test", time.Now(), facts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(ctx, puppetdb.ReplaceFacts, puppetdb.ReplaceFactsVersion, certname, payload); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if got, err := c.NodeFacts(ctx, certname); err == nil {
			if v, _ := got.GetString("role"); v != nil {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("facts of %s never reached PuppetDB", certname)
		}
	}
}

// TestFleetFactsFromLivePuppetDB: compile --all-nodes, diff --all-nodes,
// compile, node and lookup read nodes and facts from a real PuppetDB.
func TestFleetFactsFromLivePuppetDB(t *testing.T) {
	url := livePuppetDBURL(t)
	c, err := puppetdb.NewURL(url, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().UnixNano()
	nodes := []string{fmt.Sprintf("fa-%d.example.com", stamp), fmt.Sprintf("fb-%d.example.com", stamp)}
	for i, n := range nodes {
		storeFacts(t, c, n, value.NewHash(value.String("role"), value.String(fmt.Sprintf("role%d", i)), value.String("cpus"), value.Integer(i+2)))
	}
	dir := t.TempDir()
	envA, envB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for env, body := range map[string]string{
		envA: "node default { notify { \"${facts['role']} ${facts['cpus']}\": } }\n",
		envB: "node default { notify { \"${facts['role']} ${facts['cpus']}\": } if $facts['cpus'] == 3 { notify { 'three': } } }\n",
	} {
		if err := os.MkdirAll(filepath.Join(env, "manifests"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(env, "manifests", "site.pp"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(envA, "data.yaml"), []byte("role_of: \"%{facts.role}\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(envA, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: common\n    path: ../data.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "nodes.txt")
	if err := os.WriteFile(list, []byte(strings.Join(nodes, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(envA, "manifests", "site.pp")

	// Every active node: ours among them, each with its own facts.
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := runFleet([]string{"--all-nodes", "--facts-from", "puppetdb", "--puppetdb", url, "--manifest", site, "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for i, n := range nodes {
		data, err := os.ReadFile(filepath.Join(out, n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`"title":"role%d %d"`, i, i+2); !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %s:\n%s", n, want, data)
		}
	}

	// A node list with facts from PuppetDB compiles just those nodes.
	stdout.Reset()
	stderr.Reset()
	out2 := filepath.Join(dir, "out2")
	if code := runFleet([]string{"--all-nodes", "--nodes-from", list, "--facts-from", "puppetdb", "--puppetdb", url, "--manifest", site, "--out", out2}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if entries, _ := os.ReadDir(out2); len(entries) != 2 {
		t.Errorf("--nodes-from compiled %d nodes, want 2", len(entries))
	}

	// diff --all-nodes: only the node with three CPUs differs.
	stdout.Reset()
	stderr.Reset()
	code := runDiffAll([]string{"--all-nodes", "--from", envA, "--to", envB, "--nodes-from", list, "--facts-from", "puppetdb", "--puppetdb", url}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), nodes[1]) || !strings.Contains(stdout.String(), "Notify[three]") {
		t.Errorf("diff: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}

	// One node: compile, node and lookup with --facts puppetdb.
	stdout.Reset()
	stderr.Reset()
	if code := runCompile([]string{nodes[0], "--facts", "puppetdb", "--puppetdb", url, "--manifest", site}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "role0 2") {
		t.Errorf("compile: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := runNode([]string{nodes[0], "--facts", "puppetdb", "--puppetdb", url, "--manifest", site}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "node_definition: default") {
		t.Errorf("node: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := runLookup([]string{"role_of", "--node", nodes[1], "--facts", "puppetdb", "--puppetdb", url, "--environmentpath", dir, "--environment", "a"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "role1") {
		t.Errorf("lookup: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := runCompile([]string{"never-" + nodes[0], "--facts", "puppetdb", "--puppetdb", url, "--manifest", site}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "No facts available for target node: never-") {
		t.Errorf("unknown node: exit %d\n%s", code, stderr.String())
	}
}

// allowHTTP lets the termini use the test PuppetDB's plain HTTP: they only
// accept https server_urls.
const allowHTTP = `require 'puppet'
require 'puppet/util/puppetdb/config'
Puppet::Util::Puppetdb::Config.singleton_class.prepend(Module.new do
  def convert_and_validate_urls(list)
    list.map { |s| u = URI(s.strip); u.path = ''; u }
  end
end)
`

// TestFactsPuppetDBAsPuppet: a node compiled with --facts puppetdb sees
// the facts `puppet catalog compile --facts_terminus puppetdb` sees (names,
// values, types, the stored trusted fact). Not their order: Puppet takes
// PuppetDB's, which PuppetDB does not fix (see puppetdb.terminusFacts).
func TestFactsPuppetDBAsPuppet(t *testing.T) {
	url := livePuppetDBURL(t)
	if _, err := exec.LookPath("puppet"); err != nil {
		t.Skip("no puppet")
	}
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/indirector/facts/puppetdb.rb"); err != nil {
		t.Skip("no puppet-terminus-puppetdb")
	}
	c, err := puppetdb.NewURL(url, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	node := fmt.Sprintf("pf-%d.example.com", time.Now().UnixNano())
	storeFacts(t, c, node, value.NewHash(
		value.String("role"), value.String("db"),
		value.String("memory"), value.NewHash(value.String("gb"), value.Float(1.5), value.String("mb"), value.Integer(1536)),
		value.String("virtual"), value.Boolean(false),
		value.String("disks"), value.Array{value.String("sda"), value.String("sdb")},
	))
	dir := t.TempDir()
	site := filepath.Join(dir, "conf/code/environments/production/manifests/site.pp")
	files := map[string]string{
		"conf/code/environments/production/manifests/site.pp": `node default { notify { "facts ${facts.keys.sort.map |$k| { "${k}=${facts[$k]}" }.join(', ')}": } notify { "types ${facts['memory']['gb'].type} ${facts['memory']['mb'].type} ${facts['virtual'].type}": } }` + "\n",
		"conf/puppet.conf":   fmt.Sprintf("[main]\nconfdir = %[1]s/conf\ncodedir = %[1]s/conf/code\nvardir = %[1]s/var\nlogdir = %[1]s/log\nrundir = %[1]s/run\nssldir = %[1]s/ssl\n", dir),
		"conf/puppetdb.conf": "[main]\nserver_urls = " + url + "\n",
		"allow_http.rb":      allowHTTP,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("puppet", "catalog", "compile", node, "--confdir", filepath.Join(dir, "conf"), "--facts_terminus", "puppetdb", "--render-as", "json")
	cmd.Env = append(os.Environ(), "RUBYOPT=-r"+filepath.Join(dir, "allow_http.rb"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("puppet: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	if code := runCompile([]string{node, "--facts", "puppetdb", "--puppetdb", url, "--manifest", site}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	titles := func(data []byte) []string {
		var cat struct {
			Resources []struct{ Type, Title string }
		}
		if err := json.Unmarshal(data[bytes.IndexByte(data, '{'):], &cat); err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		var out []string
		for _, r := range cat.Resources {
			if r.Type == "Notify" {
				out = append(out, r.Title)
			}
		}
		return out
	}
	want, got := titles(out), titles(stdout.Bytes())
	t.Logf("Puppet: %q", want)
	if len(want) != 2 || strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("marionette:\n%s\nPuppet:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
