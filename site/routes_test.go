package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
)

// TestStoreTermini: $confdir/routes.yaml (or $route_file) with
// storeconfigs decides what reaches PuppetDB; a route file alone makes
// StoreClient connect (puppetdb.conf) without storeconfigs.
func TestStoreTermini(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("puppetdb.conf", "[main]\nserver_urls = http://127.0.0.1:1\n")
	load := func(conf string) *puppetconf.Settings {
		write("puppet.conf", conf)
		o := puppetconf.DefaultOptions()
		o.Flags = map[string]string{puppetconf.Confdir: dir}
		o.Config = filepath.Join(dir, "puppet.conf")
		s, err := puppetconf.Load(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := load("[main]\n")
	if tm, _, err := StoreTermini(s); err != nil || tm.Any() {
		t.Errorf("no storeconfigs, no routes: %+v %v", tm, err)
	}
	if c, err := mustNew(t, s).PuppetDB(); c != nil || err != nil {
		t.Errorf("client without storeconfigs or routes: %v %v", c, err)
	}
	write("routes.yaml", "master:\n  facts:\n    terminus: puppetdb\n    cache: yaml\n")
	if tm, _, err := StoreTermini(s); err != nil || tm != (puppetdb.Termini{Facts: true, FactsFind: true}) {
		t.Errorf("routes.yaml in confdir: %+v %v", tm, err)
	}
	// It reads puppetdb.conf (whose http URL the termini refuse).
	if _, err := mustNew(t, s).PuppetDB(); err == nil || !strings.Contains(err.Error(), "'server_urls' must be https") {
		t.Errorf("routes.yaml's puppetdb facts terminus does not read puppetdb.conf: %v", err)
	}
	write("other.yaml", "server:\n  catalog:\n    cache: json\n")
	s = load("[main]\nstoreconfigs = true\nroute_file = $confdir/other.yaml\n")
	if tm, _, err := StoreTermini(s); err != nil || tm != (puppetdb.Termini{Collect: true, Facts: true}) {
		t.Errorf("route_file: %+v %v", tm, err)
	}
	write("other.yaml", "server: [")
	if _, _, err := StoreTermini(s); err == nil {
		t.Error("a broken route file is no error")
	}
}

func mustNew(t *testing.T, s *puppetconf.Settings) *Site {
	t.Helper()
	st, err := New(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
