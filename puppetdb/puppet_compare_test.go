package puppetdb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

const compareManifest = `node default {
  file { '/etc/motd': content => 'hi', require => Package['ntp'], tag => ['b', 'a'] }
  package { 'ntp': name => 'ntpsec', notify => Service['ntp'] }
  service { 'ntp': ensure => running }
  user { 'admin': uid => 1000, groups => ['wheel', 'adm'] }
  @@file { "/srv/exported/${facts['networking']['fqdn']}": content => '10.0.0.1', tag => ['Monitoring'] }
  @@mon::check { "ping ${facts['networking']['fqdn']}": port => 8080 }
  class { 'mon': }
}
class mon {
  notify { 'hello': message => 'world', before => File['/etc/motd'] }
  file { 'conf': path => '/etc/mon.conf', subscribe => Notify['hello'] }
}
define mon::check(Integer $port) { }
`

// allowHTTP lets the termini use the test PuppetDB's plain HTTP: they only
// accept https server_urls.
const allowHTTP = `require 'puppet'
require 'puppet/util/puppetdb/config'
# Prepended, so that it survives Puppet's autoloader loading config.rb again.
Puppet::Util::Puppetdb::Config.singleton_class.prepend(Module.new do
  def convert_and_validate_urls(list)
    list.map { |s| u = URI(s.strip); u.path = ''; u }
  end
end)
`

// trustedRemote makes `puppet catalog compile` compile with $trusted as
// for an agent whose certificate has extensions (it has local trusted
// data otherwise). The facts terminus asks without a node, so the
// certname comes from the environment, as an agent's certificate gives it.
const trustedRemote = `Puppet::Context::TrustedInformation.singleton_class.prepend(Module.new do
  def local(_node)
    new('remote', ENV.fetch('TEST_CERTNAME'), {'pp_role' => 'web', 'pp_datacenter' => 'dc1', '1.3.6.1.4.1.34380.1.2.1' => 'custom'})
  end
end)
`

// sameRecordsCase is one node of TestLiveSameRecordsAsPuppet.
type sameRecordsCase struct {
	name     string
	manifest string
	// conf is added to puppet.conf's [main]; files are written under the
	// case's directory ({{dir}} replaced by it).
	conf  string
	files map[string]string
	// remote compiles with trustedRemote's $trusted.
	remote bool
	// shows are in the records Puppet stored: the case is what it says.
	shows []string
}

var sameRecordsCases = []sameRecordsCase{
	{name: "exported", manifest: compareManifest, shows: []string{`"exported":true,"file":`, `"type":"Mon::Check"`}},
	{name: "defined", manifest: `define app::vhost(String $docroot, Integer $port = 80, Array[String] $aliases = []) {
  file { "/etc/vhosts/${title}.conf": content => "${docroot}:${port} ${aliases}", tag => ['vhost'] }
  app::listen { "${title}-${port}": port => $port, before => File["/etc/vhosts/${title}.conf"] }
}
define app::listen(Integer $port) { notify { "listen ${port} for ${title}": } }
node default {
  app::vhost { 'www': docroot => '/srv/www', aliases => ['a', 'b'] }
  app::vhost { 'api': docroot => '/srv/api', port => 8443, require => App::Vhost['www'] }
  @@app::vhost { "exported-${facts['networking']['fqdn']}": docroot => '/srv/x', tag => ['exp'] }
  App::Listen <| port == 8443 |> { tag => 'tls' }
}
`, shows: []string{`"tls"`, `"type":"App::Listen"`, `"type":"App::Vhost"`}},
	{name: "sensitive", manifest: `node default {
  file { '/etc/secret': content => Sensitive('s3cret'), mode => '0600' }
  user { 'svc': password => Sensitive('$6$hash'), uid => 501 }
  notify { 'later': message => Deferred('join', [['a', 'b'], '-']) }
  exec { 'env': command => '/bin/true', environment => [Deferred('sprintf', ['A=%s', 'b'])] }
  @@file { "/srv/secret-${facts['networking']['fqdn']}": content => Sensitive('exported secret') }
}
`, shows: []string{`"title":"later"`, `"title":"/etc/secret"`}},
	{name: "enc", conf: "node_terminus = exec\nexternal_nodes = {{dir}}/enc.sh\n", files: map[string]string{
		"enc.sh": "#!/bin/sh\ncat <<'YAML'\n---\nclasses:\n  base:\n    level: 3\n  web:\nparameters:\n  role: web\n  datacenter: dc1\nenvironment: production\nYAML\n",
	}, manifest: `class base(Integer $level) { notify { "base ${level} ${role} ${datacenter}": } }
class web { file { '/srv/web': ensure => directory, require => Class['base'] } }
`, shows: []string{`"title":"base 3 web dc1"`, `"title":"Web"`}},
	{name: "trusted", remote: true, manifest: `node default {
  notify { "role ${trusted['extensions']['pp_role']} in ${trusted['extensions']['pp_datacenter']}": }
  file { "/etc/host-${trusted['hostname']}": content => "${trusted['domain']} ${trusted['authenticated']} ${trusted['extensions']['1.3.6.1.4.1.34380.1.2.1']}" }
  @@file { "/srv/hosts/${trusted['certname']}": content => '10.0.0.2', tag => [$trusted['extensions']['pp_role']] }
}
`, shows: []string{`"title":"role web in dc1"`, `"pp_role":"web"`}},
}

// TestLiveSameRecordsAsPuppet compiles nodes of different shapes with
// real Puppet and the puppetdb termini (storeconfigs), then with
// marionette submitting through this package, and compares the facts and
// catalog PuppetDB stored each time.
func TestLiveSameRecordsAsPuppet(t *testing.T) {
	// Skipped without the pieces, unless CI requires PuppetDB.
	skip := t.Skip
	if os.Getenv("CI") == "true" && os.Getenv("MARIONETTE_REQUIRE_PUPPETDB") == "1" {
		skip = t.Fatal
	}
	u := os.Getenv("MARIONETTE_PUPPETDB_URL")
	if u == "" {
		skip("no PuppetDB: export MARIONETTE_PUPPETDB_URL=$(scripts/puppetdb up)")
	}
	if _, err := exec.LookPath("puppet"); err != nil {
		skip("no puppet")
	}
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/indirector/catalog/puppetdb.rb"); err != nil {
		skip("no puppet-terminus-puppetdb")
	}
	c, err := puppetdb.NewURL(u, puppetdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range sameRecordsCases {
		t.Run(tc.name, func(t *testing.T) { sameRecords(t, c, u, tc) })
	}
}

func sameRecords(t *testing.T, c *puppetdb.Client, u string, tc sameRecordsCase) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	node := fmt.Sprintf("cmp-%s-%d.example.com", tc.name, time.Now().UnixNano())
	files := map[string]string{
		"conf/code/environments/production/manifests/site.pp": tc.manifest,
		"conf/puppet.conf": fmt.Sprintf("[main]\nconfdir = %[1]s/conf\ncodedir = %[1]s/conf/code\nvardir = %[1]s/var\n"+
			"logdir = %[1]s/log\nrundir = %[1]s/run\nssldir = %[1]s/ssl\nyamldir = %[1]s/yaml\n"+
			"storeconfigs = true\nstoreconfigs_backend = puppetdb\ncertname = compiler.example.com\n", dir) + strings.ReplaceAll(tc.conf, "{{dir}}", dir),
		"conf/puppetdb.conf": "[main]\nserver_urls = " + u + "\n",
		"yaml/facts/" + node + ".yaml": "--- !ruby/object:Puppet::Node::Facts\nname: " + node + "\nvalues:\n" +
			"  networking:\n    fqdn: " + node + "\n  os:\n    family: Debian\n  clientcert: " + node + "\n",
		"allow_http.rb": allowHTTP,
	}
	if tc.remote {
		files["allow_http.rb"] += trustedRemote
	}
	for name, text := range tc.files {
		files[name] = text
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

	cmd := exec.Command("puppet", "catalog", "compile", node, "--confdir", conf, "--facts_terminus", "yaml", "--render-as", "json")
	cmd.Env = append(os.Environ(), "RUBYOPT=-r"+filepath.Join(dir, "allow_http.rb"), "TEST_CERTNAME="+node)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("puppet: %v\n%s", err, out)
	}
	puppetCat := waitCatalog(t, c, node, "")
	puppetFacts := factset(t, c, node)

	// The same node through marionette.
	st, err := site.Open(site.Options{Overrides: site.Overrides{Config: filepath.Join(conf, "puppet.conf"), PuppetDB: u,
		EnvironmentPath: filepath.Join(conf, "code/environments")}})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := st.Facts(context.Background(), site.FactsFlag(filepath.Join(dir, "yaml/facts", node+".yaml")), node)
	if err != nil {
		t.Fatal(err)
	}
	env, req, err := st.Prepare(context.Background(), node, facts)
	if err != nil {
		t.Fatal(err)
	}
	req.Store = c
	// `puppet catalog compile` runs with local trusted data.
	trusted := value.NewHash(value.String("domain"), value.Undef, value.String("certname"), value.Undef,
		value.String("external"), value.EmptyHash, value.String("hostname"), value.Undef,
		value.String("extensions"), value.EmptyHash, value.String("authenticated"), value.String("local"))
	if tc.remote {
		req.Trusted = &compiler.TrustedInfo{Authenticated: "remote", Certname: node, Extensions: value.NewHash(
			value.String("pp_role"), value.String("web"), value.String("pp_datacenter"), value.String("dc1"),
			value.String("1.3.6.1.4.1.34380.1.2.1"), value.String("custom"))}
		trusted = compiler.TrustedHash(req.Trusted)
	}
	res, err := compiler.Compile(context.Background(), env, req)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	fp, err := puppetdb.Facts(node, "production", "compiler.example.com", now, req.Facts, trusted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(context.Background(), puppetdb.ReplaceFacts, puppetdb.ReplaceFactsVersion, node, fp); err != nil {
		t.Fatal(err)
	}
	cp, err := puppetdb.Catalog(res.StoreCatalog, puppetdb.CatalogInfo{Producer: "compiler.example.com", At: now, KeyAttributes: puppetdb.TypeKeys(env.Types)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(context.Background(), puppetdb.ReplaceCatalog, puppetdb.ReplaceCatalogVersion, node, cp); err != nil {
		t.Fatal(err)
	}
	ourCat := waitCatalog(t, c, node, res.Catalog.UUID)
	ourFacts := factset(t, c, node)

	// Puppet stores the catalog before it filters out exported resources,
	// as StoreCatalog holds it.
	dropExported := false
	pc, pf := normalizeCatalog(puppetCat, dropExported), normalizeFacts(puppetFacts)
	if a, b := pc, normalizeCatalog(ourCat, dropExported); a != b {
		t.Errorf("stored catalogs differ:\n%s", lineDiff(a, b))
	}
	if a, b := pf, normalizeFacts(ourFacts); a != b {
		t.Errorf("stored facts differ:\n%s", lineDiff(a, b))
	}
	for _, s := range tc.shows {
		if !strings.Contains(pc+pf, s) {
			t.Errorf("Puppet's records lack %s:\n%s\n%s", s, pc, pf)
		}
	}
	deactivate(t, c, node)
}

// deactivate leaves PuppetDB's active nodes as they were.
func deactivate(t *testing.T, c *puppetdb.Client, node string) {
	p, err := puppetdb.Deactivate(node, time.Now())
	if err == nil {
		_, err = c.SubmitCommand(context.Background(), puppetdb.DeactivateNode, puppetdb.DeactivateNodeVersion, node, p)
	}
	if err != nil {
		t.Errorf("deactivate %s: %v", node, err)
	}
}

// waitCatalog waits until PuppetDB holds the node's catalog (with the
// given catalog_uuid, when not "").
func waitCatalog(t *testing.T, c *puppetdb.Client, node, uuid string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		body, err := c.QueryEndpoint(context.Background(), "catalogs", []any{"=", "certname", node})
		var rows []map[string]any
		if err == nil && json.Unmarshal(body, &rows) == nil && len(rows) == 1 && (uuid == "" || rows[0]["catalog_uuid"] == uuid) {
			return rows[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no catalog for %s (%v)", node, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func factset(t *testing.T, c *puppetdb.Client, node string) map[string]any {
	t.Helper()
	body, err := c.QueryEndpoint(context.Background(), "factsets", []any{"=", "certname", node})
	var rows []map[string]any
	if err != nil || json.Unmarshal(body, &rows) != nil || len(rows) != 1 {
		t.Fatalf("factset of %s: %v %s", node, err, body)
	}
	return rows[0]
}

// normalizeCatalog drops what differs between any two runs (timestamps,
// uuids, version, the catalog hash) and sorts resources and edges.
func normalizeCatalog(cat map[string]any, dropExported bool) string {
	var res, edges []string
	exported := map[string]bool{}
	for _, r := range cat["resources"].(map[string]any)["data"].([]any) {
		m := r.(map[string]any)
		if dropExported && m["exported"] == true {
			exported[fmt.Sprint(m["type"], "[", m["title"], "]")] = true
			continue
		}
		b, _ := json.Marshal(r)
		res = append(res, string(b))
	}
	for _, e := range cat["edges"].(map[string]any)["data"].([]any) {
		m := e.(map[string]any)
		if exported[fmt.Sprint(m["target_type"], "[", m["target_title"], "]")] {
			continue
		}
		b, _ := json.Marshal(e)
		edges = append(edges, string(b))
	}
	sort.Strings(res)
	sort.Strings(edges)
	return fmt.Sprintf("env=%v producer=%v code_id=%v job_id=%v\nresources:\n%s\nedges:\n%s", cat["environment"], cat["producer"],
		cat["code_id"], cat["job_id"], strings.Join(res, "\n"), strings.Join(edges, "\n"))
}

func normalizeFacts(fs map[string]any) string {
	var facts []string
	for _, f := range fs["facts"].(map[string]any)["data"].([]any) {
		b, _ := json.Marshal(f)
		facts = append(facts, string(b))
	}
	sort.Strings(facts)
	return fmt.Sprintf("env=%v producer=%v\n%s", fs["environment"], fs["producer"], strings.Join(facts, "\n"))
}

// lineDiff lists the lines only Puppet's records have (-) and those only
// marionette's have (+).
func lineDiff(puppet, ours string) string {
	count := map[string]int{}
	for _, l := range strings.Split(puppet, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(ours, "\n") {
		count[l]--
	}
	var out []string
	for l, n := range count {
		switch {
		case n > 0:
			out = append(out, "- "+l)
		case n < 0:
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
