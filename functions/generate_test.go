package functions

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestGenerate: Puppet 7.23's generate() behaviour and wording (learned by
// running it), plus marionette's bound on the output.
func TestGenerate(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string // the output, or a piece of the error
		err  bool
	}{
		{"output", []string{"/bin/echo", "hi there"}, "hi there\n", false},
		{"standard error too", []string{"/bin/sh", "-c", "echo out; echo err >&2"}, "out\nerr\n", false},
		{"runs in its directory", []string{"/bin/sh", "-c", "pwd"}, "/", false},
		{"not fully qualified", []string{"echo", "x"}, "Generators must be fully qualified", true},
		{"a blank", []string{"/bin/ec ho"}, "Generators can only contain alphanumerics, file separators, and dashes", true},
		{"dot dot", []string{"/bin/../bin/echo"}, "Can not use generators with '..' in them.", true},
		{"fails", []string{"/bin/sh", "-c", "echo err >&2; exit 3"}, "Failed to execute generator /bin/sh: Execution of '/bin/sh -c echo err >&2; exit 3' returned 3: err", true},
		{"no directory", []string{"/nonexistent/x"}, "No such file or directory @ dir_chdir - /nonexistent", true},
		{"no arguments", nil, "generate(): Wrong number of arguments given (0 for minimum 1)", true},
		{"floods", []string{"/usr/bin/head", "-c", "20000000", "/dev/zero"}, "Failed to execute generator /usr/bin/head: its output exceeds 10485760 bytes", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := make([]value.Value, len(tt.args))
			for i, a := range tt.args {
				args[i] = value.String(a)
			}
			got, err := generateFunc(&Ctx{}, args)
			if tt.err {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := string(got.(value.String)); !strings.HasPrefix(s, tt.want) {
				t.Errorf("output %q, want %q", s, tt.want)
			}
		})
	}
}
