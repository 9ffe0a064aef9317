package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchiveRoundTrip: parse and format are inverses for archives whose
// files end in a newline; markers need "-- " and " --" around a name.
func TestArchiveRoundTrip(t *testing.T) {
	tests := []struct {
		name, text string
		files      []string
	}{
		{"comment only", "node: a\n", nil},
		{"files", "node: a\n-- site.pp --\nnotify { 'x': }\n-- expected.json --\n{}\n", []string{"site.pp", "expected.json"}},
		{"empty file", "node: a\n-- site.pp --\n-- facts.yaml --\nx: 1\n", []string{"site.pp", "facts.yaml"}},
		{"not markers", "node: a\n-- site.pp --\n-- x\n--  --\n---- y ----\n", []string{"site.pp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			comment, files := parseArchive([]byte(tt.text))
			var names []string
			for _, f := range files {
				names = append(names, f.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.files, ",") {
				t.Errorf("files %q, want %q", names, tt.files)
			}
			if got := string(formatArchive(comment, files)); got != tt.text {
				t.Errorf("formatArchive(parseArchive(x)) =\n%s\nwant\n%s", got, tt.text)
			}
		})
	}
}

// TestArchiveCase: an archive is laid out as a case directory (its comment
// the case.yaml, the area's default facts when it has none, an executable
// ENC), a file name leaving the case is refused, and SaveExpected writes a
// new expected file back, replacing the other kind.
func TestArchiveCase(t *testing.T) {
	root, work := t.TempDir(), t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("lang/default-facts.yaml", "fqdn: a.example.com\n")
	write("lang/shared.txtar", "node: a.example.com\ndescription: d\nenc: enc.sh\n-- site.pp --\nnotify { 'x': }\n-- enc.sh --\n#!/bin/sh\necho classes: []\n-- expected.json --\n{}\n")
	write("lang/own-facts.txtar", "node: b.example.com\ndescription: d\n-- site.pp --\ninclude x\n-- facts.yaml --\nfqdn: b.example.com\n-- expected.json --\n{}\n")
	cases, err := LoadCases(root, work)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].ID != "lang/own-facts" || cases[1].ID != "lang/shared" {
		t.Fatalf("cases %v", cases)
	}
	for c, facts := range map[*Case]string{cases[0]: "fqdn: b.example.com\n", cases[1]: "fqdn: a.example.com\n"} {
		got, err := os.ReadFile(filepath.Join(c.Dir, FactsFile))
		if err != nil || string(got) != facts {
			t.Errorf("%s: facts %q (%v), want %q", c.ID, got, err, facts)
		}
		if errs := c.Check(); len(errs) > 0 {
			t.Errorf("%s: Check() = %v", c.ID, errs)
		}
	}
	if st, err := os.Stat(filepath.Join(cases[1].Dir, "enc.sh")); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("enc.sh is not executable: %v", err)
	}

	c := cases[1]
	os.Remove(filepath.Join(c.Dir, ExpectedCatalog))
	if err := os.WriteFile(filepath.Join(c.Dir, ExpectedError), []byte("Error: no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.SaveExpected(); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(c.Archive)
	want := "node: a.example.com\ndescription: d\nenc: enc.sh\n-- site.pp --\nnotify { 'x': }\n-- enc.sh --\n#!/bin/sh\necho classes: []\n-- expected-error.txt --\nError: no\n"
	if string(saved) != want {
		t.Errorf("saved archive:\n%s\nwant\n%s", saved, want)
	}

	write("bad/escape.txtar", "node: a\ndescription: d\n-- ../x.pp --\n")
	if _, err := LoadCases(filepath.Join(root, "bad"), work); err == nil || !strings.Contains(err.Error(), "not a plain relative path") {
		t.Errorf("an archive file outside the case: %v", err)
	}
}
