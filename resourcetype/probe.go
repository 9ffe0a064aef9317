package resourcetype

import (
	"os"
	"path/filepath"
	"sync"
)

// prober tells whether a file exists under a module directory, as os.Stat
// would (symlinks followed). A lazy Set asks it for every module of the
// path in turn for each type it looks up, and most answers are no: on
// Linux it resolves the names from the module path directory, opened once,
// rather than from the root of the file system, which costs a fraction
// as much for the long paths module directories have. The zero prober is
// ready to use, by any number of goroutines.
type prober struct {
	// parents holds the module path directories opened so far (nil for
	// one that could not be opened: those are stat'ed the usual way),
	// guarded by mu, which is not held while one is opened.
	mu      sync.Mutex
	parents map[string]*os.File
}

// exists reports whether dir/rel exists; rel uses slashes.
func (p *prober) exists(dir, rel string) bool {
	parent, base := filepath.Split(dir)
	if base != "" {
		if f := p.parent(parent); f != nil {
			if ok, done := existsAt(f, base+"/"+rel); done {
				return ok
			}
		}
	}
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// parent opens a module path directory once.
func (p *prober) parent(dir string) *os.File {
	p.mu.Lock()
	f, ok := p.parents[dir]
	p.mu.Unlock()
	if ok {
		return f
	}
	f, err := os.Open(dir)
	if err != nil {
		f = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if first, ok := p.parents[dir]; ok {
		// Another goroutine opened it meanwhile: keep one.
		if f != nil {
			f.Close()
		}
		return first
	}
	if p.parents == nil {
		p.parents = make(map[string]*os.File)
	}
	p.parents[dir] = f
	return f
}
