package puppetdb

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestReportPayload: the agent report's fields land where store report v8
// wants them.
func TestReportPayload(t *testing.T) {
	data, err := os.ReadFile("testdata/agent-report.json")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	payload, err := Report(data, "compiler.example.com", at, false)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{
		"certname": "agent.example.com", "producer": "compiler.example.com", "producer_timestamp": "2026-01-02T03:04:05.006Z",
		"configuration_version": "1795564319", "environment": "production", "noop": true, "status": "unchanged",
		"report_format": 12.0, "puppet_version": "7.23.0", "start_time": "2026-11-24T23:52:00.793+00:00",
	} {
		if !reflect.DeepEqual(p[k], want) {
			t.Errorf("%s = %#v, want %#v", k, p[k], want)
		}
	}
	if p["catalog_uuid"] != "551c9137-5b52-4b29-a366-35be7975f2b3" || p["transaction_uuid"] != "b5f9becb-51bf-4db6-8e23-658755b816e0" {
		t.Errorf("catalog_uuid %v transaction_uuid %v", p["catalog_uuid"], p["transaction_uuid"])
	}
	// Without a catalog_uuid the transaction's stands in.
	var m map[string]any
	json.Unmarshal(data, &m)
	delete(m, "catalog_uuid")
	noCat, _ := json.Marshal(m)
	if pl, err := Report(noCat, "c", at, false); err != nil || !strings.Contains(string(pl), `"catalog_uuid":"b5f9becb-51bf-4db6-8e23-658755b816e0"`) {
		t.Errorf("catalog_uuid default: %v %s", err, pl)
	}
	res := p["resources"].([]any)
	if len(res) != 2 {
		t.Fatalf("resources = %v (only the changed ones)", res)
	}
	ev := res[0].(map[string]any)["events"].([]any)[0].(map[string]any)
	if ev["status"] != "noop" || ev["old_value"] != "absent" {
		t.Errorf("event = %v", ev)
	}
	all, _ := Report(data, "c", at, true)
	var pa map[string]any
	json.Unmarshal(all, &pa)
	if n := len(pa["resources"].([]any)); n <= 2 {
		t.Errorf("include_unchanged_resources kept %d resources", n)
	}
	for _, bad := range []string{`{`, `{"host":"a","time":"2026-01-01T00:00:00Z"}`, `{"host":"a","environment":"p","time":"yesterday"}`} {
		if _, err := Report([]byte(bad), "c", at, false); err == nil {
			t.Errorf("Report(%s) accepted", bad)
		}
	}
}

// TestLiveSameReportAsPuppet stores the same agent report through Puppet's
// puppetdb report processor and through Report, and compares what
// PuppetDB holds.
func TestLiveSameReportAsPuppet(t *testing.T) {
	c := livePuppetDB(t)
	if _, err := exec.LookPath("puppet"); err != nil {
		t.Skip("no puppet")
	}
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/reports/puppetdb.rb"); err != nil {
		t.Skip("no puppet-terminus-puppetdb")
	}
	data, err := os.ReadFile("testdata/agent-report.json")
	if err != nil {
		t.Fatal(err)
	}
	puppetNode, ourNode := uniqueCertname("rep-puppet"), uniqueCertname("rep-ours")
	dir := t.TempDir()
	withHost := func(node string) []byte {
		var m map[string]any
		json.Unmarshal(data, &m)
		m["host"] = node
		b, _ := json.Marshal(m)
		return b
	}
	os.WriteFile(filepath.Join(dir, "report.json"), withHost(puppetNode), 0o644)
	os.MkdirAll(filepath.Join(dir, "conf"), 0o755)
	os.WriteFile(filepath.Join(dir, "conf", "puppetdb.conf"), []byte("[main]\nserver_urls = "+os.Getenv("MARIONETTE_PUPPETDB_URL")+"\n"), 0o644)
	script := `require 'puppet'
require 'puppet/util/puppetdb/config'
class Puppet::Util::Puppetdb::Config
  def self.convert_and_validate_urls(list)
    list.map { |s| u = URI(s.strip); u.path = ''; u }
  end
end
Puppet.initialize_settings(['--confdir', ARGV[0] + '/conf', '--vardir', ARGV[0] + '/var', '--certname', 'compiler.example.com'])
r = Puppet::Transaction::Report.from_data_hash(JSON.parse(File.read(ARGV[0] + '/report.json')))
r.extend(Puppet::Reports.report(:puppetdb))
r.process
`
	os.WriteFile(filepath.Join(dir, "submit.rb"), []byte(script), 0o644)
	if out, err := exec.Command("ruby", filepath.Join(dir, "submit.rb"), dir).CombinedOutput(); err != nil {
		t.Fatalf("ruby: %v\n%s", err, out)
	}
	payload, err := Report(withHost(ourNode), "compiler.example.com", time.Now(), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(context.Background(), StoreReport, StoreReportVersion, ourNode, payload); err != nil {
		t.Fatal(err)
	}
	get := func(node string) string {
		rows := waitFor(t, c, "reports", []any{"=", "certname", node}, func(r []any) bool { return len(r) == 1 })
		return normalizeReport(rows[0].(map[string]any))
	}
	if a, b := get(puppetNode), get(ourNode); a != b {
		t.Errorf("stored reports differ:\npuppet: %s\nours:   %s", a, b)
	}
}

// normalizeReport drops what differs between two stores of one report:
// the node, hashes, hrefs and receive times; lists are sorted.
func normalizeReport(r map[string]any) string {
	for _, k := range []string{"certname", "hash", "receive_time", "producer_timestamp", "producer"} {
		delete(r, k)
	}
	for _, k := range []string{"metrics", "logs", "resource_events"} {
		if m, ok := r[k].(map[string]any); ok {
			var parts []string
			rows, _ := m["data"].([]any)
			for _, row := range rows {
				if rm, ok := row.(map[string]any); ok {
					delete(rm, "certname")
					delete(rm, "report")
				}
				b, _ := json.Marshal(row)
				parts = append(parts, string(b))
			}
			sort.Strings(parts)
			r[k] = strings.Join(parts, "\n")
		}
	}
	b, _ := json.MarshalIndent(r, "", " ")
	return string(b)
}
