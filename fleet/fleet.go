// Package fleet compiles many nodes at once: it runs a compile function for
// every node across a fixed number of goroutines, keeps going when a node
// fails, and summarises the run (counts, wall time, slowest nodes, failures).
//
// The package knows nothing about catalogs: the caller's CompileFunc does the
// work for one node (compile, write the result), so the same driver serves the
// CLI, tests and benchmarks.
package fleet

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"
)

// Node is one node to compile.
type Node struct {
	// Name is the node's certname.
	Name string
	// FactsPath is the node's facts file; "" means no facts.
	FactsPath string
}

// CompileFunc compiles one node. It is called from several goroutines at
// once and must be safe for that. A panic is recovered and reported as the
// node's error.
type CompileFunc func(ctx context.Context, n Node) error

// Result is the outcome of one node.
type Result struct {
	Node     Node
	Err      error // nil when the node compiled
	Duration time.Duration
	// Skipped is true when the run was cancelled before the node started;
	// Err is then the context's error and Duration is zero.
	Skipped bool
}

// Summary is the outcome of a fleet run.
type Summary struct {
	Total, OK, Failed, Skipped int
	// Wall is the elapsed time of the whole run.
	Wall time.Duration
	// Jobs is the number of goroutines that compiled.
	Jobs int
	// Results holds every node's result, in the order of the input nodes.
	Results []Result
	// Slowest are the (at most SlowestCount) nodes that took longest,
	// slowest first.
	Slowest []Result
	// Failures are the nodes that failed (not those skipped), in input order.
	Failures []Result
}

// SlowestCount is how many of the slowest nodes a Summary lists.
const SlowestCount = 10

// Progress receives a run's progress. Its methods are called from a single
// goroutine, in order: Start, then Update after each node, then Finish.
type Progress interface {
	Start(total int)
	Update(done, failed int)
	Finish(done, failed int)
}

// Compile runs compile for every node across jobs goroutines (jobs <= 0
// means runtime.NumCPU()). One node's failure does not stop the others.
// When ctx is cancelled no new node starts; nodes not started are reported
// as skipped and nodes under way finish. progress may be nil.
func Compile(ctx context.Context, jobs int, nodes []Node, compile CompileFunc, progress Progress) Summary {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if jobs > len(nodes) {
		jobs = len(nodes)
	}
	if jobs < 1 {
		jobs = 1
	}
	start := time.Now()
	if progress != nil {
		progress.Start(len(nodes))
	}
	results := make([]Result, len(nodes))
	type done struct {
		i int
		r Result
	}
	indexes := make(chan int)
	finished := make(chan done)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indexes {
				// The feeder may hand out a node just as ctx is
				// cancelled; such a node counts as skipped.
				if ctx.Err() != nil {
					continue
				}
				finished <- done{i, runOne(ctx, nodes[i], compile)}
			}
		}()
	}
	// Feed the workers; stop at cancellation.
	go func() {
		defer close(indexes)
		for i := range nodes {
			select {
			case <-ctx.Done():
				return
			default:
			}
			select {
			case indexes <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(finished)
	}()

	ran := make([]bool, len(nodes))
	var nDone, nFailed int
	for d := range finished {
		results[d.i] = d.r
		ran[d.i] = true
		nDone++
		if d.r.Err != nil {
			nFailed++
		}
		if progress != nil {
			progress.Update(nDone, nFailed)
		}
	}
	if progress != nil {
		progress.Finish(nDone, nFailed)
	}
	s := Summary{Total: len(nodes), Wall: time.Since(start), Jobs: jobs, Results: results}
	for i := range results {
		if !ran[i] {
			err := ctx.Err()
			if err == nil {
				err = context.Canceled
			}
			results[i] = Result{Node: nodes[i], Err: err, Skipped: true}
		}
		switch r := results[i]; {
		case r.Skipped:
			s.Skipped++
		case r.Err != nil:
			s.Failed++
			s.Failures = append(s.Failures, r)
		default:
			s.OK++
		}
	}
	s.Slowest = slowest(results, SlowestCount)
	return s
}

// runOne compiles one node, timing it and turning a panic into an error.
func runOne(ctx context.Context, n Node, compile CompileFunc) (r Result) {
	r.Node = n
	start := time.Now()
	defer func() {
		r.Duration = time.Since(start)
		if p := recover(); p != nil {
			r.Err = fmt.Errorf("internal error: panic: %v\n%s", p, debug.Stack())
		}
	}()
	r.Err = compile(ctx, n)
	return r
}

// slowest returns the k results that took longest, slowest first (ties by
// node name), leaving out skipped nodes.
func slowest(results []Result, k int) []Result {
	var rs []Result
	for _, r := range results {
		if !r.Skipped {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Duration != rs[j].Duration {
			return rs[i].Duration > rs[j].Duration
		}
		return rs[i].Node.Name < rs[j].Node.Name
	})
	if len(rs) > k {
		rs = rs[:k]
	}
	return rs
}

// Write prints the summary for people: counts and wall time, the slowest
// nodes, then every failure with its message.
func (s *Summary) Write(w io.Writer) error {
	ew := &errWriter{w: w}
	rate := 0.0
	if s.Wall > 0 {
		rate = float64(s.OK+s.Failed) / s.Wall.Seconds()
	}
	if s.Skipped > 0 {
		ew.printf("Compiled %d of %d nodes", s.OK+s.Failed, s.Total)
	} else {
		ew.printf("Compiled %d nodes", s.Total)
	}
	ew.printf(" in %s with %d jobs (%.1f nodes/s): %d ok, %d failed",
		round(s.Wall), s.Jobs, rate, s.OK, s.Failed)
	if s.Skipped > 0 {
		ew.printf(", %d skipped (cancelled)", s.Skipped)
	}
	ew.printf("\n")
	if len(s.Slowest) > 0 {
		ew.printf("Slowest nodes:\n")
		for _, r := range s.Slowest {
			status := "ok"
			if r.Err != nil {
				status = "failed"
			}
			ew.printf("  %10s  %s (%s)\n", round(r.Duration), r.Node.Name, status)
		}
	}
	if len(s.Failures) > 0 {
		ew.printf("Failed nodes:\n")
		for _, r := range s.Failures {
			ew.printf("  %s: %v\n", r.Node.Name, r.Err)
		}
	}
	return ew.err
}

// round shortens a duration for display.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
