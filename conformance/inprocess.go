package conformance

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/site"
)

// CompileArgs are a case's compile as `marionette compile` reads its
// command line: the node, --facts and the site's flags.
type CompileArgs struct {
	Node  string
	Facts string
	site.Options
}

// Run compiles the node as `marionette compile` does: the same stdout,
// stderr and exit status.
func (a *CompileArgs) Run(ctx context.Context, stdout, stderr io.Writer) int {
	return site.Run(ctx, a.Options, a.Node, site.FactsFlag(a.Facts), stdout, stderr)
}

// CompileOptions reads the case's CompileArgs as `marionette compile`
// reads its command line, so that one description of a case's compile
// serves both the binary and the in-process run.
func (c *Case) CompileOptions() (*CompileArgs, error) {
	return ParseCompileArgs(c.CompileArgs())
}

// ParseCompileArgs turns the arguments of `marionette compile NODE
// [--flag value | --flag=value]...` into the compile's inputs, with the
// flags `marionette compile` defines for them (site.Options.AddFlags).
func ParseCompileArgs(args []string) (*CompileArgs, error) {
	if len(args) < 2 || args[0] != "compile" || strings.HasPrefix(args[1], "-") {
		return nil, fmt.Errorf("want compile NODE [flags], got %q", args)
	}
	a := &CompileArgs{Node: args[1]}
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.AddFlags(fs)
	fs.StringVar(&a.Facts, "facts", "", "facts file, none or puppetdb")
	if err := fs.Parse(args[2:]); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%q is no flag", fs.Arg(0))
	}
	return a, nil
}

// CompileInProcess compiles the case with the compile library in this
// process, as `marionette compile` would with CompileArgs: the same
// stdout, stderr and exit status. See Guard for the timeout and panics.
func CompileInProcess(ctx context.Context, c *Case, timeout time.Duration) RunResult {
	a, err := c.CompileOptions()
	if err != nil {
		return RunResult{ExitCode: 2, Stderr: []byte(err.Error() + "\n")}
	}
	if c.SubsetOnly() {
		a.RubyFunctions = "subset"
	}
	return Guard(ctx, timeout, a.Run)
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
