package environment_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// benchDir writes the shared benchmark workloads with
// ../shared/bench/gen.py (once per machine) and an environmentpath holding
// copies of the medium one, env0 to env7: distinct environments of the
// same size, so that concurrent first compiles parse distinct files.
func benchDir(b *testing.B) (envPath string, facts *value.Hash) {
	b.Helper()
	gen := ""
	for _, p := range []string{"../../shared/bench/gen.py", "/work/shared/bench/gen.py"} {
		if _, err := os.Stat(p); err == nil {
			gen = p
			break
		}
	}
	if gen == "" {
		b.Skip("../shared/bench/gen.py not found")
	}
	dir := filepath.Join(os.TempDir(), "marionette-bench-workloads")
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		if out, err := exec.Command("python3", gen, "--out", dir).CombinedOutput(); err != nil {
			b.Skipf("gen.py: %v\n%s", err, out)
		}
	}
	envPath = filepath.Join(os.TempDir(), "marionette-bench-envcopies")
	if _, err := os.Stat(filepath.Join(envPath, "env7")); err != nil {
		for i := range 8 {
			dst := filepath.Join(envPath, fmt.Sprintf("env%d", i))
			if err := os.MkdirAll(envPath, 0o755); err != nil {
				b.Fatal(err)
			}
			if out, err := exec.Command("cp", "-r", filepath.Join(dir, "environments", "medium"), dst).CombinedOutput(); err != nil {
				b.Fatalf("cp: %v\n%s", err, out)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "facts", "bench01.example.com.values.json"))
	if err != nil {
		b.Fatal(err)
	}
	v, err := dataformat.FromJSON(data, "facts.json")
	if err != nil {
		b.Fatal(err)
	}
	return envPath, v.(*value.Hash)
}

func benchLoader(b *testing.B, envPath string) *environment.Loader {
	b.Helper()
	s, err := puppetconf.Load(puppetconf.Options{Root: true, Flags: map[string]string{puppetconf.EnvironmentPath: envPath}})
	if err != nil {
		b.Fatal(err)
	}
	return environment.New(s, environment.Options{})
}

func compileOnce(ctx context.Context, l *environment.Loader, envName, node string, facts *value.Hash) error {
	env, err := l.Get(ctx, envName)
	if err != nil {
		return err
	}
	res, err := compiler.Compile(ctx, env, &compiler.Request{Node: node, Facts: facts, Now: time.Unix(1700000000, 0)})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	return res.Catalog.WriteJSON(&buf)
}

// BenchmarkConcurrentFirstCompiles is a compile server's cold start: 8
// goroutines each compile a node in an environment nothing has loaded yet
// (a new Loader per iteration, so every file is read and parsed again).
// different-envs: each goroutine its own environment (env0..env7); same-env:
// all of them the one environment, different nodes.
func BenchmarkConcurrentFirstCompiles(b *testing.B) {
	envPath, facts := benchDir(b)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		env  func(i int) string
	}{
		{"different-envs", func(i int) string { return fmt.Sprintf("env%d", i) }},
		{"same-env", func(int) string { return "env0" }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l := benchLoader(b, envPath)
				var wg sync.WaitGroup
				errs := make(chan error, 8)
				for i := range 8 {
					wg.Go(func() {
						if err := compileOnce(ctx, l, tc.env(i), "bench01.example.com", facts); err != nil {
							errs <- err
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWarmCompileMedium is a compile server's steady state: the
// medium workload's node compiled (and its catalog encoded) from a loaded
// environment, everything parsed already.
func BenchmarkWarmCompileMedium(b *testing.B) {
	envPath, facts := benchDir(b)
	ctx := context.Background()
	l := benchLoader(b, envPath)
	if err := compileOnce(ctx, l, "env0", "bench01.example.com", facts); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := compileOnce(ctx, l, "env0", "bench01.example.com", facts); err != nil {
			b.Fatal(err)
		}
	}
}
