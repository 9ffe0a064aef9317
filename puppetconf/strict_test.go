package puppetconf

import (
	"strings"
	"testing"
)

func TestStrictSettings(t *testing.T) {
	for _, tc := range []struct {
		name, conf string
		flags      map[string]string
		major      int
		strict     string
		vars       bool
	}{
		{"puppet 7 defaults", "", nil, 7, StrictWarning, false},
		{"puppet 8 defaults", "[main]\npuppet_version = 8\n", nil, 8, StrictError, true},
		{"puppet 8 by flag", "", map[string]string{PuppetVersion: "8"}, 8, StrictError, true},
		{"flag over puppet.conf", "[main]\npuppet_version = 8\n", map[string]string{PuppetVersion: "7"}, 7, StrictWarning, false},
		{"strict set on 8", "[server]\nstrict = warning\nstrict_variables = false\npuppet_version = 8\n", nil, 8, StrictWarning, false},
		{"strict set on 7", "[main]\nstrict = error\nstrict_variables = true\n", nil, 7, StrictError, true},
		{"strict off by flag", "", map[string]string{Strict: "off"}, 7, StrictOff, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := load(t, tc.conf, tc.flags, nil)
			if err != nil {
				t.Fatal(err)
			}
			major, _ := s.PuppetMajor()
			strict, _ := s.Strictness()
			vars, _ := s.StrictVariables()
			if major != tc.major || strict != tc.strict || vars != tc.vars {
				t.Errorf("got %d %s %v, want %d %s %v", major, strict, vars, tc.major, tc.strict, tc.vars)
			}
		})
	}
}

func TestStrictSettingErrors(t *testing.T) {
	for _, tc := range []struct{ conf, want string }{
		{"strict = foo\n", "Invalid value 'foo' for parameter strict. Allowed values are 'off', 'warning', 'error'"},
		{"strict_variables = maybe\n", `strict_variables must be true or false, got "maybe"`},
		{"puppet_version = 6\n", `puppet_version must be 7 or 8, got "6"`},
	} {
		_, err := load(t, tc.conf, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.conf, err, tc.want)
		}
	}
}
