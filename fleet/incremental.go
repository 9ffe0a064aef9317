package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/value"
)

// sideCatalog is one side's catalog of a node: compiled now, or a cache
// entry's (loaded only when it is compared with another catalog).
type sideCatalog struct {
	cat   *catalogdiff.Catalog
	entry *cacheEntry
}

// incremental holds what a side computes once for the cache: its
// environment's digest and the digests of the reads nodes recorded.
type incremental struct {
	envOnce   sync.Once
	envDigest string
	envErr    error
	// digests maps a read's portable key to its *readDigest on this side
	// (Digest "" when it could not be computed: nothing that read it is
	// reused); the cache's new entries share them.
	digests sync.Map
}

// compileCached is compileKeeping through cache: the catalog of a cache
// entry made for the same request whose reads have the same contents on
// this side, or a new compile, recorded into the cache when everything
// it read can be followed.
func (s *DiffSide) compileCached(ctx context.Context, req *compiler.Request, logw io.Writer, keep string, cache *ReadCache, stats *CacheStats) (sideCatalog, error) {
	own := *req
	if s.Adjust != nil {
		s.Adjust(&own)
	}
	request, err := s.requestDigest(&own, cache.program)
	if err == nil {
		for _, e := range cache.entries(own.Node, request) {
			if e.FactsDigest != readset.FactsDigest(own.Facts, e.Facts, e.AllFacts) || !s.valid(e) {
				continue
			}
			if keep != "" {
				data, err := cache.catalogJSON(e)
				if err != nil {
					continue
				}
				if err := keepCatalog(keep, data); err != nil {
					return sideCatalog{}, err
				}
			}
			cache.use(e)
			stats.Reused.Add(1)
			return sideCatalog{entry: e}, nil
		}
	}
	rec := readset.New()
	own.Reads = rec
	cat, catalogJSON, cerr := s.compileOwn(ctx, &own, logw, keep)
	stats.Compiled.Add(1)
	if cerr != nil {
		return sideCatalog{}, cerr
	}
	out := sideCatalog{cat: cat}
	files, trees, untracked := rec.Reads()
	if err != nil || untracked != "" {
		stats.Untracked.Add(1)
		return out, nil
	}
	e := &cacheEntry{Request: request, Roots: s.roots}
	e.Facts, e.AllFacts = rec.FactReads()
	e.FactsDigest = readset.FactsDigest(own.Facts, e.Facts, e.AllFacts)
	for _, group := range []struct {
		paths []string
		tree  bool
	}{{withoutTrees(files, trees), false}, {trees, true}} {
		for _, p := range group.paths {
			r := s.read(s.portable(p, group.tree))
			if r.Digest == "" {
				stats.Untracked.Add(1)
				return out, nil
			}
			e.Reads = append(e.Reads, r)
		}
	}
	if err := cache.add(own.Node, e, catalogJSON); err != nil {
		return out, fmt.Errorf("the diff cache: %v", err)
	}
	out.entry = e
	return out, nil
}

// load returns the side's catalog, reading a cache entry's when it was
// not compiled now: resource file names made relative to the roots it was
// compiled with, the source texts read from this side's modules.
func (s *DiffSide) load(sc sideCatalog, cache *ReadCache) (*catalogdiff.Catalog, error) {
	if sc.cat != nil {
		return sc.cat, nil
	}
	data, err := cache.catalogJSON(sc.entry)
	if err != nil {
		return nil, fmt.Errorf("the diff cache: %v", err)
	}
	cat, err := catalogdiff.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("the diff cache: %s: %v", cache.catalogPath(sc.entry.Catalog), err)
	}
	for _, r := range cat.Resources {
		r.File = relativeTo(sc.entry.Roots, r.File)
	}
	s.addSourceContent(cat, nil)
	return cat, nil
}

// valid reports whether everything e's compile read has on this side the
// contents it had then.
func (s *DiffSide) valid(e *cacheEntry) bool {
	for _, r := range e.Reads {
		if d := s.read(r.Key).Digest; d == "" || d != r.Digest {
			return false
		}
	}
	return true
}

// portable names a read so that it names the same file on another side:
// "env:REL" below the environment directory (a git ref's side is a
// temporary directory), the path itself elsewhere; "tree " or "file "
// before it says which digest it has.
func (s *DiffSide) portable(path string, tree bool) string {
	kind := "file "
	if tree {
		kind = "tree "
	}
	if rest, ok := strings.CutPrefix(path, s.envDir+string(filepath.Separator)); ok {
		return kind + "env:" + filepath.ToSlash(rest)
	}
	if path == s.envDir {
		return kind + "env:"
	}
	return kind + path
}

// local is the path a portable key names on this side.
func (s *DiffSide) local(key string) (path string, tree bool) {
	tree = strings.HasPrefix(key, "tree ")
	path = key[len("file "):]
	if rest, ok := strings.CutPrefix(path, "env:"); ok {
		path = filepath.Join(s.envDir, filepath.FromSlash(rest))
	}
	return path, tree
}

// withoutTrees is files less those below one of trees (sorted): a
// module's manifests and templates are in its tree's digest already.
func withoutTrees(files, trees []string) []string {
	out := files[:0:0]
	for _, f := range files {
		i := sort.SearchStrings(trees, f)
		// The tree holding f, if any, sorts just before f.
		if i > 0 && strings.HasPrefix(f, trees[i-1]+string(filepath.Separator)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// read is a read with its digest on this side, computed once; the digest
// is "" when it cannot be computed (then nothing that read it is reused).
func (s *DiffSide) read(key string) *readDigest {
	if r, ok := s.inc.digests.Load(key); ok {
		return r.(*readDigest)
	}
	path, tree := s.local(key)
	var d string
	var err error
	if tree {
		d, err = readset.TreeDigest(path)
	} else {
		d, err = readset.FileDigest(path)
	}
	if err != nil {
		d = ""
	}
	r, _ := s.inc.digests.LoadOrStore(key, &readDigest{key, d})
	return r.(*readDigest)
}

// requestDigest identifies what a compile of own on this side starts
// from besides the files and facts it reads: the request (classifier
// data, trusted data, settings; the facts are the entry's factsDigest),
// the environment as loaded (see environmentDigest) and marionette itself
// (program).
func (s *DiffSide) requestDigest(own *compiler.Request, program string) (string, error) {
	s.inc.envOnce.Do(func() { s.inc.envDigest, s.inc.envErr = s.environmentDigest() })
	if s.inc.envErr != nil {
		return "", s.inc.envErr
	}
	h := sha256.New()
	fmt.Fprintf(h, "program=%s\x00environment=%s\x00", program, s.inc.envDigest)
	own.WriteKey(h)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// environmentDigest digests what every compile on this side depends on
// beyond the files it records: the environment's name, settings and
// module path, which modules there are (which one a name autoloads from),
// the main manifest's files, environment.conf, which Ruby functions the
// modules have, their resource types and providers (read by every
// compile that checks a resource), stdlib's version (which functions it
// gives) and where Hiera's layers are.
func (s *DiffSide) environmentDigest() (string, error) {
	env := s.env
	h := sha256.New()
	field := func(name, v string) { fmt.Fprintf(h, "%s=%s\x00", name, v) }
	// Paths below the environment directory are named relative to it
	// (a git ref's side is extracted to a temporary directory).
	rel := func(p string) string { return strings.ReplaceAll(p, s.envDir, "<env>") }
	field("name", env.Name)
	field("puppet", fmt.Sprint(env.PuppetMajor()))
	for _, st := range env.Settings() {
		field("setting "+st.Name, rel(value.ToString(st.Value)))
	}
	for _, mp := range env.ModulePath {
		field("modulepath", rel(mp))
	}
	field("hiera global", env.Hiera.GlobalConfig)
	field("hiera environment", rel(env.Hiera.EnvironmentDir))
	field("hiera codedir", env.Hiera.Codedir)
	digestOf := func(path string, tree bool) error {
		d, err := readset.FileDigest(path)
		if tree {
			d, err = readset.TreeDigest(path)
		}
		if err != nil {
			return err
		}
		field(rel(path), d)
		return nil
	}
	if err := digestOf(filepath.Join(s.envDir, "environment.conf"), false); err != nil {
		return "", err
	}
	for _, f := range env.MainFiles() {
		if err := digestOf(f.Path, false); err != nil {
			return "", err
		}
	}
	stdlibSeen := false
	for _, mod := range env.ModuleDirs() {
		field("module", rel(mod))
		if filepath.Base(mod) == "stdlib" && !stdlibSeen {
			stdlibSeen = true
			if err := digestOf(filepath.Join(mod, "metadata.json"), false); err != nil {
				return "", err
			}
		}
		lib := filepath.Join(mod, "lib", "puppet")
		for _, dir := range []string{"type", "provider"} {
			if err := digestOf(filepath.Join(lib, dir), true); err != nil {
				return "", err
			}
		}
		for _, dir := range []string{filepath.Join(lib, "functions"), filepath.Join(lib, "parser", "functions")} {
			listNames(h, dir, rel)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// listNames writes the names of the files below dir (which Ruby
// functions a module has: their contents are read by the compiles that
// call them).
func listNames(h hash.Hash, dir string, rel func(string) string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			fmt.Fprintf(h, "name=%s\x00", rel(p))
		}
		return nil
	})
}

// CacheStats count what a run with a cache did, side by side.
type CacheStats struct {
	// Compiled and Reused count the compiles made and those a cached
	// catalog stood for; Untracked the compiles that read what the record
	// cannot follow (never cached).
	Compiled, Reused, Untracked atomic.Int64
}

// programDigest is the SHA-256 of the running executable: another build
// of marionette may compile the same code differently.
func programDigest() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return readset.FileDigest(exe)
}
