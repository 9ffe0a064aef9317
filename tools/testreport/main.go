// Command testreport runs `go test -json` with the given arguments and
// prints what `go test` prints (a line per package, the output of failed
// tests), then what was skipped and why, grouped by reason, and a closing
// line "tests: N passed, N failed, N skipped". Its exit status is go test's.
//
// `go test ./...` hides the output of passing packages, so the one-line
// reasons of skipped tests (an absent corpus: the Forge modules, Puppet, a
// PuppetDB) would not show; this shows them.
//
//	go run ./tools/testreport ./...
//	go run ./tools/testreport -race ./eval
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// report accumulates the run.
type report struct {
	out                     io.Writer
	passed, failed, skipped int
	testOutput              map[string][]string // package + test → output lines so far
	skips                   map[string][]string // reason → tests
}

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	r := &report{out: os.Stdout, testOutput: map[string][]string{}, skips: map[string][]string{}}
	if err := r.read(stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
	}
	err = cmd.Wait()
	r.summary()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
}

// read consumes the event stream; a line that is not an event (a build
// error, go test's own messages) is printed as it is.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(r.out, "%s\n", line)
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

// packageNoise is package-level output go test prints only with -v.
var packageNoise = regexp.MustCompile(`^(PASS|=== (RUN|PAUSE|CONT|NAME)\b|--- (PASS|SKIP)\b)`)

func (r *report) event(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output":
		// The compiler's messages for a package that does not build.
		fmt.Fprint(r.out, e.Output)
	case "output":
		if e.Test == "" {
			if !packageNoise.MatchString(e.Output) {
				fmt.Fprint(r.out, e.Output)
			}
			return
		}
		r.testOutput[key] = append(r.testOutput[key], e.Output)
	case "pass":
		if e.Test != "" {
			r.passed++
			delete(r.testOutput, key)
		}
	case "fail":
		if e.Test != "" {
			r.failed++
			for _, l := range r.testOutput[key] {
				if !strings.HasPrefix(l, "=== ") {
					fmt.Fprint(r.out, l)
				}
			}
			delete(r.testOutput, key)
		}
	case "skip":
		if e.Test != "" {
			r.skipped++
			reason := skipReason(r.testOutput[key])
			r.skips[reason] = append(r.skips[reason], strings.TrimPrefix(e.Package, "github.com/marionette-dev/marionette/")+" "+e.Test)
			delete(r.testOutput, key)
		}
	}
}

// fileLine is the "file_test.go:12: " go test puts before a message.
var fileLine = regexp.MustCompile(`^\s*[\w./-]+\.go:\d+: `)

// skipReason is the message a skipped test gave (its last output line that
// is not go test's own), without the file:line.
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		return fileLine.ReplaceAllString(l, "")
	}
	return "(no reason given)"
}

func (r *report) summary() {
	reasons := make([]string, 0, len(r.skips))
	for reason := range r.skips {
		reasons = append(reasons, reason)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if len(r.skips[reasons[i]]) != len(r.skips[reasons[j]]) {
			return len(r.skips[reasons[i]]) > len(r.skips[reasons[j]])
		}
		return reasons[i] < reasons[j]
	})
	if len(reasons) > 0 {
		fmt.Fprintln(r.out, "\nskipped:")
	}
	for _, reason := range reasons {
		tests := r.skips[reason]
		sort.Strings(tests)
		if len(tests) == 1 {
			fmt.Fprintf(r.out, "  %s: %s\n", tests[0], reason)
			continue
		}
		fmt.Fprintf(r.out, "  %d tests (%s, ...): %s\n", len(tests), tests[0], reason)
	}
	fmt.Fprintf(r.out, "\ntests: %d passed, %d failed, %d skipped\n", r.passed, r.failed, r.skipped)
}
