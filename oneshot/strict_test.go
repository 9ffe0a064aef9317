package oneshot

import (
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
