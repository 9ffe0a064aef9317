package server

import (
	"bytes"
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

	"github.com/marionette-dev/marionette/puppetdb"
)

// reportAllowHTTP lets Puppet's report processor use the test PuppetDB's
// plain HTTP (it accepts only https server_urls).
const reportAllowHTTP = `require 'puppet'
require 'puppet/util/puppetdb/config'
Puppet::Util::Puppetdb::Config.singleton_class.prepend(Module.new do
  def convert_and_validate_urls(list)
    list.map { |s| u = URI(s.strip); u.path = ''; u }
  end
end)
`

// reportViaPuppet runs Puppet's puppetdb report processor on report
// files, as puppetserver does on a report PUT.
const reportViaPuppet = `require 'json'
Puppet.initialize_settings(['--confdir', ARGV[0], '--vardir', ARGV[1], '--certname', 'compiler.example.com'])
ARGV[2..].each do |f|
  report = Puppet::Transaction::Report.from_data_hash(JSON.parse(File.read(f)))
  report.extend(Puppet::Reports.report(:puppetdb))
  report.process
end
`

// sameReports are agent reports of Puppet 7.23 (made by
// ../puppetdb/testdata/reports/make.sh), each with the records it must
// produce: the report is what its name says. PuppetDB 7 (open source)
// stores corrective_change as null, from either path; the report's
// corrective_change metric and "(corrective)" messages remain.
var sameReports = []struct {
	file, host string
	shows      []string
}{
	{"agent-report.json", "agent.example.com", []string{`"noop":true`, `"status":"unchanged"`, `"resource_type":"File"`}},
	{"reports/changed.json", "agent-changed.example.com", []string{`"status":"changed"`, `"status":"success"`, `"property":"message"`, `Triggered 'refresh' from 1 event`}},
	{"reports/failed.json", "agent-failed.example.com", []string{`"status":"failed"`, `"status":"failure"`, `"status":"skipped"`, `Skipping because of failed dependencies`, `"level":"err"`}},
	{"reports/noop.json", "agent-noop.example.com", []string{`"noop":true`, `"noop_pending":true`, `"status":"noop"`, `"category":"events","name":"noop","value":2`}},
	{"reports/corrective.json", "agent-corrective.example.com", []string{`"name":"corrective_change","value":1`, `(corrective)`, `"property":"content"`}},
	{"reports/mixed.json", "agent-mixed.example.com", []string{`"noop":false`, `"noop_pending":true`, `audit change: newly-recorded value 0644`, `"containment_path":["Stage[main]","Inner","Notify[in class]"]`}},
}

// TestLiveSameReportAsPuppet sends agent reports through serve's report
// endpoint and the same reports (other certnames) through Puppet's
// report processor, and compares the records PuppetDB holds (report, its
// events, logs and metrics).
func TestLiveSameReportAsPuppet(t *testing.T) {
	_, direct := liveProxy(t)
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("no ruby")
	}
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/reports/puppetdb.rb"); err != nil {
		t.Skip("no puppet-terminus-puppetdb")
	}
	nodes := faultNodes("report", 2*len(sameReports))
	// Leave PuppetDB's active nodes as they were.
	t.Cleanup(func() {
		for _, n := range nodes {
			if p, err := puppetdb.Deactivate(n, time.Now()); err == nil {
				_, _ = direct.SubmitCommand(context.Background(), puppetdb.DeactivateNode, puppetdb.DeactivateNodeVersion, n, p)
			}
		}
	})
	f := newFixture(t, func(c *Config) { c.PuppetDB = direct })
	t.Cleanup(f.srv.Close)

	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	files := map[string]string{
		"conf/puppet.conf":   "[main]\n",
		"conf/puppetdb.conf": "[main]\nserver_urls = " + os.Getenv("MARIONETTE_PUPPETDB_URL") + "\n",
		"allow_http.rb":      reportAllowHTTP,
		"process.rb":         reportViaPuppet,
	}
	args := []string{"-r" + filepath.Join(dir, "allow_http.rb"), filepath.Join(dir, "process.rb"), conf, filepath.Join(dir, "var")}
	for i, r := range sameReports {
		ours, theirs := nodes[2*i], nodes[2*i+1]
		data, err := os.ReadFile(filepath.Join("../puppetdb/testdata", r.file))
		if err != nil {
			t.Fatal(err)
		}
		report := func(host string) []byte {
			return bytes.ReplaceAll(data, []byte(`"`+r.host+`"`), []byte(`"`+host+`"`))
		}
		cert, _ := f.pki.issue(ours)
		f.clients[ours] = f.client(&cert)
		if r := f.do(ours, "PUT", "/puppet/v3/report/"+ours+"?environment=production", bytes.NewReader(report(ours)), "application/json"); r.status != 200 {
			t.Fatalf("report PUT: %d %s", r.status, r.body)
		}
		name := fmt.Sprintf("report%d.json", i)
		files[name] = string(report(theirs))
		args = append(args, filepath.Join(dir, name))
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("ruby", args...).CombinedOutput(); err != nil {
		t.Fatalf("puppet's report processor: %v\n%s", err, out)
	}

	for i, r := range sameReports {
		ours, theirs := nodes[2*i], nodes[2*i+1]
		t.Run(r.file, func(t *testing.T) {
			a := normalizeReport(t, storedReport(t, direct, theirs), theirs)
			b := normalizeReport(t, storedReport(t, direct, ours), ours)
			if a != b {
				t.Errorf("stored reports differ:\npuppet: %s\nours:   %s", a, b)
			}
			for _, s := range append([]string{`"resource_events":`, `"metrics":`, `"logs":`}, r.shows...) {
				if !strings.Contains(a, s) {
					t.Errorf("Puppet's stored report lacks %s: %s", s, a)
				}
			}
		})
	}
}

// storedReport waits until PuppetDB holds the node's report.
func storedReport(t *testing.T, c *puppetdb.Client, node string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		body, err := c.QueryEndpoint(context.Background(), "reports", []any{"=", "certname", node})
		var rows []map[string]any
		if err == nil && json.Unmarshal(body, &rows) == nil && len(rows) == 1 {
			return rows[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no report for %s (%v)", node, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// normalizeReport drops what differs between two submissions (receive
// and producer times, producer, the hash, the certname) and sorts the
// nested lists.
func normalizeReport(t *testing.T, r map[string]any, node string) string {
	t.Helper()
	for _, k := range []string{"receive_time", "producer_timestamp", "producer", "hash", "certname"} {
		delete(r, k)
	}
	for _, k := range []string{"resource_events", "metrics", "logs"} {
		m, ok := r[k].(map[string]any)
		if !ok {
			continue
		}
		delete(m, "href")
		if list, ok := m["data"].([]any); ok {
			sort.Slice(list, func(i, j int) bool { return fmt.Sprint(list[i]) < fmt.Sprint(list[j]) })
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), node, "NODE")
}
