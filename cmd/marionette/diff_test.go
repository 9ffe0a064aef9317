package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compileExample compiles one node of the example environment and writes the
// catalog, after a Notice line as `puppet catalog compile` prints, to a file.
func compileExample(t *testing.T, dir, node string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	facts := filepath.Join("..", "..", "examples", "facts", node+".yaml")
	code := run([]string{"compile", node, "--environmentpath", "../../examples", "--environment", "production", "--facts", facts}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("compile %s: exit %d: %s", node, code, stderr.String())
	}
	path := filepath.Join(dir, node+".json")
	data := append([]byte("Notice: Compiled catalog for "+node+" in environment production\n"), stdout.Bytes()...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDiffExampleNodes(t *testing.T) {
	dir := t.TempDir()
	web := compileExample(t, dir, "web01.example.com")
	db := compileExample(t, dir, "db02.example.com")
	// A second compile of the same node has a new version and catalog_uuid.
	web2 := filepath.Join(dir, "again", "web01.example.com.json")
	if err := os.Mkdir(filepath.Dir(web2), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(compileExample(t, filepath.Dir(web2), "web01.example.com"), web2); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"same node twice", []string{web, web2}, 0, []string{"0 added, 0 removed, 0 changed\n"}},
		{"web to db", []string{web, db}, 1, []string{"- Package[nginx]\n", "- Profile::Vhost[www]\n", "\nClasses:\n", "- profile::web\n"}},
		{"db to web, flags after the files", []string{db, web, "--ignore-tags"}, 1, []string{"+ Package[nginx]\n", "+ profile::web\n"}},
		{"flags first", []string{"--ignore-file-line=false", web, web2}, 0, nil},
		{"files after --", []string{"--json", "--", web, web2}, 0, []string{`"changed": []`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runDiff(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s\nstdout:\n%s", code, tt.code, stderr.String(), stdout.String())
			}
			for _, want := range tt.contains {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, stdout.String())
				}
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr: %s", stderr.String())
			}
		})
	}

	// The JSON form agrees with the text one.
	var text, js, stderr bytes.Buffer
	if code := runDiff([]string{web, db}, &text, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if code := runDiff([]string{"--json", web, db}, &js, &stderr); code != 1 {
		t.Fatalf("--json: exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Summary struct{ Added, Removed, Changed int } `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, js.String())
	}
	// The resource lines come first, up to the first blank line.
	section, _, _ := strings.Cut(text.String(), "\n\n")
	counts := map[string]int{}
	for _, l := range strings.Split(section, "\n") {
		if len(l) > 2 && l[1] == ' ' {
			counts[l[:1]]++
		}
	}
	if counts["+"] != doc.Summary.Added || counts["-"] != doc.Summary.Removed || counts["~"] != doc.Summary.Changed {
		t.Errorf("text report has %v resource lines, the JSON summary says %+v", counts, doc.Summary)
	}
	if doc.Summary.Removed == 0 {
		t.Errorf("web01 has resources db02 lacks, JSON summary %+v", doc.Summary)
	}
}

func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	broken := filepath.Join(dir, "broken.json")
	shape := filepath.Join(dir, "shape.json")
	for path, content := range map[string]string{
		good:   `{"resources":[{"type":"Notify","title":"x"}]}`,
		broken: `{"resources":[{"type":"Notify",`,
		shape:  `{"resources":[{"type":"Notify","title":"x","parameters":"oops"}]}`,
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no arguments", nil, "usage: marionette diff"},
		{"one file", []string{good}, "usage: marionette diff"},
		{"three files", []string{good, good, good}, "usage: marionette diff"},
		{"unknown flag", []string{"--nope", good, good}, "flag provided but not defined"},
		{"missing file", []string{good, missing}, missing},
		{"broken JSON", []string{broken, good}, broken + ": invalid JSON"},
		{"wrong shape", []string{good, shape}, shape + `: resources[0]: "parameters" is a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runDiff(tt.args, &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr.String(), tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("an error printed a report: %s", stdout.String())
			}
		})
	}
}
