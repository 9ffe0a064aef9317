package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalogdiff"
)

// The diff conformance case testdata/diffcases/ctl: two versions (from/,
// to/) of a control repository, five nodes' facts (three with a trusted
// hash whose pp_role the code reads) and, in expected/, the catalogs real
// Puppet compiled from them (scripts/regen-diff-cases; Puppet 7 with
// $trusted from the facts' trusted hash, Puppet 8 through its oracle).
// Each test runs marionette diff, keeps its compiled catalogs
// (--catalogs-dir) and checks every one against Puppet's, every failure
// against Puppet's, and the report against the difference of Puppet's
// catalogs.

const diffCaseDir = "testdata/diffcases/ctl"

// diffCaseRepo makes a git repository whose first commit is from/ and
// whose second is to/ (the control repository's history).
func diffCaseRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for i, side := range []string{"from", "to"} {
		if i > 0 {
			git("rm", "-rq", ".")
		}
		if err := os.CopyFS(repo, os.DirFS(filepath.Join(diffCaseDir, side))); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-qm", side)
	}
	return repo
}

// readCaseCatalog parses an expected or a kept catalog.
func readCaseCatalog(t *testing.T, path string) *catalogdiff.Catalog {
	t.Helper()
	c, err := catalogdiff.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// resultText is a comparison's text report without the source text
// (which Puppet's catalogs do not carry) and without file names.
func resultText(t *testing.T, r *catalogdiff.Result) string {
	t.Helper()
	// Values read back from the indented JSON report are indented.
	compact := func(raw json.RawMessage) json.RawMessage {
		var buf bytes.Buffer
		if len(raw) == 0 || json.Compact(&buf, raw) != nil {
			return raw
		}
		return buf.Bytes()
	}
	for i := range r.Changed {
		var kept []catalogdiff.Change
		for _, p := range r.Changed[i].Parameters {
			if p.Name != catalogdiff.SourceContentParam {
				p.Old, p.New = compact(p.Old), compact(p.New)
				kept = append(kept, p)
			}
		}
		r.Changed[i].Parameters = kept
	}
	var changed []catalogdiff.ResourceChange
	for _, c := range r.Changed {
		if len(c.Parameters)+len(c.Attributes)+len(c.TagsAdded)+len(c.TagsRemoved) > 0 {
			changed = append(changed, c)
		}
	}
	r.Changed = changed
	for _, list := range [][]catalogdiff.ResourceSummary{r.Added, r.Removed} {
		for i := range list {
			delete(list[i].Parameters, catalogdiff.SourceContentParam)
		}
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// diffCaseNode is what one node's expected files say.
type diffCaseNode struct {
	node string
	// expected are the expected/ files (without .json or .error) of the
	// from and to sides.
	expected [2]string
	status   string // changed, unchanged, failed
}

func TestDiffConformance(t *testing.T) {
	repo := diffCaseRepo(t)
	facts, err := filepath.Abs(filepath.Join(diffCaseDir, "facts"))
	if err != nil {
		t.Fatal(err)
	}
	fromDir, _ := filepath.Abs(filepath.Join(diffCaseDir, "from"))
	tests := []struct {
		name  string
		args  []string
		code  int
		nodes []diffCaseNode
		// check looks at the JSON report.
		check func(t *testing.T, doc *diffCaseReport)
	}{
		{
			name: "git refs: source text, trusted extensions, grouping, a new failure",
			args: []string{"--all-nodes", "--from", "HEAD~1", "--to", "HEAD", "--repo", repo, "--facts-dir", facts},
			code: 2,
			nodes: []diffCaseNode{
				{"db01.example.com", [2]string{"db01.example.com.from", "db01.example.com.to"}, "failed"},
				{"p8a.example.com", [2]string{"p8a.example.com.from", "p8a.example.com.from"}, "unchanged"},
				{"p8b.example.com", [2]string{"p8b.example.com.from", "p8b.example.com.from"}, "unchanged"},
				{"web01.example.com", [2]string{"web01.example.com.from", "web01.example.com.to"}, "changed"},
				{"web02.example.com", [2]string{"web02.example.com.from", "web02.example.com.to"}, "changed"},
			},
			check: func(t *testing.T, doc *diffCaseReport) {
				if len(doc.NewFailures) != 1 || doc.NewFailures[0] != "db01.example.com" {
					t.Errorf("new failures %v, want db01.example.com", doc.NewFailures)
				}
				// Every change happens on both web nodes: one group each.
				for _, g := range doc.Groups {
					if strings.Join(g.Nodes, ",") != "web01.example.com,web02.example.com" {
						t.Errorf("group %s %s on %v", g.Kind, g.Name, g.Nodes)
					}
				}
				// The motd file behind source => puppet:///modules/... changed.
				motd := readSourceChange(t, doc, "web01.example.com", "File", "/etc/motd")
				if !strings.Contains(motd[0], "Managed by Puppet.\n") || !strings.Contains(motd[1], "Managed by Puppet; changes are overwritten.\n") {
					t.Errorf("File[/etc/motd] source text %q → %q", motd[0], motd[1])
				}
			},
		},
		{
			name: "one node, fact override",
			args: []string{"web01.example.com", "--from", "HEAD~1", "--to", "HEAD", "--repo", repo, "--facts-dir", facts, "--fact-override", "os.release.major=12"},
			code: 1,
			nodes: []diffCaseNode{
				{"web01.example.com", [2]string{"web01.example.com.from.override", "web01.example.com.to.override"}, "changed"},
			},
		},
		{
			name: "Puppet 7 to Puppet 8",
			args: []string{"p8a.example.com", "p8b.example.com", "--from-puppet", "7", "--to-puppet", "8", "--from", fromDir, "--to", fromDir, "--facts-dir", facts},
			code: 2,
			nodes: []diffCaseNode{
				{"p8a.example.com", [2]string{"p8a.example.com.from", "p8a.example.com.from.puppet8"}, "changed"},
				{"p8b.example.com", [2]string{"p8b.example.com.from", "p8b.example.com.from.puppet8"}, "failed"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept := t.TempDir()
			var stdout, stderr bytes.Buffer
			args := append([]string{"diff", "--json", "--catalogs-dir", kept}, tt.args...)
			code := run(args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s", code, tt.code, stderr.String())
			}
			var doc diffCaseReport
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout.String())
			}
			// Before checkAgainstPuppet, which leaves the source text out.
			if tt.check != nil {
				tt.check(t, &doc)
			}
			byNode := map[string]*diffCaseReportNode{}
			for i := range doc.Nodes {
				byNode[doc.Nodes[i].Node] = &doc.Nodes[i]
			}
			if len(doc.Nodes) != len(tt.nodes) {
				t.Errorf("%d nodes in the report, want %d", len(doc.Nodes), len(tt.nodes))
			}
			for _, want := range tt.nodes {
				got := byNode[want.node]
				if got == nil {
					t.Errorf("%s: not in the report", want.node)
					continue
				}
				if got.Status != want.status {
					t.Errorf("%s: status %s, want %s (errors %+v)", want.node, got.Status, want.status, got.Errors)
				}
				checkAgainstPuppet(t, want, got, kept)
			}
		})
	}
}

// checkAgainstPuppet compares a node's compiles with Puppet's: each
// side's catalog or failure, and the report's differences with those of
// Puppet's catalogs.
func checkAgainstPuppet(t *testing.T, want diffCaseNode, got *diffCaseReportNode, kept string) {
	t.Helper()
	var puppet [2]*catalogdiff.Catalog
	for i, side := range []string{"from", "to"} {
		base := filepath.Join(diffCaseDir, "expected", want.expected[i])
		if msg, err := os.ReadFile(base + ".error"); err == nil {
			// Puppet failed: so must this side, with Puppet's message.
			core := puppetErrorCore(string(msg))
			found := false
			for _, e := range got.Errors {
				found = found || e.Side == side && strings.Contains(e.Error, core)
			}
			if !found {
				t.Errorf("%s %s: Puppet fails with %q; marionette: %+v", want.node, side, core, got.Errors)
			}
			continue
		}
		puppet[i] = readCaseCatalog(t, base+".json")
		mine := filepath.Join(kept, side, want.node+".json")
		if _, err := os.Stat(mine); err != nil {
			t.Errorf("%s %s: no catalog compiled (%v); errors %+v", want.node, side, err, got.Errors)
			continue
		}
		if d := catalogdiff.Compare(puppet[i], readCaseCatalog(t, mine), catalogdiff.Options{IgnoreFileLine: true}); !d.Empty() {
			t.Errorf("%s %s: marionette's catalog differs from Puppet's (%s):\n%s", want.node, side, want.expected[i], resultText(t, d))
		}
	}
	if puppet[0] == nil || puppet[1] == nil {
		return
	}
	wantText := resultText(t, catalogdiff.Compare(puppet[0], puppet[1], catalogdiff.Options{IgnoreFileLine: true}))
	gotText := "0 added, 0 removed, 0 changed\n"
	if got.Diff != nil {
		gotText = resultText(t, got.Diff)
	}
	if gotText != wantText {
		t.Errorf("%s: report\n%s\nwant (Puppet's catalogs)\n%s", want.node, gotText, wantText)
	}
}

// puppetErrorCore is the part of Puppet's error message that marionette
// words the same: without "Error: ", the location and " on node ...".
func puppetErrorCore(msg string) string {
	msg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(msg), "Error: "))
	if i := strings.Index(msg, " (file: "); i >= 0 {
		msg = msg[:i]
	}
	if i := strings.Index(msg, " for "); i >= 0 && strings.Contains(msg, "Could not find class") {
		msg = msg[:i]
	}
	return msg
}

// diffCaseReport is the part of diff --json the tests read.
type diffCaseReport struct {
	NewFailures []string `json:"new_failures"`
	Groups      []struct {
		Kind, Name string
		Nodes      []string
	}
	Nodes []diffCaseReportNode
}

type diffCaseReportNode struct {
	Node, Status string
	Errors       []struct{ Side, Error string }
	Diff         *catalogdiff.Result
}

// readSourceChange returns the old and new source text of a changed
// resource of a node.
func readSourceChange(t *testing.T, doc *diffCaseReport, node, typ, title string) [2]string {
	t.Helper()
	for _, n := range doc.Nodes {
		if n.Node != node || n.Diff == nil {
			continue
		}
		for _, c := range n.Diff.Changed {
			if c.Type != typ || c.Title != title {
				continue
			}
			for _, p := range c.Parameters {
				if p.Name == catalogdiff.SourceContentParam {
					var out [2]string
					json.Unmarshal(p.Old, &out[0])
					json.Unmarshal(p.New, &out[1])
					return out
				}
			}
		}
	}
	t.Errorf("%s: no source text change of %s[%s]", node, typ, title)
	return [2]string{}
}
