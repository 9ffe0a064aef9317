package server

import (
	"log/slog"
	"sync"
)

// DefaultFactsQueue bounds the nodes whose facts wait to be written to the
// facts cache.
const DefaultFactsQueue = 1024

// factsWriter writes agents' facts to the facts cache ($vardir/yaml/facts)
// on a goroutine of its own, so that a catalog request does not wait for
// the file system. Only the latest facts of a node wait: newer facts
// replace older ones still queued, and one goroutine writes, so a node's
// facts reach the disk in the order they came. When max nodes wait, a
// request waits for room instead of dropping anything; close writes what
// is left.
type factsWriter struct {
	write func(certname string, data []byte) error
	log   *slog.Logger
	max   int

	mu      sync.Mutex
	changed *sync.Cond // pending, writing or closed changed
	pending map[string][]byte
	writing string // the node being written, "" when none
	// writingData is what is being written.
	writingData []byte
	closed      bool
	done        chan struct{}
}

func newFactsWriter(max int, log *slog.Logger, write func(string, []byte) error) *factsWriter {
	if max <= 0 {
		max = DefaultFactsQueue
	}
	w := &factsWriter{write: write, log: log, max: max, pending: make(map[string][]byte), done: make(chan struct{})}
	w.changed = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// save queues a node's facts (the file's bytes), replacing any it had
// queued; it waits while max other nodes wait. After close it writes at
// once.
func (w *factsWriter) save(certname string, data []byte) error {
	w.mu.Lock()
	for {
		if w.closed {
			w.mu.Unlock()
			return w.write(certname, data)
		}
		if _, queued := w.pending[certname]; queued || len(w.pending) < w.max {
			break
		}
		w.changed.Wait()
	}
	w.pending[certname] = data
	w.changed.Broadcast()
	w.mu.Unlock()
	return nil
}

// latest returns the facts queued or being written for a node (the file's
// bytes): what the file will hold; ok is false when none is, and the file
// holds the latest.
func (w *factsWriter) latest(certname string) (data []byte, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if data, ok := w.pending[certname]; ok {
		return data, true
	}
	if w.writing == certname {
		return w.writingData, true
	}
	return nil, false
}

// sync waits until the node's queued facts are on disk, so that a reader
// of the file sees the latest.
func (w *factsWriter) sync(certname string) {
	w.mu.Lock()
	for {
		if _, queued := w.pending[certname]; !queued && w.writing != certname {
			break
		}
		w.changed.Wait()
	}
	w.mu.Unlock()
}

// flush waits until every queued node's facts are on disk.
func (w *factsWriter) flush() {
	w.mu.Lock()
	for len(w.pending) > 0 || w.writing != "" {
		w.changed.Wait()
	}
	w.mu.Unlock()
}

// close writes what is queued and stops the goroutine; later saves write
// at once.
func (w *factsWriter) close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		w.changed.Broadcast()
	}
	w.mu.Unlock()
	<-w.done
}

func (w *factsWriter) run() {
	defer close(w.done)
	w.mu.Lock()
	for {
		for len(w.pending) == 0 && !w.closed {
			w.changed.Wait()
		}
		if len(w.pending) == 0 {
			w.mu.Unlock()
			return
		}
		var certname string
		var data []byte
		for certname, data = range w.pending {
			break
		}
		delete(w.pending, certname)
		w.writing, w.writingData = certname, data
		w.mu.Unlock()
		if err := w.write(certname, data); err != nil {
			// The agent has its catalog; like a failed PuppetDB command,
			// a facts file that could not be written is logged.
			w.log.Error("could not write the facts cache", "node", certname, "error", err.Error())
		}
		w.mu.Lock()
		w.writing, w.writingData = "", nil
		w.changed.Broadcast()
	}
}
