package main

import (
	"os"
	"path/filepath"
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

// TestProcessCPU: a process's CPU time is read from /proc and grows as the
// process works.
func TestProcessCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	before := processCPU(os.Getpid())
	x := 0
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
		x++
	}
	if after := processCPU(os.Getpid()); after <= before || after-before > 10*time.Second {
		t.Errorf("CPU time %v, then %v after 200 ms of work (%d)", before, after, x)
	}
}
