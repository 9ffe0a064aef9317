package site

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictnessCompiles checks what each strictness does to a compile;
// the messages are Puppet 7.23's and 8.10's for the same manifests.
func TestStrictnessCompiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src string
		flags     map[string]string
		status    int
		stderr    []string
	}{
		{"puppet 7 warns of unknown variables", `class bar { $x = 1 } notice($bar::x) notice($nosuch::y) notice("a${z}")`, nil, 0,
			[]string{"Warning: Unknown variable: 'bar::x'. (file: %s, line: 1, column: 29)",
				"Warning: Unknown variable: 'nosuch::y'. (file: %s, line: 1, column: 45)",
				"Warning: Unknown variable: 'z'. (file: %s, line: 1, column: 68)"}},
		{"strict off says nothing", `notice($nope) notice("1" + 1)`, map[string]string{"strict": "off"}, 0, nil},
		{"puppet 8 fails on unknown variables", `notice($nope)`, map[string]string{"puppet-version": "8"}, 1,
			[]string{"Error: Evaluation Error: Unknown variable: 'nope'. (file: %s, line: 1, column: 8) on node n1"}},
		{"strict_variables alone fails", `notice($::nope)`, map[string]string{"strict": "off", "strict-variables": "true"}, 1,
			[]string{"Error: Evaluation Error: Unknown variable: '::nope'. (file: %s, line: 1, column: 8) on node n1"}},
		{"puppet 7 warns of numeric coercion", `notice("1" + 1)`, nil, 0,
			[]string{"Warning: The string '1' was automatically coerced to the numerical value 1 (file: %s, line: 1, column: 8)"}},
		{"puppet 8 fails on numeric coercion", `notice("0x10" * 2)`, map[string]string{"puppet-version": "8"}, 1,
			[]string{"Error: Evaluation Error: The string '0x10' was automatically coerced to the numerical value 16 (file: %s, line: 1, column: 8) on node n1"}},
		{"puppet 7 warns of a duplicate key", "$h = {a=>1, a   => 2}\nnotice($h)", nil, 0,
			[]string{"Warning: The key 'a' is declared more than once (file: %s, line: 1, column: 17)"}},
		{"puppet 8 fails on duplicate keys", "$h = {a=>1, a   => 2}\n$g = {\"abc\" => 1,\n  \"abc\"=>2}\n", map[string]string{"puppet-version": "8"}, 1,
			[]string{"Error: The key 'a' is declared more than once (file: %s, line: 1, column: 17)",
				"Error: The key 'abc' is declared more than once (file: %s, line: 3, column: 8)",
				"Error: Could not parse for environment production: Language validation logged 2 errors. Giving up (file: %s) on node n1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".pp")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var o Options
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			o.AddFlags(fs)
			args := []string{"--manifest", path}
			for k, v := range tc.flags {
				args = append(args, "--"+k+"="+v)
			}
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			status := Run(context.Background(), o, "n1", FactsFlag(FactsFlagNone), &stdout, &stderr)
			if status != tc.status {
				t.Errorf("status %d, want %d; stderr:\n%s", status, tc.status, stderr.String())
			}
			for _, want := range tc.stderr {
				if want = strings.ReplaceAll(want, "%s", path); !strings.Contains(stderr.String(), want+"\n") {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if tc.stderr == nil && strings.Contains(stderr.String(), "Warning") {
				t.Errorf("unexpected warnings:\n%s", stderr.String())
			}
		})
	}
}
