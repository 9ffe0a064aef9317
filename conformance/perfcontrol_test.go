package conformance

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// perfControlRoles are the roles of puppetserver_perf_control, the control
// repository puppetserver's own benchmarks compile; its ENC (written by
// scripts/perf-control-corpus) gives node pc-ROLE.example.com the role
// role::by_size::ROLE.
var perfControlRoles = []string{"empty", "small", "medium", "large"}

// TestPerfControl compiles each role of puppetserver_perf_control as a
// site would (its environment.conf module path, the Hiera configuration its
// README installs, an ENC, Facter 4 facts of CentOS 7 with the repository's
// custom facts) and requires the catalog Puppet 7.23 compiled, recorded in
// testdata/perf-control/expected. With -update the expected catalogs are
// compiled again with the oracle.
func TestPerfControl(t *testing.T) {
	dir := corpus.PerfControl().Require(t)
	env := filepath.Join(dir, "environments", "production")
	data := filepath.Join("..", "testdata", "perf-control")
	for _, role := range perfControlRoles {
		node := "pc-" + role + ".example.com"
		t.Run(role, func(t *testing.T) {
			facts, err := filepath.Abs(filepath.Join(data, "facts", node+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			expected := filepath.Join(data, "expected", node+".json")
			if *updateFlag {
				updatePerfControl(t, dir, env, node, facts, expected)
			}
			want, err := readNormalized(expected)
			if err != nil {
				t.Fatalf("%v (regenerate with go test ./conformance -run TestPerfControl -update)", err)
			}
			args, err := ParseCompileArgs([]string{"compile", node,
				"--environmentpath", filepath.Join(dir, "environments"), "--environment", "production",
				"--hiera-config", filepath.Join(dir, "hiera.yaml"), "--enc", filepath.Join(dir, "enc"),
				"--facts", facts})
			if err != nil {
				t.Fatal(err)
			}
			res := Guard(context.Background(), *caseTimeoutFlag, args.Run)
			if res.ExitCode != 0 {
				t.Fatalf("exit %d:\n%s", res.ExitCode, res.Stderr)
			}
			got, err := Normalize(res.Stdout, []string{env}, false)
			if err != nil {
				t.Fatal(err)
			}
			if diffs := DiffCatalogs(want, got); len(diffs) > 0 {
				if len(diffs) > maxDiffLines {
					diffs = diffs[:maxDiffLines]
				}
				t.Errorf("%s differs from Puppet's catalog:\n  %s", node, strings.Join(diffs, "\n  "))
			}
			t.Logf("%d resources, identical to Puppet 7.23's", len(asList(got["resources"])))
		})
	}
}

// updatePerfControl compiles node with the oracle, as puppet catalog
// compile does with the environment's module path, and writes its
// normalized catalog to expected.
func updatePerfControl(t *testing.T, dir, env, node, facts, expected string) {
	root, err := corpus.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := FindOracle(root)
	if err != nil {
		corpus.Absent(t, err)
	}
	modulepath := strings.Join([]string{filepath.Join(env, "modules"), filepath.Join(env, "site"), filepath.Join(env, "dist")}, ":")
	res, err := Run(context.Background(), *caseTimeoutFlag, t.TempDir(), nil, oracle, "compile", node,
		"--manifest", filepath.Join(env, "manifests", "site.pp"), "--modulepath", modulepath,
		"--facts", facts, "--enc", filepath.Join(dir, "enc"), "--hiera-config", filepath.Join(dir, "hiera.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || !bytes.HasPrefix(bytes.TrimSpace(res.Stdout), []byte("{")) {
		t.Fatalf("the oracle failed (exit %d):\n%s", res.ExitCode, res.Stderr)
	}
	catalog, err := Normalize(res.Stdout, []string{env}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(expected), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(expected, EncodePython(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
}
