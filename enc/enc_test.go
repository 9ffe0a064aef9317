package enc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// writeENC writes an executable classifier script.
func writeENC(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "enc.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunOutputForms(t *testing.T) {
	tests := []struct {
		name, script string
		check        func(t *testing.T, r *Result)
	}{
		{"classes array", "cat <<EOF\nclasses:\n  - common\n  - ntp\nEOF\n", func(t *testing.T, r *Result) {
			if len(r.Classes) != 2 || r.Classes[0].Name != "common" || r.Classes[1].Params != nil {
				t.Errorf("classes = %+v", r.Classes)
			}
		}},
		{"classes hash with parameters and null", "cat <<EOF\nclasses:\n  ntp:\n    servers: [a, b]\n    maxpoll: 10\n  common:\nEOF\n", func(t *testing.T, r *Result) {
			if len(r.Classes) != 2 {
				t.Fatalf("classes = %+v", r.Classes)
			}
			if v, _ := r.Classes[0].Params.GetString("maxpoll"); v != value.Integer(10) {
				t.Errorf("ntp maxpoll = %v", v)
			}
			if r.Classes[1].Params == nil || r.Classes[1].Params.Len() != 0 {
				t.Errorf("a class with null parameters is declared resource-like with none: %+v", r.Classes[1])
			}
		}},
		{"parameters and environment", "cat <<EOF\nparameters:\n  role: web\nenvironment: staging\nEOF\n", func(t *testing.T, r *Result) {
			if v, _ := r.Parameters.GetString("role"); v != value.String("web") || r.Environment != "staging" {
				t.Errorf("result = %+v", r)
			}
		}},
		{"node name is the only argument", `printf 'parameters:\n  got: "%s|%s"\n' "$1" "$#"` + "\n", func(t *testing.T, r *Result) {
			if v, _ := r.Parameters.GetString("got"); v != value.String("web01.example.com|1") {
				t.Errorf("argv seen by the ENC = %v", v)
			}
		}},
		{"a YAML list is ignored, as Puppet 7 does", "echo '- common'\n", func(t *testing.T, r *Result) {
			if len(r.Classes) != 0 {
				t.Errorf("classes = %+v", r.Classes)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Run(context.Background(), writeENC(t, tt.script), "web01.example.com", DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

// TestRunFailures covers every way a classifier can fail; each must give a
// clear error naming the node (and no result).
func TestRunFailures(t *testing.T) {
	tests := []struct {
		name, script, node string
		opts               Options
		want               string
	}{
		{"non-zero exit", "echo 'classes: [x]'; echo oops >&2; exit 3\n", "web01.example.com", DefaultOptions(), "returned 3: classes: [x] oops"},
		{"empty output", "exit 0\n", "web01.example.com", DefaultOptions(), "Could not find node 'web01.example.com'"},
		{"garbage", "echo 'classes: [a, b'\n", "web01.example.com", DefaultOptions(), "Could not load external node results for web01.example.com"},
		{"scalar document", "echo 'just a string'\n", "web01.example.com", DefaultOptions(), "Could not load external node results for web01.example.com: the output must be a YAML hash of classes, parameters and environment, not 'just a string'"},
		{"number document", "echo 42\n", "web01.example.com", DefaultOptions(), "the output must be a YAML hash of classes, parameters and environment, not 42"},
		{"neither classes nor parameters", "echo 'foo: bar'\n", "web01.example.com", DefaultOptions(), "neither 'classes' nor 'parameters'"},
		{"classes of the wrong type", "echo 'classes: 42'\n", "web01.example.com", DefaultOptions(), "'classes' must be an array or a hash"},
		{"class parameters not a hash", "printf 'classes:\\n  ntp: [1, 2]\\n'\n", "web01.example.com", DefaultOptions(), "parameters of class 'ntp' must be a hash"},
		{"parameters of the wrong type", "echo 'parameters: [a]'\n", "web01.example.com", DefaultOptions(), "'parameters' must be a hash"},
		{"environment of the wrong type", "printf 'classes: []\\nenvironment: [a]\\n'\n", "web01.example.com", DefaultOptions(), "'environment' must be a string"},
		{"timeout kills the process group", "sleep 30 & sleep 30\n", "web01.example.com", Options{Timeout: 300 * time.Millisecond}, "timed out after 300ms (a limit of marionette; --enc-timeout raises it)"},
		{"YAML node limit lowered", "echo 'classes: [a, b, c]'\n", "web01.example.com", Options{Timeout: DefaultTimeout, MaxYAMLNodes: 3}, "more than MaxYAMLNodes (3) values"},
		{"oversized output", "yes 'classes: [aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]' | head -c 200000\n", "web01.example.com", Options{Timeout: DefaultTimeout, MaxOutput: 1 << 16}, "exceeds 65536 bytes"},
		{"zero timeout", "echo 'classes: []'\n", "web01.example.com", Options{}, "invalid --enc-timeout 0s: the timeout must be positive"},
		{"negative timeout", "echo 'classes: []'\n", "web01.example.com", Options{Timeout: -time.Second}, "invalid --enc-timeout -1s: the timeout must be positive"},
		{"negative output limit", "echo 'classes: []'\n", "web01.example.com", Options{Timeout: time.Second, MaxOutput: -1}, "invalid --enc-max-output -1: the limit must be positive"},
		{"oversized output from a classifier that never ends", "yes 'classes: [a]'\n", "web01.example.com", Options{Timeout: 5 * time.Second, MaxOutput: 1 << 16}, "exceeds 65536 bytes (a limit of marionette; --enc-max-output raises it)"},
		{"YAML alias bomb", "cat <<EOF\nclasses: []\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\nEOF\n", "web01.example.com", DefaultOptions(), "MaxYAMLNodes"},
		{"hostile node name never reaches the ENC", "touch /tmp/marionette-enc-must-not-run; echo 'classes: []'\n", "x; rm -rf /", DefaultOptions(), "invalid node name"},
		{"node name starting with a dash", "echo 'classes: []'\n", "-rf", DefaultOptions(), "invalid node name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r, err := Run(context.Background(), writeENC(t, tt.script), tt.node, tt.opts)
			if err == nil {
				t.Fatalf("no error; result %+v", r)
			}
			if r != nil {
				t.Errorf("a failed classification returned a result: %+v", r)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
	if _, err := os.Stat("/tmp/marionette-enc-must-not-run"); err == nil {
		os.Remove("/tmp/marionette-enc-must-not-run")
		t.Error("the classifier ran for a hostile node name")
	}
}

// A classifier that exits after printing its answer succeeds even when a
// child it left running holds its stdout or stderr open: Puppet reads the
// output once the classifier itself has exited.
func TestRunBackgroundChild(t *testing.T) {
	for _, script := range []string{
		"echo 'classes: [bg]'\nsleep 5 &\n",
		"echo 'classes: [bg]'\n(sleep 5) &\n",
		"echo 'classes: [bg]'\nsleep 5 >&2 &\n",
		"echo 'classes: [bg]'\n(sleep 5; echo 'classes: [late]') &\n",
	} {
		start := time.Now()
		r, err := Run(context.Background(), writeENC(t, script), "web01.example.com", DefaultOptions())
		if err != nil {
			t.Fatalf("%q: %v", script, err)
		}
		if len(r.Classes) != 1 || r.Classes[0].Name != "bg" {
			t.Errorf("%q: classes = %+v", script, r.Classes)
		}
		// The children live 5 s; well under that means they were not
		// waited for (a loaded machine may take a second to start sh).
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%q: took %v, waiting for the child", script, d)
		}
	}
}
