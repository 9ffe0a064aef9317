package server

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// TestFactsWriterLatestWins: while a node's facts wait, newer facts replace
// them; what reaches the disk last for every node is its latest facts, and
// close writes everything still queued.
func TestFactsWriterLatestWins(t *testing.T) {
	var mu sync.Mutex
	disk := map[string]string{}
	release := make(chan struct{})
	w := newFactsWriter(4, slog.New(slog.NewTextHandler(io.Discard, nil)), func(name string, data []byte) error {
		<-release // the disk is slow until the test says
		mu.Lock()
		disk[name] = string(data)
		mu.Unlock()
		return nil
	})
	for i := 0; i < 3; i++ {
		for _, n := range []string{"a", "b", "c"} {
			if err := w.save(n, []byte(fmt.Sprintf("%s%d", n, i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(release)
	w.close()
	for _, n := range []string{"a", "b", "c"} {
		if want := n + "2"; disk[n] != want {
			t.Errorf("node %s: on disk %q, want the latest %q", n, disk[n], want)
		}
	}
	// After close, facts are written at once.
	if err := w.save("d", []byte("d0")); err != nil || disk["d"] != "d0" {
		t.Errorf("save after close: %v, on disk %q", err, disk["d"])
	}
}

// TestFactsWriterBounded: when max nodes wait, a request for another node
// waits for room (nothing is dropped); sync waits for a node's facts.
func TestFactsWriterBounded(t *testing.T) {
	var mu sync.Mutex
	written := map[string]string{}
	release := make(chan struct{})
	w := newFactsWriter(2, slog.New(slog.NewTextHandler(io.Discard, nil)), func(name string, data []byte) error {
		<-release
		mu.Lock()
		written[name] = string(data)
		mu.Unlock()
		return nil
	})
	defer w.close()
	// One node is being written (blocked), two wait: the queue is full.
	for _, n := range []string{"a", "b", "c"} {
		if err := w.save(n, []byte(n)); err != nil {
			t.Fatal(err)
		}
		if n == "a" {
			for { // until the writer took a
				w.mu.Lock()
				busy := w.writing == "a"
				w.mu.Unlock()
				if busy {
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
	saved := make(chan struct{})
	go func() {
		_ = w.save("d", []byte("d"))
		close(saved)
	}()
	select {
	case <-saved:
		t.Fatal("a fourth node was queued past the bound")
	case <-time.After(50 * time.Millisecond):
	}
	// A queued node's newer facts replace its old ones without waiting.
	if err := w.save("b", []byte("b1")); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-saved
	w.sync("d")
	w.flush()
	mu.Lock()
	defer mu.Unlock()
	want := map[string]string{"a": "a", "b": "b1", "c": "c", "d": "d"}
	for n, v := range want {
		if written[n] != v {
			t.Errorf("node %s: written %q, want %q", n, written[n], v)
		}
	}
}

// TestFactsWriterLatest: the facts queued or being written for a node are
// what latest gives (the newest), and nothing once they are on disk.
func TestFactsWriterLatest(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 4)
	w := newFactsWriter(4, slog.New(slog.NewTextHandler(io.Discard, nil)), func(name string, data []byte) error {
		started <- string(data)
		<-release
		return nil
	})
	defer w.close()
	check := func(node, want string, wantOK bool) {
		t.Helper()
		if data, ok := w.latest(node); ok != wantOK || string(data) != want {
			t.Errorf("latest(%s) = %q %v, want %q %v", node, data, ok, want, wantOK)
		}
	}
	check("a", "", false)
	_ = w.save("a", []byte("a0"))
	<-started // a0 is being written
	check("a", "a0", true)
	_ = w.save("a", []byte("a1"))
	check("a", "a1", true)
	release <- struct{}{} // a0 written, a1 starts
	<-started
	check("a", "a1", true)
	release <- struct{}{}
	w.sync("a")
	check("a", "", false)
	close(release)
}
