package server

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
)

// TestMetrics: /metrics counts requests and compiles by outcome, times
// compiles in a cumulative histogram, and is valid Prometheus text.
func TestMetrics(t *testing.T) {
	f := newFixture(t)
	facts := factsJSON("web01.example.com", map[string]any{"os": "linux"})
	if r := f.postCatalog("web01.example.com", "web01.example.com", "production", facts); r.status != 200 {
		t.Fatalf("catalog: %d %s", r.status, r.body)
	}
	if r := f.postCatalog("web01.example.com", "web01.example.com", "broken", facts); r.status != 500 {
		t.Fatalf("broken catalog: %d %s", r.status, r.body)
	}
	orig := f.srv.compileFn
	f.srv.compileFn = func(context.Context, *compiler.Environment, *compiler.Request) (*compiler.Result, error) {
		panic("boom")
	}
	if r := f.postCatalog("web01.example.com", "web01.example.com", "production", facts); r.status != 500 {
		t.Fatalf("panicking compile: %d %s", r.status, r.body)
	}
	f.srv.compileFn = orig
	if r := f.do("admin.example.com", "DELETE", "/puppet-admin-api/v1/environment-cache", nil, ""); r.status != 204 {
		t.Fatalf("flush: %d", r.status)
	}
	// Unauthenticated, like the status API.
	r := f.do("", "GET", "/metrics", nil, "")
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %q", r.status, r.header.Get("Content-Type"))
	}
	for _, want := range []string{
		`marionette_compiles_total{result="success"} 1` + "\n",
		`marionette_compiles_total{result="error"} 1` + "\n",
		`marionette_compiles_total{result="panic"} 1` + "\n",
		`marionette_compiles_total{result="busy"} 0` + "\n",
		`marionette_compile_duration_seconds_count 3` + "\n",
		`marionette_compile_duration_seconds_bucket{le="+Inf"} 3` + "\n",
		`marionette_http_requests_total{method="POST",code="200"} 1` + "\n",
		`marionette_http_requests_total{method="POST",code="500"} 2` + "\n",
		`marionette_http_requests_total{method="DELETE",code="204"} 1` + "\n",
		"marionette_environment_cache_flushes_total 1\n",
		"marionette_compiles_in_flight 0\n",
		"marionette_compile_queue_depth 0\n",
		"marionette_puppetdb_queue_depth 0\n",
		"marionette_http_requests_in_flight 1\n", // this request
		"# TYPE marionette_compile_duration_seconds histogram\n",
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	sample := regexp.MustCompile(`^([a-z_]+)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (\S+)$`)
	prev := -1.0
	for _, line := range strings.Split(strings.TrimSuffix(r.body, "\n"), "\n") {
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		m := sample.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("not a sample line: %q", line)
			continue
		}
		v, err := strconv.ParseFloat(m[4], 64)
		if err != nil {
			t.Errorf("value of %q: %v", line, err)
		}
		if m[1] == "marionette_compile_duration_seconds_bucket" {
			if v < prev {
				t.Errorf("histogram not cumulative at %q", line)
			}
			prev = v
		}
	}
	if m := regexp.MustCompile(`process_resident_memory_bytes (\d\S*)`).FindStringSubmatch(r.body); m == nil {
		t.Log("no RSS (not Linux?)")
	}
}

// TestMetricsBuckets: a compile falls in the first bucket whose bound is
// at least its time; past the last it counts only in +Inf.
func TestMetricsBuckets(t *testing.T) {
	m := newMetrics()
	m.compile(compileOK, 10*time.Millisecond, true) // le 0.01
	m.compile(compileOK, 11*time.Millisecond, true) // le 0.025
	m.compile(compileOK, 2*time.Minute, true)       // +Inf
	m.compile(compileBusy, 0, false)                // not timed
	want := map[int]int64{1: 1, 2: 1, len(m.bounds): 1}
	for i, n := range m.buckets {
		if n != want[i] {
			t.Errorf("bucket %d: %d, want %d", i, n, want[i])
		}
	}
	if m.count != 3 || m.compiles[compileBusy] != 1 || m.compiles[compileOK] != 3 {
		t.Errorf("count %d, compiles %v", m.count, m.compiles)
	}
	m.request("BREW", 999)
	if m.requests[requestKey{"OTHER", 0}] != 1 {
		t.Errorf("unbounded labels: %v", m.requests)
	}
}
