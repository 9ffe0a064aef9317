package site

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/puppetconf"
)

type caOpts = ca.Options

// TestCAOptions: the CA's policy settings of puppet.conf are applied,
// not ignored, and a bad value is an error naming the setting.
func TestCAOptions(t *testing.T) {
	for _, tt := range []struct {
		name  string
		flags map[string]string
		check func(t *testing.T, opts caOpts)
		err   string
	}{
		{"defaults", nil, func(t *testing.T, o caOpts) {
			if o.TTL != 0 || o.AllowDuplicateCerts || !strings.HasSuffix(o.Autosign.Path, "/autosign.conf") {
				t.Errorf("%+v", o)
			}
		}, ""},
		{"ca_ttl in days", map[string]string{"ca_ttl": "90d"}, func(t *testing.T, o caOpts) {
			if o.TTL != 90*24*time.Hour {
				t.Errorf("TTL %v", o.TTL)
			}
		}, ""},
		{"ca_ttl in seconds", map[string]string{"ca_ttl": "3600"}, func(t *testing.T, o caOpts) {
			if o.TTL != time.Hour {
				t.Errorf("TTL %v", o.TTL)
			}
		}, ""},
		{"allow_duplicate_certs", map[string]string{"allow_duplicate_certs": "true"}, func(t *testing.T, o caOpts) {
			if !o.AllowDuplicateCerts {
				t.Error("not applied")
			}
		}, ""},
		{"autosign false", map[string]string{"autosign": "false"}, func(t *testing.T, o caOpts) {
			if o.Autosign.All || o.Autosign.Path != "" {
				t.Errorf("%+v", o.Autosign)
			}
		}, ""},
		{"bad ca_ttl", map[string]string{"ca_ttl": "soon"}, nil, "ca_ttl"},
		{"bad keylength", map[string]string{"keylength": "512"}, nil, "keylength"},
		{"bad allow_duplicate_certs", map[string]string{"allow_duplicate_certs": "maybe"}, nil, "allow_duplicate_certs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			flags := map[string]string{puppetconf.Confdir: "/etc/x"}
			for k, v := range tt.flags {
				flags[k] = v
			}
			s, err := puppetconf.Load(puppetconf.Options{Home: t.TempDir(), Hostname: "h", Flags: flags})
			if err != nil {
				t.Fatal(err)
			}
			opts, err := CAOptions(s, slog.Default())
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, caOpts(opts))
		})
	}
}
