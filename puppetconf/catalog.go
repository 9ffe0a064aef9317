package puppetconf

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// SettingKind is the Puppet type a setting's value has in the $settings::
// variables of a catalog.
type SettingKind uint8

// The kinds of settings, as Puppet 7 types them in the settings class.
const (
	KindString SettingKind = iota
	KindBoolean
	KindInteger // also durations, in seconds
	KindFloat   // a number or "unlimited" (Infinity)
	KindArray   // "[]", "[a, b]" or a comma-separated list
	KindUndef   // undef unless set
)

const (
	kindString = KindString
	kindBool   = KindBoolean
	kindInt    = KindInteger
	kindFloat  = KindFloat
	kindArray  = KindArray
	kindUndef  = KindUndef
)

// CatalogSetting is one setting as a compile shows it to Puppet code
// ($settings::name).
type CatalogSetting struct {
	Name  string
	Kind  SettingKind
	Value string
}

// puppet7Settings are the settings Puppet 7.23 puts in the settings class,
// with their kinds and defaults (before interpolation), as
// `puppet config print all` and type($settings::all_local) show them. The
// base directories (confdir, codedir, vardir, logdir, rundir, publicdir)
// and certname are defaulted by Load and baseDirs; the paths follow the
// layout of Puppet's own packages (/etc/puppetlabs), as Load's defaults do.
var puppet7Settings = [...]struct {
	name string
	kind SettingKind
	def  string
}{
	{"agent_catalog_run_lockfile", kindString, "$vardir/state/agent_catalog_run.lock"},
	{"agent_disabled_lockfile", kindString, "$vardir/state/agent_disabled.lock"},
	{"allow_duplicate_certs", kindBool, "false"},
	{"always_retry_plugins", kindBool, "true"},
	{"autoflush", kindBool, "true"},
	{"autosign", kindString, "$confdir/autosign.conf"},
	{"basemodulepath", kindString, "$codedir/modules:/opt/puppetlabs/puppet/modules"},
	{"binder_config", kindUndef, ""},
	{"bucketdir", kindString, "$vardir/bucket"},
	{"ca_fingerprint", kindUndef, ""},
	{"ca_name", kindString, "Puppet CA: $certname"},
	{"ca_port", kindInt, "$serverport"},
	{"ca_server", kindString, "$server"},
	{"ca_ttl", kindInt, "157680000"},
	{"cacert", kindString, "$cadir/ca_crt.pem"},
	{"cacrl", kindString, "$cadir/ca_crl.pem"},
	{"cadir", kindString, "$confdir/../puppetserver/ca"},
	{"cakey", kindString, "$cadir/ca_key.pem"},
	{"capub", kindString, "$cadir/ca_pub.pem"},
	{"catalog_cache_terminus", kindUndef, ""},
	{"catalog_terminus", kindString, "compiler"},
	{"cert_inventory", kindString, "$cadir/inventory.txt"},
	{"certdir", kindString, "$ssldir/certs"},
	{"certificate_revocation", kindString, "chain"},
	{"ciphers", kindString, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA:DHE-RSA-AES128-SHA256:DHE-RSA-AES256-SHA256:AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA256"},
	{"classfile", kindString, "$vardir/state/classes.txt"},
	{"client_datadir", kindString, "$vardir/client_data"},
	{"clientbucketdir", kindString, "$vardir/clientbucket"},
	{"clientyamldir", kindString, "$vardir/client_yaml"},
	{"code", kindString, ""},
	{"color", kindString, "ansi"},
	{"config", kindString, "$confdir/puppet.conf"},
	{"config_file_name", kindString, "puppet.conf"},
	{"config_version", kindString, ""},
	{"configprint", kindString, ""},
	{"crl_refresh_interval", kindUndef, ""},
	{"csr_attributes", kindString, "$confdir/csr_attributes.yaml"},
	{"csrdir", kindString, "$cadir/requests"},
	{"daemonize", kindBool, "true"},
	{"data_binding_terminus", kindString, "hiera"},
	{"default_file_terminus", kindString, "rest"},
	{"default_manifest", kindString, "./manifests"},
	{"default_schedules", kindBool, "true"},
	{"deviceconfdir", kindString, "$confdir/devices"},
	{"deviceconfig", kindString, "$confdir/device.conf"},
	{"devicedir", kindString, "$vardir/devices"},
	{"diff", kindString, "diff"},
	{"diff_args", kindString, "-u"},
	{"digest_algorithm", kindString, "sha256"},
	{"disable_i18n", kindBool, "true"},
	{"disable_per_environment_manifest", kindBool, "false"},
	{"disable_warnings", kindArray, ""},
	{"dns_alt_names", kindString, ""},
	{"document_all", kindBool, "false"},
	{"environment", kindString, "production"},
	{"environment_data_provider", kindUndef, ""},
	{"environment_timeout", kindInt, "0"},
	{"environmentpath", kindString, "$codedir/environments"},
	{"evaltrace", kindBool, "false"},
	{"exclude_unchanged_resources", kindBool, "false"},
	{"external_nodes", kindString, "none"},
	{"fact_name_length_soft_limit", kindInt, "2560"},
	{"fact_value_length_soft_limit", kindInt, "4096"},
	{"factpath", kindString, "$vardir/lib/facter:$vardir/facts"},
	{"facts_terminus", kindString, "facter"},
	{"fileserverconfig", kindString, "$confdir/fileserver.conf"},
	{"filetimeout", kindInt, "15"},
	{"forge_authorization", kindUndef, ""},
	{"freeze_main", kindBool, "false"},
	{"genconfig", kindBool, "false"},
	{"genmanifest", kindBool, "false"},
	{"graph", kindBool, "false"},
	{"graphdir", kindString, "$vardir/state/graphs"},
	{"group", kindString, "puppet"},
	{"hiera_config", kindString, "$confdir/hiera.yaml"},
	{"hostcert", kindString, "$ssldir/certs/$certname.pem"},
	{"hostcrl", kindString, "$ssldir/crl.pem"},
	{"hostcsr", kindString, "$ssldir/certificate_requests/$certname.pem"},
	{"hostprivkey", kindString, "$ssldir/private_keys/$certname.pem"},
	{"hostpubkey", kindString, "$ssldir/public_keys/$certname.pem"},
	{"http_connect_timeout", kindInt, "120"},
	{"http_debug", kindBool, "false"},
	{"http_extra_headers", kindArray, ""},
	{"http_keepalive_timeout", kindInt, "4"},
	{"http_proxy_host", kindString, "none"},
	{"http_proxy_password", kindString, "none"},
	{"http_proxy_port", kindInt, "3128"},
	{"http_proxy_user", kindString, "none"},
	{"http_read_timeout", kindInt, "600"},
	{"http_user_agent", kindString, "Puppet/7.23.0 Ruby/3.1.2-p20 (x86_64-linux-gnu)"},
	{"ignore_plugin_errors", kindBool, "false"},
	{"ignoremissingtypes", kindBool, "false"},
	{"ignoreschedules", kindBool, "false"},
	{"include_legacy_facts", kindBool, "true"},
	{"key_type", kindString, "rsa"},
	{"keylength", kindInt, "4096"},
	{"lastrunfile", kindString, "$publicdir/last_run_summary.yaml"},
	{"lastrunreport", kindString, "$vardir/state/last_run_report.yaml"},
	{"ldapattrs", kindString, "all"},
	{"ldapbase", kindString, ""},
	{"ldapclassattrs", kindString, "puppetclass"},
	{"ldapparentattr", kindString, "parentnode"},
	{"ldappassword", kindString, ""},
	{"ldapport", kindInt, "389"},
	{"ldapserver", kindString, "ldap"},
	{"ldapssl", kindBool, "false"},
	{"ldapstackedattrs", kindString, "puppetvar"},
	{"ldapstring", kindString, "(&(objectclass=puppetClient)(cn=%s))"},
	{"ldaptls", kindBool, "false"},
	{"ldapuser", kindString, ""},
	{"libdir", kindString, "$vardir/lib"},
	{"localcacert", kindString, "$ssldir/certs/ca.pem"},
	{"localedest", kindString, "$vardir/locales"},
	{"localesource", kindString, "puppet:///locales"},
	{"location_trusted", kindBool, "false"},
	{"log_level", kindString, "notice"},
	{"logdest", kindUndef, ""},
	{"manage_internal_file_permissions", kindBool, "true"},
	{"manifest", kindString, "no_manifest"},
	{"masterport", kindInt, "8140"},
	{"max_deprecations", kindInt, "10"},
	{"max_errors", kindInt, "10"},
	{"max_warnings", kindInt, "10"},
	{"maximum_uid", kindInt, "4294967290"},
	{"maxwaitforcert", kindFloat, "unlimited"},
	{"maxwaitforlock", kindInt, "60"},
	{"merge_dependency_warnings", kindBool, "false"},
	{"mkusers", kindBool, "false"},
	{"module_groups", kindUndef, ""},
	{"module_repository", kindString, "https://forgeapi.puppet.com"},
	{"module_working_dir", kindString, "$vardir/puppet-module"},
	{"modulepath", kindString, "$basemodulepath"},
	{"named_curve", kindString, "prime256v1"},
	{"no_proxy", kindString, "localhost, 127.0.0.1"},
	{"node_cache_terminus", kindUndef, ""},
	{"node_name_fact", kindString, ""},
	{"node_name_value", kindString, "$certname"},
	{"node_terminus", kindString, "plain"},
	{"noop", kindBool, "false"},
	{"number_of_facts_soft_limit", kindInt, "2048"},
	{"onetime", kindBool, "false"},
	{"passfile", kindString, "$ssldir/private/password"},
	{"path", kindString, "none"},
	{"payload_soft_limit", kindInt, "16777216"},
	{"pidfile", kindString, "$rundir/server.pid"},
	{"plugindest", kindString, "$vardir/lib"},
	{"pluginfactdest", kindString, "$vardir/facts.d"},
	{"pluginfactsource", kindString, "puppet:///pluginfacts"},
	{"pluginsignore", kindString, ".svn CVS .git .hg"},
	{"pluginsource", kindString, "puppet:///plugins"},
	{"pluginsync", kindBool, "true"},
	{"postrun_command", kindString, ""},
	{"preferred_serialization_format", kindString, "json"},
	{"preprocess_deferred", kindBool, "true"},
	{"prerun_command", kindString, ""},
	{"preview_outputdir", kindString, "$vardir/preview"},
	{"priority", kindUndef, ""},
	{"privatedir", kindString, "$ssldir/private"},
	{"privatekeydir", kindString, "$ssldir/private_keys"},
	{"profile", kindBool, "false"},
	{"publickeydir", kindString, "$ssldir/public_keys"},
	{"puppet_trace", kindBool, "false"},
	{"puppetdlog", kindString, "$logdir/puppetd.log"},
	{"report", kindBool, "true"},
	{"report_include_system_store", kindBool, "false"},
	{"report_port", kindInt, "$serverport"},
	{"report_server", kindString, "$server"},
	{"reportdir", kindString, "$vardir/reports"},
	{"reports", kindString, "store"},
	{"reporturl", kindString, "http://localhost:3000/reports/upload"},
	{"requestdir", kindString, "$ssldir/certificate_requests"},
	{"resourcefile", kindString, "$vardir/state/resources.txt"},
	{"resubmit_facts", kindBool, "false"},
	{"rich_data", kindBool, "true"},
	{"route_file", kindString, "$confdir/routes.yaml"},
	{"runinterval", kindInt, "1800"},
	{"runtimeout", kindInt, "3600"},
	{"serial", kindString, "$cadir/serial"},
	{"server", kindString, "puppet"},
	{"server_datadir", kindString, "$vardir/server_data"},
	{"server_list", kindArray, ""},
	{"serverport", kindInt, "$masterport"},
	{"settings_catalog", kindBool, "true"},
	{"show_diff", kindBool, "false"},
	{"signeddir", kindString, "$cadir/signed"},
	{"skip_tags", kindString, ""},
	{"sourceaddress", kindUndef, ""},
	{"splay", kindBool, "false"},
	{"splaylimit", kindInt, "1800"},
	{"srv_domain", kindUndef, ""},
	{"ssl_client_header", kindString, "HTTP_X_CLIENT_DN"},
	{"ssl_client_verify_header", kindString, "HTTP_X_CLIENT_VERIFY"},
	{"ssl_lockfile", kindString, "$ssldir/ssl.lock"},
	{"ssl_trust_store", kindUndef, ""},
	{"ssldir", kindString, "$confdir/ssl"},
	{"statedir", kindString, "$vardir/state"},
	{"statefile", kindString, "$vardir/state/state.yaml"},
	{"statettl", kindInt, "2764800"},
	{"static_catalogs", kindBool, "true"},
	{"storeconfigs", kindBool, "false"},
	{"storeconfigs_backend", kindString, "puppetdb"},
	{"strict", kindString, "warning"},
	{"strict_environment_mode", kindBool, "false"},
	{"strict_variables", kindBool, "false"},
	{"summarize", kindBool, "false"},
	{"supported_checksum_types", kindArray, "sha256,sha384,sha512,sha224,md5"},
	{"syslogfacility", kindString, "daemon"},
	{"tags", kindString, ""},
	{"tasks", kindBool, "false"},
	{"top_level_facts_soft_limit", kindInt, "512"},
	{"trace", kindBool, "false"},
	{"transactionstorefile", kindString, "$vardir/state/transactionstore.yaml"},
	{"trusted_external_command", kindUndef, ""},
	{"trusted_oid_mapping_file", kindString, "$confdir/custom_trusted_oid_mapping.yaml"},
	{"use_cached_catalog", kindBool, "false"},
	{"use_last_environment", kindBool, "true"},
	{"use_srv_records", kindBool, "false"},
	{"usecacheonfailure", kindBool, "true"},
	{"user", kindString, "puppet"},
	{"vendormoduledir", kindString, "/usr/share/puppet/vendor_modules"},
	{"versioned_environment_dirs", kindBool, "false"},
	{"waitforcert", kindInt, "120"},
	{"waitforlock", kindInt, "0"},
	{"write_catalog_summary", kindBool, "true"},
	{"yamldir", kindString, "$vardir/yaml"},
}

// puppet8Settings are what Puppet 8.10 changes in that list: the settings
// it adds and the defaults it changes (`puppet config print all` of both
// majors, compared). Puppet 8 removes none that a compile sees.
var puppet8Settings = [...]struct {
	name string
	kind SettingKind
	def  string
}{
	{"allow_pson_serialization", kindBool, "false"},
	{"ca_refresh_interval", kindInt, "86400"},
	{"crl_refresh_interval", kindInt, "86400"},
	{"exclude_unchanged_resources", kindBool, "true"},
	{"hostcert_renewal_interval", kindInt, "2592000"},
	{"include_legacy_facts", kindBool, "false"},
	{"number_of_facts_soft_limit", kindInt, "10240"},
	{"preprocess_deferred", kindBool, "false"},
	{"report_configured_environmentpath", kindBool, "true"},
	{"reports", kindString, "none"},
	{"skip_logging_catalog_request_destination", kindBool, "false"},
	{"strict", kindString, "error"},
	{"strict_variables", kindBool, "true"},
}

// baseDirs are the defaults of the base directories that Load does not
// know, for a process run as root or not.
func baseDirs(root bool, home string) map[string]string {
	if root {
		return map[string]string{
			"logdir":    "/var/log/puppetlabs/puppet",
			"rundir":    "/var/run/puppetlabs",
			"publicdir": "/opt/puppetlabs/puppet/public",
		}
	}
	base := filepath.Join(home, ".puppetlabs")
	return map[string]string{
		"logdir":    filepath.Join(base, "var", "log"),
		"rundir":    filepath.Join(base, "var", "run"),
		"publicdir": filepath.Join(base, "opt", "puppet", "public"),
	}
}

// CatalogSettings returns every setting Puppet shows to the code of a
// compile, in name order: the values Load read, and the defaults of the
// Puppet major followed (puppet_version),
// interpolated, for the others. The environment's own settings
// (environment, manifest, modulepath) are the caller's to replace. The
// result is computed once and shared: do not modify it.
func (s *Settings) CatalogSettings() []CatalogSetting {
	s.catalogOnce.Do(func() { s.catalog = s.catalogSettings() })
	return s.catalog
}

func (s *Settings) catalogSettings() []CatalogSetting {
	raw := baseDirs(s.root, s.home)
	kinds := make(map[string]SettingKind, len(puppet7Settings))
	for _, d := range puppet7Settings {
		raw[d.name] = d.def
		kinds[d.name] = d.kind
	}
	if major, _ := s.PuppetMajor(); major >= 8 {
		for _, d := range puppet8Settings {
			raw[d.name] = d.def
			kinds[d.name] = d.kind
		}
	}
	for name := range raw {
		if _, ok := kinds[name]; !ok {
			kinds[name] = KindString // the base directories
		}
	}
	for _, name := range []string{Confdir, Codedir, Vardir, Certname} {
		kinds[name] = KindString
	}
	done := make(map[string]string, len(raw)+len(s.values))
	for k, v := range s.values {
		// Load's values are interpolated already; settings Load does not
		// know keep their defaults.
		done[k] = v
		raw[k] = v
	}
	out := make([]CatalogSetting, 0, len(kinds))
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		v, err := expand(name, raw, done, nil)
		if err != nil {
			// A cycle or an overlong value among the defaults of settings
			// nobody set: show it uninterpolated rather than fail compiles.
			v = raw[name]
		}
		if strings.Contains(v, "/../") && filepath.IsAbs(v) {
			v = filepath.Clean(v)
		}
		done[name] = v
		out = append(out, CatalogSetting{Name: name, Kind: kinds[name], Value: v})
	}
	return out
}
