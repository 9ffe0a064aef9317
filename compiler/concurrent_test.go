package compiler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/value"
)

// TestConcurrentCompilesKeepTheirOwnDiagnostics: 8 goroutines compile
// different nodes from one cached environment while a module file is
// rewritten; each compile's catalog and diagnostics are about its node
// only, and both come from one version of the file (for go test -race).
func TestConcurrentCompilesKeepTheirOwnDiagnostics(t *testing.T) {
	dir := t.TempDir()
	module := func(v int) string {
		return fmt.Sprintf("class a {\n  notify { \"v%d ${trusted['certname']}\": }\n  warning(\"a v%d for ${trusted['certname']}\")\n}\n", v, v)
	}
	writeTree(t, dir, map[string]string{
		"manifests/site.pp": "node default {\n  warning(\"node ${trusted['certname']} warns\")\n" +
			"  notice(\"node ${facts['clientcert']} notices\")\n  include a\n}\n",
		"modules/a/manifests/init.pp": module(0),
	})
	cache := newServedEnv(t, filepath.Join(dir, "manifests"), filepath.Join(dir, "modules"))
	const workers, compiles = 8, 25

	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{} // versions of class a the compiles saw
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			node := fmt.Sprintf("node%d.example.com", w)
			for range compiles {
				env, err := cache.Get()
				if err != nil {
					errs <- err
					return
				}
				res, err := Compile(context.Background(), env, &Request{Node: node,
					Facts: value.NewHash(value.String("clientcert"), value.String(node))})
				if err != nil {
					errs <- fmt.Errorf("%s: %v", node, err)
					return
				}
				version, err := checkOwnCompile(node, res)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				seen[version] = true
				mu.Unlock()
			}
		})
	}
	// Rewrite the module, a whole file at a time, until the compiles end.
	done := make(chan struct{})
	edits := make(chan int)
	go func() {
		path := filepath.Join(dir, "modules/a/manifests/init.pp")
		tick := time.Now()
		v := 0
		defer func() { edits <- v }()
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			tmp := path + ".new"
			if err := os.WriteFile(tmp, []byte(module(v+1)), 0o644); err != nil {
				t.Error(err)
				return
			}
			tick = tick.Add(time.Second)
			if err := os.Chtimes(tmp, tick, tick); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Error(err)
				return
			}
			v++
		}
	}()
	wg.Wait()
	close(done)
	last := <-edits
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// After the edits, a compile sees the last version.
	env, err := cache.Get()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(context.Background(), env, &Request{Node: "n9", Facts: value.NewHash(value.String("clientcert"), value.String("n9"))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkOwnCompile("n9", res); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d edits; the compiles saw %d versions", last, len(seen))
	if want := fmt.Sprintf("a v%d for n9", last); !strings.HasPrefix(res.Diagnostics[2].Message, want) {
		t.Errorf("after %d edits: %q, want %q", last, res.Diagnostics[2].Message, want)
	}
}

// checkOwnCompile checks a compile of node from the test above: one
// notify of one version of class a, and exactly its three messages.
func checkOwnCompile(node string, res *Result) (version string, err error) {
	var notifies []string
	for _, r := range res.Catalog.Resources {
		if r.Type == "Notify" {
			notifies = append(notifies, r.Title)
		}
	}
	if len(notifies) != 1 || !strings.HasSuffix(notifies[0], " "+node) {
		return "", fmt.Errorf("%s: notifies %q", node, notifies)
	}
	version = strings.TrimSuffix(notifies[0], " "+node)
	want := []struct {
		sev diag.Severity
		msg string
	}{
		{diag.Warning, "node " + node + " warns"},
		{diag.Notice, "node " + node + " notices"},
		{diag.Warning, "a " + version + " for " + node},
	}
	if len(res.Diagnostics) != len(want) {
		return "", fmt.Errorf("%s: diagnostics %v", node, []*diag.Diagnostic(res.Diagnostics))
	}
	for i, d := range res.Diagnostics {
		if d.Severity != want[i].sev || !strings.HasPrefix(d.Message, want[i].msg) {
			return "", fmt.Errorf("%s: diagnostic %d is %s %q, want %s %q", node, i, d.Severity, d.Error(), want[i].sev, want[i].msg)
		}
	}
	return version, nil
}
