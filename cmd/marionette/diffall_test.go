package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles writes files (relative path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Environment a of the diff --all-nodes tests; a2 is a copy of it.
var diffEnvA = map[string]string{
	"manifests/site.pp": `node default {
  include app
}
`,
	"modules/app/manifests/init.pp": `class app {
  file { '/etc/app.conf':
    ensure  => file,
    mode    => '0644',
    content => "port = 80\n",
  }
  file { '/etc/old':
    ensure => absent,
  }
  notify { 'env':
    message => "built in ${environment}",
  }
}
`,
	"modules/extra/manifests/init.pp": "class extra {\n  notify { 'extra': }\n}\n",
}

// Environment b changes a parameter and a tag of File[/etc/app.conf],
// replaces File[/etc/old] by File[/etc/new], adds Package[postgresql] on db
// nodes only, and cannot compile bad.example.com.
var diffEnvB = map[string]string{
	"manifests/site.pp": `node 'bad.example.com' {
  include nosuch
}
node default {
  include app
}
`,
	"modules/app/manifests/init.pp": `class app {
  file { '/etc/app.conf':
    ensure  => file,
    mode    => '0600',
    content => "port = 80\n",
    tag     => 'hardened',
  }
  file { '/etc/new':
    ensure => directory,
  }
  if $facts['role'] == 'db' {
    package { 'postgresql':
      ensure => installed,
    }
  }
  notify { 'env':
    message => "built in ${environment}",
  }
}
`,
	"modules/extra/manifests/init.pp": "class extra {\n  notify { 'extra': message => $enc_message }\n}\n",
}

// diffAllFixture builds an environmentpath with environments a, a2 (a copy
// of a in which only the file names differ) and b, a facts dir of three
// nodes, a facts dir with a broken facts file and a nodes file; it returns
// the directory holding them.
func diffAllFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "envs", "a"), diffEnvA)
	// Module code one line lower: only the line numbers differ from a.
	a2 := map[string]string{}
	for k, v := range diffEnvA {
		a2[k] = v
	}
	a2["modules/app/manifests/init.pp"] = "# a copy of a\n" + diffEnvA["modules/app/manifests/init.pp"]
	writeFiles(t, filepath.Join(dir, "envs", "a2"), a2)
	writeFiles(t, filepath.Join(dir, "envs", "b"), diffEnvB)
	writeFiles(t, filepath.Join(dir, "facts"), map[string]string{
		"web01.example.com.yaml": "role: web\nnetworking:\n  hostname: web01\n",
		"db01.example.com.json":  `{"name": "db01.example.com", "values": {"role": "db", "networking": {"hostname": "db01"}}}`,
		"bad.example.com.yaml":   "role: web\nnetworking:\n  hostname: bad\n",
	})
	writeFiles(t, filepath.Join(dir, "facts-broken"), map[string]string{
		"web01.example.com.yaml":  "role: web\n",
		"broken.example.com.yaml": "a: [\n",
	})
	// The ENC classifies every node but bad.example.com, for which it
	// fails, and names an environment (which diff --all-nodes ignores).
	writeFiles(t, dir, map[string]string{"enc.sh": "#!/bin/sh\ncase \"$1\" in\n bad*) echo no such node >&2; exit 1 ;;\n" +
		" *) printf 'environment: elsewhere\\nclasses:\\n  - extra\\nparameters:\\n  enc_message: from the ENC\\n' ;;\nesac\n"})
	if err := os.Chmod(filepath.Join(dir, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"nodes.txt": "# no bad node, not in name order\nweb01.example.com\ndb01.example.com\n"})
	return dir
}

// diffAtoB is the text report of diff --all-nodes --from a --to b over the
// three nodes; $DIR stands for the fixture directory.
const diffAtoB = `!!! bad.example.com fails only with the new code:
    to b: Evaluation Error: Error while evaluating a Function Call, Could not find class ::nosuch for bad.example.com (file: $DIR/envs/b/manifests/site.pp, line: 2, column: 3)

=== 2 nodes: db01.example.com, web01.example.com
~ File[/etc/app.conf]
    mode: "0644" → "0600"
    + tag: "hardened"
    tags: + hardened

=== 2 nodes: db01.example.com, web01.example.com
+ File[/etc/new]
    + ensure: "directory"

=== 2 nodes: db01.example.com, web01.example.com
- File[/etc/old]
    - ensure: "absent"

=== 2 nodes: db01.example.com, web01.example.com
~ Notify[env]
    message: "built in a" → "built in b"

=== 1 node: db01.example.com
+ Package[postgresql]
    + ensure: "installed"

3 nodes (a → b): 2 changed, 0 unchanged, 1 failed
`

func TestDiffAllNodes(t *testing.T) {
	dir := diffAllFixture(t)
	envs := filepath.Join(dir, "envs")
	facts := filepath.Join(dir, "facts")
	tests := []struct {
		name string
		args []string
		code int
		// want is the whole of stdout when set; contains and lacks are
		// checked otherwise.
		want     string
		contains []string
		lacks    []string
		// inOrder are substrings that must appear in this order.
		inOrder []string
	}{
		{name: "a to b", args: []string{"--from", "a", "--to", "b", "--facts-dir", facts}, code: 2, want: diffAtoB},
		{name: "a to b, flags in another order", args: []string{"--facts-dir", facts, "--to", "b", "--jobs", "1", "--from", "a"}, code: 2, want: diffAtoB},
		{name: "b to a", args: []string{"--from", "b", "--to", "a", "--facts-dir", facts}, code: 2,
			contains: []string{"=== 1 node: db01.example.com\n- Package[postgresql]\n", "- File[/etc/new]\n", "+ File[/etc/old]\n",
				`    mode: "0600" → "0644"` + "\n", "    tags: - hardened\n",
				"!!! bad.example.com fails only with the old code:\n    from b: Evaluation Error", "3 nodes (b → a): 2 changed, 0 unchanged, 1 failed\n"}},
		{name: "nodes file without the bad node", args: []string{"--from", "a", "--to", "b", "--nodes-from", filepath.Join(dir, "nodes.txt"), "--facts-dir", facts}, code: 1,
			contains: []string{"=== 2 nodes: db01.example.com, web01.example.com\n", "2 nodes (a → b): 2 changed, 0 unchanged, 0 failed\n"},
			lacks:    []string{"bad.example.com", "!!!"},
			inOrder:  []string{"=== 2 nodes: db01.example.com, web01.example.com\n", "=== 1 node: db01.example.com\n+ Package[postgresql]", "2 nodes"}},
		{name: "ignore tags", args: []string{"--from", "a", "--to", "b", "--nodes-from", filepath.Join(dir, "nodes.txt"), "--facts-dir", facts, "--ignore-tags"}, code: 1,
			contains: []string{`    mode: "0644" → "0600"` + "\n"},
			lacks:    []string{"tags:"}},
		{name: "same environment", args: []string{"--from", "a", "--to", "a", "--facts-dir", facts}, code: 0,
			want: "3 nodes (a → a): 0 changed, 3 unchanged, 0 failed\n"},
		{name: "copy by path differs in $environment only", args: []string{"--from", filepath.Join(envs, "a"), "--to", envs + "/a2/", "--facts-dir", facts}, code: 1,
			contains: []string{"=== 3 nodes: bad.example.com, db01.example.com, web01.example.com\n~ Notify[env]\n    message: \"built in a\" → \"built in a2\"\n\n",
				"3 nodes ($DIR/envs/a → $DIR/envs/a2/): 3 changed, 0 unchanged, 0 failed\n"},
			lacks: []string{"File["}},
		{name: "copy by path with one environment name", args: []string{"--environment-name", "production", "--from", filepath.Join(envs, "a"), "--to", envs + "/a2", "--facts-dir", facts}, code: 0,
			contains: []string{"0 changed, 3 unchanged, 0 failed\n"}},
		// Files are compared relative to each environment, so only the
		// line numbers differ.
		{name: "copy compared with file and line", args: []string{"--environment-name", "production", "--from", filepath.Join(envs, "a"), "--to", envs + "/a2", "--facts-dir", facts, "--ignore-file-line=false"}, code: 1,
			contains: []string{"~ File[/etc/app.conf]\n    line: 2 → 3\n", "3 changed, 0 unchanged, 0 failed\n"},
			lacks:    []string{"file:"}},
		{name: "ENC", args: []string{"--from", "a", "--to", "b", "--facts-dir", facts, "--ignore-tags", "--enc", filepath.Join(dir, "enc.sh")}, code: 2,
			contains: []string{"~ Notify[extra]\n    + message: \"from the ENC\"\n", "!!! bad.example.com fails:\n    Failed when searching for node bad.example.com", "3 nodes (a → b): 2 changed, 0 unchanged, 1 failed\n"},
			lacks:    []string{"bad.example.com (", "elsewhere"}},
		// The --max-* limits bound each side's compiles, as in compile.
		{name: "max-resources", args: []string{"--from", "a", "--to", "a", "--facts-dir", facts, "--max-resources", "3"}, code: 2,
			contains: []string{"more than MaxResources (3) resources", "3 nodes (a → a): 0 changed, 0 unchanged, 3 failed\n"}},
		{name: "max-yaml-nodes bounds the facts", args: []string{"--from", "a", "--to", "a", "--facts-dir", facts, "--max-yaml-nodes", "2"}, code: 2,
			contains: []string{"!!! 2 nodes fail: bad.example.com, web01.example.com\n    could not read facts: ($DIR/facts/bad.example.com.yaml): document expands to more than MaxYAMLNodes (2) values"}},
		{name: "broken facts fail both sides", args: []string{"--from", "a", "--to", "b", "--facts-dir", filepath.Join(dir, "facts-broken")}, code: 2,
			contains: []string{"=== 1 node: web01.example.com\n", "!!! broken.example.com fails:\n    could not read facts", "2 nodes (a → b): 1 changed, 0 unchanged, 1 failed\n"},
			lacks:    []string{"broken.example.com (from", "broken.example.com (to"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"diff", "--all-nodes", "--environmentpath", envs}, tt.args...)
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			got := strings.ReplaceAll(stdout.String(), dir, "$DIR")
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s", code, tt.code, stderr.String())
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("stdout lacks %q:\n%s", s, got)
				}
			}
			rest := got
			for _, s := range tt.inOrder {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Errorf("stdout lacks %q after the previous ones:\n%s", s, got)
					break
				}
				rest = rest[i+len(s):]
			}
			for _, s := range tt.lacks {
				if strings.Contains(got, s) {
					t.Errorf("stdout has %q:\n%s", s, got)
				}
			}
		})
	}
}

// TestDiffAllNodesJSON checks the --json document: every node with its
// status, the differences of the changed nodes and the side that failed.
func TestDiffAllNodesJSON(t *testing.T) {
	dir := diffAllFixture(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"diff", "--all-nodes", "--json", "--environmentpath", filepath.Join(dir, "envs"),
		"--from", "a", "--to", "b", "--facts-dir", filepath.Join(dir, "facts")}, &stdout, &stderr)
	if code != 2 {
		t.Errorf("exit %d, want 2\nstderr:\n%s", code, stderr.String())
	}
	type ref struct{ Type, Title string }
	var doc struct {
		From, To string
		Summary  map[string]int
		Nodes    []struct {
			Node, Status string
			Errors       []struct{ Side, Environment, Error string }
			Diff         *struct {
				Summary map[string]int
				Added   []struct {
					Type, Title, File string
					Line              int
				}
				Removed []ref
				Changed []struct {
					Type, Title string
					Parameters  []struct {
						Name, Op string
						Old, New json.RawMessage
					}
					TagsAdded []string `json:"tags_added"`
				}
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if doc.From != "a" || doc.To != "b" {
		t.Errorf("from %q to %q", doc.From, doc.To)
	}
	if want := map[string]int{"nodes": 3, "changed": 2, "unchanged": 0, "failed": 1, "skipped": 0}; !reflect.DeepEqual(doc.Summary, want) {
		t.Errorf("summary %v, want %v", doc.Summary, want)
	}
	var names []string
	for _, n := range doc.Nodes {
		names = append(names, n.Node+" "+n.Status)
	}
	if want := []string{"bad.example.com failed", "db01.example.com changed", "web01.example.com changed"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("nodes %v, want %v", names, want)
	}
	bad := doc.Nodes[0]
	if len(bad.Errors) != 1 || bad.Errors[0].Side != "to" || bad.Errors[0].Environment != "b" ||
		!strings.Contains(bad.Errors[0].Error, "Could not find class ::nosuch") || bad.Diff != nil {
		t.Errorf("bad node: %+v", bad)
	}
	for _, n := range doc.Nodes[1:] {
		wantAdded := []ref{{"File", "/etc/new"}}
		if n.Node == "db01.example.com" {
			wantAdded = append(wantAdded, ref{"Package", "postgresql"})
		}
		if n.Diff == nil || len(n.Errors) != 0 {
			t.Fatalf("%s: %+v", n.Node, n)
		}
		var added []ref
		for _, a := range n.Diff.Added {
			added = append(added, ref{a.Type, a.Title})
			// File names are relative to the environment.
			if a.File != "modules/app/manifests/init.pp" || a.Line == 0 {
				t.Errorf("%s: %s[%s] declared at %s:%d", n.Node, a.Type, a.Title, a.File, a.Line)
			}
		}
		if !reflect.DeepEqual(added, wantAdded) {
			t.Errorf("%s: added %v, want %v", n.Node, added, wantAdded)
		}
		if want := []ref{{"File", "/etc/old"}}; !reflect.DeepEqual(n.Diff.Removed, want) {
			t.Errorf("%s: removed %v, want %v", n.Node, n.Diff.Removed, want)
		}
		if n.Diff.Summary["added"] != len(wantAdded) || n.Diff.Summary["changed"] != 2 {
			t.Errorf("%s: summary %v", n.Node, n.Diff.Summary)
		}
		var changes []string
		for _, c := range n.Diff.Changed {
			for _, p := range c.Parameters {
				changes = append(changes, fmt.Sprintf("%s[%s] %s %s: %s → %s", c.Type, c.Title, p.Name, p.Op, p.Old, p.New))
			}
			for _, tag := range c.TagsAdded {
				changes = append(changes, fmt.Sprintf("%s[%s] +tag %s", c.Type, c.Title, tag))
			}
		}
		want := []string{
			`File[/etc/app.conf] mode changed: "0644" → "0600"`,
			`File[/etc/app.conf] tag added:  → "hardened"`,
			`File[/etc/app.conf] +tag hardened`,
			`Notify[env] message changed: "built in a" → "built in b"`,
		}
		if !reflect.DeepEqual(changes, want) {
			t.Errorf("%s: changes\n%s\nwant\n%s", n.Node, strings.Join(changes, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestDiffAllNodesJobs checks that the report does not depend on how many
// nodes compile at once (run it with -race).
func TestDiffAllNodesJobs(t *testing.T) {
	dir := diffAllFixture(t)
	facts := filepath.Join(dir, "many")
	files := map[string]string{}
	for i := range 40 {
		role := []string{"web", "db"}[i%2]
		files[fmt.Sprintf("node%02d.example.com.yaml", i)] = "role: " + role + "\n"
	}
	files["bad.example.com.yaml"] = "role: db\n"
	files["zz-broken.example.com.yaml"] = "{\n"
	writeFiles(t, facts, files)
	for _, format := range [][]string{nil, {"--json"}} {
		var outs []string
		for _, jobs := range []string{"1", "4", "16"} {
			args := append([]string{"diff", "--all-nodes", "--environmentpath", filepath.Join(dir, "envs"),
				"--from", "a", "--to", "b", "--facts-dir", facts, "--jobs", jobs}, format...)
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 2 {
				t.Fatalf("--jobs %s: exit %d, want 2\nstderr:\n%s", jobs, code, stderr.String())
			}
			outs = append(outs, stdout.String())
		}
		if outs[0] != outs[1] || outs[0] != outs[2] {
			t.Errorf("%v: output differs between --jobs 1, 4 and 16:\n%s\n---\n%s\n---\n%s", format, outs[0], outs[1], outs[2])
		}
		if format == nil {
			if want := "42 nodes (a → b): 40 changed, 0 unchanged, 2 failed\n"; !strings.HasSuffix(outs[0], want) {
				t.Errorf("summary: want %q in\n%s", want, outs[0])
			}
			// Each change once: four on all 40 nodes, one on the 20 db
			// nodes; the node the new code breaks before the broken one.
			var headers []string
			for _, line := range strings.Split(outs[0], "\n") {
				if strings.HasPrefix(line, "=== ") {
					headers = append(headers, line)
				}
			}
			if len(headers) != 5 || strings.Count(outs[0], "=== 40 nodes: node00.example.com, node01.example.com") != 4 {
				t.Errorf("%d sections: %v", len(headers), headers)
			}
			if !strings.Contains(outs[0], "=== 20 nodes: node01.example.com, node03.example.com") || strings.Count(outs[0], "+ Package[postgresql]") != 1 {
				t.Errorf("want Package[postgresql] added once, on the 20 db nodes:\n%s", outs[0])
			}
			if !strings.HasPrefix(outs[0], "!!! bad.example.com fails only with the new code:") || !strings.Contains(outs[0], "!!! zz-broken.example.com fails:") {
				t.Errorf("want the new failure first:\n%s", outs[0])
			}
		}
	}
}

func TestDiffAllNodesUsageErrors(t *testing.T) {
	dir := diffAllFixture(t)
	envs := filepath.Join(dir, "envs")
	facts := filepath.Join(dir, "facts")
	// An environment whose main manifest does not parse cannot be loaded.
	writeFiles(t, filepath.Join(envs, "broken"), map[string]string{"manifests/site.pp": "node default {\n"})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no from", []string{"--to", "b", "--facts-dir", facts, "--environmentpath", envs}, "needs --from and --to"},
		{"no to", []string{"--from", "a", "--facts-dir", facts, "--environmentpath", envs}, "needs --from and --to"},
		{"no nodes", []string{"--from", "a", "--to", "b", "--environmentpath", envs}, "needs --facts-dir or --nodes-from"},
		{"catalog files", []string{"--from", "a", "--to", "b", "--facts-dir", facts, "--environmentpath", envs, "x.json"}, "takes no catalog files"},
		{"manifest", []string{"--from", "a", "--to", "b", "--facts-dir", facts, "--environmentpath", envs, "--manifest", "site.pp"}, "--manifest cannot be used"},
		{"environment", []string{"--from", "a", "--to", "b", "--facts-dir", facts, "--environmentpath", envs, "--environment", "a"}, "--environment cannot be used"},
		{"negative jobs", []string{"--from", "a", "--to", "b", "--facts-dir", facts, "--environmentpath", envs, "--jobs", "-2"}, "must not be negative"},
		{"bad flag", []string{"--from", "a", "--nope"}, "flag provided but not defined"},
		{"empty facts dir", []string{"--from", "a", "--to", "b", "--facts-dir", t.TempDir(), "--environmentpath", envs}, "no nodes to compile"},
		{"unknown environment", []string{"--from", "a", "--to", "nosuch", "--facts-dir", facts, "--environmentpath", envs},
			"--to nosuch: Could not find a directory environment named 'nosuch'"},
		{"name without environmentpath", []string{"--from", "a", "--to", "b", "--facts-dir", facts}, "--from a: an environment name needs --environmentpath"},
		{"missing directory", []string{"--from", filepath.Join(envs, "a"), "--to", filepath.Join(envs, "none"), "--facts-dir", facts}, "no environment directory"},
		{"unparsable environment", []string{"--from", "a", "--to", "broken", "--facts-dir", facts, "--environmentpath", envs}, "--to broken: Could not parse for environment broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"diff", "--all-nodes"}, tt.args...), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr.String(), tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
}

// TestDiffNodes checks diff NODE... (no --all-nodes): one node or a few,
// their facts from --facts or --facts-dir, and the flags of the compiling
// diff.
func TestDiffNodes(t *testing.T) {
	dir := diffAllFixture(t)
	envs := filepath.Join(dir, "envs")
	facts := filepath.Join(dir, "facts")
	html := filepath.Join(t.TempDir(), "report.html")
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
		lacks    []string
		stderr   string
	}{
		{name: "one node, --facts", args: []string{"web01.example.com", "--from", "a", "--to", "b", "--facts", filepath.Join(facts, "web01.example.com.yaml")}, code: 1,
			contains: []string{"=== web01.example.com ===\n~ File[/etc/app.conf]\n", "1 nodes (a → b): 1 changed, 0 unchanged, 0 failed\n"}},
		{name: "two nodes, --facts-dir", args: []string{"web01.example.com", "db01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts}, code: 1,
			contains: []string{"=== 1 node: db01.example.com\n+ Package[postgresql]\n", "2 nodes (a → b): 2 changed"}},
		{name: "a fact override", args: []string{"web01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts, "--fact-override", "role=db"}, code: 1,
			contains: []string{"+ Package[postgresql]\n"}},
		{name: "filters", args: []string{"db01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts,
			"--ignore", "File[/etc/app.conf]::mode", "--ignore-type", "package", "--ignore-title", "/etc/old", "--ignore-param", "message"}, code: 1,
			contains: []string{"~ File[/etc/app.conf]\n    + tag: \"hardened\"\n", "+ File[/etc/new]\n"},
			lacks:    []string{"mode", "postgresql", "/etc/old", "Notify[env]"}},
		{name: "colour", args: []string{"--color=always", "web01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts}, code: 1,
			contains: []string{"\x1b[33m~ File[/etc/app.conf]\x1b[0m\n", "\x1b[32m+ File[/etc/new]\x1b[0m\n"}},
		{name: "html", args: []string{"--all-nodes", "--from", "a", "--to", "b", "--facts-dir", facts, "--html", html}, code: 2,
			contains: []string{"3 nodes (a → b)"}},
		{name: "Puppet 7 against 8, the configured environment", args: []string{"web01.example.com", "--environment", "a", "--from-puppet", "7", "--to-puppet", "8", "--facts-dir", facts}, code: 0,
			contains: []string{"1 nodes (a (Puppet 7) → a (Puppet 8)): 0 changed, 1 unchanged, 0 failed\n"}},
		{name: "no node", args: []string{"--from", "a", "--to", "b", "--facts-dir", facts}, code: 2, stderr: "diff needs node names, or --all-nodes"},
		{name: "no facts", args: []string{"web01.example.com", "--from", "a", "--to", "b"}, code: 2, stderr: "needs --facts FILE or --facts-dir DIR"},
		{name: "--facts for two nodes", args: []string{"a1", "a2", "--from", "a", "--to", "b", "--facts", "f.yaml"}, code: 2, stderr: "--facts names one node's facts"},
		{name: "bad override", args: []string{"web01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts, "--fact-override", "role"}, code: 2, stderr: "want NAME=VALUE"},
		{name: "bad ignore rule", args: []string{"web01.example.com", "--from", "a", "--to", "b", "--facts-dir", facts, "--ignore", "File[x"}, code: 2, stderr: "ignore rule"},
		{name: "bad Puppet major", args: []string{"web01.example.com", "--from-puppet", "6", "--to-puppet", "8", "--facts-dir", facts}, code: 2, stderr: "take 7 or 8"},
		{name: "no facts file for the node", args: []string{"nosuch.example.com", "--from", "a", "--to", "b", "--facts-dir", facts}, code: 2, stderr: "no facts file for node nosuch.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"diff", "--environmentpath", envs}, tt.args...)
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			got := stdout.String()
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s\nstdout:\n%s", code, tt.code, stderr.String(), got)
			}
			if tt.stderr != "" && !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("stdout lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(got, s) {
					t.Errorf("stdout has %q:\n%s", s, got)
				}
			}
		})
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "bad.example.com fails only with the new code") {
		t.Errorf("--html: %v\n%.500s", err, page)
	}
}

// TestDiffAllNodesCacheDir runs the same diff three times with one
// --cache-dir: the first compiles, the others reuse what did not fail,
// and all print what the diff without a cache prints.
func TestDiffAllNodesCacheDir(t *testing.T) {
	dir := diffAllFixture(t)
	cache := filepath.Join(t.TempDir(), "cache")
	base := []string{"diff", "--all-nodes", "--environmentpath", filepath.Join(dir, "envs"),
		"--from", "a", "--to", "b", "--facts-dir", filepath.Join(dir, "facts")}
	var want bytes.Buffer
	if code := run(base, &want, io.Discard); code != 2 {
		t.Fatalf("without a cache: exit %d, want 2", code)
	}
	for i, stats := range []string{
		"Diff cache: 6 compiles, 0 reused",
		// bad.example.com fails with b: that compile is made again.
		"Diff cache: 1 compiles, 5 reused",
		"Diff cache: 1 compiles, 5 reused",
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append(base, "--cache-dir", cache), &stdout, &stderr); code != 2 {
			t.Fatalf("run %d: exit %d, want 2\n%s", i, code, stderr.String())
		}
		if stdout.String() != want.String() {
			t.Errorf("run %d: the output differs from the diff without a cache:\n%s\n---\n%s", i, stdout.String(), want.String())
		}
		if !strings.Contains(stderr.String(), stats) {
			t.Errorf("run %d: want %q in\n%s", i, stats, stderr.String())
		}
	}
}
