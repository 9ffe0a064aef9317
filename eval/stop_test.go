package eval

import (
	"context"
	"errors"
	"strings"
	"testing"

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
