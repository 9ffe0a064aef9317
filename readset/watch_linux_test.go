package readset

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTreeWatcher checks that a watched tree is walked again exactly when
// something below it changed, and that what Stamp gives is TreeStamp's.
func TestTreeWatcher(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write("mod/manifests/init.pp", "class mod {}")
	write("mod/templates/a.erb", "a")
	write("mod/data/common.yaml", "x: 1")
	mod := filepath.Join(root, "mod")
	data := filepath.Join(mod, "data")

	w := NewTreeWatcher()
	if w == nil {
		t.Skip("no inotify instance here (fs.inotify.max_user_instances reached?)")
	}
	defer w.Close()
	// check asks for tree and wants TreeStamp's answer, after wantWalks
	// walks in all (of every tree, since the watcher was made).
	check := func(what, tree string, wantWalks int) {
		t.Helper()
		got, err := w.Stamp(tree)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, _, _ := TreeStamp(tree)
		if got != want {
			t.Errorf("%s: stamp %s, TreeStamp %s", what, got, want)
		}
		if w.walks != wantWalks {
			t.Errorf("%s: %d walks, want %d", what, w.walks, wantWalks)
		}
	}
	check("first", mod, 1)
	check("again, nothing changed", mod, 1)
	check("a tree inside it", data, 2)
	check("the inner tree again", data, 2)

	write("mod/templates/a.erb", "changed")
	check("a file changed below", mod, 3)
	check("the inner tree, changed outside it", data, 3)

	write("mod/data/common.yaml", "x: 2")
	check("the inner tree, changed inside it", data, 4)
	check("the outer tree, changed in the inner one", mod, 5)

	write("mod/files/new/deep.txt", "new")
	check("a new directory", mod, 6)
	write("mod/files/new/deep.txt", "newer")
	check("a file in the new directory changed", mod, 7)
	check("nothing since", mod, 7)

	if err := os.Remove(filepath.Join(root, "mod/templates/a.erb")); err != nil {
		t.Fatal(err)
	}
	check("a file removed", mod, 8)

	// A file changed within the time granularity is not trusted.
	if err := os.WriteFile(filepath.Join(root, "mod/manifests/init.pp"), []byte("class mod { }"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a recent file", mod, 9)
	check("still recent", mod, 10)

	// A tree holding a symlink is walked every time.
	other := filepath.Join(root, "other")
	write("other/x.txt", "x")
	if err := os.Symlink(filepath.Join(root, "mod/data"), filepath.Join(other, "link")); err != nil {
		t.Fatal(err)
	}
	check("a tree with a symlink", other, 11)
	check("it again", other, 12)

	// A missing tree is walked (a stat) every time.
	check("missing", filepath.Join(root, "none"), 13)
	check("missing again", filepath.Join(root, "none"), 14)
}

// TestTreeWatcherNil: a nil watcher walks.
func TestTreeWatcherNil(t *testing.T) {
	var w *TreeWatcher
	dir := t.TempDir()
	got, err := w.Stamp(dir)
	want, _, _ := TreeStamp(dir)
	if err != nil || got != want {
		t.Fatalf("nil watcher: %q, %v; want %q", got, err, want)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
