package compiler

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// FuzzCompile compiles arbitrary manifests: whatever the input, the compile
// must return (a catalog or an error) without panicking or hanging. Seeds
// are the conformance cases' single-file manifests.
func FuzzCompile(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/conformance/*/*/site.pp")
	more, _ := filepath.Glob("../testdata/conformance/*/*/manifests/site.pp")
	for _, p := range append(seeds, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	// Case archives hold their site.pp as the file after "-- site.pp --".
	archives, _ := filepath.Glob("../testdata/conformance/*/*.txtar")
	for _, p := range archives {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if _, site, ok := strings.Cut(string(data), "\n-- site.pp --\n"); ok {
			site, _, _ = strings.Cut(site, "\n-- ")
			f.Add(site)
		}
	}
	f.Add("define d($x) { d { \"${x}x\": x => \"${x}x\" } } d { 'a': x => 'a' }")
	f.Add("function f($n) { f($n + 1) } notice(f(1))")
	facts := value.NewHash(value.String("fqdn"), value.String("web01.example.com"), value.String("osfamily"), value.String("Debian"))
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		site := filepath.Join(dir, "site.pp")
		if err := os.WriteFile(site, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		env, err := environment.Load(environment.Config{Name: "production", Manifest: site, ModulePath: nil})
		if err != nil {
			return // parse and validation errors are fine
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = compileCatalog(env, &Request{Node: "web01.example.com", Facts: facts})
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second * timeScale):
			t.Fatalf("compile did not finish in %v:\n%s", 10*time.Second*timeScale, src)
		}
		// The compiler's limits (strings, nesting, iterations) keep a compile
		// of a small manifest well under this.
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 2<<30 {
			t.Fatalf("compile allocated %d MiB:\n%s", n>>20, src)
		}
	})
}
