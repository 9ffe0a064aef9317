package compiler

import (
	"github.com/marionette-dev/marionette/filecache"
	"os"
	"sync"
)

// fileCache keeps parsed templates and module Ruby functions, so each is
// parsed once per process; an entry is re-parsed when the file's size or
// modification time changes. Entries are keyed by path and kind (a file read
// both as ERB and as EPP is parsed once as each). Safe for concurrent compiles.
type fileCache struct {
	mu      sync.Mutex
	entries map[fileCacheKey]*cacheEntry
}

type fileCacheKey struct{ kind, path string }

type cacheEntry struct {
	stamp fileStamp
	val   any
}

// load returns the parsed form of path as kind, parsing it with parse when
// it is not cached or changed on disk.
func (fc *fileCache) load(path, kind string, parse func(src []byte) (any, error)) (any, error) {
	key := fileCacheKey{kind, path}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	stamp := fileStamp{size: st.Size(), mtime: st.ModTime()}
	fc.mu.Lock()
	e := fc.entries[key]
	fc.mu.Unlock()
	if e != nil && e.stamp == stamp {
		return e.val, nil
	}
	src, err := filecache.Read(path, st.Size())
	if err != nil {
		return nil, err
	}
	v, err := parse(src)
	if err != nil {
		return nil, err
	}
	fc.mu.Lock()
	if fc.entries == nil {
		fc.entries = make(map[fileCacheKey]*cacheEntry)
	}
	fc.entries[key] = &cacheEntry{stamp: stamp, val: v}
	fc.mu.Unlock()
	return v, nil
}

// loadFile is the environment's fileCache.load remembered for the rest of
// the compile: the first use of a file checks the disk, a template
// rendered again or a Ruby function called again does not. Errors are not
// remembered.
func (c *Compilation) loadFile(path, kind string, parse func(src []byte) (any, error)) (any, error) {
	key := fileCacheKey{kind, path}
	if v, ok := c.files[key]; ok {
		return v, nil
	}
	v, err := c.env.sources.templates.load(path, kind, parse)
	if err != nil {
		return nil, err
	}
	if c.files == nil {
		c.files = make(map[fileCacheKey]any)
	}
	c.files[key] = v
	return v, nil
}
