package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
)

// TestKeepExported: the v4 catalog API keeps the exported resources nothing
// collected, marked exported; the agent's catalog leaves them out.
func TestKeepExported(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site.pp")
	if err := os.WriteFile(site, []byte("@@notify { 'exp': }\nnotify { 'plain': }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, err := environment.Load(environment.Config{Name: "production", Manifest: site})
	if err != nil {
		t.Fatal(err)
	}
	ref := catalog.Ref{Type: "Notify", Title: "exp"}
	for _, keep := range []bool{false, true} {
		cat, err := compileCatalog(env, &Request{Node: "n1", Facts: testFacts(), KeepExported: keep})
		if err != nil {
			t.Fatal(err)
		}
		r := cat.Lookup(ref)
		switch {
		case keep && (r == nil || !r.Exported):
			t.Errorf("KeepExported: %v, want the exported resource", r)
		case !keep && r != nil:
			t.Error("the agent's catalog holds an uncollected exported resource")
		}
		if cat.Lookup(catalog.Ref{Type: "Notify", Title: "plain"}) == nil {
			t.Errorf("keep=%v: Notify[plain] missing", keep)
		}
	}
}
