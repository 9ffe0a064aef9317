package testcompile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFactSets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	debian := write("debian.facts", `{"operatingsystem": "Debian", "os": {"family": "Debian"}, "processorcount": 2, "operatingsystem": "Debian GNU"}`)
	redhat := write("redhat.facts", "{\"operatingsystem\": \"RedHat\", \"is_virtual\": true}\n")
	s := New(t.TempDir())
	ask := func(files ...string) *Response {
		return s.Handle(context.Background(), &Request{Op: "factsets", Files: files, Keys: []string{"operatingsystem", "os", "processorcount", "is_virtual"}})
	}
	resp := ask(debian, redhat)
	if !resp.OK {
		t.Fatalf("error: %+v", resp.Error)
	}
	got, _ := json.Marshal(resp.Values)
	// A repeated fact is its last value, as in Ruby's JSON.parse; a fact
	// a file lacks is null; values are JSON (compacted here by Marshal).
	want := `[["Debian GNU",{"family":"Debian"},2,null],["RedHat",null,null,true]]`
	if string(got) != want {
		t.Errorf("values:\n got %s\nwant %s", got, want)
	}

	// A changed file is read again.
	if err := os.WriteFile(redhat, []byte(`{"operatingsystem": "CentOS"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(redhat, later, later); err != nil {
		t.Fatal(err)
	}
	if resp := ask(redhat); !resp.OK || string(resp.Values[0][0]) != `"CentOS"` {
		t.Errorf("changed file: %s %+v", resp.Values, resp.Error)
	}

	// What is not one JSON object is an error, so the adapter asks
	// FacterDB, which reads it its own way.
	for name, content := range map[string]string{
		"array.facts":   `[{"a": 1}]`,
		"null.facts":    `null`,
		"two.facts":     `{"a": 1} {"b": 2}`,
		"broken.facts":  `{"a": `,
		"latin1.facts":  "{\"a\": \"caf\xe9\"}",
		"trailer.facts": `{"a": 1} x`,
	} {
		p := write(name, content)
		if resp := ask(debian, p); resp.OK || resp.Error == nil || !strings.Contains(resp.Error.Message, name) {
			t.Errorf("%s: want an error naming it, got %+v", name, resp)
		}
	}
	if resp := ask(filepath.Join(dir, "absent.facts")); resp.OK {
		t.Errorf("absent file: no error")
	}
}
