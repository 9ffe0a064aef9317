package site

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/value"
)

// TestRubyFunctionsSetting: the flag wins over MARIONETTE_RUBY_FUNCTIONS,
// which wins over puppet.conf; auto is the default; bad values are
// errors naming where they came from; auto and helper give the request a
// host, auto one that is optional.
func TestRubyFunctionsSetting(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "puppet.conf")
	for _, tc := range []struct {
		flag, env, conf string
		want, err       string
	}{
		{want: "auto"},
		{conf: "helper", want: "helper"},
		{conf: "subset", want: "subset"},
		{env: "auto", conf: "subset", want: "auto"},
		{env: "subset", conf: "helper", want: "subset"},
		{flag: "helper", env: "subset", want: "helper"},
		{flag: "subset", env: "helper", conf: "helper", want: "subset"},
		{flag: "ruby", err: "ruby_functions must be auto, subset or helper"},
		{env: "both", err: "MARIONETTE_RUBY_FUNCTIONS: ruby_functions must be auto, subset or helper"},
		{conf: "jruby", err: `ruby_functions must be auto, subset or helper, got "jruby"`},
	} {
		t.Setenv(RubyFunctionsEnv, tc.env)
		var o Options
		if tc.conf != "" {
			if err := os.WriteFile(conf, []byte("[server]\nruby_functions = "+tc.conf+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			o.Config = conf
		}
		var err error
		if tc.flag != "" {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			o.AddFlags(fs)
			err = fs.Parse([]string{"--ruby-functions", tc.flag})
		}
		got := ""
		var st *Site
		if err == nil {
			if st, err = Open(o); err == nil {
				got, err = st.RubyFunctions()
			}
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: got %q, %v; want error %q", tc, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%+v: got %q, %v; want %q", tc, got, err, tc.want)
			continue
		}
		req, err := st.Request(&node.Node{Name: "n1"}, value.EmptyHash)
		if err != nil {
			t.Fatal(err)
		}
		if (req.RubyHost != nil) != (tc.want != "subset") || req.RubyHostOptional != (tc.want == "auto") {
			t.Errorf("%+v: request's RubyHost %v, optional %v", tc, req.RubyHost, req.RubyHostOptional)
		}
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}
