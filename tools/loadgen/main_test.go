package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"
)

// TestCheckLoopbackOnly: traffic may go only to a loopback address.
func TestCheckLoopbackOnly(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://127.0.0.1:8140":  true,
		"https://[::1]:8140":      true,
		"https://localhost:8140":  false, // a name could resolve elsewhere
		"https://10.0.0.1:8140":   false,
		"https://example.com":     false,
		"http://127.0.0.1:8140":   false,
		"https://127.0.0.1:8140/": true,
	} {
		c := config{base: url, serverName: "localhost", clients: 1, mode: "v3", caFile: "a", certFile: "b", keyFile: "c", factsFile: "d"}
		err := c.check()
		if (err == nil) != ok {
			t.Errorf("%s: %v, want ok=%v", url, err, ok)
		}
		if ok && (c.base != "https://localhost:8140" || c.dialAddr == "") {
			t.Errorf("%s: base %q dial %q", url, c.base, c.dialAddr)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("empty")
	}
}

// TestAgentFacts: both fact file forms of the bench workloads give the
// values hash.
func TestAgentFacts(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"wrapped.json": `{"name":"n1","values":{"os":"linux"}}`,
		"plain.json":   `{"os":"linux"}`,
	} {
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, []byte(text), 0o644)
		c := config{factsFile: p}
		v, err := c.agentFacts()
		if err != nil || string(v) != `{"os":"linux"}` {
			t.Errorf("%s: %s %v", name, v, err)
		}
	}
}

// TestProcessCPU: a process's CPU time read from /proc agrees with what
// the kernel reports to the process itself (getrusage), to the clock tick.
func TestProcessCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	rusage := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	x := 0
	for start := rusage(); rusage()-start < 50*time.Millisecond; { // some CPU, however loaded the machine
		x++
	}
	before := rusage()
	got := processCPU(os.Getpid())
	after := rusage()
	const tick = 20 * time.Millisecond // /proc counts in 10 ms ticks
	if got < before-tick || got > after+tick {
		t.Errorf("processCPU %v, getrusage %v..%v (%d)", got, before, after, x)
	}
	if processCPU(0) != 0 {
		t.Error("pid 0 has a CPU time")
	}
}

// TestVolatileFacts: each run's facts differ in the volatile facts only
// (uptime, free memory, load), as a real agent's do; the others are kept.
func TestVolatileFacts(t *testing.T) {
	facts := json.RawMessage(`{"fqdn":"a.example.com","os":{"family":"Debian"},"uptime_seconds":5,"memory":{"system":{"total_bytes":4294967296,"available_bytes":1}}}`)
	decode := func(raw json.RawMessage) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	one, two := decode(volatileFacts(facts, 1)), decode(volatileFacts(facts, 2))
	for _, k := range []string{"uptime_seconds", "system_uptime", "memoryfree", "load_averages", "memory"} {
		if reflect.DeepEqual(one[k], two[k]) {
			t.Errorf("%s is the same in two runs: %v", k, one[k])
		}
	}
	for _, k := range []string{"fqdn", "os"} {
		if !reflect.DeepEqual(one[k], decode(facts)[k]) || !reflect.DeepEqual(one[k], two[k]) {
			t.Errorf("%s changed: %v, %v", k, one[k], two[k])
		}
	}
	if total := one["memory"].(map[string]any)["system"].(map[string]any)["total_bytes"]; total != float64(4294967296) {
		t.Errorf("memory.system.total_bytes changed: %v", total)
	}
}

// TestFactsTemplate: the facts of each run written from the template are
// volatileFacts', byte for byte (with memory or without, and facts that
// are not an object).
func TestFactsTemplate(t *testing.T) {
	for _, facts := range []string{
		`{"fqdn":"a.example.com","os":{"family":"Debian"},"uptime_seconds":5,"memory":{"system":{"total_bytes":4294967296,"available_bytes":1},"swap":{"total_bytes":1}},"html":"<&>","n":1.50}`,
		`{"fqdn":"a.example.com","memory":{"system":null}}`,
		`{}`,
		`[1]`,
	} {
		tmpl := newFactsTemplate(json.RawMessage(facts))
		for n := int64(1); n < 120; n += 7 {
			if got, want := tmpl.run(n), volatileFacts(json.RawMessage(facts), n); string(got) != string(want) {
				t.Fatalf("%s run %d:\n%s\nwant\n%s", facts, n, got, want)
			}
		}
	}
}

// TestAgentForm: the catalog request's body is what encoding the facts
// object with encoding/json and the form with net/url gives.
func TestAgentForm(t *testing.T) {
	now := time.Date(2026, 11, 28, 1, 2, 3, 456, time.UTC)
	for _, values := range []string{`{"a":"b c+d/e%f<g>&h\u00e9","n":1.5}`, `{}`} {
		facts, _ := json.Marshal(map[string]any{
			"name": "a.example.com", "values": json.RawMessage(values),
			"timestamp":  now.Format("2006-01-02T15:04:05.000000000-07:00"),
			"expiration": now.Add(30 * time.Minute).Format("2006-01-02T15:04:05.000000000-07:00"),
		})
		form := url.Values{}
		form.Set("environment", "production")
		form.Set("facts_format", "application/json")
		form.Set("facts", url.QueryEscape(string(facts)))
		form.Set("transaction_uuid", "00000000-0000-4000-8000-000000000000")
		form.Set("static_catalog", "true")
		form.Set("checksum_type", "sha256.sha384.sha512.sha224.md5")
		form.Set("check_environment", "true")
		compact, _ := json.Marshal(json.RawMessage(values))
		if got, want := string(agentForm("a.example.com", "production", compact, now)), form.Encode(); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", values, got, want)
		}
	}
}

// TestQueryEscapeTwice: escaping twice in one pass is url.QueryEscape's
// escape of its own escape, for every byte.
func TestQueryEscapeTwice(t *testing.T) {
	all := make([]byte, 0, 256+8)
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	for _, s := range []string{"", "abc", "a b+c%d/é", string(all)} {
		if got, want := string(appendQueryEscapeTwice([]byte("x="), []byte(s))), "x="+url.QueryEscape(url.QueryEscape(s)); got != want {
			t.Errorf("%q:\n%s\nwant\n%s", s, got, want)
		}
	}
}
