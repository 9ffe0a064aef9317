package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReport: package lines pass through, a failed test's output is
// printed, skips are grouped by their reason without file:line, and the
// closing line counts each outcome.
func TestReport(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:9: the Forge module corpus is not at /x (run scripts/forge-corpus DIR)\n"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"--- SKIP: TestA (0.00s)\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: the Forge module corpus is not at /x (run scripts/forge-corpus DIR)\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:4: got 1, want 2\n"}`,
		`{"Action":"output","Package":"p","Test":"TestC","Output":"--- FAIL: TestC (0.00s)\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestC"}`,
		`{"Action":"output","Package":"p","Test":"TestD","Output":"noise of a passing test\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestD"}`,
		`{"Action":"output","Package":"p","Output":"PASS\n"}`,
		`{"Action":"output","Package":"p","Output":"conformance: 3 passed, 0 failed, 0 skipped\n"}`,
		`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}`,
		`{"ImportPath":"q","Action":"build-output","Output":"q/x.go:1:1: undefined: y\n"}`,
		`{"ImportPath":"q","Action":"build-fail"}`,
		`# p [build failed]`,
	}, "\n")
	var out bytes.Buffer
	r := &report{out: &out, testOutput: map[string][]string{}, skips: map[string][]string{}}
	if err := r.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	r.summary()
	want := `    c_test.go:4: got 1, want 2
--- FAIL: TestC (0.00s)
conformance: 3 passed, 0 failed, 0 skipped
FAIL	p	0.1s
q/x.go:1:1: undefined: y
# p [build failed]

skipped:
  2 tests (p TestA, ...): the Forge module corpus is not at /x (run scripts/forge-corpus DIR)

tests: 1 passed, 1 failed, 2 skipped
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
