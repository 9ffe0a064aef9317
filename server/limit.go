package server

import (
	"context"
	"errors"
	"sync/atomic"
)

// errBusy is a compile refused because every slot and every queue place
// is taken.
var errBusy = errors.New("too many compiles waiting")

// limiter bounds concurrent compiles and the queue of compiles waiting for
// a slot; past both, callers are turned away at once (the thundering herd
// at the top of the run interval gets 503 + Retry-After, not a pile-up).
type limiter struct {
	slots    chan struct{}
	maxQueue int64
	waiting  atomic.Int64
}

func newLimiter(slots, queue int) *limiter {
	return &limiter{slots: make(chan struct{}, slots), maxQueue: int64(queue)}
}

// acquire takes a slot, waiting in the queue while there is room in it;
// release must follow a nil error.
func (l *limiter) acquire(ctx context.Context) error {
	select {
	case l.slots <- struct{}{}:
		return nil
	default:
	}
	if l.waiting.Add(1) > l.maxQueue {
		l.waiting.Add(-1)
		return errBusy
	}
	defer l.waiting.Add(-1)
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *limiter) release() { <-l.slots }
