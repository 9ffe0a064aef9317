package resourcetype

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
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
	// lists holds the names in a module's lib/puppet/type or
	// lib/puppet/provider directory (key: module directory, NUL, that
	// directory), read once: a type looked up is in few of a module path's
	// modules, and most modules have no such directory (guarded by mu).
	lists map[string]*dirList
	// probes counts the files looked for (exists calls), for tests.
	probes atomic.Int64
}

// dirList is a directory's names; known is false when it could not be
// listed for another reason than its absence (the files are probed then).
type dirList struct {
	known bool
	names map[string]struct{}
}

// existsIn reports whether dir/sub/name exists, as exists(dir,
// sub+"/"+name): only names that sub's listing holds are probed.
func (p *prober) existsIn(dir, sub, name string) bool {
	if l := p.list(dir, sub); l.known {
		if _, ok := l.names[name]; !ok {
			return false
		}
	}
	return p.exists(dir, sub+"/"+name)
}

// list reads the names of dir/sub once.
func (p *prober) list(dir, sub string) *dirList {
	key := dir + "\x00" + sub
	p.mu.Lock()
	l, ok := p.lists[key]
	p.mu.Unlock()
	if ok {
		return l
	}
	// Most modules have no such directory: a probe (relative to the
	// module path directory) says so for less than an open would cost.
	// What cannot be stat'ed holds nothing that can.
	l = &dirList{known: true}
	if p.stat(dir, sub) {
		l.known = false
		if f, err := os.Open(filepath.Join(dir, filepath.FromSlash(sub))); err == nil {
			names, rerr := f.Readdirnames(-1)
			f.Close()
			if rerr == nil {
				l.known = true
				l.names = make(map[string]struct{}, len(names))
				for _, n := range names {
					l.names[n] = struct{}{}
				}
			}
		} else if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			l.known = true
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if first, ok := p.lists[key]; ok {
		return first
	}
	if p.lists == nil {
		p.lists = make(map[string]*dirList)
	}
	p.lists[key] = l
	return l
}

// exists reports whether dir/rel exists; rel uses slashes.
func (p *prober) exists(dir, rel string) bool {
	p.probes.Add(1)
	return p.stat(dir, rel)
}

// stat is exists, uncounted.
func (p *prober) stat(dir, rel string) bool {
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
