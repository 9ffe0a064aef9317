package hiera

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/value"
)

// TestSnapshotCacheStatsOnce: sessions on a snapshot cache (a batch run's)
// see the hiera.yaml and data files as the first session found them, a
// file appearing, changing or going away later included; sessions on an
// ordinary cache see each change.
func TestSnapshotCacheStatsOnce(t *testing.T) {
	for _, snapshot := range []bool{false, true} {
		dir := writeTree(t, map[string]string{
			"hiera.yaml":       "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n",
			"data/common.yaml": "k: common\n",
		})
		cache := NewCacheOn(filecache.New())
		if snapshot {
			cache = NewSnapshotCacheOn(filecache.New())
		}
		lookup := func() string {
			s := NewSession(Options{Cache: cache, EnvironmentDir: dir}, nil)
			v, err := s.Lookup(Request{Keys: []string{"k"}})
			if err != nil {
				t.Fatal(err)
			}
			return value.ToString(v)
		}
		if got := lookup(); got != "common" {
			t.Fatalf("snapshot %v: first lookup %q", snapshot, got)
		}
		// A new file in front, a changed one behind (another size and time).
		later := time.Now().Add(time.Hour)
		for name, content := range map[string]string{"data/node.yaml": "k: node\n", "data/common.yaml": "k: changed common\n"} {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(p, later, later)
		}
		want := "node"
		if snapshot {
			want = "common"
		}
		if got := lookup(); got != want {
			t.Errorf("snapshot %v: after a data file appeared: %q, want %q", snapshot, got, want)
		}
		os.Remove(filepath.Join(dir, "data", "node.yaml"))
		want = "changed common"
		if snapshot {
			want = "common"
		}
		if got := lookup(); got != want {
			t.Errorf("snapshot %v: after data files changed: %q, want %q", snapshot, got, want)
		}
	}
}
