package puppetdb

import (
	"strings"
	"testing"
)

// TestServerTermini: the terminus and cache classes Puppet 7.23 ends with
// (Puppet::Node::Facts and Puppet::Resource::Catalog indirections after
// initialize_settings with --[no-]storeconfigs and
// ApplicationSupport.configure_indirector_routes("server")), as what
// reaches PuppetDB.
func TestServerTermini(t *testing.T) {
	for _, tc := range []struct {
		storeconfigs bool
		routes       string
		// Puppet's facts terminus/cache and catalog cache, for the record.
		puppet string
		want   Termini
	}{
		{false, "{}", "facter nil nil", Termini{}},
		{true, "{}", "facter store_configs store_configs", Termini{Collect: true, Facts: true, Catalogs: true}},
		{false, "server: {facts: {terminus: puppetdb, cache: yaml}}", "puppetdb yaml nil", Termini{Facts: true, FactsFind: true}},
		{true, "server: {facts: {terminus: puppetdb, cache: yaml}}", "puppetdb yaml store_configs", Termini{Collect: true, Facts: true, FactsFind: true, Catalogs: true}},
		{true, "master: {facts: {cache: yaml}}", "facter yaml store_configs", Termini{Collect: true, Catalogs: true}},
		{true, "master: {catalog: {cache: json}}", "facter store_configs json", Termini{Collect: true, Facts: true}},
		{false, "master: {catalog: {cache: json}}", "facter nil json", Termini{}},
		{false, "server: {facts: {cache: puppetdb}}", "facter puppetdb nil", Termini{Facts: true}},
		{true, "server: {facts: {terminus: yaml}}", "yaml store_configs store_configs", Termini{Collect: true, Facts: true, Catalogs: true}},
		// Both sections: server counts.
		{true, "server: {facts: {terminus: puppetdb}}\nmaster: {facts: {terminus: yaml}}", "puppetdb store_configs store_configs", Termini{Collect: true, Facts: true, FactsFind: true, Catalogs: true}},
		// Other applications' sections do not count.
		{false, "agent: {facts: {terminus: puppetdb}}", "facter nil nil", Termini{}},
	} {
		routes, _, err := ParseRoutes("routes.yaml", []byte(tc.routes))
		if err != nil {
			t.Fatalf("%s: %v", tc.routes, err)
		}
		if got := ServerTermini(tc.storeconfigs, "puppetdb", routes); got != tc.want {
			t.Errorf("storeconfigs=%v %s (Puppet: %s): got %+v, want %+v", tc.storeconfigs, tc.routes, tc.puppet, got, tc.want)
		}
	}
}

func TestParseRoutes(t *testing.T) {
	_, warnings, err := ParseRoutes("/etc/puppet/routes.yaml", []byte("server: {facts: {terminus: puppetdb}}\nmaster: {}\n"))
	if err != nil || len(warnings) != 1 || warnings[0] != "Route file /etc/puppet/routes.yaml contains both server and master route settings." {
		t.Errorf("warnings %q, err %v", warnings, err)
	}
	for _, bad := range []string{"server: [1, 2]", "server: {facts: oops}", "{"} {
		if _, _, err := ParseRoutes("r.yaml", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "Could not configure routes from r.yaml: ") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
	r, _, err := ParseRoutes("r.yaml", []byte("---\nmaster:\n  facts:\n    terminus: puppetdb\n    cache: yaml\n"))
	if err != nil || r["facts"] != (Route{Terminus: "puppetdb", Cache: "yaml"}) {
		t.Errorf("got %v %v", r, err)
	}
	if r, _, err := ReadRoutes(nil, "/nonexistent/routes.yaml"); r != nil || err != nil {
		t.Errorf("missing file: %v %v", r, err)
	}
}
