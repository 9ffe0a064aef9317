// Package readset records what one compile read, so that a later run can
// tell, by comparing the contents now with those recorded, whether the
// compile would give the same catalog (marionette diff's incremental
// mode, and marionette serve's catalog reuse). A compile reads four kinds
// of thing: files (read, or looked for and found missing: a file that
// appears later may change the catalog), directory trees (a module the
// compile used, whose files it may read by any path), facts (the
// top-level facts it read, or all of them), and inputs it cannot track (a
// command's output, an absolute path given to a function, a PuppetDB
// query): one of those makes the compile's catalog one that is never
// reused.
package readset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// Recorder collects the reads of one compile. A nil *Recorder records
// nothing (a compile that is not recorded pays one nil check a read).
// Its methods may be called from several goroutines.
type Recorder struct {
	mu        sync.Mutex
	files     map[string]bool // path -> recorded as a tree
	untracked string
	// facts are the top-level facts the compile read (a read of a fact
	// that is absent counts: its appearing may change the catalog);
	// allFacts that it used the whole facts hash in a way not followed.
	facts    map[string]bool
	allFacts bool
}

// New returns an empty recorder.
func New() *Recorder { return &Recorder{files: make(map[string]bool)} }

// File records that the compile read the file at path, or found it
// missing (then the file's appearing changes the read).
func (r *Recorder) File(path string) {
	if r == nil || path == "" {
		return
	}
	r.mu.Lock()
	if _, ok := r.files[path]; !ok {
		r.files[path] = false
	}
	r.mu.Unlock()
}

// Tree records that the compile may have read any file below dir (a
// module it used): a change anywhere below it changes the read.
func (r *Recorder) Tree(dir string) {
	if r == nil || dir == "" {
		return
	}
	r.mu.Lock()
	r.files[dir] = true
	r.mu.Unlock()
}

// Untracked records that the compile used an input the recorder cannot
// follow; what names it for the report ("generate()", ...). The first
// one is kept.
func (r *Recorder) Untracked(what string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.untracked == "" {
		r.untracked = what
	}
	r.mu.Unlock()
}

// Fact records that the compile read the top-level fact name (all of
// it: $facts['os'] reads every fact below os), or looked for it and
// found it missing: a top-scope variable of that name, $facts[name], a
// Hiera interpolation of it.
func (r *Recorder) Fact(name string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if !r.allFacts {
		if r.facts == nil {
			r.facts = make(map[string]bool)
		}
		r.facts[name] = true
	}
	r.mu.Unlock()
}

// FactFold records that the compile looked for a fact whose name equals
// name but for case ('x' in $facts compares as == does): every fact of
// such a name counts as read, and one appearing changes the read.
func (r *Recorder) FactFold(name string) { r.Fact(foldPrefix + strings.ToLower(name)) }

// NamesFact reports whether names, as FactReads returns them, say that
// the fact name was read (by its name, or by a FactFold).
func NamesFact(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
		if folded, ok := strings.CutPrefix(n, foldPrefix); ok && strings.EqualFold(folded, name) {
			return true
		}
	}
	return false
}

// FactNames records that the compile listed the names of the facts
// whose values are not undef, in their order, and nothing of their values
// (a template's instance_variables lists every variable).
func (r *Recorder) FactNames() { r.Fact(namesMarker) }

// ReadsFactNames reports whether names, as FactReads returns them, hold
// a FactNames read.
func ReadsFactNames(names []string) bool { return slices.Contains(names, namesMarker) }

// namesMarker marks a FactNames read among the names FactReads returns.
const namesMarker = "\x00names"

// foldPrefix marks a FactFold read among the names FactReads returns.
const foldPrefix = "\x00fold:"

// FactsDigest digests the facts a compile read, as FactReads returns
// them (names, or all), with their values in facts (absent ones as
// absent): two requests whose facts digest the same give the compile the
// same facts to read.
func FactsDigest(facts *value.Hash, names []string, all bool) string {
	h := sha256.New()
	if all {
		if facts == nil {
			facts = value.EmptyHash
		}
		fmt.Fprintf(h, "all\x00%s", typedString(facts))
		return hex.EncodeToString(h.Sum(nil))
	}
	for _, n := range names {
		if n == namesMarker {
			fmt.Fprintf(h, "%s\x00", n)
			for i := 0; i < facts.Len(); i++ {
				if k, v := facts.At(i); !value.IsUndef(v) {
					fmt.Fprintf(h, "%s\x00", typedString(k))
				}
			}
			continue
		}
		if folded, ok := strings.CutPrefix(n, foldPrefix); ok {
			fmt.Fprintf(h, "%s\x00", n)
			for i := 0; i < facts.Len(); i++ {
				k, v := facts.At(i)
				if s, isString := k.(value.String); isString && strings.EqualFold(string(s), folded) {
					fmt.Fprintf(h, "%s\x00=%s\x00", s, typedString(v))
				}
			}
			continue
		}
		if v, ok := facts.GetString(n); ok {
			fmt.Fprintf(h, "%s\x00=%s\x00", n, typedString(v))
		} else {
			fmt.Fprintf(h, "%s\x00absent\x00", n)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// typedString is v's string form with its type: Puppet's string form
// quotes the strings inside a collection, so '1' and 1 differ; the type's
// name tells a top-level one apart.
func typedString(v value.Value) string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%T:%s", v, value.ToString(v))
}

// AllFacts records that the compile used the facts as a whole (the
// $facts hash passed on, iterated, compared or interpolated; every
// top-scope variable listed): any fact may have decided the catalog.
func (r *Recorder) AllFacts() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.allFacts, r.facts = true, nil
	r.mu.Unlock()
}

// FactReads returns the top-level facts recorded as read, sorted, or
// all = true when the compile may have read any.
func (r *Recorder) FactReads() (names []string, all bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.allFacts {
		return nil, true
	}
	for n := range r.facts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, false
}

// Reads returns the files and trees recorded, each sorted, and the first
// untracked input ("" for none).
func (r *Recorder) Reads() (files, trees []string, untracked string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for p, tree := range r.files {
		if tree {
			trees = append(trees, p)
		} else {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	sort.Strings(trees)
	return files, trees, r.untracked
}

// The digests of what is not a readable regular file.
const (
	Missing   = "missing"
	Directory = "directory"
)

// FileDigest is the SHA-256 of the file at path, Missing when there is
// none, Directory for a directory; another error (permission) is an
// error, so that the caller does not reuse what it cannot check.
func FileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return Missing, nil
		}
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return Directory, nil
	}
	if !st.Mode().IsRegular() {
		// A FIFO or a device: nothing a compile reads as data twice the
		// same way.
		return "", &fs.PathError{Op: "digest", Path: path, Err: errors.New("not a regular file")}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// maxTreeEntries bounds the names TreeDigest visits: symlinks may make
// a small tree look immense (two links to the same directory at each of
// forty levels).
const maxTreeEntries = 1 << 20

// TreeDigest is the SHA-256 of every name and file content below dir,
// symlinks followed (modules are often symlinks), Missing when dir does
// not exist. A symlink to a directory that holds it is an error, as is a
// tree of more than maxTreeEntries names.
func TreeDigest(dir string) (string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return Missing, nil
		}
		return "", err
	}
	if !st.IsDir() {
		return FileDigest(dir)
	}
	w := &treeWalk{h: sha256.New(), open: make(map[string]bool)}
	if err := w.hash(dir, ""); err != nil {
		return "", err
	}
	return hex.EncodeToString(w.h.Sum(nil)), nil
}

type treeWalk struct {
	h       hash.Hash
	entries int
	// open holds the real paths of the directories being walked.
	open map[string]bool
	// stampOnly hashes each file's size and modification time, not its
	// contents (TreeStamp); newest is the newest time seen.
	stampOnly bool
	newest    time.Time
}

func (w *treeWalk) hash(dir, rel string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	if w.open[real] {
		return &fs.PathError{Op: "digest", Path: dir, Err: errors.New("a symlink loop")}
	}
	w.open[real] = true
	defer delete(w.open, real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	for _, name := range names {
		if w.entries++; w.entries > maxTreeEntries {
			return &fs.PathError{Op: "digest", Path: dir, Err: fmt.Errorf("more than %d files", maxTreeEntries)}
		}
		p := filepath.Join(dir, name)
		r := rel + "/" + name
		st, err := os.Stat(p)
		if err != nil {
			// A dangling symlink: its name is all there is.
			io.WriteString(w.h, "L"+r+"\x00")
			continue
		}
		if w.stampOnly && !st.IsDir() {
			w.stamp(r, st)
			continue
		}
		if st.IsDir() {
			io.WriteString(w.h, "D"+r+"\x00")
			if err := w.hash(p, r); err != nil {
				return err
			}
			continue
		}
		d, err := FileDigest(p)
		if err != nil {
			return err
		}
		io.WriteString(w.h, "F"+r+"\x00"+d+"\x00")
	}
	return nil
}

// isNotDir reports a path below a file: as missing as a file can be.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// TreeStamp is a cheaper TreeDigest for a process that checks a tree
// often (marionette serve): the SHA-256 of every name below dir with the
// size and modification time of each file (symlinks followed), Missing
// when dir does not exist, and the newest modification time seen. A
// file's contents changed in place keep its stamp only when its size and
// modification time stay the same, which a write within the file
// system's time granularity can do: the caller does not trust a stamp
// whose newest time is that recent (as git does for its index).
func TreeStamp(dir string) (stamp string, newest time.Time, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return Missing, time.Time{}, nil
		}
		return "", time.Time{}, err
	}
	w := &treeWalk{h: sha256.New(), open: make(map[string]bool), stampOnly: true}
	if !st.IsDir() {
		w.stamp("", st)
	} else if err := w.hash(dir, ""); err != nil {
		return "", time.Time{}, err
	}
	return hex.EncodeToString(w.h.Sum(nil)), w.newest, nil
}

// stamp writes a file's name, size and modification time.
func (w *treeWalk) stamp(rel string, st fs.FileInfo) {
	t := st.ModTime()
	if t.After(w.newest) {
		w.newest = t
	}
	fmt.Fprintf(w.h, "S%s\x00%d\x00%d\x00", rel, st.Size(), t.UnixNano())
}
