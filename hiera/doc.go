// Package hiera implements Hiera 5 data lookup as Puppet 7 does: the global,
// environment and module layers, hiera.yaml versions 3 (global layer only), 4
// and 5, yaml_data, json_data and hocon_data files, hiera-eyaml's
// eyaml_lookup_key (eyaml.go, decrypting with package eyaml), interpolation,
// the first/unique/hash/deep merge strategies, lookup_options (merge and
// convert_to) and explanations like `puppet lookup --explain`. Custom
// data_hash, lookup_key and data_dig functions (backend.go) are run by the
// caller through Options.Backend, given their options and a *LookupContext
// (Puppet::LookupContext).
//
// Parsed hiera.yaml files and data files live in a Cache that any number of
// concurrent compiles share (entries are immutable and re-read when a file's
// modification time or size changes). Each compile makes its own Session,
// which caches answers and is not safe for concurrent use:
//
//	cache := hiera.NewCache() // once per process
//	s := hiera.NewSession(hiera.Options{
//		Cache:          cache,
//		GlobalConfig:   "/etc/puppetlabs/puppet/hiera.yaml",
//		EnvironmentDir: "/etc/puppetlabs/code/environments/production",
//		ModuleDir:      func(m string) (string, bool) { ... },
//	}, scope)
//	v, err := s.Lookup(hiera.Request{Keys: []string{"ntp::servers"}})
//	v, found, err := s.LookupParam("ntp", "servers") // automatic parameter lookup
//
// Data files are read with package dataformat (YAML as Puppet's Psych loader
// reads it, JSON, with their limits on hostile input).
//
// Regular expressions are compiled on first use (sync.OnceValue), so that a
// process pays only for those it uses.
package hiera
