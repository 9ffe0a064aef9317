package site

import (
	"flag"
	"fmt"
	"github.com/marionette-dev/marionette/value"
	"strconv"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/puppetconf"
)

// AddFlags defines on fs the flags that say where code, data and settings
// come from and how a compile is bounded, as compile, lookup, node, bench,
// diff --all-nodes and the conformance suite's case arguments share them.
// Each flag parses into its typed field of o; a bad value is an error of
// fs.Parse, a flag not given leaves its field (and so puppet.conf's
// setting) alone.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	// Plain string settings: "" (not given) leaves the setting alone.
	fs.StringVar(&o.Manifest, "manifest", "", "main manifest: a .pp file or a directory")
	fs.Var(pathListFlag{&o.ModulePath}, "modulepath", "module `directories`, separated by ':'")
	fs.StringVar(&o.PuppetDB, "puppetdb", "", "collect exported resources from (and answer puppetdb_query with, and read --facts puppetdb from) the PuppetDB at `URL`, as storeconfigs with puppetdb.conf would")
	fs.StringVar(&o.ENC, "enc", "", "external node classifier executable")
	fs.StringVar(&o.HieraConfig, "hiera-config", "", "global hiera.yaml")
	fs.StringVar(&o.EnvironmentPath, "environmentpath", "", "directory of directory environments")
	fs.StringVar(&o.Config, "config", "", "puppet.conf to read settings from")
	fs.StringVar(&o.Codedir, "codedir", "", "Puppet's codedir")
	fs.StringVar(&o.Confdir, "confdir", "", "Puppet's confdir")
	// Settings whose help shows Puppet's default, which applies only when
	// neither the flag nor puppet.conf sets them, or whose value is
	// checked as the flag is read.
	str := func(p *string, name, def, usage string, check func(string) error) {
		fs.Var(&stringFlag{p: p, def: def, check: check}, name, usage)
	}
	str(&o.Environment, "environment", "production", "environment `name`", nil)
	fs.Var(&boolFlag{p: &o.StrictHostnameChecking, def: true}, "strict-hostname-checking", "match node definitions on the exact certname only")
	// Unset, puppet.conf's settings or the Puppet major's defaults apply.
	str(&o.PuppetVersion, "puppet-version", "7", "the Puppet `major` (7 or 8) whose defaults and behaviour to follow", checkSetting(puppetconf.PuppetVersion))
	str(&o.Strict, "strict", "", "Puppet's strict `level`: off, warning or error (default: warning for Puppet 7, error for 8)", checkSetting(puppetconf.Strict))
	fs.Var(&boolFlag{p: &o.StrictVariables}, "strict-variables", "fail on unknown variables (default: false for Puppet 7, true for 8)")
	str(&o.RubyFunctions, "ruby-functions", "auto", "the `mode` of module Ruby functions beyond marionette's Ruby subset: auto (run them in Ruby with Puppet's library when it can start, else fail), subset (fail) or helper (run them in Ruby; not starting is the error)",
		func(v string) error { _, err := puppetconf.RubyFunctionsMode(v); return err })
	fs.Var(&durationFlag{p: &o.ENCTimeout, def: enc.DefaultTimeout}, "enc-timeout", "how long the external node classifier may run (a `duration`)")
	limit := func(p *int, name string, def int, usage string) {
		fs.Var(&limitFlag{p: p, def: def}, name, usage)
	}
	limit(&o.ENCMaxOutput, "enc-max-output", enc.DefaultMaxOutput, "`bytes` the external node classifier may print")
	limit(&o.Limits.MaxYAMLNodes, "max-yaml-nodes", dataformat.MaxYAMLNodes, "`values` one YAML document (Hiera data, facts, ENC output) may expand to")
	limit(&o.Limits.MaxTemplateSize, "max-template-size", erb.MaxStringSize, "`bytes` of an ERB template's output or of any string it builds")
	limit(&o.Limits.MaxResources, "max-resources", compiler.DefaultMaxResources, "`resources` a catalog may hold")
	fs.Var(&limitFlag64{p: &o.Limits.MaxValueSize, def: value.DefaultMaxValueSize}, "max-value-size",
		"`bytes` one value may expand to (strings, comparisons, templates, flatten; the catalog's parameters together)")
	fs.Var(&limitFlag64{p: &o.Limits.MaxMemory, def: DefaultMaxMemory()}, "max-memory",
		"`bytes` of memory the process may use: a compile stops once its live heap passes three quarters of it (default: an eighth of ulimit -v, else three quarters of the machine's memory)")
}

// checkSetting validates a flag's value as puppetconf validates the
// setting key.
func checkSetting(key string) func(string) error {
	return func(v string) error {
		_, err := puppetconf.Load(puppetconf.Options{Flags: map[string]string{key: v}})
		return err
	}
}

// stringFlag is a string setting; "" given is no flag (puppet.conf's
// setting or the default applies). def is the default shown in the help;
// check, when set, validates a value.
type stringFlag struct {
	p     *string
	def   string
	check func(string) error
}

func (f *stringFlag) String() string {
	if f.p != nil && *f.p != "" {
		return *f.p
	}
	return f.def
}

func (f *stringFlag) Set(v string) error {
	if f.check != nil && v != "" {
		if err := f.check(v); err != nil {
			return err
		}
	}
	*f.p = v
	return nil
}

// pathListFlag is a ':'-separated list of directories.
type pathListFlag struct{ p *[]string }

func (f pathListFlag) String() string {
	if f.p == nil || *f.p == nil {
		return ""
	}
	return fmt.Sprint(*f.p)
}

func (f pathListFlag) Set(v string) error {
	*f.p = nil
	if v != "" {
		*f.p = puppetconf.SplitPath(v)
	}
	return nil
}

// boolFlag is a boolean setting, nil until given.
type boolFlag struct {
	p   **bool
	def bool
}

func (f *boolFlag) IsBoolFlag() bool { return true }

func (f *boolFlag) String() string {
	if f.p != nil && *f.p != nil {
		return strconv.FormatBool(**f.p)
	}
	return strconv.FormatBool(f.def)
}

func (f *boolFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*f.p = &b
	return nil
}

// durationFlag is a positive duration (zero would mean the default).
type durationFlag struct {
	p   *time.Duration
	def time.Duration
}

func (f *durationFlag) String() string {
	if f.p != nil && *f.p != 0 {
		return f.p.String()
	}
	return f.def.String()
}

func (f *durationFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("want a duration such as 30s")
	}
	if d <= 0 {
		return fmt.Errorf("invalid timeout %v: it must be positive", d)
	}
	*f.p = d
	return nil
}

// limitFlag is a positive limit (zero would mean the default).
// limitFlag64 is limitFlag for a limit held in an int64.
type limitFlag64 struct {
	p   *int64
	def int64
}

func (f *limitFlag64) String() string {
	if f.p != nil && *f.p != 0 {
		return strconv.FormatInt(*f.p, 10)
	}
	return strconv.FormatInt(f.def, 10)
}

func (f *limitFlag64) Set(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("invalid limit %s: the limit must be a positive integer", v)
	}
	*f.p = n
	return nil
}

type limitFlag struct {
	p   *int
	def int
}

func (f *limitFlag) String() string {
	if f.p != nil && *f.p != 0 {
		return strconv.Itoa(*f.p)
	}
	return strconv.Itoa(f.def)
}

func (f *limitFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("invalid limit %s: the limit must be a positive integer", v)
	}
	*f.p = n
	return nil
}
