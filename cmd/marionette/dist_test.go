package main

import (
	"path/filepath"
	"testing"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/site"
)

// TestDistPuppetConf: the sample confdir under dist/ loads as the server
// loads it, with puppetserver's paths.
func TestDistPuppetConf(t *testing.T) {
	o := site.Overrides{Config: filepath.Join("..", "..", "dist", "puppet", "puppet.conf")}
	s, err := o.ServerSettings()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		puppetconf.Certname:        "puppet.example.com",
		puppetconf.EnvironmentPath: "/etc/puppetlabs/code/environments",
		"cadir":                    "/etc/puppetlabs/puppetserver/ca",
		"ssldir":                   "/etc/puppetlabs/puppet/ssl",
		"autosign":                 "/etc/puppetlabs/puppet/autosign.conf",
		puppetconf.Vardir:          "/opt/puppetlabs/server/data/puppetserver",
	} {
		if got := s.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
