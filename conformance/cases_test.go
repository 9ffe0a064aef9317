package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// writeCase creates a case directory from file name -> content; a content
// starting with "#!" is made executable.
func writeCase(t *testing.T, root, id string, files map[string]string) *Case {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(id))
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	c, err := ReadCase(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCaseCheck(t *testing.T) {
	valid := map[string]string{
		"case.yaml":     "node: a.example.com\ndescription: d\n",
		"site.pp":       "notify { 'x': }\n",
		"facts.yaml":    "fqdn: a.example.com\n",
		"expected.json": "{}\n",
	}
	with := func(changes map[string]string, drop ...string) map[string]string {
		out := map[string]string{}
		for k, v := range valid {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		for _, k := range drop {
			delete(out, k)
		}
		return out
	}
	tests := []struct {
		name    string
		id      string
		files   map[string]string
		wantErr string // "" = valid
	}{
		{"valid", "node/ok", valid, ""},
		{"manifests directory", "node/ok", with(map[string]string{"manifests/a.pp": ""}, "site.pp"), ""},
		{"valid error case", "node/err", with(map[string]string{
			"case.yaml":          "node: a\ndescription: d\nerror: Could not find\n",
			"expected-error.txt": "Error: Could not find node\n",
		}, "expected.json"), ""},
		{"not kebab-case", "node/Bad_Name", valid, "not kebab-case"},
		{"no description", "node/x", with(map[string]string{"case.yaml": "node: a\n"}), "description is required"},
		{"no node", "node/x", with(map[string]string{"case.yaml": "description: d\n"}), "node is required"},
		{"no manifest", "node/x", with(nil, "site.pp"), "neither manifests/ nor site.pp"},
		{"no facts", "node/x", with(nil, "facts.yaml"), "facts.yaml is missing"},
		{"no expected file", "node/x", with(nil, "expected.json"), "no expected.json or expected-error.txt"},
		{"both expected files", "node/x", with(map[string]string{"expected-error.txt": "Error: x\n"}), "both"},
		{"error without error key", "node/x", with(map[string]string{"expected-error.txt": "Error: x\n"}, "expected.json"), "no error: substring"},
		{"error key but catalog", "node/x", with(map[string]string{"case.yaml": "node: a\ndescription: d\nerror: boom\n"}), "but Puppet compiled"},
		{"substring not in message", "node/x", with(map[string]string{
			"case.yaml":          "node: a\ndescription: d\nerror: Duplicate\n",
			"expected-error.txt": "Error: Could not find node\n",
		}, "expected.json"), `"Duplicate" does not occur`},
		{"legacy without error", "node/x", with(map[string]string{"case.yaml": "node: a\ndescription: d\nlegacy: true\n"}), "legacy: true only makes sense"},
		{"enc not executable", "enc/x", with(map[string]string{"case.yaml": "node: a\ndescription: d\nenc: enc.sh\n", "enc.sh": "echo classes: []\n"}), "not executable"},
		{"enc missing", "enc/x", with(map[string]string{"case.yaml": "node: a\ndescription: d\nenc: enc.sh\n"}), "enc enc.sh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := writeCase(t, t.TempDir(), tt.id, tt.files)
			errs := c.Check()
			if tt.wantErr == "" {
				if len(errs) > 0 {
					t.Errorf("Check() = %v, want no error", errs)
				}
				return
			}
			if !strings.Contains(fmt.Sprint(errs), tt.wantErr) {
				t.Errorf("Check() = %v, want an error containing %q", errs, tt.wantErr)
			}
		})
	}
}

// TestCaseCheckModulesSymlink: a dangling modules symlink is a layout error
// that names the target, unless it points at a known corpus (the case is
// then skipped when the corpus is absent); one that resolves is fine.
func TestCaseCheckModulesSymlink(t *testing.T) {
	files := map[string]string{
		"case.yaml":     "node: a.example.com\ndescription: d\n",
		"site.pp":       "include x\n",
		"facts.yaml":    "fqdn: a.example.com\n",
		"expected.json": "{}\n",
	}
	root := t.TempDir()
	sharedModules := filepath.Join(root, "shared", "modules")
	tests := []struct {
		name, target, wantErr string
	}{
		{"dangling", "../../../shared/nowhere", "modules is a symlink to ../../../shared/nowhere, which does not exist"},
		{"resolves", "../../../shared/modules", ""},
		{"absent-forge-corpus", "../../../nowhere/shared/forge/modules", ""},
		{"absent-debian-corpus", "/usr/share/puppet/modules", ""},
	}
	if err := os.MkdirAll(sharedModules, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := writeCase(t, filepath.Join(root, "cases"), "forge/"+tt.name, files)
			if err := os.Symlink(tt.target, filepath.Join(c.Dir, "modules")); err != nil {
				t.Fatal(err)
			}
			errs := fmt.Sprint(c.Check())
			switch {
			case tt.wantErr == "" && errs != "[]":
				t.Errorf("Check() = %s, want no error", errs)
			case tt.wantErr != "" && !strings.Contains(errs, tt.wantErr):
				t.Errorf("Check() = %s, want an error containing %q", errs, tt.wantErr)
			}
		})
	}
}

func TestReadCaseRejectsUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, CaseFile), []byte("node: a\ndescription: d\nstrict_hostname_check: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCase(dir, "node/x"); err == nil || !strings.Contains(err.Error(), "strict_hostname_check") {
		t.Errorf("ReadCase error = %v, want one naming the unknown key", err)
	}
}

func TestCompileArgs(t *testing.T) {
	root := t.TempDir()
	plain := writeCase(t, root, "node/plain", map[string]string{
		"case.yaml": "node: a.example.com\ndescription: d\n",
		"site.pp":   "",
	})
	full := writeCase(t, root, "enc/full", map[string]string{
		"case.yaml":      "node: b\ndescription: d\nenc: enc.sh\nstrict_hostname_checking: false\nenvironment: staging\n",
		"manifests/a.pp": "",
		"site.pp":        "", // ignored: manifests/ wins
		"hiera.yaml":     "version: 5\n",
		"enc.sh":         "#!/bin/sh\n",
	})
	tests := []struct {
		c    *Case
		want []string
	}{
		{plain, []string{"compile", "a.example.com",
			"--manifest", filepath.Join(plain.Dir, "site.pp"),
			"--modulepath", filepath.Join(plain.Dir, "modules"),
			"--facts", filepath.Join(plain.Dir, "facts.yaml")}},
		{full, []string{"compile", "b",
			"--manifest", filepath.Join(full.Dir, "manifests"),
			"--modulepath", filepath.Join(full.Dir, "modules"),
			"--facts", filepath.Join(full.Dir, "facts.yaml"),
			"--enc", filepath.Join(full.Dir, "enc.sh"),
			"--hiera-config", filepath.Join(full.Dir, "hiera.yaml"),
			"--environment", "staging",
			"--strict-hostname-checking=false"}},
	}
	for _, tt := range tests {
		if got := tt.c.CompileArgs(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: CompileArgs()\n got %q\nwant %q", tt.c.ID, got, tt.want)
		}
	}
}

func TestSelectCases(t *testing.T) {
	root := t.TempDir()
	for _, id := range []string{"node/a", "node/b", "class/a"} {
		writeCase(t, root, id, map[string]string{"case.yaml": "node: x\ndescription: d\n"})
	}
	cases, err := LoadCases(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		selectors []string
		want      string
		wantErr   string
	}{
		{nil, "class/a node/a node/b", ""},
		{[]string{"node/*"}, "node/a node/b", ""},
		{[]string{"class/a", "node/b"}, "class/a node/b", ""},
		{[]string{filepath.Join(root, "node", "a") + "/"}, "node/a", ""},
		{[]string{"node/c"}, "", "matches no case"},
		{[]string{"node/["}, "", "syntax error"},
	}
	for _, tt := range tests {
		got, err := SelectCases(cases, root, tt.selectors)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("SelectCases(%q) error = %v, want %q", tt.selectors, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("SelectCases(%q): %v", tt.selectors, err)
			continue
		}
		var ids []string
		for _, c := range got {
			ids = append(ids, c.ID)
		}
		if strings.Join(ids, " ") != tt.want {
			t.Errorf("SelectCases(%q) = %q, want %q", tt.selectors, ids, tt.want)
		}
	}
}

func TestSampleCases(t *testing.T) {
	var cases []*Case
	for i := 0; i < 50; i++ {
		cases = append(cases, &Case{ID: fmt.Sprintf("area/case-%02d", i)})
	}
	ids := func(cs []*Case) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return strings.Join(out, " ")
	}
	first := ids(SampleCases(cases, 10, "seed-a"))
	if again := ids(SampleCases(cases, 10, "seed-a")); again != first {
		t.Errorf("same seed, different samples:\n%s\n%s", first, again)
	}
	if other := ids(SampleCases(cases, 10, "seed-b")); other == first {
		t.Errorf("different seeds gave the same sample %s", first)
	}
	if n := len(SampleCases(cases, 10, "seed-a")); n != 10 {
		t.Errorf("sample size %d, want 10", n)
	}
	if n := len(SampleCases(cases, 500, "seed-a")); n != 50 {
		t.Errorf("oversized sample has %d cases, want all 50", n)
	}
}

func TestJudge(t *testing.T) {
	root := t.TempDir()
	catalogCase := writeCase(t, root, "node/ok", map[string]string{
		"case.yaml": "node: a\ndescription: d\n",
		"expected.json": `{"name": "a", "environment": "production", "classes": ["settings"], "edges": [],
		  "resources": [{"type": "Notify", "title": "x", "exported": false, "tags": ["notify"], "parameters": {}, "file": "site.pp", "line": 1}]}`,
	})
	errorCase := writeCase(t, root, "node/err", map[string]string{
		"case.yaml": "node: a\ndescription: d\nerror: Could not find node statement\n",
	})
	legacyCase := writeCase(t, root, "node/legacy", map[string]string{
		"case.yaml": "node: a\ndescription: d\nerror: Node inheritance is not supported\nlegacy: true\n",
	})
	ourCatalog := func(file string) []byte {
		return []byte(`{"name": "a", "environment": "production", "version": 9, "classes": ["settings"], "edges": [],
		  "resources": [{"type": "Notify", "title": "x", "tags": ["notify"], "exported": false, "file": "` + file + `", "line": 1}]}`)
	}
	tests := []struct {
		name    string
		c       *Case
		res     RunResult
		wantErr string // "" = pass
	}{
		{"same catalog", catalogCase, RunResult{Stdout: ourCatalog(filepath.Join(catalogCase.Dir, "site.pp"))}, ""},
		{"other file", catalogCase, RunResult{Stdout: ourCatalog(filepath.Join(catalogCase.Dir, "other.pp"))}, "declared at other.pp:1"},
		{"compile failed", catalogCase, RunResult{ExitCode: 1, Stderr: []byte("error: boom")}, "compile failed (exit 1)"},
		{"not a catalog", catalogCase, RunResult{Stdout: []byte("hello")}, "not a catalog"},
		{"timeout", catalogCase, RunResult{TimedOut: true, ExitCode: -1}, "did not finish"},
		{"expected error", errorCase, RunResult{ExitCode: 1, Stderr: []byte("Error: Could not find node statement with name 'a'")}, ""},
		{"other error", errorCase, RunResult{ExitCode: 1, Stderr: []byte("Error: syntax error")}, "lacks"},
		{"error case compiled", errorCase, RunResult{Stdout: []byte("{}")}, "compile succeeded"},
		{"legacy accepted with warning", legacyCase, RunResult{Stderr: []byte("Warning: node inheritance is deprecated")}, ""},
		{"legacy rejected like Puppet", legacyCase, RunResult{ExitCode: 1, Stderr: []byte("Error: Node inheritance is not supported in Puppet >= 4.0.0")}, ""},
		{"legacy accepted silently", legacyCase, RunResult{Stdout: []byte("{}")}, "without a deprecation warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(Judge(tt.c, tt.res, time.Second).Problems, "\n")
			if tt.wantErr == "" && got != "" {
				t.Errorf("Judge = %q, want a pass", got)
			}
			if tt.wantErr != "" && !strings.Contains(got, tt.wantErr) {
				t.Errorf("Judge = %q, want a problem containing %q", got, tt.wantErr)
			}
		})
	}
}

func TestForceNoop(t *testing.T) {
	raw := []byte(`Notice: x
{"name": "a", "resources": [
  {"type": "File", "title": "/tmp/x", "parameters": {"ensure": "file", "noop": false}},
  {"type": "Class", "title": "App"}]}`)
	out, err := ForceNoop(raw)
	if err != nil {
		t.Fatal(err)
	}
	var catalog struct {
		Resources []struct {
			Parameters map[string]any `json:"parameters"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(out, &catalog); err != nil {
		t.Fatal(err)
	}
	for i, r := range catalog.Resources {
		if r.Parameters["noop"] != true {
			t.Errorf("resource %d: noop = %v, want true", i, r.Parameters["noop"])
		}
	}
	if catalog.Resources[0].Parameters["ensure"] != "file" {
		t.Errorf("other parameters must survive: %v", catalog.Resources[0].Parameters)
	}
	if _, err := ForceNoop([]byte(`{"resources": 3}`)); err == nil {
		t.Error("ForceNoop accepted a catalog without a resources list")
	}
}

func TestAgentErrors(t *testing.T) {
	output := "Notice: Applied catalog\nError: Facter: Permission denied\nError: Could not find dependency File[x] for Notify[y]\n  Error: indented lines are not agent errors\n" +
		"Error: /Stage[main]/Postfix::Files/File[/etc/postfix/main.cf]: Could not evaluate: Could not retrieve information from environment production source(s) puppet:///modules/postfix/main.cf\n" +
		"Error: /Stage[main]/Main/Mysql::Db[app]/Mysql_database[app]: Provider mysql is not functional on this host\n" +
		"Error: Could not find a suitable provider for mysql_user\n"
	want := []string{"Error: Could not find dependency File[x] for Notify[y]"}
	if got := agentErrors(output); !reflect.DeepEqual(got, want) {
		t.Errorf("agentErrors = %q, want %q", got, want)
	}
}

// TestApplyNoop runs the agent for real (when Puppet is installed) on a
// catalog it accepts and on one it rejects, so that apply-check is known to
// tell them apart.
func TestApplyNoop(t *testing.T) {
	// Puppet takes seconds to start: run beside the other tests.
	t.Parallel()
	if _, err := FindOracle(".."); err != nil {
		corpus.Absent(t, err)
	}
	if testing.Short() {
		t.Skip("runs puppet apply")
	}
	const good = `{"name": "a", "version": 1, "environment": "production", "catalog_format": 2, "tags": [],
	  "resources": [
	    {"type": "Stage", "title": "main", "tags": ["stage"], "exported": false, "parameters": {"name": "main"}},
	    {"type": "Class", "title": "main", "tags": ["class"], "exported": false, "parameters": {"name": "main"}},
	    {"type": "Notify", "title": "hello", "tags": ["notify"], "exported": false}],
	  "edges": [{"source": "Stage[main]", "target": "Class[main]"}, {"source": "Class[main]", "target": "Notify[hello]"}],
	  "classes": ["settings"]}`
	bad := strings.Replace(good, `"exported": false}]`, `"exported": false, "parameters": {"require": "File[/nonexistent]"}}]`, 1)
	tests := []struct {
		name, catalog string
		wantOK        bool
	}{
		{"accepted", good, true},
		{"dangling require", bad, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			problems, err := ApplyNoop(context.Background(), []byte(tt.catalog), t.TempDir(), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("problems: %q", problems)
			if ok := len(problems) == 0; ok != tt.wantOK {
				t.Errorf("ApplyNoop problems = %q, want ok=%v", problems, tt.wantOK)
			}
		})
	}
}

func TestMaskRubyAddresses(t *testing.T) {
	a := []byte("set on Notify[x] by #<Puppet::Resource::Type:0x00007fd346ce3ad0> at")
	b := []byte("set on Notify[x] by #<Puppet::Resource::Type:0x00007f585cf71a50> at")
	if !bytes.Equal(maskRubyAddresses(a), maskRubyAddresses(b)) {
		t.Errorf("addresses not masked: %s", maskRubyAddresses(a))
	}
	if bytes.Equal(maskRubyAddresses(a), maskRubyAddresses([]byte("set on Notify[y] by #<Puppet::Resource::Type:0x00007fd346ce3ad0> at"))) {
		t.Error("masking hid a real difference")
	}
}
