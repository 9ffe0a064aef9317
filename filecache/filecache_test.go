package filecache

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStat(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "abc"})
	for _, tc := range []struct {
		name   string
		exists bool
		size   int64
	}{
		{"f", true, 3},
		{"missing", false, 0},
		{".", false, 0},       // a directory
		{"f/below", false, 0}, // below a file
	} {
		s, err := Stat(filepath.Join(dir, tc.name))
		if err != nil || s.Exists() != tc.exists || s.Size != tc.size {
			t.Errorf("%s: %+v, %v; want exists %v, size %d", tc.name, s, err, tc.exists, tc.size)
		}
	}
}

// TestLoadParsesEachVersionOnce: concurrent loads of one version share one
// parse; a new version (or another kind) is parsed again.
func TestLoadParsesEachVersionOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.pp")
	writeTree(t, dir, map[string]string{"f.pp": "v1"})
	c := New()
	var parses atomic.Int32
	parse := func(src []byte) (any, error) {
		parses.Add(1)
		time.Sleep(time.Millisecond)
		return string(src), nil
	}
	load := func(kind string) string {
		t.Helper()
		v, err := c.Get(kind, path, parse)
		if err != nil {
			t.Fatal(err)
		}
		return v.(string)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { load("manifest") })
	}
	wg.Wait()
	later := time.Now().Add(time.Second)
	steps := []struct {
		name       string
		change     string // new content, "" for none
		kind       string
		want       string
		wantParses int32
	}{
		{"eight loads at once", "", "manifest", "v1", 1},
		{"unchanged", "", "manifest", "v1", 1},
		{"another kind", "", "epp", "v1", 2},
		{"changed", "v2 longer", "manifest", "v2 longer", 3},
	}
	for _, st := range steps {
		if st.change != "" {
			writeTree(t, dir, map[string]string{"f.pp": st.change})
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}
		if got := load(st.kind); got != st.want || parses.Load() != st.wantParses {
			t.Errorf("%s: %q after %d parses, want %q after %d", st.name, got, parses.Load(), st.want, st.wantParses)
		}
	}
	if _, err := c.Get("manifest", filepath.Join(dir, "missing.pp"), parse); err == nil {
		t.Error("missing file: no error")
	}
}

// TestLoadSurvivesAPanickingParser: the goroutine whose parser panics
// panics, and later loads of that version get an error instead of
// waiting forever.
func TestLoadSurvivesAPanickingParser(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"bad.erb": "x"})
	path := filepath.Join(dir, "bad.erb")
	c := New()
	parse := func([]byte) (any, error) { panic("parser bug") }
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the parser's panic did not reach its caller")
			}
		}()
		c.Get("erb", path, parse)
	}()
	done := make(chan error)
	go func() {
		_, err := c.Get("erb", path, parse)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "parser bug") {
			t.Errorf("after the panic: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a load after the panic waits forever")
	}
}

// TestLoadFileAgreesWithStatThenLoad: LoadFile gives what Stat and then
// Load give, for files, missing paths, directories, paths below a file and
// symlinks, and shares Load's cache: a version loaded one way is not parsed
// again the other way, a new version is.
func TestLoadFileAgreesWithStatThenLoad(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "abc", "empty": "", "d/g": "xyz"})
	if err := os.Symlink(filepath.Join(dir, "f"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	var parses atomic.Int32
	parse := func(src []byte) (any, error) {
		parses.Add(1)
		return string(src), nil
	}
	for _, name := range []string{"f", "empty", "d/g", "link", "dangling", "missing", "d", "f/below"} {
		path := filepath.Join(dir, name)
		wantStamp, wantErr := Stat(path)
		var want any
		if wantErr == nil && wantStamp.Exists() {
			want, wantErr = New().Load("k", path, wantStamp, parse)
		}
		stamp, got, err := New().LoadFile("k", path, parse)
		if stamp != wantStamp || got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: LoadFile = %+v, %v, %v; Stat then Load = %+v, %v, %v", name, stamp, got, err, wantStamp, want, wantErr)
		}
	}

	c := New()
	path := filepath.Join(dir, "f")
	stamp, _ := Stat(path)
	parses.Store(0)
	if _, err := c.Load("k", path, stamp, parse); err != nil {
		t.Fatal(err)
	}
	if _, v, err := c.LoadFile("k", path, parse); v != "abc" || err != nil || parses.Load() != 1 {
		t.Errorf("LoadFile after Load: %v, %v, %d parses; want abc, nil, 1", v, err, parses.Load())
	}
	later := stamp.ModTime.Add(time.Second)
	if err := os.WriteFile(path, []byte("abcd"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if s, v, err := c.LoadFile("k", path, parse); v != "abcd" || err != nil || s.Size != 4 || parses.Load() != 2 {
		t.Errorf("LoadFile of a new version: %+v, %v, %v, %d parses; want size 4, abcd, nil, 2", s, v, err, parses.Load())
	}
}
