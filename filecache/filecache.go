// Package filecache keeps what a long-running process derives from files
// (parsed manifests, templates, Ruby functions, Hiera configs and data),
// each entry valid for one version of its file. Every use compares the
// file's size and modification time with those the entry was made from, so
// a file that changes on disk is read again and a compile server never
// serves stale code, while unchanged files are read and parsed once.
package filecache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/internal/snapmap"
)

// Stamp identifies one version of a file; the zero Stamp means the file
// does not exist (or is a directory).
type Stamp struct {
	Size    int64
	ModTime time.Time
}

// Exists reports whether the stamp is that of an existing file.
func (s Stamp) Exists() bool { return !s.ModTime.IsZero() }

// Stat returns path's stamp: the zero Stamp, and no error, when it does not
// exist or is a directory.
func Stat(path string) (Stamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return Stamp{}, nil
		}
		return Stamp{}, err
	}
	if st.IsDir() {
		return Stamp{}, nil
	}
	return Stamp{Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Cache maps a file, read as one kind ("manifest", "epp", "config:global",
// ...), to the value its parser made of one version of it. Any number of
// goroutines may share one: a lookup of an entry that is up to date takes
// no lock (and allocates nothing), and a file that several goroutines need at once is read and
// parsed by one of them while the others wait for its result.
type Cache struct {
	entries snapmap.Map[key, *entry]
}

// New returns an empty cache.
func New() *Cache { return &Cache{} }

type key struct{ kind, path string }

// entry is one parse of one version of a file. ready is closed once val
// and err are set.
type entry struct {
	stamp Stamp
	ready chan struct{}
	val   any
	err   error
}

// Parser makes the cached value of a file from its contents. Its error is
// cached with the value: the same version of the file fails the same way.
type Parser func(src []byte) (any, error)

// Load returns the value parse makes of the file at path, read as kind,
// for the version stamp (which the caller has just read with Stat): from
// the cache when that version was parsed before, else read and parsed now.
func (c *Cache) Load(kind, path string, stamp Stamp, parse Parser) (any, error) {
	k := key{kind, path}
	if e, ok := c.entries.Load(k); ok && e.stamp == stamp {
		<-e.ready
		return e.val, e.err
	}
	// Only one goroutine installs an entry for this version; the others
	// wait for its parse.
	var mine bool
	e := c.entries.Update(k, func(old *entry, ok bool) *entry {
		if ok && old.stamp == stamp {
			return old
		}
		mine = true
		return &entry{stamp: stamp, ready: make(chan struct{})}
	})
	if mine {
		e.fill(path, parse)
	}
	<-e.ready
	return e.val, e.err
}

// LoadFile is Stat then Load in one: it returns path's stamp and, for an
// existing file, the value parse makes of that version, from the cache or
// read and parsed now. Where it can, it opens the file first and takes the
// stamp from the open file, which looks the path up once instead of twice
// (a compile autoloads a hundred or more module files); errors are Stat's
// and Load's.
func (c *Cache) LoadFile(kind, path string, parse Parser) (Stamp, any, error) {
	fd, stamp, ok := openStamp(path)
	if !ok {
		stamp, err := Stat(path)
		if err != nil || !stamp.Exists() {
			return stamp, nil, err
		}
		v, err := c.Load(kind, path, stamp, parse)
		return stamp, v, err
	}
	if fd < 0 {
		return Stamp{}, nil, nil
	}
	defer closeFD(fd)
	k := key{kind, path}
	if e, ok := c.entries.Load(k); ok && e.stamp == stamp {
		<-e.ready
		return stamp, e.val, e.err
	}
	var mine bool
	e := c.entries.Update(k, func(old *entry, ok bool) *entry {
		if ok && old.stamp == stamp {
			return old
		}
		mine = true
		return &entry{stamp: stamp, ready: make(chan struct{})}
	})
	if mine {
		e.fillWith(path, parse, func() ([]byte, error) { return readOpened(fd, path, stamp.Size) })
	}
	<-e.ready
	return stamp, e.val, e.err
}

// fill reads and parses the file for e and marks e ready, even when parse
// panics (the goroutines waiting for e then get an error, and the panic
// goes on).
func (e *entry) fill(path string, parse Parser) {
	e.fillWith(path, parse, func() ([]byte, error) { return Read(path, e.stamp.Size) })
}

// fillWith is fill with the file's contents from read.
func (e *entry) fillWith(path string, parse Parser, read func() ([]byte, error)) {
	defer func() {
		if p := recover(); p != nil {
			e.val, e.err = nil, fmt.Errorf("%s: parser failed: %v", path, p)
			close(e.ready)
			panic(p)
		}
	}()
	src, err := read()
	if err == nil {
		e.val, e.err = parse(src)
	} else {
		e.err = err
	}
	close(e.ready)
}

// Get is Load for a file not stat'ed yet. A file that does not exist is
// an error (the os.Stat one).
func (c *Cache) Get(kind, path string, parse Parser) (any, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return c.Load(kind, path, Stamp{Size: st.Size(), ModTime: st.ModTime()}, parse)
}
