package readset

import (
	"github.com/marionette-dev/marionette/value"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestRecorder(t *testing.T) {
	var none *Recorder
	none.File("/x") // a nil recorder records nothing, and does not fail
	none.Tree("/x")
	none.Untracked("generate()")

	r := New()
	r.File("/b")
	r.File("/a")
	r.Tree("/m")
	r.File("/m") // a tree stays a tree
	r.Untracked("generate()")
	r.Untracked("glob()")
	files, trees, untracked := r.Reads()
	if len(files) != 2 || files[0] != "/a" || files[1] != "/b" || len(trees) != 1 || trees[0] != "/m" || untracked != "generate()" {
		t.Errorf("Reads() = %q, %q, %q", files, trees, untracked)
	}
}

func TestDigests(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod")
	write := func(name, content string) {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(d string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := must(FileDigest(filepath.Join(dir, "nope"))); d != Missing {
		t.Errorf("missing file: %q", d)
	}
	if d := must(TreeDigest(filepath.Join(dir, "nope"))); d != Missing {
		t.Errorf("missing tree: %q", d)
	}
	write("manifests/init.pp", "class mod {}\n")
	if d := must(FileDigest(filepath.Join(mod, "manifests", "init.pp", "below"))); d != Missing {
		t.Errorf("a path below a file: %q", d)
	}
	if d := must(FileDigest(mod)); d != Directory {
		t.Errorf("a directory: %q", d)
	}
	seen := map[string]string{}
	step := func(what string) {
		t.Helper()
		d := must(TreeDigest(mod))
		if prev, dup := seen[d]; dup {
			t.Errorf("%s: the tree's digest is that of %s", what, prev)
		}
		seen[d] = what
	}
	step("the first version")
	write("manifests/init.pp", "class mod { }\n")
	step("a changed file")
	write("manifests/new.pp", "")
	step("a new empty file")
	if err := os.Rename(filepath.Join(mod, "manifests", "new.pp"), filepath.Join(mod, "manifests", "other.pp")); err != nil {
		t.Fatal(err)
	}
	step("a renamed file")
	if err := os.Mkdir(filepath.Join(mod, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	step("a new empty directory")
	// A symlink loop ends in an error, not in a walk without end.
	if err := os.Symlink(mod, filepath.Join(mod, "loop")); err != nil {
		t.Fatal(err)
	}
	if _, err := TreeDigest(mod); err == nil {
		t.Error("a symlink loop: no error")
	}
}

// TestFactReads: facts recorded are listed sorted once each; AllFacts
// wins over them, before or after; a nil recorder records nothing.
func TestFactReads(t *testing.T) {
	r := New()
	r.Fact("os")
	r.Fact("fqdn")
	r.Fact("os")
	if names, all := r.FactReads(); all || !slices.Equal(names, []string{"fqdn", "os"}) {
		t.Errorf("got %v, %v", names, all)
	}
	r.AllFacts()
	r.Fact("uptime")
	if names, all := r.FactReads(); !all || names != nil {
		t.Errorf("after AllFacts: %v, %v", names, all)
	}
	var none *Recorder
	none.Fact("x")
	none.AllFacts()
}

// TestFactsDigest: the digest follows the values of the facts read (a
// missing one too), and of those a FactFold read names in any case, and
// nothing else.
func TestFactsDigest(t *testing.T) {
	facts := func(kv ...string) *value.Hash {
		b := value.NewHashBuilder(len(kv) / 2)
		for i := 0; i+1 < len(kv); i += 2 {
			b.Set(value.String(kv[i]), value.String(kv[i+1]))
		}
		return b.Build()
	}
	r := New()
	r.Fact("os")
	r.Fact("missing")
	r.FactFold("Role")
	names, all := r.FactReads()
	base := FactsDigest(facts("os", "debian", "uptime", "1", "role", "web"), names, all)
	for _, tt := range []struct {
		name string
		f    *value.Hash
		same bool
	}{
		{"an unread fact changed", facts("os", "debian", "uptime", "2", "role", "web"), true},
		{"a read fact changed", facts("os", "redhat", "uptime", "1", "role", "web"), false},
		{"a missing fact read appears", facts("os", "debian", "uptime", "1", "role", "web", "missing", "x"), false},
		{"a fact of the folded name appears", facts("os", "debian", "uptime", "1", "role", "web", "ROLE", "x"), false},
		{"the folded fact goes", facts("os", "debian", "uptime", "1"), false},
	} {
		if got := FactsDigest(tt.f, names, all) == base; got != tt.same {
			t.Errorf("%s: same digest = %v", tt.name, got)
		}
	}
	if !NamesFact(names, "ROLE") || !NamesFact(names, "os") || NamesFact(names, "uptime") {
		t.Errorf("NamesFact of %q", names)
	}
	r.FactNames()
	names, all = r.FactReads()
	listed := FactsDigest(facts("os", "debian", "uptime", "1", "role", "web"), names, all)
	if !ReadsFactNames(names) {
		t.Errorf("FactNames not in %q", names)
	}
	if FactsDigest(facts("os", "debian", "uptime", "2", "role", "web"), names, all) != listed {
		t.Error("names read: an unread fact's value changed the digest")
	}
	if FactsDigest(facts("os", "debian", "role", "web"), names, all) == listed {
		t.Error("names read: a fact gone did not change the digest")
	}
	if FactsDigest(nil, nil, true) == FactsDigest(facts("a", "b"), nil, true) {
		t.Error("all facts read: the digest does not follow them")
	}
}
