package testcompile

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// TestStdlibSpecs runs puppetlabs-stdlib's own rspec-puppet suites of
// functions, type aliases and classes (the optional corpus of
// scripts/stdlib-spec-corpus) with Puppet and with marionette through
// scripts/rspec-compare, and checks that every example has the same
// verdict on both sides except those listed, each with its cause, in
// testdata/rspec/stdlib-differ.txt; a listed example that agrees now
// fails the test too, to be taken off the list (unless marked ~).
func TestStdlibSpecs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs stdlib's suites twice (minutes); not in -short")
	}
	dir := corpus.StdlibSpecs().Require(t)
	if _, err := corpus.RspecPuppet(); err != nil {
		corpus.Absent(t, err)
	}
	root, err := corpus.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := buildMarionette(t, root)
	compareSuite(t, root, bin, filepath.Join(root, "testdata", "rspec", "stdlib-differ.txt"),
		filepath.Join(dir, "stdlib"), "--functions", "--type-aliases")
}

// compareSuite runs scripts/rspec-compare with args and checks that every
// example has the same verdict with Puppet and with marionette, except
// those listed in the differ file (when it exists); a listed example that
// agrees now fails the test too, to be taken off the list (unless marked
// ~).
func compareSuite(t *testing.T, root, bin, differ string, args ...string) {
	t.Helper()
	listed := map[string]string{}
	if _, err := os.Stat(differ); err == nil {
		listed = readDiffer(t, differ)
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "rspec-compare"), args...)
	cmd.Env = append(os.Environ(), "MARIONETTE_BIN="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rspec-compare: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`(?m)^examples: (\d+); same verdict: (\d+);.*$`).FindSubmatch(out)
	if summary == nil {
		t.Fatalf("no summary line:\n%s", out)
	}
	if string(summary[1]) == "0" {
		t.Fatalf("no example ran:\n%s", out)
	}
	// The figures: requests answered, times, CPU, load, the summary.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	t.Log(strings.Join(lines[max(0, len(lines)-5):], "\n"))
	differs := regexp.MustCompile(`(?m)^(\./spec/\S+\]) .*: puppet \w+, marionette \w+$`)
	seen := map[string]bool{}
	for _, m := range differs.FindAllSubmatch(out, -1) {
		id := string(m[1])
		seen[id] = true
		_, ok := listed[id]
		if _, either := listed["~"+id]; either {
			ok = true
		}
		if !ok {
			t.Errorf("verdicts differ, not listed: %s", m[0])
		}
	}
	for id, why := range listed {
		if strings.HasPrefix(id, "~") {
			continue
		}
		if !seen[id] {
			t.Errorf("%s (listed: %s) has the same verdict now: take it off %s", id, why, differ)
		}
	}
}

// readDiffer reads the list of examples whose verdicts may differ: an
// example id and its cause on each line, # comments; an id marked ~ may
// differ or not (a verdict that changes from run to run).
func readDiffer(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, why, _ := strings.Cut(line, " ")
		if strings.TrimSpace(why) == "" {
			t.Errorf("%s: %s has no cause", path, id)
		}
		listed[id] = strings.TrimSpace(why)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return listed
}
