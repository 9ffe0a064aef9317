package compiler

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// benchWorkloads writes the shared benchmark workloads (small, medium,
// large) with ../shared/bench/gen.py, once per test binary run.
func benchWorkloads(b *testing.B) string {
	b.Helper()
	gen := filepath.Join(corpus.Bench().Require(b), "gen.py")
	dir := filepath.Join(os.TempDir(), "marionette-bench-workloads")
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		if out, err := exec.Command("python3", gen, "--out", dir).CombinedOutput(); err != nil {
			b.Skipf("gen.py: %v\n%s", err, out)
		}
	}
	return dir
}

// BenchmarkCompileWorkload compiles the shared workloads' node in process,
// the parsed environment and parsed data files reused between iterations
// (what a compile server does), and encodes the catalog.
func BenchmarkCompileWorkload(b *testing.B) {
	dir := benchWorkloads(b)
	factsData, err := os.ReadFile(filepath.Join(dir, "facts", "bench01.example.com.values.json"))
	if err != nil {
		b.Fatal(err)
	}
	facts, err := dataformat.FromJSON(factsData, "facts.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"small", "medium", "large"} {
		b.Run(name, func(b *testing.B) {
			envDir := filepath.Join(dir, "environments", name)
			modules := filepath.Join(envDir, "modules")
			env, err := environment.Load(environment.Config{Name: name, Manifest: filepath.Join(envDir, "manifests"), ModulePath: []string{modules},
				Hiera: environment.HieraOptions{Cache: hiera.NewCache(), EnvironmentDir: envDir}})
			if err != nil {
				b.Fatal(err)
			}
			req := &Request{Node: "bench01.example.com", Facts: facts.(*value.Hash), Now: time.Unix(1700000000, 0)}
			var buf bytes.Buffer
			run := func() int {
				cat, err := compileCatalog(env, req)
				if err != nil {
					b.Fatal(err)
				}
				buf.Reset()
				if err := cat.WriteJSON(&buf); err != nil {
					b.Fatal(err)
				}
				return len(cat.Resources)
			}
			n := run() // load module files and data once
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run()
			}
			b.ReportMetric(float64(n), "resources")
		})
	}
}

// BenchmarkColdCompileMedium is what one `marionette compile` process does
// for the medium workload: parse the environment, read module types and
// Hiera data, compile, encode. Nothing is reused between iterations.
func BenchmarkColdCompileMedium(b *testing.B) {
	dir := benchWorkloads(b)
	factsData, err := os.ReadFile(filepath.Join(dir, "facts", "bench01.example.com.values.json"))
	if err != nil {
		b.Fatal(err)
	}
	envDir := filepath.Join(dir, "environments", "medium")
	modules := filepath.Join(envDir, "modules")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		facts, err := dataformat.FromJSON(factsData, "facts.json")
		if err != nil {
			b.Fatal(err)
		}
		env, err := environment.Load(environment.Config{Name: "medium", Manifest: filepath.Join(envDir, "manifests"), ModulePath: []string{modules},
			Hiera: environment.HieraOptions{EnvironmentDir: envDir}})
		if err != nil {
			b.Fatal(err)
		}
		cat, err := compileCatalog(env, &Request{Node: "bench01.example.com", Facts: facts.(*value.Hash)})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := cat.WriteJSON(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
