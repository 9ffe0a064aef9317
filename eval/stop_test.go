package eval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// TestEvaluationStopsWhenContextDone: code that polls (blocks, calls,
// lambda calls) ends with a *Stopped error once the context is done, at
// the code running then; a live context changes nothing.
func TestEvaluationStopsWhenContextDone(t *testing.T) {
	long := make(value.Array, 10*pollInterval)
	for i := range long {
		long[i] = value.Integer(i)
	}
	for _, tt := range []struct {
		name   string
		src    string
		cancel bool
		line   int // the Stopped error is at this line or after; 0 for none
	}{
		{"done before", "$r = map($long) |$x| {\n  $x\n}\n", true, 1},
		{"lambda loop", "$a = 1\ncancel()\n$r = map($long) |$x| {\n  $x\n}\n", false, 3},
		{"blocks", "cancel()\n" + strings.Repeat("if true { $long =~ Array }\n", 2*pollInterval), false, 2},
		{"live context", "$r = map($long) |$x| { $x }\n", false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := syntax.ParseFile("test.pp", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			top := NewScope(TopScope, "", nil, prog.File)
			top.Set("long", long)
			ev := &Evaluator{Host: cancelHost{cancel: cancel}, Context: ctx}
			_, err = ev.Statements(prog.Body, top)
			if tt.line == 0 {
				if err != nil || ev.Stopped() != nil {
					t.Fatalf("error = %v", err)
				}
				return
			}
			var st *Stopped
			if !errors.As(err, &st) || !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %v, want a *Stopped that is context.Canceled", err)
			}
			if st.Pos.Line < tt.line || ev.Stopped() != st {
				t.Errorf("stopped at %v (recorded %v), want line %d or after", st.Pos, ev.Stopped(), tt.line)
			}
			if msg := st.Error(); !strings.HasPrefix(msg, "evaluation stopped: context canceled (file: test.pp, line: ") {
				t.Errorf("Error() = %q", msg)
			}
			// The stop sticks: later polls report it too.
			if err := ev.Poll(); err != st {
				t.Errorf("Poll() = %v", err)
			}
		})
	}
}

// cancelHost is testHost with a function cancel() that cancels the
// evaluation's context.
type cancelHost struct {
	testHost
	cancel context.CancelFunc
}

func (h cancelHost) CallFunction(ev *Evaluator, sc *Scope, c *Call) (value.Value, error) {
	if c.Name == "cancel" {
		h.cancel()
		return value.Undef, nil
	}
	return h.testHost.CallFunction(ev, sc, c)
}

// TestEvaluationStopsPastMaxHeap: with a MaxHeap the live heap is already
// past, evaluation stops at its next poll with a *Stopped whose cause is
// a *HeapExceeded naming the limit once the watcher has looked, context or
// not; with one far above
// the heap, the same code runs to the end.
func TestEvaluationStopsPastMaxHeap(t *testing.T) {
	long := make(value.Array, 10*pollInterval)
	for i := range long {
		long[i] = value.Integer(i)
	}
	prog, err := syntax.ParseFile("test.pp", []byte("$r = map($long) |$x| { \"${x}\" }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		maxHeap int64
		stops   bool
	}{
		{"no context", nil, 1, true},
		{"context", context.Background(), 1, true},
		{"far above", context.Background(), 1 << 50, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := &Evaluator{Host: testHost{}, Context: tt.ctx, MaxHeap: tt.maxHeap}
			defer ev.Release()
			// Let the heap watcher take its first look, as it would
			// during a longer evaluation.
			ev.watch()
			time.Sleep(10 * heapCheckInterval)
			top := NewScope(TopScope, "", nil, prog.File)
			top.Set("long", long)
			_, err := ev.Statements(prog.Body, top)
			if !tt.stops {
				if err != nil {
					t.Fatalf("error = %v", err)
				}
				return
			}
			var he *HeapExceeded
			if !errors.As(err, &he) || he.Max != tt.maxHeap || he.Live <= he.Max {
				t.Fatalf("error = %v, want a *HeapExceeded past %d", err, tt.maxHeap)
			}
			if !strings.Contains(err.Error(), "MaxHeap") || !strings.Contains(err.Error(), "--max-memory") {
				t.Errorf("the error names neither the limit nor its flag: %v", err)
			}
		})
	}
}

// TestHeapWatcherSetsDone: the watcher a MaxHeap starts marks the
// evaluation due within a few of its intervals once the heap is past the
// limit, so that a step allocating megabytes stops at the next step, not
// pollInterval steps later.
func TestHeapWatcherSetsDone(t *testing.T) {
	ev := &Evaluator{Host: testHost{}, MaxHeap: 1}
	ev.watch()
	defer ev.Release()
	for i := 0; i < 400 && !ev.done.Load(); i++ {
		time.Sleep(heapCheckInterval)
	}
	if !ev.done.Load() {
		t.Fatal("the heap watcher never marked the evaluation due")
	}
}
