package fleet_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/conformance"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
)

// TestReadSetsOfConformanceCases is the proof that a compile's record of
// what it read is complete, on every conformance case that compiles: each
// file of the case that the record does not cover (not read, not below a
// module the compile used, not the main manifest, not a module's Ruby
// types and functions, which every compile's environment digest covers)
// is removed in turn, and the case must compile to the same catalog. A
// file the compile did read without recording it would change the catalog
// or fail the compile. Files outside the case (the shared Forge corpus)
// are not touched.
func TestReadSetsOfConformanceCases(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.LoadCases(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Skip("no conformance cases in " + root)
	}
	var checked, removed, untracked int
	for _, c := range cases {
		if c.IsErrorCase() {
			continue
		}
		if _, err := c.ModulePath(); err != nil {
			continue // its corpus is absent (see internal/corpus)
		}
		t.Run(c.ID, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(c.Dir)); err != nil {
				t.Skipf("copying the case: %v", err)
			}
			// Links out of the case (a site's stub/, the shared corpora)
			// point where the original's do, and a sites case's parent
			// stub/ (its hiera.yaml's ../stub datadir) is there for the
			// copy too: read in place, untouched.
			if err := relinkOutside(dir, c.Dir); err != nil {
				t.Fatal(err)
			}
			if stub := filepath.Join(filepath.Dir(c.Dir), "stub"); isDir(stub) {
				if err := os.Symlink(stub, filepath.Join(filepath.Dir(dir), "stub")); err != nil && !os.IsExist(err) {
					t.Fatal(err)
				}
			}
			// The compile reads the copy; what the copy lacks (a symlink
			// to a shared corpus, the area's default facts) it reads where
			// it is, untouched.
			args := c.CompileArgs()
			for i, a := range args {
				parts := strings.Split(a, string(filepath.ListSeparator))
				for j, p := range parts {
					if rest, ok := strings.CutPrefix(p, c.Dir); ok {
						if _, err := os.Stat(dir + rest); err == nil {
							parts[j] = dir + rest
						}
					}
				}
				args[i] = strings.Join(parts, string(filepath.ListSeparator))
			}
			base, reads, ok := compileRecorded(t, args)
			if !ok {
				t.Skip("the case does not compile here")
			}
			files, trees, why := reads.Reads()
			if why != "" {
				untracked++
				return
			}
			checked++
			covered := func(p string) bool {
				if slices.Contains(files, p) || strings.Contains(p, "/lib/puppet/") {
					return true
				}
				for _, tree := range trees {
					if strings.HasPrefix(p, tree+"/") {
						return true
					}
				}
				return false
			}
			// The request's inputs, and the case's own description.
			request := map[string]bool{
				filepath.Join(dir, conformance.FactsFile): true,
				filepath.Join(dir, "case.yaml"):           true,
			}
			if c.ENC != "" {
				request[filepath.Join(dir, c.ENC)] = true
			}
			var others []string
			_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && !request[p] && !covered(p) &&
					!strings.HasPrefix(filepath.Base(p), "expected") && !isMainManifest(dir, args, p) {
					others = append(others, p)
				}
				return nil
			})
			for _, p := range others {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				removed++
				got, _, ok := compileRecorded(t, args)
				if !ok || !reflect.DeepEqual(got, base) {
					t.Errorf("removing %s, which the compile did not record reading, changes the catalog", strings.TrimPrefix(p, dir+"/"))
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	t.Logf("%d cases checked (%d files not read removed), %d untracked", checked, removed, untracked)
}

// relinkOutside makes each relative symlink of the copy dir of case
// directory orig that leads out of the case an absolute link to where the
// original leads (os.CopyFS copies link targets as they are written).
func relinkOutside(dir, orig string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		target, err := os.Readlink(p)
		if err != nil || filepath.IsAbs(target) {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		resolved := filepath.Join(filepath.Dir(filepath.Join(orig, rel)), target)
		if resolved == orig || strings.HasPrefix(resolved, orig+string(filepath.Separator)) {
			return nil
		}
		if err := os.Remove(p); err != nil {
			return err
		}
		return os.Symlink(resolved, p)
	})
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// isMainManifest reports whether p is (in) the --manifest of args: every
// compile's environment digest covers it.
func isMainManifest(dir string, args []string, p string) bool {
	for i, a := range args {
		if a == "--manifest" && i+1 < len(args) {
			m := args[i+1]
			if p == m || strings.HasPrefix(p, m+"/") {
				return true
			}
			// A main manifest directory reached through a symlink
			// (lang/manifest-dir-symlink): its files are the target's.
			if r, err := filepath.EvalSymlinks(m); err == nil && r != m {
				rp, err := filepath.EvalSymlinks(p)
				return err == nil && (rp == r || strings.HasPrefix(rp, r+"/"))
			}
			return false
		}
	}
	return false
}

// compileRecorded compiles a case's `marionette compile` arguments in
// process, recording the reads, and returns the catalog as JSON data
// without what changes on every compile (its UUID); ok is false when the
// compile fails.
func compileRecorded(t *testing.T, args []string) (catalog any, reads *readset.Recorder, ok bool) {
	catalog, reads, err := compileRecordedErr(t, args)
	if err != nil {
		t.Logf("%v", err)
	}
	return catalog, reads, err == nil
}

func compileRecordedErr(t *testing.T, args []string) (catalog any, reads *readset.Recorder, err error) {
	t.Helper()
	a, err := conformance.ParseCompileArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	a.Log = func(level, msg string) {}
	s, err := site.Open(a.Options)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	return compileWithFacts(t, s, a, nil)
}
