package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func makeNodes(n int) []Node {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("node%03d.example.com", i)}
	}
	return nodes
}

// recorder is a Progress that checks it is called in order and serially.
type recorder struct {
	mu                   sync.Mutex
	busy                 bool
	started, finished    bool
	total, updates, last int
	lastFailed           int
	errs                 []string
}

func (r *recorder) enter() {
	r.mu.Lock()
	if r.busy {
		r.errs = append(r.errs, "concurrent call")
	}
	r.busy = true
	r.mu.Unlock()
}

func (r *recorder) leave() { r.mu.Lock(); r.busy = false; r.mu.Unlock() }

func (r *recorder) Start(total int) { r.enter(); defer r.leave(); r.started, r.total = true, total }
func (r *recorder) Update(done, failed int) {
	r.enter()
	defer r.leave()
	if !r.started || r.finished || done != r.last+1 {
		r.errs = append(r.errs, fmt.Sprintf("Update(%d) after %d (started %v, finished %v)", done, r.last, r.started, r.finished))
	}
	r.updates++
	r.last, r.lastFailed = done, failed
}
func (r *recorder) Finish(done, failed int) {
	r.enter()
	defer r.leave()
	if done != r.last || failed != r.lastFailed {
		r.errs = append(r.errs, fmt.Sprintf("Finish(%d, %d) after Update(%d, %d)", done, failed, r.last, r.lastFailed))
	}
	r.finished = true
}

func TestCompile(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name       string
		nodes      int
		jobs       int
		fail       func(i int) bool
		panicAt    int // node index that panics; -1 for none
		wantOK     int
		wantFailed int
		wantJobs   int
	}{
		{"all ok", 50, 4, func(int) bool { return false }, -1, 50, 0, 4},
		{"every third fails", 30, 3, func(i int) bool { return i%3 == 0 }, -1, 20, 10, 3},
		{"all fail", 7, 2, func(int) bool { return true }, -1, 0, 7, 2},
		{"one job", 5, 1, func(i int) bool { return i == 4 }, -1, 4, 1, 1},
		{"more jobs than nodes", 3, 16, func(int) bool { return false }, -1, 3, 0, 3},
		{"default jobs", 20, 0, func(int) bool { return false }, -1, 20, 0, 0},
		{"panic is a failure", 10, 4, func(int) bool { return false }, 5, 9, 1, 4},
		{"no nodes", 0, 4, func(int) bool { return false }, -1, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := makeNodes(tt.nodes)
			index := map[string]int{}
			for i, n := range nodes {
				index[n.Name] = i
			}
			var calls atomic.Int64
			compile := func(ctx context.Context, n Node) error {
				calls.Add(1)
				i := index[n.Name]
				// Later nodes finish first, so completion order differs
				// from input order.
				time.Sleep(time.Duration(tt.nodes-i) * 50 * time.Microsecond)
				if i == tt.panicAt {
					panic("compiler bug")
				}
				if tt.fail(i) {
					return fmt.Errorf("%s: %w", n.Name, errBoom)
				}
				return nil
			}
			rec := &recorder{}
			s := Compile(context.Background(), tt.jobs, nodes, compile, rec)
			if int(calls.Load()) != tt.nodes {
				t.Errorf("compiled %d nodes, want %d", calls.Load(), tt.nodes)
			}
			if s.Total != tt.nodes || s.OK != tt.wantOK || s.Failed != tt.wantFailed || s.Skipped != 0 {
				t.Errorf("summary total/ok/failed/skipped = %d/%d/%d/%d, want %d/%d/%d/0", s.Total, s.OK, s.Failed, s.Skipped, tt.nodes, tt.wantOK, tt.wantFailed)
			}
			if tt.wantJobs > 0 && s.Jobs != tt.wantJobs {
				t.Errorf("jobs = %d, want %d", s.Jobs, tt.wantJobs)
			}
			if len(s.Results) != tt.nodes {
				t.Fatalf("%d results, want %d", len(s.Results), tt.nodes)
			}
			for i, r := range s.Results {
				if r.Node != nodes[i] {
					t.Errorf("result %d is %s, want input order (%s)", i, r.Node.Name, nodes[i].Name)
				}
				if r.Duration <= 0 {
					t.Errorf("result %d has no duration", i)
				}
			}
			if len(s.Failures) != tt.wantFailed {
				t.Errorf("%d failures listed, want %d", len(s.Failures), tt.wantFailed)
			}
			for i := 1; i < len(s.Failures); i++ {
				if index[s.Failures[i-1].Node.Name] > index[s.Failures[i].Node.Name] {
					t.Errorf("failures not in input order: %s before %s", s.Failures[i-1].Node.Name, s.Failures[i].Node.Name)
				}
			}
			for _, r := range s.Failures {
				if tt.panicAt >= 0 && index[r.Node.Name] == tt.panicAt {
					if !strings.Contains(r.Err.Error(), "panic: compiler bug") {
						t.Errorf("panic reported as %q", r.Err)
					}
				} else if !errors.Is(r.Err, errBoom) {
					t.Errorf("failure %s: %v, want boom", r.Node.Name, r.Err)
				}
			}
			wantSlow := min(tt.nodes, SlowestCount)
			if len(s.Slowest) != wantSlow {
				t.Errorf("%d slowest, want %d", len(s.Slowest), wantSlow)
			}
			for i := 1; i < len(s.Slowest); i++ {
				if s.Slowest[i-1].Duration < s.Slowest[i].Duration {
					t.Errorf("slowest not sorted: %v before %v", s.Slowest[i-1].Duration, s.Slowest[i].Duration)
				}
			}
			if !rec.finished || rec.total != tt.nodes || rec.updates != tt.nodes || len(rec.errs) > 0 {
				t.Errorf("progress: finished %v total %d updates %d errs %v", rec.finished, rec.total, rec.updates, rec.errs)
			}
			var buf bytes.Buffer
			if err := s.Write(&buf); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d ok, %d failed", tt.wantOK, tt.wantFailed); !strings.Contains(buf.String(), want) {
				t.Errorf("summary text lacks %q:\n%s", want, buf.String())
			}
		})
	}
}

// TestCompileConcurrency checks that no more than jobs nodes run at once
// and that jobs nodes do run at once.
func TestCompileConcurrency(t *testing.T) {
	for _, jobs := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(jobs), func(t *testing.T) {
			var cur, peak atomic.Int64
			compile := func(ctx context.Context, n Node) error {
				c := cur.Add(1)
				for {
					p := peak.Load()
					if c <= p || peak.CompareAndSwap(p, c) {
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
				cur.Add(-1)
				return nil
			}
			s := Compile(context.Background(), jobs, makeNodes(40), compile, nil)
			if s.OK != 40 {
				t.Fatalf("ok = %d", s.OK)
			}
			if p := peak.Load(); p != int64(jobs) {
				t.Errorf("peak concurrency %d, want %d", p, jobs)
			}
		})
	}
}

func TestCompileCancel(t *testing.T) {
	tests := []struct {
		name      string
		cancelAt  int // cancel when this many nodes have started; 0 cancels first
		jobs      int
		wantStart int
	}{
		{"before start", 0, 2, 0},
		{"mid run", 5, 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt == 0 {
				cancel()
			}
			var started atomic.Int64
			compile := func(ctx context.Context, n Node) error {
				if started.Add(1) == int64(tt.cancelAt) {
					cancel()
				}
				return nil
			}
			nodes := makeNodes(20)
			s := Compile(ctx, tt.jobs, nodes, compile, &recorder{})
			if got := int(started.Load()); got != tt.wantStart {
				t.Errorf("%d nodes started, want %d", got, tt.wantStart)
			}
			if s.OK != tt.wantStart || s.Skipped != len(nodes)-tt.wantStart || s.Failed != 0 {
				t.Errorf("ok/failed/skipped = %d/%d/%d", s.OK, s.Failed, s.Skipped)
			}
			for _, r := range s.Results[tt.wantStart:] {
				if !r.Skipped || !errors.Is(r.Err, context.Canceled) {
					t.Errorf("%s: skipped %v err %v", r.Node.Name, r.Skipped, r.Err)
				}
			}
			var buf bytes.Buffer
			s.Write(&buf)
			if !strings.Contains(buf.String(), "skipped (cancelled)") {
				t.Errorf("summary does not mention skipped nodes:\n%s", buf.String())
			}
		})
	}
}

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestReporter(t *testing.T) {
	tests := []struct {
		name      string
		tty       bool
		total     int
		step      time.Duration
		interval  time.Duration
		wantLines int    // newline-terminated lines
		wantIn    string // text the output must hold
	}{
		// Plain output: one line per 10% plus the final one.
		{"plain deciles", false, 100, time.Millisecond, time.Hour, 10, "100/100 nodes (100%)"},
		// Plain output: a line per interval when nodes are slow.
		{"plain interval", false, 1000, time.Second, 5 * time.Second, 200, "ETA"},
		// Terminal: one line, redrawn with \r.
		{"tty", true, 50, time.Second, 0, 1, "\r50/50 nodes (100%), 2 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			clock := &fakeClock{t: time.Unix(0, 0), step: tt.step}
			p := &Reporter{W: &buf, TTY: tt.tty, Interval: tt.interval, Now: clock.now}
			p.Start(tt.total)
			failed := 0
			for done := 1; done <= tt.total; done++ {
				if tt.tty && done%20 == 0 {
					failed++
				}
				p.Update(done, failed)
			}
			p.Finish(tt.total, failed)
			out := buf.String()
			if got := strings.Count(out, "\n"); got != tt.wantLines {
				t.Errorf("%d lines, want %d:\n%q", got, tt.wantLines, out)
			}
			if !strings.Contains(out, tt.wantIn) {
				t.Errorf("output lacks %q:\n%q", tt.wantIn, out)
			}
			if !tt.tty && strings.Contains(out, "\r") {
				t.Errorf("plain output has \\r")
			}
		})
	}
}
