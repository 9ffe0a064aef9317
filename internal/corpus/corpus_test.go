package corpus

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirFromEnv: the variable names the directory; the probe decides
// whether it holds the corpus; an absent one says where it looked and how
// to get it.
func TestDirFromEnv(t *testing.T) {
	full := t.TempDir()
	if err := os.MkdirAll(filepath.Join(full, "modules", "stdlib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "modules", "stdlib", "metadata.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	tests := []struct {
		name, env string
		want      string // "" when absent
	}{
		{"present", full, full},
		{"empty directory", empty, ""},
		{"no such directory", filepath.Join(empty, "nowhere"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("MARIONETTE_FORGE", tt.env)
			got, err := Forge().Dir()
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Fatalf("Dir() = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Dir() = %q, want an AbsentError", got)
			}
			if !IsAbsent(err) {
				t.Fatalf("Dir() error %T %v is not an AbsentError", err, err)
			}
			msg := err.Error()
			for _, want := range []string{"the Forge module corpus", tt.env, "scripts/forge-corpus"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("message %q is more than one line", msg)
			}
		})
	}
}

// TestSharedDirDefault: without MARIONETTE_SHARED the corpora are looked
// for in shared/ beside the repository, not at a fixed machine path.
func TestSharedDirDefault(t *testing.T) {
	t.Setenv(SharedEnv, "")
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("RepoRoot() = %s, which has no go.mod", root)
	}
	if got, want := SharedDir(), filepath.Join(filepath.Dir(root), "shared"); got != want {
		t.Errorf("SharedDir() = %s, want %s", got, want)
	}
	t.Setenv(SharedEnv, "/elsewhere")
	t.Setenv("MARIONETTE_BENCH", "")
	_, err = Bench().Dir()
	var absent *AbsentError
	if !errors.As(err, &absent) || absent.Dir != "/elsewhere/bench" {
		t.Errorf("Bench().Dir() with %s=/elsewhere: %v", SharedEnv, err)
	}
}

// TestForgePins: the pin list scripts/forge-corpus installs from is the
// corpus's own list, and every module of the corpus is at its pinned
// version, so a corpus re-created from the pins is the one the expected
// catalogs were made with.
func TestForgePins(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	pins, err := os.ReadFile(filepath.Join(root, "testdata", "forge-corpus", "modules.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(pins)), "\n")
	if len(rows) < 2 || !strings.HasPrefix(rows[0], "module\tforge_name\tversion\t") {
		t.Fatalf("modules.tsv: want a header and rows, got %d lines starting %q", len(rows), rows[0])
	}
	dir := Forge().Require(t)
	if corpusList, err := os.ReadFile(filepath.Join(dir, "modules.tsv")); err == nil && string(corpusList) != string(pins) {
		t.Errorf("%s/modules.tsv differs from testdata/forge-corpus/modules.tsv: copy the corpus's list", dir)
	}
	for _, row := range rows[1:] {
		f := strings.Split(row, "\t")
		if len(f) != 6 {
			t.Errorf("modules.tsv row %q: want 6 fields", row)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "modules", f[0], "metadata.json"))
		if err != nil {
			t.Errorf("%s: %v", f[0], err)
			continue
		}
		var meta struct{ Name, Version string }
		if err := json.Unmarshal(data, &meta); err != nil {
			t.Errorf("%s/metadata.json: %v", f[0], err)
			continue
		}
		if want := strings.TrimPrefix(f[2], "v"); meta.Version != want || meta.Name != f[1] {
			t.Errorf("%s: metadata.json names %s %s, the pin is %s %s", f[0], meta.Name, meta.Version, f[1], want)
		}
	}
}
