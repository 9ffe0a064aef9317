package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/puppetconf"
)

// TestHostileClientsDoNotStarveOthers: while two nodes send what once
// stopped `marionette serve` for everyone (a catalog POST with 150,000
// facts, an environment whose code nests 200,000 operators deep, one whose
// values expand to 3^30 elements when encoded), a third node's catalog
// requests for the medium benchmark workload (996 resources) keep
// succeeding, over loopback TLS, and the server stays up. The issue's
// target is a p99 under 1 s; the test prints it beside the load average and
// the p99 of the same requests with no attack, and fails only past a
// generous bound, so that a busy machine does not make it flaky.
func TestHostileClientsDoNotStarveOthers(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the medium workload for a minute")
	}
	gen := filepath.Join(corpus.Bench().Require(t), "gen.py")
	work := t.TempDir()
	if out, err := exec.Command("python3", gen, "--out", work, "--size", "medium").CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	envs := filepath.Join(work, "environments")
	writeEnv := func(name, site string) {
		dir := filepath.Join(envs, name, "manifests")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "site.pp"), []byte(site), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeEnv("deep", "$x = 1"+strings.Repeat(" + 1", 200000)+"\nnotify { \"${x}\": }\n")
	var expand strings.Builder
	expand.WriteString("$a0 = ['x']\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&expand, "$a%d = [$a%d, $a%d, $a%d]\n", i, i-1, i-1, i-1)
	}
	expand.WriteString("notify { 'big': message => $a30 }\n")
	writeEnv("expand", expand.String())
	writeEnv("flood", "notify { \"facts: ${facts.length}\": }\n")

	// The deadline of every compile; the race detector slows the medium
	// workload itself past 10 s on a busy machine.
	const timeout = timeScale * 10 * time.Second
	f := newFixture(t, func(cfg *Config) {
		s := cfg.Settings
		settings, err := puppetconf.Load(puppetconf.Options{
			Home: filepath.Dir(s.Get(puppetconf.Codedir)), Hostname: "server",
			Flags: map[string]string{
				puppetconf.Codedir:         s.Get(puppetconf.Codedir),
				puppetconf.Confdir:         s.Get(puppetconf.Confdir),
				puppetconf.EnvironmentPath: envs,
				puppetconf.Vardir:          s.Get(puppetconf.Vardir),
				puppetconf.BaseModulePath:  s.Get(puppetconf.BaseModulePath),
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Settings = settings
		cfg.CompileTimeout = timeout
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	})
	for _, cn := range []string{"bench01.example.com", "evil1.example.com", "evil2.example.com"} {
		cert, _ := f.pki.issue(cn)
		f.clients[cn] = f.client(&cert)
	}
	benchFacts, err := os.ReadFile(filepath.Join(work, "facts", "bench01.example.com.json"))
	if err != nil {
		t.Fatal(err)
	}
	post := func(ctx context.Context, as, env, facts string) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", f.ts.URL+"/puppet/v3/catalog/"+as+"?environment="+env, strings.NewReader(catalogForm(as, env, facts)))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := f.clients[as].Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	victim := func(n int) []time.Duration {
		var ds []time.Duration
		for i := range n {
			start := time.Now()
			status, err := post(context.Background(), "bench01.example.com", "medium", string(benchFacts))
			d := time.Since(start)
			if err != nil || status != http.StatusOK {
				t.Fatalf("victim request %d: %d %v after %v", i, status, err, d)
			}
			ds = append(ds, d)
		}
		return ds
	}
	pct := func(ds []time.Duration, p float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, int(p*float64(len(s))))]
	}
	loadavg := func() string {
		b, _ := os.ReadFile("/proc/loadavg")
		return strings.Join(strings.Fields(string(b))[:3], " ")
	}

	victim(2) // warm: the environment loads
	alone := victim(10)

	// 150,000 one-character facts: 7 MB, under the 32 MiB body limit.
	var flood strings.Builder
	flood.WriteString(`{"name":"evil1.example.com","values":{`)
	for i := range 150000 {
		if i > 0 {
			flood.WriteByte(',')
		}
		fmt.Fprintf(&flood, `"f%d":"x"`, i)
	}
	flood.WriteString(`}}`)
	attacks := []struct{ as, env, facts string }{
		{"evil1.example.com", "flood", flood.String()},
		{"evil1.example.com", "deep", `{"name":"evil1.example.com","values":{}}`},
		{"evil2.example.com", "expand", `{"name":"evil2.example.com","values":{}}`},
		{"evil2.example.com", "deep", `{"name":"evil2.example.com","values":{}}`},
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var sent, slowest atomic.Int64
	var statuses, slowestOf sync.Map
	for w, who := range []string{"evil1.example.com", "evil2.example.com"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				a := attacks[2*w+i%2]
				start := time.Now()
				status, err := post(ctx, who, a.env, a.facts)
				if ctx.Err() != nil {
					return
				}
				d := time.Since(start)
				if int64(d) > slowest.Load() {
					slowest.Store(int64(d))
				}
				took, _ := slowestOf.LoadOrStore(a.env, new(atomic.Int64))
				if int64(d) > took.(*atomic.Int64).Load() {
					took.(*atomic.Int64).Store(int64(d))
				}
				key := fmt.Sprintf("%s %d", a.env, status)
				if err != nil {
					key = a.env + " " + err.Error()
				}
				n, _ := statuses.LoadOrStore(key, new(atomic.Int64))
				n.(*atomic.Int64).Add(1)
				sent.Add(1)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // the attack is under way
	attacked := victim(30)
	stop()
	wg.Wait()

	if r := f.do("", "GET", "/status/v1/simple", nil, ""); r.status != http.StatusOK || r.body != "running" {
		t.Fatalf("server down after the attack: %d %s", r.status, r.body)
	}
	var seen []string
	statuses.Range(func(k, v any) bool {
		seen = append(seen, fmt.Sprintf("%s ×%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	slowestOf.Range(func(k, v any) bool {
		seen = append(seen, fmt.Sprintf("%s slowest %v", k, time.Duration(v.(*atomic.Int64).Load()).Round(time.Millisecond)))
		return true
	})
	slices.Sort(seen)
	t.Logf("medium catalog, alone: p50 %v p99 %v; under attack: p50 %v p99 %v (target p99 < 1s); load average %s",
		pct(alone, .5).Round(time.Millisecond), pct(alone, .99).Round(time.Millisecond),
		pct(attacked, .5).Round(time.Millisecond), pct(attacked, .99).Round(time.Millisecond), loadavg())
	t.Logf("attack requests %d, slowest %v: %s", sent.Load(), time.Duration(slowest.Load()).Round(time.Millisecond), strings.Join(seen, ", "))
	if sent.Load() == 0 {
		t.Error("no attack request finished")
	}
	if s := time.Duration(slowest.Load()); s > timeout+timeScale*5*time.Second {
		t.Errorf("an attack request took %v, past the %v deadline", s, timeout)
	}
	// Generous: the attack may slow the victim (it shares the CPU), never
	// starve it. Without the fixes its requests failed or took the whole
	// deadline.
	if p := pct(attacked, .99); p > max(timeScale*5*time.Second, 10*pct(alone, .99)) {
		t.Errorf("victim p99 %v under attack (alone %v)", p, pct(alone, .99))
	}
}
