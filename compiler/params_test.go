package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// TestSeveralParameterProblems: Puppet 7.23 lists every problem of a
// declaration's parameters, one a line, after the resource (recorded from
// `puppet catalog compile`; the oracle keeps only the first line).
func TestSeveralParameterProblems(t *testing.T) {
	tests := []struct{ src, want string }{
		{"class c(String $a, String $b) {}\ninclude c\n",
			"Evaluation Error: Error while evaluating a Function Call, Class[C]:\n  expects a value for parameter 'a'\n  expects a value for parameter 'b' (file: SITE, line: 2, column: 1)"},
		{"class c(Integer $a, String $b) {}\nclass {'c': a => 'x'}\n",
			"Evaluation Error: Error while evaluating a Resource Statement, Class[C]:\n  parameter 'a' expects an Integer value, got String\n  expects a value for parameter 'b' (file: SITE, line: 2, column: 1)"},
		{"class c(String $a, Integer $z = 1) {}\nclass {'c': b => 1, z => 'x'}\n",
			"Evaluation Error: Error while evaluating a Resource Statement, Class[C]:\n  has no parameter named 'b'\n  expects a value for parameter 'a'\n  parameter 'z' expects an Integer value, got String (file: SITE, line: 2, column: 1)"},
		{"class c($a, $b) {}\ninclude c\n",
			"Evaluation Error: Error while evaluating a Function Call, Class[C]:\n  expects a value for parameter 'a'\n  expects a value for parameter 'b' (file: SITE, line: 2, column: 1)"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"site.pp": tt.src})
		site := filepath.Join(dir, "site.pp")
		env, err := environment.Load(environment.Config{Name: "production", Manifest: site, ModulePath: nil})
		if err != nil {
			t.Fatal(err)
		}
		_, err = compileCatalog(env, &Request{Node: "n1", Facts: value.EmptyHash})
		want := strings.ReplaceAll(tt.want, "SITE", site)
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got: %v\nwant: %s", tt.src, err, want)
		}
	}
}
