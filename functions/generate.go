package functions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// Bounds of generate(): Puppet sets none, but a generator that hangs or
// floods must not hold a compile (or the server's memory).
const (
	GenerateTimeout   = 30 * time.Second
	MaxGenerateOutput = 10 << 20
)

// generatorName reports whether Puppet accepts a generator path:
// alphanumerics, underscores, file separators, dashes and dots.
func generatorName(p string) bool {
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-/.", r)) {
			return false
		}
	}
	return p != ""
}

// addGenerate adds generate(): run a fully qualified command (no shell)
// in its own directory on the compiling machine; its output, standard
// error included, is the value.
func addGenerate(t Table) {
	t["generate"] = generateFunc
}

func generateFunc(c *Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 0 {
		return nil, errors.New("generate(): Wrong number of arguments given (0 for minimum 1)")
	}
	NoteUntracked(c, "generate()")
	argv := make([]string, len(args))
	for i, a := range args {
		argv[i] = value.ToString(a)
	}
	command := argv[0]
	if !filepath.IsAbs(command) {
		return nil, errors.New("Generators must be fully qualified")
	}
	if strings.Contains(command, "..") {
		return nil, errors.New("Can not use generators with '..' in them.")
	}
	if !generatorName(command) {
		return nil, errors.New("Generators can only contain alphanumerics, file separators, and dashes")
	}
	dir := filepath.Dir(command)
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("No such file or directory @ dir_chdir - %s", dir)
	}
	ctx := context.Background()
	if c.Eval != nil && c.Eval.Context != nil {
		ctx = c.Eval.Context
	}
	ctx, cancel := context.WithTimeout(ctx, GenerateTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command, argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	out := &boundedOutput{max: MaxGenerateOutput}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	fail := func(why string) error {
		return fmt.Errorf("Failed to execute generator %s: %s", command, why)
	}
	switch {
	case out.overflow:
		return nil, fail(fmt.Sprintf("its output exceeds %d bytes", MaxGenerateOutput))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fail(fmt.Sprintf("it did not finish within %v", GenerateTimeout))
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fail(fmt.Sprintf("Execution of '%s' returned %d: %s", strings.Join(argv, " "), exit.ExitCode(), strings.TrimSpace(out.buf.String())))
		}
		return nil, fail(err.Error())
	}
	return value.String(out.buf.String()), nil
}

// boundedOutput keeps up to max bytes and notes that more came.
type boundedOutput struct {
	buf      bytes.Buffer
	max      int
	overflow bool
}

func (b *boundedOutput) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		b.overflow = true
		return 0, errors.New("output limit exceeded")
	}
	return b.buf.Write(p)
}
