package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// errBusy is a compile refused because every slot and every queue place
// is taken, or because its deadline passed while it waited for a slot.
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
// release must follow a nil error. A deadline that passes in the queue is
// errBusy: the compile never started, the server was too busy for it, and
// the agent should come back later (503 + Retry-After), as it does when the
// queue is full. A client that went away gets its context's error.
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
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return errBusy
		}
		return ctx.Err()
	}
}

func (l *limiter) release() { <-l.slots }

// Bodies a client without a certificate may send. Before an agent has a
// certificate the only body it sends is its CSR: a PEM of a few KiB (an
// RSA 16384-bit key with every Puppet extension stays under 16 KiB).
// puppetserver reads a CSR whole, with no cap of its own; marionette caps
// it, and every body of a request that has no verified client certificate,
// so that anyone who can reach the port cannot make the server hold
// megabytes per connection. The certificate_status body of the CA CLI is
// a few dozen bytes of JSON, and gets the same cap even from an admin.
const (
	// MaxUnauthenticatedBody is the largest body of an unauthenticated
	// request or of a /puppet-ca/v1 request, in bytes.
	MaxUnauthenticatedBody = 64 << 10
	// MaxUnauthenticatedUploads is how many unauthenticated requests may
	// send a body at once; more get 503 + Retry-After. With the cap, it
	// bounds what they hold to 64 × 64 KiB (and io.ReadAll's growth).
	MaxUnauthenticatedUploads = 64
)

// bodyLimit is the size limit of r's body, for a request from id.
func (s *Server) bodyLimit(r *http.Request, id *identity) int64 {
	if !id.authenticated || strings.HasPrefix(r.URL.Path, "/puppet-ca/") {
		return min(s.cfg.MaxBodyBytes, MaxUnauthenticatedBody)
	}
	return s.cfg.MaxBodyBytes
}

// tooLarge is the answer to a body past limit bytes.
func tooLarge(limit int64) *httpError {
	return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("Request Entity Too Large: the request body exceeds %d bytes", limit), issueRuntime}
}

// uploadSlot takes a place among the unauthenticated requests sending a
// body, for a request that has one; release must follow ok. A request
// without a certificate or a body takes no place.
func (s *Server) uploadSlot(r *http.Request, id *identity) (release func(), ok bool) {
	if id.authenticated || r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return func() {}, true
	}
	select {
	case s.uploads <- struct{}{}:
		return func() { <-s.uploads }, true
	default:
		return nil, false
	}
}
