// Package rubyhost runs module Puppet functions written in Ruby in real
// Ruby with Puppet's library, for the functions whose Ruby marionette's
// own subset interpreter cannot run.
//
// The helper is a Ruby process (an embedded script, helper.rb) that loads
// Puppet once and listens on a unix socket. Each connection is a Session:
// the helper forks a child for it, which starts from a state holding
// Puppet and nothing of any compile. A compile uses one Session for all
// its calls, so module code is read from disk as it is when the compile
// runs, and nothing of one compile (facts, variables, objects, a
// function's monkey-patches) reaches another. Requests and answers are
// JSON lines, values as Puppet's rich data (see Encode). While a function
// runs, its scope lookups and assignments, call_function calls and
// Puppet::LookupContext methods come back to Go (Callbacks).
//
// The helper is either private (started by the Host, stopped by Close:
// the server's) or shared by a user's marionette processes (Options.
// SocketDir: the first process that needs it starts it, later ones
// connect in milliseconds, and it exits after an idle time). Every
// exchange is bounded: a message size limit, a per-call timeout and the
// caller's context; a session that misbehaves is killed, and a helper
// that died is started again on the next session.
package rubyhost

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/value"
)

//go:embed helper.rb
var helperScript string

// Defaults of Options' zero fields.
const (
	DefaultRuby         = "ruby"
	DefaultMaxProcs     = 4
	DefaultCallTimeout  = 30 * time.Second
	DefaultStartTimeout = 60 * time.Second
	DefaultMaxMessage   = 16 << 20
	DefaultIdleTimeout  = 15 * time.Minute
)

// Options configure a Host; zero fields take the defaults above.
type Options struct {
	// Ruby is the interpreter to run; Puppet's library must be on its
	// load path (Debian's puppet-agent puts it in vendor_ruby).
	Ruby string
	// MaxProcs bounds the sessions open at once (each is a process):
	// concurrent compiles that need Ruby wait for one another beyond it.
	// Zero: DefaultMaxProcs, or GOMAXPROCS when larger (the compiles a
	// fleet run makes at once).
	MaxProcs int
	// CallTimeout bounds the Ruby side of one call (the time spent in Go
	// answering its callbacks is not counted).
	CallTimeout time.Duration
	// StartTimeout bounds starting the helper and loading Puppet.
	StartTimeout time.Duration
	// MaxMessage bounds one message either way, in bytes.
	MaxMessage int
	// SocketDir, when set, is the directory of the helper shared by this
	// user's marionette processes; it must be the user's own and closed to
	// others (mode 0700), and is created so when missing. Empty: the Host
	// starts a private helper and Close stops it.
	SocketDir string
	// IdleTimeout is how long the shared helper lives without a session.
	IdleTimeout time.Duration
}

// Callbacks answer a running function's questions about the compile.
type Callbacks interface {
	// Variable is a scope lookup (lookupvar, scope['x']); a name with a
	// leading :: is a top-scope or qualified one.
	Variable(name string) (value.Value, bool)
	// SetVariable assigns a variable (scope.setvar, scope['x'] = v) in
	// the calling scope, or in top scope (compiler.topscope.setvar).
	SetVariable(name string, v value.Value, top bool) error
	// Variables are the variables visible in the scope, or in top scope,
	// for scope.to_hash.
	Variables(top bool) *value.Hash
	// Resource gives the parameters so far of the catalog's resource
	// typ[title] (catalog.resource, findresource).
	Resource(typ, title string) (*value.Hash, bool)
	// CallFunction calls a Puppet function (call_function, function_x).
	CallFunction(name string, args []value.Value) (value.Value, error)
	// Log receives a message the function logged (Puppet.warning, ...),
	// at Puppet's level name: notice, warning, err, ...
	Log(level, message string)
	// ParseType reads a data type Ruby passes back, from its string form.
	ParseType(s string) (value.Value, error)
	// Yield runs the call's lambda (Request.BlockParams) with args.
	Yield(args []value.Value) (value.Value, error)
}

// ResourceLister may be implemented by Callbacks that can list the
// catalog's resources so far, for catalog.resources.
type ResourceLister interface {
	Resources() []CatalogResource
}

// CatalogResource is one resource of the catalog as Ruby reads it.
type CatalogResource struct {
	Type, Title string
	Params      *value.Hash
}

// TopCaller is implemented by Callbacks that can call a function in top
// scope: a 4.x function's own call_function runs in its closure scope,
// the top scope, under Puppet (what role() includes is not the node's).
type TopCaller interface {
	CallFunctionTop(name string, args []value.Value) (value.Value, error)
}

// A Context is an argument that stays in Go while Ruby uses it through
// callbacks: the Puppet::LookupContext of a custom Hiera backend.
type Context interface {
	value.Value
	ContextMethod(method string, args []value.Value) (value.Value, error)
}

// Request is one function call.
type Request struct {
	// ModulePath is the environment's module path: Puppet's loaders find
	// the function and what it requires there.
	ModulePath []string
	// Name is the function's name, e.g. "postgresql::postgresql_password".
	Name string
	Args []value.Value
	// Block gives the call a block of BlockParams parameters: the Puppet
	// lambda of the call, which the function's yield runs through
	// Callbacks.Yield.
	Block       bool
	BlockParams int
}

// RubyError is an exception the function raised; Message is its message,
// as Puppet reports it.
type RubyError struct {
	Class   string
	Message string
	// File and Line are where Ruby's backtrace puts a template's
	// exception (Session.Template), which Puppet's template() reports.
	File string
	Line string
}

func (e *RubyError) Error() string { return e.Message }

// errTimeout is a helper's silence past the call or start timeout.
var errTimeout = errors.New("timed out")

// ErrClosed is returned by calls on a closed Host or Session.
var ErrClosed = errors.New("rubyhost: the Ruby helper is closed")

// Host opens sessions with the helper. It is safe for concurrent use.
type Host struct {
	opts  Options
	slots chan struct{} // one token per session that may be open

	mu     sync.Mutex
	closed bool
	// starting serializes starting the private helper: sessions that find
	// none running wait for the one being started.
	starting sync.Mutex
	starts   int
	private  *listener // the private helper, while it runs
}

// listener is a helper process this Host started.
type listener struct {
	cmd    *exec.Cmd
	socket string
	dir    string // the private helper's directory, removed with it
	stdin  io.Closer
	stderr *tail
	exited chan struct{}
}

// New returns a Host; no process starts until the first session.
func New(o Options) *Host {
	if o.Ruby == "" {
		o.Ruby = DefaultRuby
	}
	if o.MaxProcs <= 0 {
		o.MaxProcs = max(DefaultMaxProcs, runtime.GOMAXPROCS(0))
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
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	return &Host{opts: o, slots: make(chan struct{}, o.MaxProcs)}
}

// Starts is how many helper processes the Host has started.
func (h *Host) Starts() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.starts
}

// Close stops the private helper (sessions open end with it) and makes
// later sessions fail. A shared helper stays for other processes.
func (h *Host) Close() error {
	h.mu.Lock()
	l := h.private
	h.private, h.closed = nil, true
	h.mu.Unlock()
	if l != nil {
		l.stop()
	}
	return nil
}

// Start starts the helper now rather than at the first session, so that
// the first compile that needs it pays a fork, not Puppet's loading (a
// server with ruby_functions = helper).
func (h *Host) Start(ctx context.Context) error {
	var conn net.Conn
	var err error
	if h.opts.SocketDir == "" {
		conn, err = h.dialPrivate(ctx)
	} else {
		conn, err = h.dialShared(ctx)
	}
	if err != nil {
		return err
	}
	return conn.Close() // the session the helper forked for it ends
}

// Call runs one function in a session of its own.
func (h *Host) Call(ctx context.Context, req Request, cb Callbacks) (value.Value, error) {
	s, err := h.Session(ctx)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Call(ctx, req, cb)
}

// Session opens a session: a helper process of its own, which loads the
// functions called in it from disk as they are now.
func (h *Host) Session(ctx context.Context) (*Session, error) {
	// Waiting is bounded: a session is held by a compile, which may run
	// for a while, but never for ever.
	wait := time.NewTimer(h.opts.CallTimeout)
	defer wait.Stop()
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-wait.C:
		return nil, fmt.Errorf("rubyhost: all %d Ruby helper sessions stayed busy for %v", h.opts.MaxProcs, h.opts.CallTimeout)
	}
	s, err := h.open(ctx)
	if err != nil {
		<-h.slots
		return nil, err
	}
	return s, nil
}

func (h *Host) open(ctx context.Context) (*Session, error) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	var conn net.Conn
	var err error
	if h.opts.SocketDir == "" {
		conn, err = h.dialPrivate(ctx)
	} else {
		conn, err = h.dialShared(ctx)
	}
	if err != nil {
		return nil, err
	}
	s := &Session{host: h, opts: h.opts, conn: conn, br: bufio.NewReaderSize(conn, 64<<10)}
	line, err := s.next(ctx, time.Now().Add(h.opts.StartTimeout))
	if err != nil {
		s.kill()
		return nil, fmt.Errorf("rubyhost: starting a Ruby helper session: %w", err)
	}
	var ready struct {
		Op  string
		Pid int
	}
	if json.Unmarshal(line, &ready) != nil || ready.Op != "ready" || ready.Pid <= 0 {
		s.kill()
		return nil, fmt.Errorf("rubyhost: the Ruby helper did not start a session: %.200s", line)
	}
	s.pid = ready.Pid
	return s, nil
}

// startListener starts the helper listening on socket.
func (h *Host) startListener(socket string, idle time.Duration, detach bool, logFile *os.File) (*listener, error) {
	cmd := exec.Command(h.opts.Ruby, "-e", helperScript)
	cmd.Env = append(os.Environ(), "MARIONETTE_RUBYHOST_SOCKET="+socket,
		fmt.Sprintf("MARIONETTE_RUBYHOST_IDLE=%d", int(idle/time.Second)))
	l := &listener{cmd: cmd, socket: socket, exited: make(chan struct{}), stderr: &tail{max: 4096}}
	if detach {
		// The shared helper outlives this process: a session of its own,
		// no terminal, its messages in a log file beside the socket.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Stdout, cmd.Stderr = logFile, logFile
	} else {
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		l.stdin = stdin
		cmd.Stderr = l.stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("rubyhost: cannot start %s: %w", h.opts.Ruby, err)
	}
	h.mu.Lock()
	h.starts++
	h.mu.Unlock()
	go func() {
		_ = cmd.Wait()
		close(l.exited)
	}()
	return l, nil
}

// awaitSocket waits until the listener l accepts connections.
func (h *Host) awaitSocket(ctx context.Context, l *listener, describe func() string) (net.Conn, error) {
	deadline := time.NewTimer(h.opts.StartTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if conn, err := net.Dial("unix", l.socket); err == nil {
			return conn, nil
		}
		select {
		case <-l.exited:
			return nil, fmt.Errorf("rubyhost: starting the Ruby helper: it exited%s", describe())
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, fmt.Errorf("rubyhost: starting the Ruby helper: no answer within %v%s", h.opts.StartTimeout, describe())
		case <-tick.C:
		}
	}
}

// dialPrivate connects to the Host's own helper, starting it first when
// it is not running (never started, or died).
func (h *Host) dialPrivate(ctx context.Context) (net.Conn, error) {
	h.starting.Lock()
	defer h.starting.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	if l := h.private; l != nil {
		select {
		case <-l.exited:
			l.stop()
			h.private = nil
		default:
			if conn, err := net.Dial("unix", l.socket); err == nil {
				return conn, nil
			}
			l.stop()
			h.private = nil
		}
	}
	dir, err := os.MkdirTemp("", "marionette-rubyhost-")
	if err != nil {
		return nil, err
	}
	h.mu.Unlock()
	l, err := h.startListener(filepath.Join(dir, "helper.sock"), 0, false, nil)
	h.mu.Lock()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	l.dir = dir
	conn, err := h.awaitSocket(ctx, l, l.stderr.describe)
	if err != nil {
		l.stop()
		return nil, err
	}
	if h.closed {
		conn.Close()
		l.stop()
		return nil, ErrClosed
	}
	h.private = l
	return conn, nil
}

// SharedSocket is the socket of the shared helper in dir: one per Ruby
// interpreter, helper script and Ruby environment, so that marionette
// builds and Ruby settings never share a helper that is not theirs.
func SharedSocket(dir, ruby string) string {
	sum := sha256.New()
	for _, s := range []string{ruby, helperScript, os.Getenv("RUBYLIB"), os.Getenv("RUBYOPT"), os.Getenv("GEM_PATH"), os.Getenv("GEM_HOME")} {
		sum.Write([]byte(s))
		sum.Write([]byte{0})
	}
	return filepath.Join(dir, "rubyhost-"+hex.EncodeToString(sum.Sum(nil))[:16]+".sock")
}

// privateDir makes sure dir is a directory of this user's that no other
// user can enter, creating it so: a socket there reaches only the user's
// own helper, and the helper only the user's processes.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("rubyhost: the helper's directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("rubyhost: the helper's directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("rubyhost: the helper's directory %s is not a directory", dir)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("rubyhost: the helper's directory %s is not this user's", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("rubyhost: the helper's directory %s is open to other users (mode %04o; it must be 0700)", dir, fi.Mode().Perm())
	}
	return nil
}

// dialShared connects to the user's shared helper, starting it when no
// helper answers on its socket. A lock file makes processes that find
// none at once start one helper, not one each.
func (h *Host) dialShared(ctx context.Context) (net.Conn, error) {
	dir := h.opts.SocketDir
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	socket := SharedSocket(dir, h.opts.Ruby)
	if conn, err := net.Dial("unix", socket); err == nil {
		return conn, nil
	}
	lock, err := os.OpenFile(strings.TrimSuffix(socket, ".sock")+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("rubyhost: %w", err)
	}
	defer lock.Close()
	if err := flockTimeout(ctx, lock, h.opts.StartTimeout); err != nil {
		return nil, err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if conn, err := net.Dial("unix", socket); err == nil {
		return conn, nil // another process started it meanwhile
	}
	logName := strings.TrimSuffix(socket, ".sock") + ".log"
	logFile, err := os.OpenFile(logName, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("rubyhost: %w", err)
	}
	defer logFile.Close()
	l, err := h.startListener(socket, h.opts.IdleTimeout, true, logFile)
	if err != nil {
		return nil, err
	}
	return h.awaitSocket(ctx, l, func() string { return describeFile(logName) })
}

// flockTimeout takes f's exclusive lock, waiting at most timeout.
func flockTimeout(ctx context.Context, f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if err != syscall.EWOULDBLOCK {
			return fmt.Errorf("rubyhost: locking %s: %w", f.Name(), err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("rubyhost: another process has been starting the Ruby helper for %v (lock %s)", timeout, f.Name())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// describeFile is the end of a helper's log, for an error.
func describeFile(name string) string {
	data, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	t := &tail{max: 4096}
	t.Write(data)
	return t.describe()
}

// stop ends a helper this Host started: closing its stdin makes a private
// one exit; it is killed if it has not within a second.
func (l *listener) stop() {
	if l.stdin != nil {
		_ = l.stdin.Close()
	}
	select {
	case <-l.exited:
	case <-time.After(time.Second):
		_ = l.cmd.Process.Kill()
		<-l.exited
	}
	if l.dir != "" {
		os.RemoveAll(l.dir)
	}
}

// Session is one compile's connection to the helper: a process of its
// own. Its calls are made one at a time, by one goroutine; a call may be
// made while another one's callback is being answered (a function beyond
// the subset calling another one), and runs nested in it.
type Session struct {
	host *Host
	opts Options
	conn net.Conn
	pid  int
	br   *bufio.Reader
	dead bool
	once sync.Once
}

// Close ends the session and its process.
func (s *Session) Close() error {
	s.once.Do(func() {
		if !s.dead {
			_, _ = s.conn.Write([]byte("{\"op\":\"quit\"}\n"))
		}
		s.conn.Close()
		<-s.host.slots
	})
	return nil
}

// next reads the helper's next message, one line, waiting until the
// deadline or the context's end. The connection's deadlines bound the
// wait, so that a message costs no goroutine hand-offs.
func (s *Session) next(ctx context.Context, deadline time.Time) ([]byte, error) {
	if err := s.conn.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { s.conn.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	var line []byte
	for {
		chunk, err := s.br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > s.opts.MaxMessage {
			return nil, fmt.Errorf("a message from Ruby exceeds %d bytes", s.opts.MaxMessage)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, errTimeout
			}
			if err == io.EOF || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) {
				return nil, errors.New("the Ruby helper exited (crashed or killed); the next compile starts a new one")
			}
			return nil, err
		}
		return line, nil
	}
}

// send writes one message, giving up at the deadline or the context's
// end (the session is then killed: the message is half written).
func (s *Session) send(ctx context.Context, msg []byte, deadline time.Time) error {
	if err := s.conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { s.conn.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	_, err := s.conn.Write(append(msg, '\n'))
	if err != nil {
		s.kill()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return errTimeout
		}
	}
	return err
}

// kill ends the session's process at once; the session is not used again.
func (s *Session) kill() {
	s.dead = true
	if s.pid > 0 {
		_ = syscall.Kill(s.pid, syscall.SIGKILL)
	}
	s.conn.Close()
}

type incoming struct {
	Op      string          `json:"op"`
	Value   json.RawMessage `json:"value"`
	Class   string          `json:"class"`
	Message string          `json:"message"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	Level   string          `json:"level"`
	Top     bool            `json:"top"`
	Title   string          `json:"title"`
	File    string          `json:"file"`
	Line    string          `json:"line"`
}

// Call runs one function in the session and returns its result. A
// Context among the arguments is answered from Go; a function that calls
// its not_found returns the error the Context's not_found gives.
func (s *Session) Call(ctx context.Context, req Request, cb Callbacks) (v value.Value, err error) {
	if s.dead {
		return nil, ErrClosed
	}
	var lookup Context
	for _, a := range req.Args {
		if c, ok := a.(Context); ok {
			lookup = c
		}
	}
	enc := &encoder{session: s}
	args, err := enc.encode(value.Array(req.Args))
	if err != nil {
		return nil, err
	}
	blockParams := -1 // none
	if req.Block {
		blockParams = req.BlockParams
	}
	msg, err := json.Marshal(struct {
		Op          string          `json:"op"`
		ModulePath  []string        `json:"modulepath"`
		Name        string          `json:"name"`
		Args        json.RawMessage `json:"args"`
		BlockParams int             `json:"block_params"`
	}{"call", req.ModulePath, req.Name, args, blockParams})
	if err != nil {
		return nil, err
	}
	if len(msg) > s.opts.MaxMessage {
		return nil, fmt.Errorf("rubyhost: the arguments of %s exceed %d bytes", req.Name, s.opts.MaxMessage)
	}
	return s.exchange(ctx, msg, lookup, cb)
}

// TemplateRequest is one ERB template to render with Ruby's ERB, as
// Puppet's template() and inline_template() render them: the template's
// instance variables are the calling scope's variables (Callbacks.
// Variables), and its scope object is the compile's.
type TemplateRequest struct {
	ModulePath []string
	// File is the template's path; empty for an inline template.
	File string
	// Source is an inline template's text.
	Source string
}

// Template renders one template in the session and returns its text.
func (s *Session) Template(ctx context.Context, req TemplateRequest, cb Callbacks) (string, error) {
	if s.dead {
		return "", ErrClosed
	}
	msg, err := json.Marshal(struct {
		Op         string   `json:"op"`
		ModulePath []string `json:"modulepath"`
		File       string   `json:"file,omitempty"`
		Source     string   `json:"source"`
	}{"template", req.ModulePath, req.File, req.Source})
	if err != nil {
		return "", err
	}
	if len(msg) > s.opts.MaxMessage {
		return "", fmt.Errorf("rubyhost: the inline template exceeds %d bytes", s.opts.MaxMessage)
	}
	v, err := s.exchange(ctx, msg, nil, cb)
	if err != nil {
		return "", err
	}
	out, ok := v.(value.String)
	if !ok {
		return "", fmt.Errorf("rubyhost: a template rendered a %T, not a String", v)
	}
	return string(out), nil
}

// exchange sends one request and answers its callbacks until the result.
func (s *Session) exchange(ctx context.Context, msg []byte, lookup Context, cb Callbacks) (v value.Value, err error) {
	defer func() {
		if err != nil && !isRubyError(err) && !s.dead {
			var nf notFound
			if !errors.As(err, &nf) {
				s.kill()
			}
		}
	}()
	deadline := time.Now().Add(s.opts.CallTimeout)
	fail := func(err error) error {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("rubyhost: %w", err)
	}
	if err := s.send(ctx, msg, deadline); err != nil {
		return nil, fail(err)
	}
	for {
		line, err := s.next(ctx, deadline)
		if err != nil {
			if err == errTimeout {
				return nil, fmt.Errorf("rubyhost: the function did not return within %v", s.opts.CallTimeout)
			}
			return nil, fail(err)
		}
		var in incoming
		if err := json.Unmarshal(line, &in); err != nil {
			return nil, fail(fmt.Errorf("bad message from Ruby: %v", err))
		}
		switch in.Op {
		case "result":
			return s.decode(in.Value, cb.ParseType)
		case "error", "template_error":
			return nil, &RubyError{Class: in.Class, Message: in.Message, File: in.File, Line: in.Line}
		case "not_found":
			if lookup == nil {
				return nil, &RubyError{Class: "UncaughtThrowError", Message: "uncaught throw :no_such_key"}
			}
			_, err := lookup.ContextMethod("not_found", nil)
			return nil, notFound{err}
		case "log":
			cb.Log(in.Level, in.Message)
		case "lookupvar", "setvar", "call_function", "variables", "context", "resource", "resources", "yield":
			reply := s.answer(in, cb, lookup)
			if len(reply) > s.opts.MaxMessage {
				reply = errorReply(fmt.Sprintf("the answer to %s exceeds %d bytes", in.Op, s.opts.MaxMessage))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if s.dead {
				return nil, fail(errors.New("the session ended in a nested call"))
			}
			// The time spent answering in Go is not the function's.
			deadline = time.Now().Add(s.opts.CallTimeout)
			if err := s.send(ctx, reply, deadline); err != nil {
				return nil, fail(err)
			}
		default:
			return nil, fail(fmt.Errorf("unexpected message %q from Ruby", in.Op))
		}
	}
}

// notFound is a backend's context.not_found: the lookup goes on without
// a value. Unwrap gives the Context's own error for it.
type notFound struct{ err error }

func (e notFound) Error() string { return e.err.Error() }
func (e notFound) Unwrap() error { return e.err }

func isRubyError(err error) bool {
	var re *RubyError
	return errors.As(err, &re)
}

// answer runs one callback and builds its reply.
func (s *Session) answer(in incoming, cb Callbacks, lookup Context) []byte {
	var v value.Value
	found := true
	args := func() (value.Array, error) {
		if len(in.Args) == 0 {
			return nil, nil
		}
		a, err := s.decode(in.Args, cb.ParseType)
		if err != nil {
			return nil, err
		}
		arr, ok := a.(value.Array)
		if !ok {
			return nil, fmt.Errorf("%s arguments must be an Array", in.Op)
		}
		return arr, nil
	}
	switch in.Op {
	case "lookupvar":
		v, found = cb.Variable(in.Name)
	case "variables":
		v = cb.Variables(in.Top)
	case "resource":
		var params *value.Hash
		params, found = cb.Resource(in.Name, in.Title)
		if found {
			v = params
		}
	case "resources":
		rl, ok := cb.(ResourceLister)
		if !ok {
			return errorReply("the compile's catalog cannot list its resources")
		}
		list := rl.Resources()
		out := make(value.Array, len(list))
		for i, r := range list {
			out[i] = value.Array{value.String(r.Type), value.String(r.Title), r.Params}
		}
		v = out
	case "setvar":
		x, err := s.decode(in.Value, cb.ParseType)
		if err != nil {
			return errorReply(err.Error())
		}
		if err := cb.SetVariable(in.Name, x, in.Top); err != nil {
			return errorReply(err.Error())
		}
		v = x
	case "call_function":
		arr, err := args()
		if err != nil {
			return errorReply(err.Error())
		}
		call := cb.CallFunction
		if tc, ok := cb.(TopCaller); ok && in.Top {
			call = tc.CallFunctionTop
		}
		if v, err = call(in.Name, arr); err != nil {
			return errorReply(err.Error())
		}
	case "yield":
		arr, err := args()
		if err != nil {
			return errorReply(err.Error())
		}
		if v, err = cb.Yield(arr); err != nil {
			return errorReply(err.Error())
		}
	case "context":
		if lookup == nil {
			return errorReply("no Puppet::LookupContext in this call")
		}
		arr, err := args()
		if err != nil {
			return errorReply(err.Error())
		}
		if v, err = lookup.ContextMethod(in.Name, arr); err != nil {
			return errorReply(err.Error())
		}
	}
	if !found {
		v = value.Undef
	}
	enc := &encoder{session: s}
	data, err := enc.encode(v)
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
	b.Write(data)
	b.WriteByte('}')
	return b.Bytes()
}

func errorReply(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"op": "reply_error", "message": msg})
	return b
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
