package eval

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// pollInterval is how many evaluation steps (blocks run, calls, lambda
// calls) pass between two looks at the Evaluator's Context: often enough
// that a runaway loop stops within a fraction of a millisecond, rarely
// enough that the look costs nothing measurable.
const pollInterval = 128

// Stopped is the error evaluation ends with once the Evaluator's Context is
// done (cancelled, or past its deadline). errors.Is sees the context's
// error through it.
type Stopped struct {
	// Pos is where the code being evaluated when it stopped is, if known.
	Pos syntax.Position
	// Err is the context's error: context.Canceled or
	// context.DeadlineExceeded.
	Err error
}

func (e *Stopped) Error() string {
	return "evaluation stopped: " + e.Err.Error() + diag.Location(diag.At(e.Pos))
}

// Unwrap returns the context's error.
func (e *Stopped) Unwrap() error { return e.Err }

// due counts one step of evaluation and reports whether it is time to
// poll. It is small enough to be inlined where it is hot, and takes no
// position: converting a statement to a syntax.Node on every step costs
// more than the count itself, so callers do that only when polling.
func (ev *Evaluator) due() bool {
	ev.untilPoll--
	// Once watched, also one load per step, so that even steps that each
	// take long (a string grown by a megabyte a time) stop at the next.
	return ev.untilPoll <= 0 || (ev.done != nil && ev.done.Load())
}

// watch arranges for ev.done to be set the moment the Context is done,
// when the Context can be done at all, and when the live heap passes
// MaxHeap; until it is set, due() is an atomic load besides the countdown
// to the next look at the Context.
func (ev *Evaluator) watch() {
	if ev.done != nil {
		return
	}
	ctxDone := ev.Context != nil && ev.Context.Done() != nil
	if !ctxDone && ev.MaxHeap <= 0 {
		return
	}
	done := new(atomic.Bool)
	ev.done = done
	var stops []func()
	if ctxDone {
		stopCtx := context.AfterFunc(ev.Context, func() { done.Store(true) })
		stops = append(stops, func() { stopCtx() })
	}
	if ev.MaxHeap > 0 {
		// A step of evaluation can allocate megabytes (a string built by
		// interpolation), so counting steps between looks at the heap
		// would let hundreds of megabytes pass: a watcher looks at the
		// heap every heapCheckInterval and makes the next step poll.
		quit := make(chan struct{})
		go watchHeap(ev.MaxHeap, done, quit)
		stops = append(stops, func() { close(quit) })
	}
	ev.unwatch = func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// heapCheckInterval is how often a compile with a MaxHeap looks at the
// live heap: often enough that a loop building megabyte strings stops
// within a few of them, rarely enough to cost nothing measurable.
const heapCheckInterval = 2 * time.Millisecond

// watchHeap sets over once the live heap passes max, until quit closes.
func watchHeap(max int64, over *atomic.Bool, quit <-chan struct{}) {
	t := time.NewTicker(heapCheckInterval)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
			if LiveHeap() > max {
				over.Store(true)
			}
		}
	}
}

// Release lets go of what watching the Context took (a callback registered
// with it, the heap watcher); an evaluator that is done with calls it.
// Evaluation after Release still polls the Context, only less promptly.
func (ev *Evaluator) Release() {
	if ev.unwatch != nil {
		ev.unwatch()
		ev.unwatch = nil
	}
	ev.done = nil
}

// poll looks at the context now; once it is done, this and every later
// poll return the same *Stopped, so code that swallows one error still
// cannot go on evaluating.
func (ev *Evaluator) poll(sc *Scope, at syntax.Node) error {
	ev.untilPoll = pollInterval
	if ev.stopped != nil {
		return ev.stopped
	}
	ev.watch()
	// The heap watcher sets done when the heap passes MaxHeap: only then
	// is it worth reading the runtime's metrics here, on the hot path.
	if ev.MaxHeap > 0 && ev.done != nil && ev.done.Load() {
		if live := LiveHeap(); live > ev.MaxHeap {
			ev.stopped = &Stopped{Pos: position(sc, at), Err: &HeapExceeded{Live: live, Max: ev.MaxHeap}}
			return ev.stopped
		}
	}
	if ev.Context == nil {
		return nil
	}
	if err := ev.Context.Err(); err != nil {
		ev.stopped = &Stopped{Pos: position(sc, at), Err: err}
		return ev.stopped
	}
	if ev.done != nil && ev.done.Load() {
		// Set by the heap watcher for a heap a collection has since
		// brought back under MaxHeap.
		ev.done.Store(false)
	}
	return nil
}

// Poll reports, as a *Stopped error, whether the Context is done. Hosts
// call it between units of work the evaluator does not see (each instance
// of a defined type, each collector, each template loop step).
func (ev *Evaluator) Poll() error { return ev.poll(nil, nil) }

// Tick counts one step of work done by the host (a resource a collector
// looked at, say) and looks at the Context every so many steps, as
// evaluation does; it returns a *Stopped error once the Context is done.
func (ev *Evaluator) Tick() error {
	if ev.due() {
		return ev.poll(nil, nil)
	}
	return nil
}

// Stopped returns the error evaluation stopped with, or nil if the Context
// has not been seen done.
func (ev *Evaluator) Stopped() *Stopped { return ev.stopped }

// HeapExceeded is the Err of a Stopped evaluation whose process's live
// heap grew past the Evaluator's MaxHeap.
type HeapExceeded struct {
	Live, Max int64
}

func (e *HeapExceeded) Error() string {
	return fmt.Sprintf("the live heap (%d MiB) is past MaxHeap (%d MiB, three quarters of the memory budget) (a limit of marionette; --max-memory raises it)", e.Live>>20, e.Max>>20)
}

// The heap the last garbage collection found live (the runtime keeps it,
// so reading it costs no collection), and, before any collection has
// run, all the heap's objects.
const (
	liveHeapMetric    = "/gc/heap/live:bytes"
	heapObjectsMetric = "/memory/classes/heap/objects:bytes"
)

// LiveHeap is the process's live heap in bytes as of the last garbage
// collection (a memory limit, debug.SetMemoryLimit, keeps collections
// frequent as the heap nears it); before the first, the heap's objects.
func LiveHeap() int64 {
	samples := [2]metrics.Sample{{Name: liveHeapMetric}, {Name: heapObjectsMetric}}
	metrics.Read(samples[:])
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 && s.Value.Uint64() > 0 {
			return int64(s.Value.Uint64())
		}
	}
	return 0
}
