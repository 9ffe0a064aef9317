package conformance

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/site"
)

func TestParseCompileArgs(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name    string
		args    []string
		want    *CompileArgs
		wantErr string
	}{
		{"plain", []string{"compile", "a", "--manifest", "/c/site.pp", "--modulepath", "/c/modules", "--facts", "/c/facts.yaml"},
			&CompileArgs{Node: "a", Facts: "/c/facts.yaml", Options: site.Options{Overrides: site.Overrides{Manifest: "/c/site.pp", ModulePath: []string{"/c/modules"}}}}, ""},
		{"every setting", []string{"compile", "b", "--enc", "/c/enc.sh", "--hiera-config", "/c/hiera.yaml",
			"-environment=staging", "--strict-hostname-checking=false"},
			&CompileArgs{Node: "b", Options: site.Options{Overrides: site.Overrides{ENC: "/c/enc.sh", HieraConfig: "/c/hiera.yaml",
				Environment: "staging", StrictHostnameChecking: &no}}}, ""},
		{"bool flag without value", []string{"compile", "c", "--strict-hostname-checking"},
			&CompileArgs{Node: "c", Options: site.Options{Overrides: site.Overrides{StrictHostnameChecking: &yes}}}, ""},
		{"no node", []string{"compile", "--facts", "x"}, nil, "want compile NODE"},
		{"not compile", []string{"lookup", "a"}, nil, "want compile NODE"},
		{"missing value", []string{"compile", "a", "--facts"}, nil, "flag needs an argument: -facts"},
		{"unknown flag", []string{"compile", "a", "--jobs", "2"}, nil, "flag provided but not defined: -jobs"},
		{"stray argument", []string{"compile", "a", "b"}, nil, `"b" is no flag`},
		{"bad bool", []string{"compile", "a", "--strict-hostname-checking=maybe"}, nil, "strict-hostname-checking"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCompileArgs(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestCompileOptionsOfEveryCase: every case's CompileArgs parse, so no case
// is compiled in process with flags the binary would read otherwise.
func TestCompileOptionsOfEveryCase(t *testing.T) {
	s := loadedSuite(t)
	for _, c := range s.all {
		o, err := c.CompileOptions()
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		if o.Node != c.Node || o.Facts != filepath.Join(c.Dir, FactsFile) || o.Manifest != c.ManifestPath() {
			t.Errorf("%s: options %+v do not name the case's node and files", c.ID, o)
		}
	}
}

func TestGuard(t *testing.T) {
	// The hanging compile ignores its context, as the compiler does, and
	// ends when the test does.
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	tests := []struct {
		name      string
		run       func(ctx context.Context, stdout, stderr io.Writer) int
		want      RunResult
		wantPanic []string
	}{
		{"output", func(_ context.Context, stdout, stderr io.Writer) int {
			fmt.Fprint(stdout, "{}")
			fmt.Fprint(stderr, "Warning: w\n")
			return 0
		}, RunResult{Stdout: []byte("{}"), Stderr: []byte("Warning: w\n")}, nil},
		{"failure", func(_ context.Context, _, stderr io.Writer) int {
			fmt.Fprint(stderr, "Error: e\n")
			return 1
		}, RunResult{Stderr: []byte("Error: e\n"), ExitCode: 1}, nil},
		{"panic", func(_ context.Context, _, stderr io.Writer) int {
			fmt.Fprint(stderr, "Warning: before\n")
			var m map[string]int
			m["x"]++ // a nil map: a runtime panic, as a compiler bug would be
			return 0
		}, RunResult{Stderr: []byte("Warning: before\n"), ExitCode: -1},
			[]string{"panic: assignment to entry in nil map", "goroutine ", "inprocess_test.go"}},
		{"hang", func(context.Context, io.Writer, io.Writer) int {
			<-stop
			return 0
		}, RunResult{ExitCode: -1, TimedOut: true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Guard(context.Background(), 200*time.Millisecond, tt.run)
			for _, w := range tt.wantPanic {
				if !strings.Contains(got.Panic, w) {
					t.Errorf("Panic lacks %q:\n%s", w, got.Panic)
				}
			}
			if tt.wantPanic == nil && got.Panic != "" {
				t.Errorf("unexpected panic:\n%s", got.Panic)
			}
			got.Panic = ""
			if string(got.Stdout) != string(tt.want.Stdout) || string(got.Stderr) != string(tt.want.Stderr) ||
				got.ExitCode != tt.want.ExitCode || got.TimedOut != tt.want.TimedOut {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestJudgePanic: a panic fails the case and shows the stack.
func TestJudgePanic(t *testing.T) {
	c := &Case{ID: "node/x", Node: "x"}
	got := Judge(c, RunResult{ExitCode: -1, Panic: "panic: boom\n\ngoroutine 7 [running]:\nmain.f()"}, time.Second)
	if len(got.Problems) != 1 || !strings.Contains(got.Problems[0], "panicked") || !strings.Contains(got.Problems[0], "goroutine 7") {
		t.Errorf("Judge = %q, want the panic with its stack", got.Problems)
	}
}
