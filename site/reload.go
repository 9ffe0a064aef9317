package site

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"

	"github.com/marionette-dev/marionette/puppetconf"
)

// restartSettings are the settings a running compile server took at its
// start and cannot take again: its identity and TLS (certname, ssldir,
// cadir, dns_alt_names, ca_name), where it writes (vardir, reportdir), its
// Ruby helper, its report processors and its PuppetDB connection. Every
// other setting (environments, modules, Hiera, the ENC, autosign and
// keylength, fileserver.conf) applies on SIGHUP.
func restartSettings() []string {
	return []string{
		"certname", "ssldir", "cadir", "dns_alt_names", "ca_name",
		"vardir", "reportdir", "ruby_functions",
		"reports", "reporturl",
		"storeconfigs", "storeconfigs_backend", "route_file",
	}
}

// restartFiles are files the server read at its start that it does not
// read again: the PuppetDB connection and the termini routes.
func restartFiles() []string { return []string{"puppetdb.conf", "routes.yaml"} }

// Fixed is what of the settings a running server cannot change: the
// values of the restart settings and digests of the restart files. Compare
// two with RestartNeeded.
type Fixed map[string]string

// FixedOf takes the fixed part of settings.
func FixedOf(s *puppetconf.Settings) Fixed {
	f := Fixed{}
	for _, name := range restartSettings() {
		f[name] = s.Get(name)
	}
	for _, name := range restartFiles() {
		path := filepath.Join(s.Get(puppetconf.Confdir), name)
		if name == "routes.yaml" && s.Get("route_file") != "" {
			path = s.Get("route_file")
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f[path] = "absent"
			continue
		}
		sum := sha256.Sum256(data)
		f[path] = hex.EncodeToString(sum[:])
	}
	return f
}

// RestartNeeded lists, sorted, the settings and files that differ
// between the server's start (old) and now: they take effect only after
// a restart.
func RestartNeeded(old, now Fixed) []string {
	var changed []string
	for k, v := range now {
		if old[k] != v {
			changed = append(changed, k)
		}
	}
	for k := range old {
		if _, ok := now[k]; !ok {
			changed = append(changed, k)
		}
	}
	sort.Strings(changed)
	return changed
}
