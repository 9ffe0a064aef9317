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
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

// Defaults for Run.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultMaxOutput = 16 << 20
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

// Options bound a classifier run.
type Options struct {
	Timeout   time.Duration // 0 means DefaultTimeout
	MaxOutput int           // bytes of stdout; 0 means DefaultMaxOutput
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
	if !ValidNodeName(node) {
		return nil, fmt.Errorf("Failed when searching for node %s: invalid node name (only letters, digits, '_', '-' and '.' are allowed)", node)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxOut := opts.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, node)
	// Own process group, so a timeout kills whatever the classifier started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	stdout := &limitedBuffer{max: maxOut}
	stderr := &limitedBuffer{max: 64 << 10}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	err := cmd.Run()
	name := filepath.Base(path)
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("Failed when searching for node %s: external node classifier '%s' timed out after %s", node, name, timeout)
	case stdout.overflow:
		return nil, fmt.Errorf("Failed when searching for node %s: output of external node classifier '%s' exceeds %d bytes", node, name, maxOut)
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
	return Parse(stdout.buf.Bytes(), node, name)
}

// Parse reads a classifier's YAML answer.
func Parse(out []byte, node, encName string) (*Result, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("Failed when searching for node %s: Could not load external node results for %s: %s", node, node, fmt.Sprintf(format, args...))
	}
	doc, err := hiera.FromYAML(out, encName)
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

// ValidNodeName reports whether a certname may be handed to a classifier.
func ValidNodeName(name string) bool {
	if name == "" || len(name) > 255 || name[0] == '-' || name[0] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '.' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// limitedBuffer collects output up to max bytes and notes an overflow.
type limitedBuffer struct {
	buf      bytes.Buffer
	max      int
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		b.overflow = true
		return 0, errors.New("output too large")
	}
	return b.buf.Write(p)
}
