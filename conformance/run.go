package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// OracleEnv names the environment variable that overrides the oracle path.
const OracleEnv = "MARIONETTE_ORACLE"

// RunResult is what one external command produced.
type RunResult struct {
	Stdout, Stderr []byte
	ExitCode       int  // -1 when the command could not run or was killed
	TimedOut       bool // killed by the timeout
	// Panic is an in-process compile's panic with its Go stack ("" for none).
	Panic string
}

// Run executes argv in dir with a timeout; extraEnv entries ("K=V") are
// added to the inherited environment. Only failing to start is an error; a
// non-zero exit status is reported in the result.
func Run(ctx context.Context, timeout time.Duration, dir string, extraEnv []string, argv ...string) (RunResult, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	if len(extraEnv) > 0 {
		cmd.Env = append(os.Environ(), extraEnv...)
	}
	// Kill stragglers (an ENC script's children) that keep the pipes open.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := RunResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: -1}
	if ctx.Err() == context.DeadlineExceeded {
		res.TimedOut = true
		return res, nil
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	default:
		return res, err
	}
	return res, nil
}

// FindOracle locates the oracle's puppet-compile script: $MARIONETTE_ORACLE,
// else puppet-compile in the oracle corpus (shared/oracle beside the
// repository, or $MARIONETTE_ORACLE_DIR). It also requires puppet on PATH.
// The error says what is missing and how to get it (a corpus.AbsentError).
func FindOracle(repoRoot string) (string, error) {
	if _, err := corpus.Puppet(); err != nil {
		return "", err
	}
	if p := os.Getenv(OracleEnv); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("%s=%s is not a file", OracleEnv, p)
		}
		return filepath.Abs(p)
	}
	return corpus.Oracle().Path("puppet-compile")
}

// OracleOutcome is what the oracle said about one case.
type OracleOutcome struct {
	Compiled bool   // Puppet produced a catalog
	Output   []byte // normalized (or raw) catalog JSON when Compiled, else Puppet's messages
}

// RunOracle compiles a case directory with real Puppet. raw asks for Puppet's
// raw catalog instead of the normalized one. An error means the oracle itself
// broke (not that Puppet rejected the case).
func RunOracle(ctx context.Context, oracle, caseDir string, raw bool, timeout time.Duration) (OracleOutcome, error) {
	argv := []string{oracle}
	if raw {
		argv = append(argv, "--raw")
	}
	argv = append(argv, caseDir)
	res, err := Run(ctx, timeout, caseDir, nil, argv...)
	if err != nil {
		return OracleOutcome{}, fmt.Errorf("oracle: %v", err)
	}
	if res.TimedOut {
		return OracleOutcome{}, fmt.Errorf("oracle timed out after %v", timeout)
	}
	if bytes.Contains(res.Stderr, []byte("Traceback (most recent call last)")) {
		return OracleOutcome{}, fmt.Errorf("oracle crashed:\n%s", res.Stderr)
	}
	switch res.ExitCode {
	case 0:
		if !bytes.HasPrefix(bytes.TrimSpace(res.Stdout), []byte("{")) {
			return OracleOutcome{}, fmt.Errorf("oracle printed no catalog:\n%s", res.Stdout)
		}
		return OracleOutcome{Compiled: true, Output: res.Stdout}, nil
	case 1:
		if len(bytes.TrimSpace(res.Stderr)) == 0 {
			return OracleOutcome{}, errors.New("oracle failed without a message")
		}
		return OracleOutcome{Output: res.Stderr}, nil
	}
	return OracleOutcome{}, fmt.Errorf("oracle exited %d:\n%s", res.ExitCode, res.Stderr)
}

// Judgement is the verdict on marionette's output for one case: nil
// Problems means the case passes.
type Judgement struct {
	Problems []string
	Actual   map[string]any // our normalized catalog, when we produced one
	stderr   []byte         // marionette's stderr, for the wording check
}

// maxDiffLines bounds a case's report: past this, the diff is noise.
const maxDiffLines = 40

// Judge compares marionette's result for c with what Puppet did.
func Judge(c *Case, res RunResult, timeout time.Duration) Judgement {
	if res.TimedOut {
		return Judgement{Problems: []string{fmt.Sprintf("marionette did not finish within %v", timeout)}}
	}
	if res.Panic != "" {
		return Judgement{Problems: []string{"marionette panicked:\n" + indent(res.Panic)}}
	}
	stderr := string(res.Stderr)
	if c.IsErrorCase() {
		switch {
		case res.ExitCode == 0 && c.Legacy && strings.Contains(strings.ToLower(stderr), DeprecationMarker):
			return Judgement{} // accepted the legacy form with a deprecation warning
		case res.ExitCode == 0 && c.Legacy:
			return Judgement{Problems: []string{fmt.Sprintf("legacy case compiled without a deprecation warning on stderr (Puppet fails with %q)", c.Error)}}
		case res.ExitCode == 0:
			return Judgement{Problems: []string{fmt.Sprintf("compile succeeded, but Puppet fails with %q", c.Error)}}
		case !strings.Contains(stderr, c.Error):
			return Judgement{Problems: []string{fmt.Sprintf("error message lacks %q; stderr:\n%s", c.Error, indent(stderr))}}
		}
		return Judgement{stderr: res.Stderr}
	}
	if res.ExitCode != 0 {
		return Judgement{Problems: []string{fmt.Sprintf("compile failed (exit %d), Puppet compiles this case; stderr:\n%s", res.ExitCode, indent(stderr))}}
	}
	actual, err := Normalize(res.Stdout, c.Bases(), false)
	if err != nil {
		return Judgement{Problems: []string{"output is not a catalog: " + err.Error()}}
	}
	want, err := readNormalized(filepath.Join(c.Dir, ExpectedCatalog))
	if err != nil {
		return Judgement{Problems: []string{err.Error()}, Actual: actual}
	}
	diffs := DiffCatalogs(want, actual)
	if len(diffs) > maxDiffLines {
		more := len(diffs) - maxDiffLines
		diffs = append(diffs[:maxDiffLines:maxDiffLines], fmt.Sprintf("... and %d more differences", more))
	}
	return Judgement{Problems: diffs, Actual: actual}
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "    (empty)"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// rubyAddress matches the object addresses Ruby prints in some of Puppet's
// messages (#<Puppet::Resource::Type:0x00007f...>); they change every run.
var rubyAddress = regexp.MustCompile(`:0x[0-9a-f]{8,16}>`)

// maskRubyAddresses blanks Ruby object addresses so that two runs of the
// same failing compile compare equal.
func maskRubyAddresses(b []byte) []byte {
	return rubyAddress.ReplaceAll(b, []byte(":0x…>"))
}
