package conformance

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
)

var workloadsFlag = flag.Bool("bench-workloads", false, "run TestBenchWorkloads: compile the shared benchmark workloads with marionette and real Puppet and compare")

// TestBenchWorkloads compiles the three environments of the shared
// benchmark generator (../shared/bench/gen.py: 104, 996 and 10,012
// resources) with marionette and with real Puppet, and requires identical
// catalogs after normalization: the speed figures in BENCHMARKS.md are only
// worth quoting for catalogs Puppet agrees with. CI runs it.
func TestBenchWorkloads(t *testing.T) {
	if !*workloadsFlag {
		t.Skip("needs -bench-workloads (runs real Puppet on 11k resources)")
	}
	loadedSuite(t)
	gen := filepath.Join(corpus.Bench().Require(t), "gen.py")
	work := t.TempDir()
	if out, err := exec.Command("python3", gen, "--out", work).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	bin, err := marionette()
	if err != nil {
		t.Fatal(err)
	}
	const node = "bench01.example.com"
	envPath := filepath.Join(work, "environments")
	for _, env := range []string{"small", "medium", "large"} {
		t.Run(env, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "compile", node, "--environmentpath", envPath,
				"--environment", env, "--facts", filepath.Join(work, "facts", node+".values.json"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			mine, err := cmd.Output()
			if err != nil {
				t.Fatalf("marionette: %v\n%s", err, stderr.String())
			}
			// Real Puppet, isolated from this machine's configuration, facts
			// from the file (the shared README's recipe).
			dir := t.TempDir()
			facts := filepath.Join(dir, "var", "server_data", "facts")
			if err := os.MkdirAll(facts, 0o755); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(work, "facts", node+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(facts, node+".json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			stderr.Reset()
			cmd = exec.CommandContext(ctx, "puppet", "catalog", "compile", node,
				"--confdir", filepath.Join(dir, "conf"), "--vardir", filepath.Join(dir, "var"),
				"--codedir", filepath.Join(dir, "code"), "--environmentpath", envPath, "--environment", env,
				"--facts_terminus", "json", "--color", "false", "--render-as", "json")
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("puppet: %v\n%s", err, stderr.String())
			}
			// Normalize skips the Notice line Puppet prints before the JSON.
			want, err := Normalize(out, []string{envPath}, false)
			if err != nil {
				t.Fatalf("Puppet's catalog: %v", err)
			}
			got, err := Normalize(mine, []string{envPath}, false)
			if err != nil {
				t.Fatalf("marionette's catalog: %v", err)
			}
			diffs := DiffCatalogs(want, got)
			for i, d := range diffs {
				if i == 20 {
					t.Errorf("... and %d more differences", len(diffs)-20)
					break
				}
				t.Error(d)
			}
			if n := len(got["resources"].([]any)); len(diffs) == 0 {
				t.Logf("%s: %d resources, identical", env, n)
			}
		})
	}
}
