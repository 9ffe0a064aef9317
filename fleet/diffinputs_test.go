package fleet

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/value"
)

// factsJSON is the facts as compact JSON, for comparing.
func factsJSON(t *testing.T, h *value.Hash) string {
	t.Helper()
	return string(catalog.ValueJSON(h))
}

func TestFactOverrides(t *testing.T) {
	base := `{"os":{"family":"Debian","release":{"major":"11"}},"processors":{"count":2},"virtual":"kvm"}`
	tests := []struct {
		name      string
		overrides []string
		want      string
		wantErr   string
	}{
		{"a String fact stays a String", []string{"os.release.major=12"},
			`{"os":{"family":"Debian","release":{"major":"12"}},"processors":{"count":2},"virtual":"kvm"}`, ""},
		{"an Integer fact", []string{"processors.count=8"},
			`{"os":{"family":"Debian","release":{"major":"11"}},"processors":{"count":8},"virtual":"kvm"}`, ""},
		{"a typed value", []string{"os.release.major=(integer)12"},
			`{"os":{"family":"Debian","release":{"major":12}},"processors":{"count":2},"virtual":"kvm"}`, ""},
		{"a new fact, guessed", []string{"is_virtual=true", "ratio=0.5", "tags=[\"a\",1]", "owner=ops"},
			`{"os":{"family":"Debian","release":{"major":"11"}},"processors":{"count":2},"virtual":"kvm","is_virtual":true,"ratio":0.5,"tags":["a",1],"owner":"ops"}`, ""},
		{"removed", []string{"virtual="},
			`{"os":{"family":"Debian","release":{"major":"11"}},"processors":{"count":2}}`, ""},
		{"a key below a String", []string{"virtual.kind=kvm"},
			`{"os":{"family":"Debian","release":{"major":"11"}},"processors":{"count":2},"virtual":{"kind":"kvm"}}`, ""},
		{"no =", []string{"virtual"}, "", "want NAME=VALUE"},
		{"empty key", []string{"os..major=1"}, "", "empty key"},
		{"unknown type", []string{"x=(date)1"}, "", "unknown type"},
		{"bad integer", []string{"x=(integer)one"}, "", "invalid syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts, err := dataformat.FromJSON([]byte(base), "facts")
			if err != nil {
				t.Fatal(err)
			}
			var overrides []FactOverride
			for _, s := range tt.overrides {
				o, err := ParseFactOverride(s)
				if err != nil {
					if tt.wantErr == "" || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("ParseFactOverride(%q): %v, want error %q", s, err, tt.wantErr)
					}
					return
				}
				overrides = append(overrides, o)
			}
			if tt.wantErr != "" {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			got := factsJSON(t, ApplyFactOverrides(facts.(*value.Hash), overrides))
			if got != tt.want {
				t.Errorf("facts\n%s\nwant\n%s", got, tt.want)
			}
			// The facts read are not changed.
			if orig := factsJSON(t, facts.(*value.Hash)); orig != base {
				t.Errorf("overrides changed the original facts: %s", orig)
			}
		})
	}
}

func TestTrustedFromFacts(t *testing.T) {
	tests := []struct {
		name, facts, want string
	}{
		{"no trusted hash", `{"clientcert":"web01.example.com"}`, ""},
		{"extensions", `{"trusted":{"authenticated":"remote","certname":"web01.example.com","extensions":{"pp_role":"web"}}}`,
			`{"authenticated":"remote","certname":"web01.example.com","extensions":{"pp_role":"web"},"hostname":"web01","domain":"example.com","external":{}}`},
		{"only extensions: the rest from the node name", `{"trusted":{"extensions":{"pp_env":"prod"}}}`,
			`{"authenticated":"remote","certname":"n1.example.org","extensions":{"pp_env":"prod"},"hostname":"n1","domain":"example.org","external":{}}`},
		{"a name without a domain", `{"trusted":{"certname":"solo"}}`,
			`{"authenticated":"remote","certname":"solo","extensions":{},"hostname":"solo","domain":null,"external":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts, err := dataformat.FromJSON([]byte(tt.facts), "facts")
			if err != nil {
				t.Fatal(err)
			}
			got := TrustedFromFacts("n1.example.org", facts.(*value.Hash))
			switch {
			case tt.want == "" && got != nil:
				t.Errorf("got %s, want nil", catalog.ValueJSON(got.Hash))
			case tt.want != "" && (got == nil || string(catalog.ValueJSON(got.Hash)) != tt.want):
				var s string
				if got != nil {
					s = string(catalog.ValueJSON(got.Hash))
				}
				t.Errorf("got %s, want %s", s, tt.want)
			}
			if without := WithoutTrusted(facts.(*value.Hash)); strings.Contains(factsJSON(t, without), "trusted") {
				t.Errorf("WithoutTrusted kept it: %s", factsJSON(t, without))
			}
		})
	}
}

func TestSourceText(t *testing.T) {
	dir := t.TempDir()
	mods := filepath.Join(dir, "modules")
	for name, content := range map[string]string{
		"motd/files/motd":         "hello\n",
		"motd/files/sub/deep.txt": "deep\n",
		"motd/files/blob":         "\xff\xfe\x00",
	} {
		p := filepath.Join(mods, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &DiffSide{env: &compiler.Environment{ModulePath: []string{filepath.Join(dir, "none"), mods}}}
	tests := []struct {
		name    string
		sources []string
		want    string
		ok      bool
	}{
		{"a module file", []string{"puppet:///modules/motd/motd"}, "hello\n", true},
		{"below a directory, with a server", []string{"puppet://puppet.example.com/modules/motd/sub/deep.txt"}, "deep\n", true},
		{"the first that exists", []string{"puppet:///modules/motd/nope", "puppet:///modules/motd/motd"}, "hello\n", true},
		{"a directory", []string{"puppet:///modules/motd/sub"}, "(directory puppet:///modules/motd/sub)", true},
		{"missing", []string{"puppet:///modules/motd/nope"}, "(no such file in the modules: puppet:///modules/motd/nope)", true},
		{"binary", []string{"puppet:///modules/motd/blob"}, "(binary, 3 bytes, sha256 ", true},
		{"not a module mount", []string{"puppet:///files/x", "/etc/motd"}, "", false},
		{"leaving the module", []string{"puppet:///modules/motd/../../etc/passwd"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := s.sourceText(tt.sources, nil)
			if ok != tt.ok || !strings.HasPrefix(got, tt.want) {
				t.Errorf("sourceText(%q) = %q, %v; want %q, %v", tt.sources, got, ok, tt.want, tt.ok)
			}
		})
	}
	cat := &catalogdiff.Catalog{Resources: map[catalogdiff.Ref]*catalogdiff.Resource{
		{Type: "File", Title: "/etc/motd"}: {Ref: catalogdiff.Ref{Type: "File", Title: "/etc/motd"},
			Params: map[string]any{"source": []any{"puppet:///modules/motd/motd"}}},
		{Type: "File", Title: "/etc/x"}: {Ref: catalogdiff.Ref{Type: "File", Title: "/etc/x"},
			Params: map[string]any{"content": "x"}},
	}}
	s.addSourceContent(cat, nil)
	if got := cat.Resources[catalogdiff.Ref{Type: "File", Title: "/etc/motd"}].Params[catalogdiff.SourceContentParam]; got != "hello\n" {
		t.Errorf("File[/etc/motd] source content %q", got)
	}
	if _, ok := cat.Resources[catalogdiff.Ref{Type: "File", Title: "/etc/x"}].Params[catalogdiff.SourceContentParam]; ok {
		t.Errorf("File[/etc/x] has no source, but has source content")
	}
}

func TestExtractGitRef(t *testing.T) {
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
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("manifests/site.pp", "one\n")
	write("modules/m/files/f", "first\n")
	git("add", "-A")
	git("commit", "-qm", "one")
	git("tag", "v1")
	write("modules/m/files/f", "second\n")
	git("commit", "-qam", "two")
	// Uncommitted work stays as it is.
	write("modules/m/files/f", "dirty\n")

	for _, tt := range []struct{ ref, want string }{{"v1", "first\n"}, {"HEAD", "second\n"}, {"HEAD~1", "first\n"}} {
		if !IsGitRef(repo, tt.ref) {
			t.Errorf("IsGitRef(%q) = false", tt.ref)
		}
		dir, remove, err := ExtractGitRef(context.Background(), repo, tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "modules", "m", "files", "f"))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: f = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
		remove()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: %s not removed", tt.ref, dir)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "modules", "m", "files", "f")); string(got) != "dirty\n" {
		t.Errorf("the work tree changed: %q", got)
	}
	for _, bad := range []string{"nosuch", "--output=/tmp/x", "HEAD~5"} {
		if IsGitRef(repo, bad) {
			t.Errorf("IsGitRef(%q) = true", bad)
		}
		if _, _, err := ExtractGitRef(context.Background(), repo, bad); err == nil {
			t.Errorf("ExtractGitRef(%q): no error", bad)
		}
	}
}
