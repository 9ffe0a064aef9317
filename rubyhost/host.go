// Package rubyhost runs module Puppet functions written in Ruby in real
// Ruby with Puppet's library, for the functions whose Ruby marionette's
// own subset interpreter cannot run.
//
// A Host keeps long-lived helper processes (`ruby` running an embedded
// script that loads Puppet), started on first use and shared by every
// compile of a server or batch. Requests and answers are JSON lines on the
// helper's stdin and stdout, values as Puppet's rich data (see Encode).
// While a function runs, its scope lookups and call_function calls come
// back to Go (Callbacks), so it sees the compile's variables and function
// table. Every exchange is bounded: a message size limit, a per-call
// timeout and the caller's context; a helper that misbehaves is killed and
// a new one started on the next call.
package rubyhost

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/value"
)

//go:embed helper.rb
var helperScript string

// Defaults of Options' zero fields.
const (
	DefaultRuby         = "ruby"
	DefaultMaxProcs     = 2
	DefaultCallTimeout  = 30 * time.Second
	DefaultStartTimeout = 60 * time.Second
	DefaultMaxMessage   = 16 << 20
)

// Options configure a Host; zero fields take the defaults above.
type Options struct {
	// Ruby is the interpreter to run; Puppet's library must be on its
	// load path (Debian's puppet-agent puts it in vendor_ruby).
	Ruby string
	// MaxProcs bounds the helper processes running at once: concurrent
	// compiles use different helpers, and a function that calls another
	// one that needs a helper takes a second.
	MaxProcs int
	// CallTimeout bounds the Ruby side of one call (the time spent in Go
	// answering its callbacks is not counted).
	CallTimeout time.Duration
	// StartTimeout bounds starting a helper and loading Puppet.
	StartTimeout time.Duration
	// MaxMessage bounds one message either way, in bytes.
	MaxMessage int
}

// Callbacks answer a running function's questions about the compile.
type Callbacks interface {
	// Variable is a scope lookup (lookupvar, scope['x']).
	Variable(name string) (value.Value, bool)
	// Variables are the variables visible in the scope, for
	// scope.to_hash.
	Variables() *value.Hash
	// CallFunction calls a Puppet function (call_function).
	CallFunction(name string, args []value.Value) (value.Value, error)
	// Log receives a message the function logged (Puppet.warning, ...),
	// at Puppet's level name: notice, warning, err, ...
	Log(level, message string)
	// ParseType reads a data type Ruby passes back, from its string form.
	ParseType(s string) (value.Value, error)
}

// Request is one function call.
type Request struct {
	// ModulePath is the environment's module path: Puppet's loaders find
	// the function and what it requires there.
	ModulePath []string
	// Name is the function's name, e.g. "postgresql::postgresql_password".
	Name string
	Args []value.Value
}

// RubyError is an exception the function raised; Message is its message,
// as Puppet reports it.
type RubyError struct {
	Class   string
	Message string
}

func (e *RubyError) Error() string { return e.Message }

// errTimeout is a helper's silence past the call or start timeout.
var errTimeout = errors.New("timed out")

// ErrClosed is returned by calls on a closed Host.
var ErrClosed = errors.New("rubyhost: the Ruby helper is closed")

// Host runs functions in helper processes. It is safe for concurrent use.
type Host struct {
	opts  Options
	slots chan struct{} // one token per helper that may run

	mu     sync.Mutex
	idle   []*proc
	gen    int // Reset's count: helpers of older generations are not reused
	closed bool
	starts int
}

// New returns a Host; no process starts until the first call.
func New(o Options) *Host {
	if o.Ruby == "" {
		o.Ruby = DefaultRuby
	}
	if o.MaxProcs <= 0 {
		o.MaxProcs = DefaultMaxProcs
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	return &Host{opts: o, slots: make(chan struct{}, o.MaxProcs)}
}

// Starts is how many helper processes the Host has started.
func (h *Host) Starts() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.starts
}

// Close stops the idle helpers and makes later calls fail; calls running
// finish and their helpers stop.
func (h *Host) Close() error {
	h.mu.Lock()
	idle := h.idle
	h.idle, h.closed = nil, true
	h.mu.Unlock()
	for _, p := range idle {
		p.stop()
	}
	return nil
}

// Reset makes later calls use new helpers, which load the functions'
// files afresh (a server's environments were flushed): idle helpers stop
// now, busy ones when their call ends.
func (h *Host) Reset() {
	h.mu.Lock()
	idle := h.idle
	h.idle = nil
	h.gen++
	h.mu.Unlock()
	for _, p := range idle {
		p.stop()
	}
}

// Call runs one function in a helper and returns its result.
func (h *Host) Call(ctx context.Context, req Request, cb Callbacks) (value.Value, error) {
	args, err := Encode(value.Array(req.Args))
	if err != nil {
		return nil, err
	}
	msg, err := json.Marshal(struct {
		Op         string          `json:"op"`
		ModulePath []string        `json:"modulepath"`
		Name       string          `json:"name"`
		Args       json.RawMessage `json:"args"`
	}{"call", req.ModulePath, req.Name, args})
	if err != nil {
		return nil, err
	}
	if len(msg) > h.opts.MaxMessage {
		return nil, fmt.Errorf("rubyhost: the arguments of %s exceed %d bytes", req.Name, h.opts.MaxMessage)
	}
	p, err := h.acquire(ctx)
	if err != nil {
		return nil, err
	}
	v, err := p.call(ctx, msg, cb)
	h.release(p)
	return v, err
}

func (h *Host) acquire(ctx context.Context) (*proc, error) {
	// Waiting is bounded too: a function that calls, through Go, another
	// one needing a helper while every helper is busy with its callers
	// would otherwise wait for itself.
	wait := time.NewTimer(h.opts.CallTimeout)
	defer wait.Stop()
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-wait.C:
		return nil, fmt.Errorf("rubyhost: all %d Ruby helpers stayed busy for %v", h.opts.MaxProcs, h.opts.CallTimeout)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		<-h.slots
		return nil, ErrClosed
	}
	if n := len(h.idle); n > 0 {
		p := h.idle[n-1]
		h.idle = h.idle[:n-1]
		h.mu.Unlock()
		return p, nil
	}
	h.starts++
	gen := h.gen
	h.mu.Unlock()
	p, err := h.start(ctx)
	if err != nil {
		<-h.slots
		return nil, err
	}
	p.gen = gen
	return p, nil
}

func (h *Host) release(p *proc) {
	h.mu.Lock()
	if p.dead || h.closed || p.gen != h.gen {
		h.mu.Unlock()
		p.stop()
	} else {
		h.idle = append(h.idle, p)
		h.mu.Unlock()
	}
	<-h.slots
}

// proc is one helper process. Only the goroutine holding it uses it.
type proc struct {
	opts   Options
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	msgs   chan readResult
	stderr *tail
	dead   bool
	gen    int
	waited chan struct{}
}

type readResult struct {
	line []byte
	err  error
}

func (h *Host) start(ctx context.Context) (*proc, error) {
	// Puppet's settings point into a scratch directory, so that the
	// helper reads no puppet.conf of the machine's. Puppet writes nothing
	// there to load and call functions: it is removed once Puppet is up.
	dir, err := os.MkdirTemp("", "marionette-rubyhost-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(h.opts.Ruby, "-e", helperScript)
	cmd.Env = append(os.Environ(), "MARIONETTE_RUBYHOST_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &proc{opts: h.opts, cmd: cmd, stdin: stdin, msgs: make(chan readResult), stderr: &tail{max: 4096}, waited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("rubyhost: cannot start %s: %w", h.opts.Ruby, err)
	}
	go p.read(stdout)
	go func() {
		_ = cmd.Wait()
		close(p.waited)
	}()
	timer := time.NewTimer(h.opts.StartTimeout)
	defer timer.Stop()
	line, err := p.next(ctx, timer.C)
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("rubyhost: starting the Ruby helper: %w", err)
	}
	var ready struct{ Op, Puppet string }
	if json.Unmarshal(line, &ready) != nil || ready.Op != "ready" {
		p.kill()
		return nil, fmt.Errorf("rubyhost: the Ruby helper did not start: %.200s", line)
	}
	return p, nil
}

// read turns the helper's stdout into messages, one per line, until it
// ends or a line exceeds the limit.
func (p *proc) read(r io.Reader) {
	defer close(p.msgs)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > p.opts.MaxMessage {
				p.msgs <- readResult{err: fmt.Errorf("a message from Ruby exceeds %d bytes", p.opts.MaxMessage)}
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				p.msgs <- readResult{err: err}
				return
			}
			break
		}
		p.msgs <- readResult{line: line}
	}
}

// next waits for the helper's next message.
func (p *proc) next(ctx context.Context, timeout <-chan time.Time) ([]byte, error) {
	select {
	case r, ok := <-p.msgs:
		if !ok {
			r.err = io.EOF
		}
		if r.err != nil {
			if r.err == io.EOF {
				return nil, fmt.Errorf("the Ruby helper exited%s", p.stderr.describe())
			}
			return nil, r.err
		}
		return r.line, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timeout:
		return nil, errTimeout
	}
}

// send writes one message, giving up with the context or the timeout.
func (p *proc) send(ctx context.Context, msg []byte, timeout <-chan time.Time) error {
	done := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(append(msg, '\n'))
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		p.kill()
		return ctx.Err()
	case <-timeout:
		p.kill()
		return errTimeout
	}
}

type incoming struct {
	Op      string          `json:"op"`
	Value   json.RawMessage `json:"value"`
	Class   string          `json:"class"`
	Message string          `json:"message"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	Level   string          `json:"level"`
}

// call sends a call and serves the helper's callbacks until its answer.
func (p *proc) call(ctx context.Context, msg []byte, cb Callbacks) (v value.Value, err error) {
	defer func() {
		if err != nil && !isRubyError(err) {
			p.kill()
		}
	}()
	timer := time.NewTimer(p.opts.CallTimeout)
	defer timer.Stop()
	fail := func(err error) error {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("rubyhost: %w", err)
	}
	if err := p.send(ctx, msg, timer.C); err != nil {
		return nil, fail(err)
	}
	for {
		line, err := p.next(ctx, timer.C)
		if err != nil {
			if err == errTimeout {
				return nil, fmt.Errorf("rubyhost: the function did not return within %v", p.opts.CallTimeout)
			}
			return nil, fail(err)
		}
		var in incoming
		if err := json.Unmarshal(line, &in); err != nil {
			return nil, fail(fmt.Errorf("bad message from Ruby: %v", err))
		}
		switch in.Op {
		case "result":
			return Decode(in.Value, cb.ParseType)
		case "error":
			return nil, &RubyError{Class: in.Class, Message: in.Message}
		case "log":
			cb.Log(in.Level, in.Message)
		case "lookupvar", "call_function", "variables":
			timer.Stop()
			reply := p.answer(in, cb)
			if len(reply) > p.opts.MaxMessage {
				reply = errorReply(fmt.Sprintf("the answer to %s exceeds %d bytes", in.Op, p.opts.MaxMessage))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			timer.Reset(p.opts.CallTimeout)
			if err := p.send(ctx, reply, timer.C); err != nil {
				return nil, fail(err)
			}
		default:
			return nil, fail(fmt.Errorf("unexpected message %q from Ruby", in.Op))
		}
	}
}

func isRubyError(err error) bool {
	var re *RubyError
	return errors.As(err, &re)
}

// answer runs one callback and builds its reply.
func (p *proc) answer(in incoming, cb Callbacks) []byte {
	var v value.Value
	found := true
	switch in.Op {
	case "lookupvar":
		v, found = cb.Variable(in.Name)
	case "variables":
		v = cb.Variables()
	case "call_function":
		args, err := Decode(in.Args, cb.ParseType)
		if err != nil {
			return errorReply(err.Error())
		}
		arr, ok := args.(value.Array)
		if !ok {
			return errorReply("call_function arguments must be an Array")
		}
		v, err = cb.CallFunction(in.Name, arr)
		if err != nil {
			return errorReply(err.Error())
		}
	}
	if !found {
		v = value.Undef
	}
	enc, err := Encode(v)
	if err != nil {
		return errorReply(err.Error())
	}
	var b bytes.Buffer
	b.WriteString(`{"op":"reply","found":`)
	if found {
		b.WriteString("true")
	} else {
		b.WriteString("false")
	}
	b.WriteString(`,"value":`)
	b.Write(enc)
	b.WriteByte('}')
	return b.Bytes()
}

func errorReply(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"op": "reply_error", "message": msg})
	return b
}

// kill ends the process at once; the proc is not used again.
func (p *proc) kill() {
	p.dead = true
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	// Unblock the reader if it waits to hand over a message.
	go func() {
		for range p.msgs {
		}
	}()
}

// stop ends an idle helper: closing its stdin makes it exit, and it is
// killed if it has not within a second.
func (p *proc) stop() {
	_ = p.stdin.Close()
	select {
	case <-p.waited:
	case <-time.After(time.Second):
		p.kill()
	}
	if !p.dead {
		p.kill()
	}
}

// tail keeps the last bytes the helper wrote to stderr, for errors.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	return ": " + s
}
