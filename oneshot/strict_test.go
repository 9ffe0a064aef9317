package oneshot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/puppetconf"
)

func TestStrictnessFlags(t *testing.T) {
	for _, tc := range []struct {
		flag, value, key, want, err string
	}{
		{"puppet-version", "8", puppetconf.PuppetVersion, "8", ""},
		{"strict", "off", puppetconf.Strict, "off", ""},
		{"strict-variables", "true", puppetconf.StrictVariables, "true", ""},
		{"puppet-version", "6", "", "", "--puppet-version: "},
		{"strict", "loud", "", "", "Invalid value 'loud' for parameter strict"},
		{"strict-variables", "maybe", "", "", "--strict-variables: "},
	} {
		o := &Options{}
		known, err := o.SetFlag(tc.flag, tc.value)
		if !known {
			t.Fatalf("--%s unknown", tc.flag)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("--%s %s: got %v, want %q", tc.flag, tc.value, err, tc.err)
			}
			continue
		}
		if err != nil || o.Settings[tc.key] != tc.want {
			t.Errorf("--%s %s: settings %v, err %v", tc.flag, tc.value, o.Settings, err)
		}
	}
}

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
			o := &Options{Node: "n1"}
			flags := map[string]string{"manifest": path}
			for k, v := range tc.flags {
				flags[k] = v
			}
			for k, v := range flags {
				if _, err := o.SetFlag(k, v); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			status := o.Run(context.Background(), &stdout, &stderr)
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
