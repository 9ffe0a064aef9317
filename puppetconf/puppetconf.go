// Package puppetconf reads Puppet's settings as a compile server sees them:
// puppet.conf's [main] section overridden by [master] and then [server]
// (the server run mode), command-line flags over both, Puppet's defaults
// for the rest, and $setting interpolation. It also reads an
// environment's environment.conf.
//
// Files are read through an fs.FS so that tests can use fstest.MapFS; a nil
// FS means the operating system's files. Paths stay operating-system paths:
// with an FS, the leading "/" of an absolute path is dropped.
package puppetconf

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options says where the settings come from.
type Options struct {
	// FS reads the files; nil means the operating system's.
	FS fs.FS
	// Config is puppet.conf's path; "" reads none.
	Config string
	// Flags are settings given on the command line, by setting name; they
	// win over puppet.conf.
	Flags map[string]string
	// Root selects the defaults of a process run as root (/etc/puppetlabs);
	// otherwise they are under Home (~/.puppetlabs).
	Root bool
	// Home is the user's home directory, for the non-root defaults.
	Home string
	// Hostname is the default certname.
	Hostname string
}

// DefaultOptions are Options for the current process: root or not, its
// home directory and host name, and no puppet.conf.
func DefaultOptions() Options {
	home, _ := os.UserHomeDir()
	host, _ := os.Hostname()
	return Options{Root: os.Geteuid() == 0, Home: home, Hostname: strings.ToLower(host)}
}

// Settings are Puppet's settings after loading. They never change once
// loaded and are safe for concurrent use.
type Settings struct {
	values map[string]string
	// set holds the settings given in puppet.conf or as flags (not
	// defaulted).
	set  map[string]bool
	file string
	fsys fs.FS
	// root and home choose the defaults of the settings Load does not
	// read, for CatalogSettings.
	root bool
	home string

	catalogOnce sync.Once
	catalog     []CatalogSetting
}

// Setting names marionette reads.
const (
	Confdir                = "confdir"
	Codedir                = "codedir"
	Vardir                 = "vardir"
	EnvironmentPath        = "environmentpath"
	BaseModulePath         = "basemodulepath"
	HieraConfig            = "hiera_config"
	StrictHostnameChecking = "strict_hostname_checking"
	NodeTerminus           = "node_terminus"
	ExternalNodes          = "external_nodes"
	Environment            = "environment"
	EnvironmentTimeout     = "environment_timeout"
	Certname               = "certname"
	DefaultManifest        = "default_manifest"
)

// environmentOnly reports whether Puppet accepts a setting only in
// environment.conf (once directory environments are in use).
func environmentOnly(name string) bool {
	return name == "manifest" || name == "modulepath" || name == "config_version"
}

// defaults are Puppet 7's defaults, before interpolation.
func defaults(o Options) map[string]string {
	d := map[string]string{
		EnvironmentPath:        "$codedir/environments",
		BaseModulePath:         "$codedir/modules:/opt/puppetlabs/puppet/modules",
		HieraConfig:            "$confdir/hiera.yaml",
		StrictHostnameChecking: "true",
		NodeTerminus:           "plain",
		ExternalNodes:          "none",
		Environment:            "production",
		EnvironmentTimeout:     "0",
		Certname:               o.Hostname,
		DefaultManifest:        "./manifests",
	}
	if o.Root {
		d[Confdir] = "/etc/puppetlabs/puppet"
		d[Codedir] = "/etc/puppetlabs/code"
		d[Vardir] = "/opt/puppetlabs/puppet/cache"
	} else {
		d[Confdir] = filepath.Join(o.Home, ".puppetlabs", "etc", "puppet")
		d[Codedir] = filepath.Join(o.Home, ".puppetlabs", "etc", "code")
		d[Vardir] = filepath.Join(o.Home, ".puppetlabs", "opt", "puppet", "cache")
	}
	return d
}

// Load reads the settings: defaults, then puppet.conf's [main], [master]
// and [server] sections, then the flags; and interpolates them.
func Load(o Options) (*Settings, error) {
	raw := defaults(o)
	set := make(map[string]bool)
	if o.Config != "" {
		data, err := readFile(o.FS, o.Config)
		if err != nil {
			return nil, err
		}
		sections, err := parse(o.Config, string(data))
		if err != nil {
			return nil, err
		}
		for _, name := range []string{"main", "master", "server"} {
			for _, kv := range sections[name] {
				if environmentOnly(kv.key) {
					return nil, fmt.Errorf("Cannot set %s settings in puppet.conf (file: %s, line: %d)", kv.key, o.Config, kv.line)
				}
				raw[kv.key] = kv.value
				set[kv.key] = true
			}
		}
	}
	for k, v := range o.Flags {
		raw[k] = v
		set[k] = true
	}
	values := make(map[string]string, len(raw))
	// In name order, so that a cycle is reported the same way every time.
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		v, err := expand(k, raw, values, nil)
		if err != nil {
			return nil, err
		}
		values[k] = v
	}
	s := &Settings{values: values, set: set, file: o.Config, fsys: o.FS, root: o.Root, home: o.Home}
	if _, err := s.StrictHostnameChecking(); err != nil {
		return nil, err
	}
	if _, err := s.EnvironmentTimeout(); err != nil {
		return nil, err
	}
	if err := s.checkStrict(); err != nil {
		return nil, err
	}
	return s, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MaxSettingLength bounds a setting's value after interpolation. It is a
// limit of marionette, not of Puppet: a puppet.conf whose settings refer to
// each other repeatedly ("a = $b$b", "b = $c$c", ...) would otherwise expand
// to gigabytes.
const MaxSettingLength = 1 << 20

// errTooLong reports a value over MaxSettingLength.
func errTooLong(what string) error {
	return fmt.Errorf("%s is longer than %d bytes after interpolation (a limit of marionette)", what, MaxSettingLength)
}

// expand interpolates $name and ${name} in setting key's raw value.
// visiting holds the settings being expanded, to report a cycle; done
// memoises expanded settings so that each is expanded once.
func expand(key string, raw, done map[string]string, visiting []string) (string, error) {
	if v, ok := done[key]; ok {
		return v, nil
	}
	if contains(visiting, key) {
		return "", fmt.Errorf("Error converting value for param '%s': cyclic reference to $%s", visiting[0], key)
	}
	v, ok := raw[key]
	if !ok {
		return "", fmt.Errorf("Error converting value for param '%s': Could not find value for $%s", visiting[len(visiting)-1], key)
	}
	out, err := interpolate(v, func(name string) (string, error) {
		return expand(name, raw, done, append(visiting, key))
	})
	if err != nil {
		if errors.As(err, new(lengthError)) {
			return "", errTooLong("Setting '" + key + "'")
		}
		return "", err
	}
	done[key] = out
	return out, nil
}

// lengthError is interpolate's error for a result over MaxSettingLength;
// its callers say which value was too long.
type lengthError struct{}

func (lengthError) Error() string { return "too long" }

// interpolate replaces $name and ${name} in s with lookup's answers.
func interpolate(s string, lookup func(string) (string, error)) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		var name string
		rest := s[i+1:]
		if strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			name = rest[1:end]
			i += end + 1
		} else {
			n := 0
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			if n == 0 {
				b.WriteByte('$')
				continue
			}
			name = rest[:n]
			i += n
		}
		v, err := lookup(name)
		if err != nil {
			return "", err
		}
		if b.Len()+len(v) > MaxSettingLength {
			return "", lengthError{}
		}
		b.WriteString(v)
	}
	if b.Len() > MaxSettingLength {
		return "", lengthError{}
	}
	return b.String(), nil
}

// Get returns a setting's value ("" for an unknown setting).
func (s *Settings) Get(name string) string { return s.values[name] }

// IsSet reports whether a setting was given in puppet.conf or as a flag
// rather than defaulted.
func (s *Settings) IsSet(name string) bool { return s.set[name] }

// File is the puppet.conf the settings were read from ("" for none).
func (s *Settings) File() string { return s.file }

// FS is the file system the settings were read through (nil: the
// operating system's).
func (s *Settings) FS() fs.FS { return s.fsys }

// Interpolate expands $setting references in text with these settings
// and extra, which wins (environment.conf adds $environment).
func (s *Settings) Interpolate(text string, extra map[string]string) (string, error) {
	v, err := interpolate(text, func(name string) (string, error) {
		if v, ok := extra[name]; ok {
			return v, nil
		}
		if v, ok := s.values[name]; ok {
			return v, nil
		}
		return "", fmt.Errorf("Could not find value for $%s", name)
	})
	if errors.As(err, new(lengthError)) {
		return "", errTooLong("The text")
	}
	return v, err
}

// Path splits a path-list setting (environmentpath, basemodulepath) into
// its directories, dropping empty entries.
func (s *Settings) Path(name string) []string {
	return SplitPath(s.values[name])
}

// SplitPath splits a ':'-separated list of directories, dropping empty
// entries.
func SplitPath(list string) []string {
	var out []string
	for _, p := range filepath.SplitList(list) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// StrictHostnameChecking is the strict_hostname_checking setting.
func (s *Settings) StrictHostnameChecking() (bool, error) {
	v := s.values[StrictHostnameChecking]
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: strict_hostname_checking must be true or false, got %q", s.source(), v)
	}
	return b, nil
}

// Unlimited is the environment_timeout "unlimited": an environment is
// never checked for changes once loaded.
const Unlimited time.Duration = 1<<63 - 1

// EnvironmentTimeout is the environment_timeout setting: how long a loaded
// environment is used before its files are checked again.
func (s *Settings) EnvironmentTimeout() (time.Duration, error) {
	return ParseTimeout(s.values[EnvironmentTimeout], s.source())
}

// ParseTimeout reads a Puppet duration: "unlimited", seconds, or a number
// with a unit (s, m, h, d, y). where names the setting's origin in the
// error.
func ParseTimeout(v, where string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "unlimited" || v == "inf" || v == "infinity" {
		return Unlimited, nil
	}
	orig := v
	unit := time.Second
	if v != "" {
		switch v[len(v)-1] {
		case 's':
			v = v[:len(v)-1]
		case 'm':
			unit, v = time.Minute, v[:len(v)-1]
		case 'h':
			unit, v = time.Hour, v[:len(v)-1]
		case 'd':
			unit, v = 24*time.Hour, v[:len(v)-1]
		case 'y':
			unit, v = 365*24*time.Hour, v[:len(v)-1]
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > int64(Unlimited/unit) {
		return 0, fmt.Errorf("Invalid 'time to live' format '%s' for parameter: environment_timeout (%s)", orig, where)
	}
	return time.Duration(n) * unit, nil
}

// source names where the settings came from, for errors.
func (s *Settings) source() string {
	if s.file != "" {
		return s.file
	}
	return "settings"
}

// HieraConfigPath is the global hiera.yaml: hiera_config when set, else
// Puppet 7's default, $confdir/hiera.yaml when it exists and otherwise
// $codedir/hiera.yaml.
func (s *Settings) HieraConfigPath() string {
	if s.IsSet(HieraConfig) {
		return s.values[HieraConfig]
	}
	if p := s.values[HieraConfig]; exists(s.fsys, p) {
		return p
	}
	return filepath.Join(s.values[Codedir], "hiera.yaml")
}

// ENC is the external node classifier the settings name: external_nodes
// when node_terminus is exec, else "".
func (s *Settings) ENC() string {
	if s.values[NodeTerminus] != "exec" {
		return ""
	}
	if enc := s.values[ExternalNodes]; enc != "none" {
		return enc
	}
	return ""
}

// readFile reads an operating-system path, through fsys when it is set.
func readFile(fsys fs.FS, path string) ([]byte, error) {
	if fsys == nil {
		return os.ReadFile(path)
	}
	return fs.ReadFile(fsys, fsPath(path))
}

// Stat stats an operating-system path, through fsys when it is set.
func Stat(fsys fs.FS, path string) (fs.FileInfo, error) {
	if fsys == nil {
		return os.Stat(path)
	}
	return fs.Stat(fsys, fsPath(path))
}

// ReadFile reads an operating-system path, through fsys when it is set.
func ReadFile(fsys fs.FS, path string) ([]byte, error) { return readFile(fsys, path) }

func fsPath(path string) string {
	p := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "/")
	if p == "" {
		return "."
	}
	return p
}

func exists(fsys fs.FS, path string) bool {
	_, err := Stat(fsys, path)
	return err == nil
}

// entry is one "key = value" line.
type entry struct {
	key, value string
	line       int
}

// parse reads an INI-style settings file into its sections; lines before
// any section header belong to "main". A line that is neither a comment,
// a section header nor a setting is an error, as Puppet reports it.
func parse(file, text string) (map[string][]entry, error) {
	sections := make(map[string][]entry)
	cur := "main"
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			cur = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("Could not parse %s: Could not match line %s (file: %s, line: %d)", file, line, file, i+1)
		}
		v = strings.TrimSpace(v)
		// Puppet drops trailing "{owner = ..., mode = ...}" file metadata.
		if j := strings.LastIndexByte(v, '{'); j >= 0 && strings.HasSuffix(v, "}") {
			v = strings.TrimSpace(v[:j])
		}
		sections[cur] = append(sections[cur], entry{key: k, value: v, line: i + 1})
	}
	return sections, nil
}

// EnvironmentConf is an environment's environment.conf, paths resolved
// against the environment directory and settings interpolated.
type EnvironmentConf struct {
	// Manifest is the main manifest (default_manifest when not set).
	Manifest string
	// ModulePath is the module path (default: modules, then basemodulepath).
	ModulePath []string
	// ConfigVersion is the config_version command ("" for none).
	ConfigVersion string
	// Timeout is environment_timeout (puppet.conf's when not set).
	Timeout time.Duration
}

// ReadEnvironmentConf reads dir/environment.conf (a missing file means the
// defaults) for environment name. Relative paths are relative to dir;
// $basemodulepath, $environment and other settings are interpolated.
func (s *Settings) ReadEnvironmentConf(dir, name string) (*EnvironmentConf, error) {
	file := filepath.Join(dir, "environment.conf")
	raw := map[string]string{
		"manifest":            s.values[DefaultManifest],
		"modulepath":          "modules:$basemodulepath",
		"config_version":      "",
		"environment_timeout": s.values[EnvironmentTimeout],
	}
	data, err := readFile(s.fsys, file)
	switch {
	case err == nil:
		sections, err := parse(file, string(data))
		if err != nil {
			return nil, err
		}
		for _, kv := range sections["main"] {
			raw[kv.key] = kv.value
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, err
	}
	extra := map[string]string{Environment: name}
	get := func(key string) (string, error) {
		v, err := s.Interpolate(raw[key], extra)
		if err != nil {
			return "", fmt.Errorf("%s: %s: %v", file, key, err)
		}
		return v, nil
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	conf := &EnvironmentConf{}
	if conf.Manifest, err = get("manifest"); err != nil {
		return nil, err
	}
	conf.Manifest = abs(conf.Manifest)
	mp, err := get("modulepath")
	if err != nil {
		return nil, err
	}
	for _, p := range SplitPath(mp) {
		conf.ModulePath = append(conf.ModulePath, abs(p))
	}
	if conf.ConfigVersion, err = get("config_version"); err != nil {
		return nil, err
	}
	t, err := get("environment_timeout")
	if err != nil {
		return nil, err
	}
	if conf.Timeout, err = ParseTimeout(t, file); err != nil {
		return nil, err
	}
	return conf, nil
}
