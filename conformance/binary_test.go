package conformance

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// binarySample picks a few cases that between them exercise every way a
// case reaches the compiler: the first case of each area, and the first
// with an error, a legacy form, an ENC, an environment, a hiera.yaml and
// fuzzy node matching.
func binarySample(cases []*Case) []*Case {
	picks := []func(*Case) bool{
		func(c *Case) bool { return c.IsErrorCase() && !c.Legacy },
		func(c *Case) bool { return c.Legacy },
		func(c *Case) bool { return c.ENC != "" },
		func(c *Case) bool { return c.ENC != "" && c.IsErrorCase() },
		func(c *Case) bool { return c.Environment != "" },
		func(c *Case) bool { return c.HieraConfigPath() != "" },
		func(c *Case) bool { return c.StrictHostnameChecking != nil && !*c.StrictHostnameChecking },
	}
	areas := map[string]bool{}
	for _, c := range cases {
		area, _, _ := strings.Cut(c.ID, "/")
		if !areas[area] {
			areas[area] = true
			picks = append(picks, func(x *Case) bool { return x == c })
		}
	}
	chosen := map[*Case]bool{}
	var out []*Case
	for _, pick := range picks {
		for _, c := range cases {
			if pick(c) {
				if !chosen[c] {
					chosen[c] = true
					out = append(out, c)
				}
				break
			}
		}
	}
	return out
}

// perRun masks what differs between two compiles of one catalog: the
// catalog version (the compile's time) and its random UUID.
var perRun = regexp.MustCompile(`"version":[0-9]+|"catalog_uuid":"[^"]*"`)

// TestBinaryAgreesWithInProcess runs the real marionette binary over a small
// sample of cases and checks that it prints exactly what the in-process
// compile of TestConformance prints, so that the suite's verdicts hold for
// the command users run.
func TestBinaryAgreesWithInProcess(t *testing.T) {
	s := loadedSuite(t)
	if *compilerFlag != "" {
		t.Skip("-marionette compiles every case with that executable already")
	}
	bin, err := marionette()
	if err != nil {
		t.Fatal(err)
	}
	sample := binarySample(s.all)
	if len(sample) < 8 {
		t.Fatalf("the sample has %d cases, want at least 8 (one per area and kind)", len(sample))
	}
	for _, c := range sample {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			binary, err := Run(context.Background(), *caseTimeoutFlag, c.Dir, nil, append([]string{bin}, c.CompileArgs()...)...)
			if err != nil {
				t.Fatal(err)
			}
			inproc := CompileInProcess(context.Background(), c, *caseTimeoutFlag)
			for _, d := range outcomeDiffs(binary, inproc) {
				t.Errorf("%s: binary and in-process compile differ: %s", c.ID, d)
			}
		})
	}
}

// outcomeDiffs lists how two runs of one compile differ.
func outcomeDiffs(binary, inproc RunResult) []string {
	var diffs []string
	if binary.ExitCode != inproc.ExitCode || binary.TimedOut != inproc.TimedOut || inproc.Panic != "" {
		diffs = append(diffs, fmt.Sprintf("exit %d (timed out %v) vs %d (timed out %v) %s",
			binary.ExitCode, binary.TimedOut, inproc.ExitCode, inproc.TimedOut, inproc.Panic))
	}
	if a, b := perRun.ReplaceAll(binary.Stdout, nil), perRun.ReplaceAll(inproc.Stdout, nil); !bytes.Equal(a, b) {
		diffs = append(diffs, fmt.Sprintf("stdout:\n  binary:     %.400s\n  in process: %.400s", a, b))
	}
	if !bytes.Equal(binary.Stderr, inproc.Stderr) {
		diffs = append(diffs, fmt.Sprintf("stderr:\n  binary:\n%s\n  in process:\n%s", indent(string(binary.Stderr)), indent(string(inproc.Stderr))))
	}
	return diffs
}

// TestBinarySample checks the smoke test's sample covers every area and
// the error, ENC and legacy kinds of case.
func TestBinarySample(t *testing.T) {
	s := loadedSuite(t)
	sample := binarySample(s.all)
	// At most one case per area and one per kind of case (an area's
	// first case often serves both).
	if len(sample) > 16 {
		t.Errorf("the sample has %d cases: a smoke test should stay small", len(sample))
	}
	covered := map[string]bool{}
	for _, c := range sample {
		area, _, _ := strings.Cut(c.ID, "/")
		covered[area] = true
		covered["error"] = covered["error"] || c.IsErrorCase() && !c.Legacy
		covered["legacy"] = covered["legacy"] || c.Legacy
		covered["enc"] = covered["enc"] || c.ENC != ""
	}
	want := []string{"error", "legacy", "enc"}
	for _, c := range s.all {
		area, _, _ := strings.Cut(c.ID, "/")
		want = append(want, area)
	}
	for _, w := range want {
		if !covered[w] {
			t.Errorf("the sample has no %s case", w)
		}
	}
}
