package puppetconf

import "testing"

func TestCatalogSettings(t *testing.T) {
	s, err := load(t, "[main]\ncertname = web01.example.com\nserver = puppet.example.com\nssldir = /srv/ssl\n", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[string]CatalogSetting)
	for _, st := range s.CatalogSettings() {
		got[st.Name] = st
	}
	for _, tc := range []struct {
		name, value string
		kind        SettingKind
	}{
		{"certname", "web01.example.com", KindString},
		// Defaults interpolate the settings puppet.conf gave.
		{"ca_server", "puppet.example.com", KindString},
		{"report_server", "puppet.example.com", KindString},
		{"hostcert", "/srv/ssl/certs/web01.example.com.pem", KindString},
		{"ca_name", "Puppet CA: web01.example.com", KindString},
		{"cadir", "/etc/puppetlabs/puppetserver/ca", KindString},
		{"ca_port", "8140", KindInteger},
		{"storeconfigs", "false", KindBoolean},
		{"maxwaitforcert", "unlimited", KindFloat},
		{"ca_fingerprint", "", KindUndef},
		{"logdir", "/var/log/puppetlabs/puppet", KindString},
	} {
		st, ok := got[tc.name]
		if !ok {
			t.Errorf("%s: missing", tc.name)
			continue
		}
		if st.Value != tc.value || st.Kind != tc.kind {
			t.Errorf("%s = %q (kind %d), want %q (kind %d)", tc.name, st.Value, st.Kind, tc.value, tc.kind)
		}
	}
	if n := len(got); n < 230 {
		t.Errorf("%d settings, want Puppet 7's 232", n)
	}
}
