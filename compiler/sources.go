package compiler

import (
	"errors"
	"github.com/marionette-dev/marionette/filecache"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// Sources caches parsed source files for a whole process: manifests (parsed
// and validated) and templates. Any number of environments and concurrent
// compiles may share one. Every use re-checks the file's size and
// modification time, so a file that changes on disk is parsed again and a
// long-running process never serves stale code.
type Sources struct {
	mu        sync.Mutex
	manifests map[string]*parsedManifest
	templates fileCache
}

// NewSources returns an empty cache.
func NewSources() *Sources {
	return &Sources{manifests: make(map[string]*parsedManifest)}
}

// fileStamp identifies one version of a file; the zero stamp means the file
// does not exist.
type fileStamp struct {
	size  int64
	mtime time.Time
}

func (s fileStamp) exists() bool { return !s.mtime.IsZero() }

// statStamp returns path's stamp; the zero stamp (and no error) when it does
// not exist or is a directory.
func statStamp(path string) (fileStamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return fileStamp{}, nil
		}
		return fileStamp{}, err
	}
	if st.IsDir() {
		return fileStamp{}, nil
	}
	return fileStamp{size: st.Size(), mtime: st.ModTime()}, nil
}

// parsedManifest is one parse of one version of a manifest file. ready is
// closed once prog, warnings and err are set, so a compile that needs a file
// another goroutine is parsing waits for it instead of parsing it twice.
type parsedManifest struct {
	stamp    fileStamp
	ready    chan struct{}
	prog     *syntax.Program
	warnings diag.List
	err      error
}

// manifest returns the parsed and validated manifest at path, whose stamp
// the caller has just read. A parse or validation error is a *ParseError.
func (s *Sources) manifest(path string, stamp fileStamp) (*syntax.Program, diag.List, error) {
	s.mu.Lock()
	m := s.manifests[path]
	if m != nil && m.stamp == stamp {
		s.mu.Unlock()
		<-m.ready
		return m.prog, m.warnings, m.err
	}
	m = &parsedManifest{stamp: stamp, ready: make(chan struct{})}
	s.manifests[path] = m
	s.mu.Unlock()
	m.prog, m.warnings, m.err = parseManifest(path, stamp.size)
	close(m.ready)
	return m.prog, m.warnings, m.err
}

// parseManifest reads, parses and validates a manifest of about size bytes.
func parseManifest(path string, size int64) (*syntax.Program, diag.List, error) {
	src, err := filecache.Read(path, size)
	if err != nil {
		return nil, nil, err
	}
	// src is this parse's own: the tree may point into it.
	prog, err := syntax.ParseFileOwned(path, src)
	if err != nil {
		return nil, nil, newParseError(path, err)
	}
	warnings, err := validateProgram(prog)
	if err != nil {
		return nil, warnings, newParseError(path, err)
	}
	return prog, warnings, nil
}
