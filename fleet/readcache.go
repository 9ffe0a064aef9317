package fleet

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/atomicfile"
)

// ReadCache keeps compiled catalogs with what their compiles read
// (readset), in a directory, across diff runs: a node whose request is
// the same and whose reads have the same contents on a side is not
// compiled again on that side, its catalog is the cached one
// (`marionette diff --cache-dir`). A compile that read something the
// record cannot follow (generate(), the Ruby helper, PuppetDB) is never
// cached, nor is a failed one.
//
// The directory holds index.json (every node's entries, each with its
// reads and their digests) and catalogs/XX/SHA256.json (each catalog as
// compiled, once however many entries share it). One run uses a cache at
// a time.
type ReadCache struct {
	dir string
	// program is the digest of the running marionette (programDigest).
	program string

	mu    sync.Mutex
	nodes map[string][]*cacheEntry
	// used marks the entries this run used or made: Save keeps those.
	used map[*cacheEntry]bool
}

// cacheEntry is one compile of a node.
type cacheEntry struct {
	// Request is the digest of the request as compiled and of the side's
	// environment (readcache's requestDigest).
	Request string
	// Reads are the portable names of what the compile read (DiffSide's
	// portable) with their digests then.
	Reads []*readDigest
	// Catalog is the SHA-256 of the catalog's JSON, its file's name.
	Catalog string
	// Roots are the directories the catalog's resource file names are
	// relative to (DiffSide.roots of the side that compiled it).
	Roots []string
	// Facts are the top-level facts the compile read (AllFacts: it may
	// have read any), FactsDigest their values then (readset.FactsDigest).
	Facts       []string
	AllFacts    bool
	FactsDigest string
}

// readDigest is one read and its digest; entries share them (a fleet's
// nodes read mostly the same files).
type readDigest struct{ Key, Digest string }

// cacheIndex is index.json: the reads and roots of every entry are
// stored once, entries name them by index (a fleet's nodes share most).
type cacheIndex struct {
	Version int                       `json:"version"`
	Reads   [][2]string               `json:"reads"`
	Roots   [][]string                `json:"roots"`
	Nodes   map[string][]indexedEntry `json:"nodes"`
}

type indexedEntry struct {
	Request     string   `json:"request"`
	Reads       []int    `json:"reads"`
	Catalog     string   `json:"catalog"`
	Roots       int      `json:"roots"`
	Facts       []string `json:"facts"`
	AllFacts    bool     `json:"all_facts,omitempty"`
	FactsDigest string   `json:"facts_digest"`
}

// cacheVersion changes when what the index means changes: an index of
// another version is not read.
const cacheVersion = 2

// OpenReadCache opens (creating it when missing) the cache in dir. An
// index that cannot be read is an error: the directory is not a cache.
func OpenReadCache(dir string) (*ReadCache, error) {
	program, err := programDigest()
	if err != nil {
		return nil, fmt.Errorf("the diff cache: %v", err)
	}
	c := &ReadCache{dir: dir, program: program, nodes: make(map[string][]*cacheEntry), used: make(map[*cacheEntry]bool)}
	if err := os.MkdirAll(filepath.Join(dir, "catalogs"), 0o755); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	var idx cacheIndex
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: not a marionette diff cache: %v", filepath.Join(dir, "index.json"), err)
	}
	if idx.Version != cacheVersion {
		// Made by another version of marionette: start afresh.
		return c, nil
	}
	reads := make([]*readDigest, len(idx.Reads))
	for i, r := range idx.Reads {
		reads[i] = &readDigest{r[0], r[1]}
	}
	for node, entries := range idx.Nodes {
		for _, ie := range entries {
			e := &cacheEntry{Request: ie.Request, Catalog: ie.Catalog, Facts: ie.Facts, AllFacts: ie.AllFacts, FactsDigest: ie.FactsDigest}
			if ie.Roots < 0 || ie.Roots >= len(idx.Roots) || !validDigest(ie.Catalog) {
				return nil, fmt.Errorf("%s: a damaged entry of node %s", filepath.Join(dir, "index.json"), node)
			}
			e.Roots = idx.Roots[ie.Roots]
			e.Reads = make([]*readDigest, len(ie.Reads))
			for i, r := range ie.Reads {
				if r < 0 || r >= len(idx.Reads) {
					return nil, fmt.Errorf("%s: a damaged entry of node %s", filepath.Join(dir, "index.json"), node)
				}
				e.Reads[i] = reads[r]
			}
			c.nodes[node] = append(c.nodes[node], e)
		}
	}
	return c, nil
}

// validDigest reports whether s is a SHA-256 in hex, as a catalog's file
// name must be (a damaged index must not name a path elsewhere).
func validDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// entries returns node's entries made for request.
func (c *ReadCache) entries(node, request string) []*cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*cacheEntry
	for _, e := range c.nodes[node] {
		if e.Request == request {
			out = append(out, e)
		}
	}
	return out
}

// use marks e, an entry of node, as used by this run.
func (c *ReadCache) use(e *cacheEntry) {
	c.mu.Lock()
	c.used[e] = true
	c.mu.Unlock()
}

// forget drops e, an entry of node whose catalog cannot be read.
func (c *ReadCache) forget(node string, e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.used, e)
	c.nodes[node] = slices.DeleteFunc(c.nodes[node], func(x *cacheEntry) bool { return x == e })
}

// add stores a new entry of node with its catalog's JSON.
func (c *ReadCache) add(node string, e *cacheEntry, catalogJSON []byte) error {
	sum := sha256.Sum256(catalogJSON)
	e.Catalog = hex.EncodeToString(sum[:])
	path := c.catalogPath(e.Catalog)
	if _, err := os.Stat(path); err != nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(path, 0o644, atomicfile.Bytes(catalogJSON)); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nodes[node] = append(c.nodes[node], e)
	c.used[e] = true
	return nil
}

func (c *ReadCache) catalogPath(sum string) string {
	return filepath.Join(c.dir, "catalogs", sum[:2], sum+".json")
}

// catalogJSON reads an entry's catalog, checking it is the one recorded.
func (c *ReadCache) catalogJSON(e *cacheEntry) ([]byte, error) {
	data, err := os.ReadFile(c.catalogPath(e.Catalog))
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != e.Catalog {
		return nil, fmt.Errorf("%s: damaged (its digest is not its name)", c.catalogPath(e.Catalog))
	}
	return data, nil
}

// Save writes the index with the entries this run used or made (a node
// keeps those of its latest run: the two sides' at most), and removes
// the catalogs no entry names any more.
func (c *ReadCache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := cacheIndex{Version: cacheVersion, Nodes: make(map[string][]indexedEntry)}
	readIndex := make(map[readDigest]int)
	rootsIndex := make(map[string]int)
	keep := make(map[string]bool)
	nodes := make([]string, 0, len(c.nodes))
	for node := range c.nodes {
		nodes = append(nodes, node)
	}
	sort.Strings(nodes)
	for _, node := range nodes {
		// A node this run compared keeps the entries it used; one it did
		// not (a run of other nodes) keeps all.
		touched := false
		for _, e := range c.nodes[node] {
			touched = touched || c.used[e]
		}
		for _, e := range c.nodes[node] {
			if touched && !c.used[e] {
				continue
			}
			ie := indexedEntry{Request: e.Request, Catalog: e.Catalog, Reads: make([]int, len(e.Reads)),
				Facts: e.Facts, AllFacts: e.AllFacts, FactsDigest: e.FactsDigest}
			for i, r := range e.Reads {
				n, ok := readIndex[*r]
				if !ok {
					n = len(idx.Reads)
					readIndex[*r] = n
					idx.Reads = append(idx.Reads, [2]string{r.Key, r.Digest})
				}
				ie.Reads[i] = n
			}
			rk := strings.Join(e.Roots, "\x00")
			n, ok := rootsIndex[rk]
			if !ok {
				n = len(idx.Roots)
				rootsIndex[rk] = n
				idx.Roots = append(idx.Roots, e.Roots)
			}
			ie.Roots = n
			idx.Nodes[node] = append(idx.Nodes[node], ie)
			keep[e.Catalog] = true
		}
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(&idx); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(c.dir, "index.json"), 0o644, atomicfile.Bytes(buf.Bytes())); err != nil {
		return err
	}
	// The catalogs of entries no longer kept.
	shards, err := os.ReadDir(filepath.Join(c.dir, "catalogs"))
	if err != nil {
		return err
	}
	for _, sh := range shards {
		dir := filepath.Join(c.dir, "catalogs", sh.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range files {
			if sum, ok := strings.CutSuffix(f.Name(), ".json"); ok && !keep[sum] {
				os.Remove(filepath.Join(dir, f.Name()))
			}
		}
	}
	return nil
}
