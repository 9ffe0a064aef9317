// Package enc runs external node classifiers: Puppet's exec node terminus.
// The classifier is an executable called with the node name as its only
// argument (never through a shell); it prints YAML naming the node's
// classes, top-scope parameters and environment.
package enc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/value"
)

// Class is one class the classifier assigned. Params is nil when the class
// was given by name only (declared like include).
type Class struct {
	Name   string
	Params *value.Hash
}

// Result is what a classifier said about a node.
type Result struct {
	Classes     []Class
	Parameters  *value.Hash
	Environment string
}

// Options bound a classifier run. The zero Options are not valid: a
// timeout of zero or less would mean none, so Run rejects it (use
// DefaultOptions, or the --enc-timeout flag's value).
type Options struct {
	Timeout   time.Duration // must be positive; see DefaultTimeout
	MaxOutput int           // bytes of stdout; 0 means DefaultMaxOutput
	// MaxYAMLNodes bounds what the output's YAML may expand to; 0 means
	// dataformat.MaxYAMLNodes.
	MaxYAMLNodes int
}

// DefaultOptions are DefaultTimeout and DefaultMaxOutput.
func DefaultOptions() Options {
	return Options{Timeout: DefaultTimeout, MaxOutput: DefaultMaxOutput}
}

// Validate reports options Run cannot honour, naming the command-line flag
// the value comes from.
func (o Options) Validate() error {
	if o.Timeout <= 0 {
		return fmt.Errorf("invalid --enc-timeout %s: the timeout must be positive", o.Timeout)
	}
	if o.MaxOutput < 0 {
		return fmt.Errorf("invalid --enc-max-output %d: the limit must be positive", o.MaxOutput)
	}
	return nil
}

// NotFoundError is a classifier that does not know the node (non-zero exit
// or empty output); Puppet then fails the compile.
type NotFoundError struct {
	Node string
	Msg  string
}

func (e *NotFoundError) Error() string { return e.Msg }

// Run runs the classifier for node and parses its answer.
func Run(ctx context.Context, path, node string, opts Options) (*Result, error) {
	if !names.ValidCertname(node) {
		return nil, fmt.Errorf("Failed when searching for node %s: invalid node name (only letters, digits, '_', '-' and '.' are allowed)", node)
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	maxOut := opts.MaxOutput
	if maxOut == 0 {
		maxOut = DefaultMaxOutput
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stdout := &limitedBuffer{max: maxOut}
	stderr := &limitedBuffer{max: maxStderr, truncate: true}
	err := run(ctx, path, node, stdout, stderr)
	name := filepath.Base(path)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("Failed when searching for node %s: external node classifier '%s' timed out after %s (a limit of marionette; --enc-timeout raises it)", node, name, timeout)
	case stdout.overflow:
		return nil, fmt.Errorf("Failed when searching for node %s: output of external node classifier '%s' exceeds %d bytes (a limit of marionette; --enc-max-output raises it)", node, name, maxOut)
	case err != nil:
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			msg := strings.TrimSpace(strings.TrimSpace(stdout.buf.String()) + " " + strings.TrimSpace(stderr.buf.String()))
			return nil, &NotFoundError{Node: node, Msg: fmt.Sprintf("Failed when searching for node %s: Failed to find %s via exec: Execution of '%s %s' returned %d: %s",
				node, node, path, node, exitErr.ExitCode(), msg)}
		}
		return nil, fmt.Errorf("Failed when searching for node %s: %v", node, err)
	}
	if strings.TrimSpace(stdout.buf.String()) == "" {
		return nil, &NotFoundError{Node: node, Msg: fmt.Sprintf("Could not find node '%s'; cannot compile", node)}
	}
	return parse(stdout.buf.Bytes(), node, name, opts.MaxYAMLNodes)
}

// Parse reads a classifier's YAML answer.
func Parse(out []byte, node, encName string) (*Result, error) {
	return parse(out, node, encName, 0)
}

// parse is Parse with the YAML bounded to maxNodes values (0: the default).
func parse(out []byte, node, encName string, maxNodes int) (*Result, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("Failed when searching for node %s: Could not load external node results for %s: %s", node, node, fmt.Sprintf(format, args...))
	}
	doc, err := dataformat.FromYAMLLimit(out, encName, maxNodes)
	if err != nil {
		return nil, fail("%v", err)
	}
	if _, isList := doc.(value.Array); isList {
		// Puppet 7 silently ignores a YAML list: the node gets no classes.
		return &Result{}, nil
	}
	h, ok := doc.(*value.Hash)
	if !ok {
		// Puppet fails with a Ruby NoMethodError here (undefined method
		// `inject' for "...":String); marionette says what is wrong.
		return nil, fail("the output must be a YAML hash of classes, parameters and environment, not %s", value.Literal(doc))
	}
	res := &Result{}
	_, hasClasses := h.GetString("classes")
	_, hasParams := h.GetString("parameters")
	if !hasClasses && !hasParams {
		if _, hasEnv := h.GetString("environment"); !hasEnv {
			return nil, fail("the output has neither 'classes' nor 'parameters'")
		}
	}
	if v, ok := h.GetString("classes"); ok {
		switch cv := v.(type) {
		case value.Array:
			for _, e := range cv {
				s, ok := e.(value.String)
				if !ok {
					return nil, fail("'classes' entries must be class names, got %s", value.Literal(e))
				}
				res.Classes = append(res.Classes, Class{Name: string(s)})
			}
		case *value.Hash:
			for i, k := range cv.Keys() {
				s, ok := k.(value.String)
				if !ok {
					return nil, fail("'classes' keys must be class names, got %s", value.Literal(k))
				}
				switch p := cv.Values()[i].(type) {
				case *value.Hash:
					res.Classes = append(res.Classes, Class{Name: string(s), Params: p})
				default:
					if !value.IsUndef(p) {
						return nil, fail("the parameters of class '%s' must be a hash, got %s", s, value.Literal(p))
					}
					res.Classes = append(res.Classes, Class{Name: string(s), Params: value.EmptyHash})
				}
			}
		default:
			if !value.IsUndef(v) {
				return nil, fail("'classes' must be an array or a hash, got %s", value.Literal(v))
			}
		}
	}
	if v, ok := h.GetString("parameters"); ok {
		switch pv := v.(type) {
		case *value.Hash:
			res.Parameters = pv
		default:
			if !value.IsUndef(v) {
				return nil, fail("'parameters' must be a hash, got %s", value.Literal(v))
			}
		}
	}
	if v, ok := h.GetString("environment"); ok {
		s, ok := v.(value.String)
		if !ok {
			return nil, fail("'environment' must be a string, got %s", value.Literal(v))
		}
		res.Environment = string(s)
	}
	return res, nil
}

// run runs the classifier in its own process group (so that a timeout kills
// whatever it started) and collects its output until it exits. Like Puppet,
// which reads an ENC's output once the process has exited, it does not wait
// for children the classifier left running with stdout or stderr open:
// after the exit it reads only what is already in the pipes.
func run(ctx context.Context, path, node string, stdout, stderr *limitedBuffer) error {
	cmd := exec.Command(path, node)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return err
	}
	defer errR.Close()
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	// The child has its own copies; ours must go for EOF to come.
	outW.Close()
	errW.Close()
	if err != nil {
		return err
	}
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var wg sync.WaitGroup
	for _, p := range []struct {
		r   *os.File
		buf *limitedBuffer
	}{{outR, stdout}, {errR, stderr}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := io.Copy(p.buf, p.r); err != nil && p.buf.overflow {
				kill() // it would block on a full pipe until the timeout
			}
		}()
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-ctx.Done():
		kill()
		err = <-exited
	}
	// What the classifier wrote before exiting is in the pipes; reading it
	// takes far less than the grace period, after which only a lingering
	// child can hold them open.
	deadline := time.Now().Add(exitGrace)
	_ = outR.SetReadDeadline(deadline)
	_ = errR.SetReadDeadline(deadline)
	wg.Wait()
	return err
}

// limitedBuffer collects output up to max bytes. Past it, it notes an
// overflow and fails the write, or with truncate drops the rest.
type limitedBuffer struct {
	buf      bytes.Buffer
	max      int
	truncate bool
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		if b.truncate {
			b.buf.Write(p[:b.max-b.buf.Len()])
			return len(p), nil
		}
		b.overflow = true
		return 0, errors.New("output too large")
	}
	return b.buf.Write(p)
}
