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
	listed := readDiffer(t, filepath.Join(root, "testdata", "rspec", "stdlib-differ.txt"))
	bin := buildMarionette(t, root)
	cmd := exec.Command(filepath.Join(root, "scripts", "rspec-compare"), filepath.Join(dir, "stdlib"), "--functions", "--type-aliases")
	cmd.Env = append(os.Environ(), "MARIONETTE_BIN="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rspec-compare: %v\n%s", err, out)
	}
	summary := regexp.MustCompile(`(?m)^examples: (\d+); same verdict: (\d+);.*$`).FindSubmatch(out)
	if summary == nil {
		t.Fatalf("no summary line:\n%s", out)
	}
	// The figures: requests answered, times, CPU, load, the summary.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	t.Log(strings.Join(lines[max(0, len(lines)-5):], "\n"))
	differ := regexp.MustCompile(`(?m)^(\./spec/\S+\]) .*: puppet \w+, marionette \w+$`)
	seen := map[string]bool{}
	for _, m := range differ.FindAllSubmatch(out, -1) {
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
			t.Errorf("%s (listed: %s) has the same verdict now: take it off testdata/rspec/stdlib-differ.txt", id, why)
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
