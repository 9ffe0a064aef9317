package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/oneshot"
)

// isBoolFlag reports whether a flag of CompileArgs takes no separate value.
func isBoolFlag(name string) bool {
	return name == "strict-hostname-checking" || name == "strict-variables"
}

// CompileOptions reads the case's CompileArgs as `marionette compile`
// reads its command line, so that one description of a case's compile
// serves both the binary and the in-process run.
func (c *Case) CompileOptions() (*oneshot.Options, error) {
	return ParseCompileArgs(c.CompileArgs())
}

// ParseCompileArgs turns the arguments of `marionette compile NODE
// [--flag value | --flag=value]...` into the compile library's options.
func ParseCompileArgs(args []string) (*oneshot.Options, error) {
	if len(args) < 2 || args[0] != "compile" || strings.HasPrefix(args[1], "-") {
		return nil, fmt.Errorf("want compile NODE [flags], got %q", args)
	}
	o := &oneshot.Options{Node: args[1]}
	for rest := args[2:]; len(rest) > 0; rest = rest[1:] {
		name, ok := strings.CutPrefix(rest[0], "-")
		if !ok {
			return nil, fmt.Errorf("%q is no flag", rest[0])
		}
		name = strings.TrimPrefix(name, "-")
		name, value, hasValue := strings.Cut(name, "=")
		switch {
		case hasValue:
		case isBoolFlag(name):
			value = "true"
		case len(rest) < 2:
			return nil, fmt.Errorf("flag --%s needs a value", name)
		default:
			value, rest = rest[1], rest[1:]
		}
		known, err := o.SetFlag(name, value)
		if err != nil {
			return nil, err
		}
		if !known {
			return nil, fmt.Errorf("unknown flag --%s", name)
		}
	}
	return o, nil
}

// CompileInProcess compiles the case with the compile library in this
// process, as `marionette compile` would with CompileArgs: the same
// stdout, stderr and exit status. See Guard for the timeout and panics.
func CompileInProcess(ctx context.Context, c *Case, timeout time.Duration) RunResult {
	o, err := c.CompileOptions()
	if err != nil {
		return RunResult{ExitCode: 2, Stderr: []byte(err.Error() + "\n")}
	}
	return Guard(ctx, timeout, o.Run)
}

// Guard runs a compile with a deadline, catching a panic. The compiler does
// not stop on a cancelled context (only an ENC run does), so a compile that
// outlives the timeout is reported TimedOut and left to finish in its
// goroutine; its output is dropped. A panic is reported with its stack in
// Panic and ExitCode -1, failing that case only.
func Guard(ctx context.Context, timeout time.Duration, run func(ctx context.Context, stdout, stderr io.Writer) int) RunResult {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan RunResult, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		res := RunResult{ExitCode: -1}
		defer func() {
			if p := recover(); p != nil {
				res.Panic = fmt.Sprintf("panic: %v\n\n%s", p, debug.Stack())
			}
			res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
			done <- res
		}()
		res.ExitCode = run(ctx, &stdout, &stderr)
	}()
	select {
	case res := <-done:
		return res
	case <-ctx.Done():
		return RunResult{ExitCode: -1, TimedOut: true}
	}
}
