package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/marionette-dev/marionette/puppetconf"
)

// TestReportYAML: a report as Puppet 7.23's store processor writes it
// (testdata/report12.yaml is Puppet's to_yaml of the report whose
// to_data_hash is report12.json).
func TestReportYAML(t *testing.T) {
	in, err := os.ReadFile("testdata/report12.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/report12.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReportYAML(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d: %q, want %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}

// TestReportProcessors: store writes YAML, http POSTs it, log logs each
// line; an unknown processor refuses to start.
func TestReportProcessors(t *testing.T) {
	var mu sync.Mutex
	var posted []string
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, r.Header.Get("Content-Type")+" "+string(b))
		mu.Unlock()
	}))
	defer sink.Close()
	report, err := os.ReadFile("testdata/report12.json")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	load := func(reports string) *puppetconf.Settings {
		settings := f.srv.settings.Load()
		flags := map[string]string{"reports": reports, "reporturl": sink.URL + "/upload"}
		for _, k := range []string{puppetconf.Codedir, puppetconf.Confdir, puppetconf.EnvironmentPath, puppetconf.Vardir, puppetconf.NodeTerminus, puppetconf.ExternalNodes, puppetconf.BaseModulePath} {
			flags[k] = settings.Get(k)
		}
		s, err := puppetconf.Load(puppetconf.Options{Home: f.dir, Hostname: "server", Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cfg := f.srv.cfg
	cfg.Settings = load("store,http,log")
	cfg.Site = nil
	cfg.Logger = f.srv.log
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.reports = srv.reports
	resp := f.do("web01.example.com", "PUT", "/puppet/v3/report/web01.example.com?environment=production", strings.NewReader(string(report)), "application/json")
	if resp.status != 200 || resp.body != `["store","http","log"]` {
		t.Fatalf("%d %s", resp.status, resp.body)
	}
	files, _ := filepath.Glob(filepath.Join(f.srv.reportDir, "web01.example.com", "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("stored reports %v", files)
	}
	stored, _ := os.ReadFile(files[0])
	if !strings.HasPrefix(string(stored), "--- !ruby/object:Puppet::Transaction::Report\nhost: web01.example.com\n") {
		t.Errorf("stored report %.200s", stored)
	}
	mu.Lock()
	if len(posted) != 1 || !strings.HasPrefix(posted[0], "application/x-yaml --- !ruby/object:Puppet::Transaction::Report\n") {
		t.Errorf("posted %v", posted)
	}
	mu.Unlock()
	if !strings.Contains(f.logs.String(), `Puppet: Applied catalog`) {
		t.Errorf("log processor: %s", f.logs.String())
	}
	cfg.Settings = load("store,tagmail")
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), `the report processor "tagmail" is not supported`) {
		t.Errorf("an unknown processor: %v", err)
	}
}
