package readset

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// TreeWatcher answers TreeStamp for a process that asks about the same
// trees again and again (marionette serve's catalog reuse: every module a
// compile used, at every agent run), without walking a tree whose
// directories the kernel reports unchanged. A tree is walked once with an
// inotify watch on each of its directories, set before its stamp is
// taken; its stamp is given again while no event came from any of them.
// The events are read, without blocking, at each Stamp: an event queued
// before the call (the kernel queues it within the write that changed the
// file) is always seen. A tree holding a symlink (whose target's changes
// reach no watched directory), a watch the kernel refuses (its limit), a
// lost event queue or a read error make the trees concerned walked at
// every call, as TreeStamp is. A nil *TreeWatcher walks every time.
type TreeWatcher struct {
	mu    sync.Mutex
	fd    int
	buf   []byte
	wds   map[int32][]string // watch -> the trees its directory is in
	trees map[string]*watchedTree
	// broken: the events could not be read; every tree is walked from
	// then on.
	broken bool
	walks  int // trees walked (for the tests)
}

type watchedTree struct {
	gen      uint64 // events seen from the tree's directories
	stampGen uint64 // gen when the watches were set for stamp
	stamp    string
	valid    bool
}

// watchMask is every change to a directory's entries or to a file in it.
// racyStamp is how recent a tree's newest file may be for its stamp to
// be kept: a change within the file system's time granularity of the walk
// may predate the watches and leave the stamp as it was (git's rule for
// its index, as serve's reuse applies to single files).
const racyStamp = 2 * time.Second

const watchMask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_CREATE | syscall.IN_DELETE |
	syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF

// NewTreeWatcher returns a watcher, or nil (every Stamp walks) when the
// kernel gives no inotify instance.
func NewTreeWatcher() *TreeWatcher {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	return &TreeWatcher{fd: fd, buf: make([]byte, 64<<10), wds: make(map[int32][]string), trees: make(map[string]*watchedTree)}
}

// Close releases the watches.
func (w *TreeWatcher) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.broken = true
	return syscall.Close(w.fd)
}

// Stamp is TreeStamp(dir), from the last walk while nothing below dir
// changed since its watches were set.
func (w *TreeWatcher) Stamp(dir string) (string, error) {
	if w == nil {
		s, _, err := TreeStamp(dir)
		return s, err
	}
	w.mu.Lock()
	w.drain()
	t := w.trees[dir]
	if t == nil {
		t = &watchedTree{}
		w.trees[dir] = t
	}
	if t.valid && t.gen == t.stampGen && !w.broken {
		s := t.stamp
		w.mu.Unlock()
		return s, nil
	}
	w.walks++
	gen := t.gen
	watched := !w.broken && w.watch(dir)
	w.mu.Unlock()
	// The watches are set: a change from here on is an event, so the
	// stamp taken now stands until one comes.
	s, newest, err := TreeStamp(dir)
	w.mu.Lock()
	defer w.mu.Unlock()
	// A stamp whose newest file is within the file system's time
	// granularity is not kept: a change in the same tick may predate the
	// watches and keep the stamp.
	t.valid = watched && err == nil && !newest.IsZero() && newest.Before(time.Now().Add(-racyStamp))
	if t.valid {
		t.stamp, t.stampGen = s, gen
	}
	return s, err
}

// watch sets a watch on every directory below dir (dir included),
// reporting whether the tree can be followed by its events.
func (w *TreeWatcher) watch(dir string) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return w.watchDir(dir, real, 0)
}

func (w *TreeWatcher) watchDir(tree, dir string, depth int) bool {
	if depth > 64 {
		return false
	}
	wd, err := syscall.InotifyAddWatch(w.fd, dir, watchMask|syscall.IN_ONLYDIR)
	if err != nil {
		return false
	}
	if !slices.Contains(w.wds[int32(wd)], tree) {
		w.wds[int32(wd)] = append(w.wds[int32(wd)], tree)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		switch {
		case e.Type()&os.ModeSymlink != 0:
			return false
		case e.IsDir():
			if !w.watchDir(tree, filepath.Join(dir, e.Name()), depth+1) {
				return false
			}
		}
	}
	return true
}

// drain reads the events queued so far and counts them against their
// trees. A lost queue (overflow) counts against every tree.
func (w *TreeWatcher) drain() {
	for !w.broken {
		n, err := syscall.Read(w.fd, w.buf)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return
		case err != nil || n <= 0:
			w.broken = true
			return
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			wd := int32(binary.NativeEndian.Uint32(w.buf[off:]))
			mask := binary.NativeEndian.Uint32(w.buf[off+4:])
			nameLen := int(binary.NativeEndian.Uint32(w.buf[off+12:]))
			off += syscall.SizeofInotifyEvent + nameLen
			if mask&syscall.IN_Q_OVERFLOW != 0 {
				for _, t := range w.trees {
					t.gen++
				}
				continue
			}
			for _, tree := range w.wds[wd] {
				if t := w.trees[tree]; t != nil {
					t.gen++
				}
			}
			if mask&syscall.IN_IGNORED != 0 {
				delete(w.wds, wd)
			}
		}
	}
}
