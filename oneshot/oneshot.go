// Package oneshot compiles one node's catalog the way `marionette compile`
// does: settings from the command line over puppet.conf, the environment
// loader, the node's facts and classification, the compile, and Puppet's
// rendering of warnings and errors. The command line and the conformance
// suite both call it, so what the suite checks is what the command does.
package oneshot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/rubyhost"
)

// Options are one compile's inputs as marionette's command line gives them.
// A flag that was not given leaves its setting to puppet.conf or Puppet's
// default.
type Options struct {
	// Node is the certname to compile.
	Node string
	// Facts is the facts file ("" for no facts).
	Facts string
	// Manifest and ModulePath are --manifest and --modulepath: with
	// Manifest set the compile uses no directory environment (see
	// environment.Options).
	Manifest   string
	ModulePath []string
	// Config is puppet.conf's path ("" reads none).
	Config string
	// Settings are the Puppet settings given on the command line, by
	// setting name; they win over puppet.conf.
	Settings map[string]string
	// ENCTimeout bounds the external node classifier (0: its default).
	ENCTimeout time.Duration
	// ENCMaxOutput bounds the classifier's output in bytes (0: its
	// default, enc.DefaultMaxOutput).
	ENCMaxOutput int
	// Limits bound the compile (zero fields: the defaults); MaxYAMLNodes
	// bounds the facts file and the classifier's output too.
	Limits compiler.Limits
	// PuppetDB is --puppetdb: the URL of a PuppetDB to collect exported
	// resources from and answer puppetdb_query, whatever storeconfigs
	// says. Without it, storeconfigs and puppetdb.conf decide.
	PuppetDB string
	// StoreLog receives the PuppetDB client's log lines (failover,
	// puppetdb.conf warnings); nil discards them.
	StoreLog func(level, msg string)
	// RubyHost runs module Ruby functions beyond the Ruby subset when
	// ruby_functions is helper; a caller compiling many nodes sets one to
	// share it. Nil starts one on demand, which Close stops.
	RubyHost    *rubyhost.Host
	ownRubyHost bool
}

// positiveFlag parses the value of a flag that must be a positive integer.
func positiveFlag(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid --%s %s: the limit must be a positive integer", name, value)
	}
	return n, nil
}

// SetFlag records marionette's command-line flag name (without dashes) with
// its value, as the environment flags of compile, lookup, node and bench
// mean it. It reports false for a flag that is none of those, which the
// caller handles itself.
func (o *Options) SetFlag(name, value string) (bool, error) {
	setting := map[string]string{
		"environment":     puppetconf.Environment,
		"environmentpath": puppetconf.EnvironmentPath,
		"hiera-config":    puppetconf.HieraConfig,
		"codedir":         puppetconf.Codedir,
		"confdir":         puppetconf.Confdir,
	}
	if o.Settings == nil {
		o.Settings = map[string]string{}
	}
	switch name {
	case "manifest":
		o.Manifest = value
	case "modulepath":
		o.ModulePath = nil
		if value != "" {
			o.ModulePath = puppetconf.SplitPath(value)
		}
	case "facts":
		o.Facts = value
	case "puppetdb":
		o.PuppetDB = value
	case "config":
		o.Config = value
	case "enc-timeout":
		d, err := time.ParseDuration(value)
		if err != nil {
			return true, fmt.Errorf("--enc-timeout: %v", err)
		}
		if d <= 0 {
			// Zero would otherwise mean the default: say so instead.
			return true, fmt.Errorf("invalid --enc-timeout %v: the timeout must be positive", d)
		}
		o.ENCTimeout = d
	case "enc-max-output", "max-yaml-nodes", "max-template-size", "max-resources":
		n, err := positiveFlag(name, value)
		if err != nil {
			return true, err
		}
		*map[string]*int{
			"enc-max-output":    &o.ENCMaxOutput,
			"max-yaml-nodes":    &o.Limits.MaxYAMLNodes,
			"max-template-size": &o.Limits.MaxTemplateSize,
			"max-resources":     &o.Limits.MaxResources,
		}[name] = n
	case "strict-hostname-checking":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return true, fmt.Errorf("--strict-hostname-checking: %v", err)
		}
		o.Settings[puppetconf.StrictHostnameChecking] = strconv.FormatBool(b)
	case "puppet-version", "strict":
		key := map[string]string{"puppet-version": puppetconf.PuppetVersion, "strict": puppetconf.Strict}[name]
		o.Settings[key] = value
		// Checked here so that the flag, not puppet.conf, is named.
		if _, err := o.checkSetting(key); err != nil {
			return true, fmt.Errorf("--%s: %v", name, err)
		}
	case "ruby-functions":
		if _, err := puppetconf.RubyFunctionsMode(value); err != nil {
			return true, fmt.Errorf("--ruby-functions: %v", err)
		}
		o.Settings[puppetconf.RubyFunctions] = value
	case "strict-variables":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return true, fmt.Errorf("--strict-variables: %v", err)
		}
		o.Settings[puppetconf.StrictVariables] = strconv.FormatBool(b)
	case "enc":
		// An empty --enc leaves the node terminus alone.
		if value == "" {
			delete(o.Settings, puppetconf.NodeTerminus)
			delete(o.Settings, puppetconf.ExternalNodes)
			break
		}
		o.Settings[puppetconf.NodeTerminus] = "exec"
		o.Settings[puppetconf.ExternalNodes] = value
	default:
		key, ok := setting[name]
		if !ok {
			return false, nil
		}
		// An empty path flag is no flag: puppet.conf's or the default applies.
		if value == "" && (key == puppetconf.EnvironmentPath || key == puppetconf.HieraConfig) {
			delete(o.Settings, key)
			break
		}
		o.Settings[key] = value
	}
	return true, nil
}

// checkSetting validates the value of one strictness setting given as a
// flag.
func (o *Options) checkSetting(key string) (string, error) {
	s := &puppetconf.Options{Flags: map[string]string{key: o.Settings[key]}}
	_, err := puppetconf.Load(*s)
	return key, err
}

// LoadSettings loads puppet.conf (Config) with the command line's settings
// over it.
func (o *Options) LoadSettings() (*puppetconf.Settings, error) {
	po := puppetconf.DefaultOptions()
	po.Config = o.Config
	po.Flags = make(map[string]string, len(o.Settings))
	for k, v := range o.Settings {
		po.Flags[k] = v
	}
	return puppetconf.Load(po)
}

// InputError is an error about the command line, the settings or the facts
// rather than about compiling the node: it is rendered without Puppet's
// " on node N".
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error itself.
func (e *InputError) Unwrap() error { return e.Err }

// Resolver builds the environment loader and node resolver. eo adjusts the
// loader; its Manifest and ModulePath are replaced. Load-time warnings are
// each compile's own diagnostics (compiler.Result).
func (o *Options) Resolver(eo environment.Options) (*node.Resolver, error) {
	s, err := o.LoadSettings()
	if err != nil {
		return nil, &InputError{Err: err}
	}
	eo.Manifest = o.Manifest
	eo.ModulePath = o.ModulePath
	r, err := node.NewResolver(environment.New(s, eo), o.ENCTimeout)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	r.Classifier.MaxOutput = o.ENCMaxOutput
	r.Classifier.MaxYAMLNodes = o.Limits.MaxYAMLNodes
	return r, nil
}

// Prepare reads the node's facts, classifies it and loads its environment.
func (o *Options) Prepare(ctx context.Context, eo environment.Options) (*compiler.Environment, *compiler.Request, error) {
	r, err := o.Resolver(eo)
	if err != nil {
		return nil, nil, err
	}
	facts, err := node.ReadFactsLimit(nil, o.Facts, o.Limits.MaxYAMLNodes)
	if err != nil {
		return nil, nil, &InputError{Err: err}
	}
	env, req, err := o.Limit(r.Prepare(ctx, o.Node, facts))
	if err == nil && req != nil {
		err = o.attachStore(req)
	}
	if err == nil && req != nil {
		err = o.attachRubyHost(req)
	}
	return env, req, err
}

// Limit sets the Limits on a prepared request; it passes Prepare's results
// through.
func (o *Options) Limit(env *compiler.Environment, req *compiler.Request, err error) (*compiler.Environment, *compiler.Request, error) {
	if req != nil {
		req.Limits = o.Limits
	}
	return env, req, err
}

// Compile compiles the node's catalog.
func (o *Options) Compile(ctx context.Context) (*compiler.Result, error) {
	defer o.Close()
	env, req, err := o.Prepare(ctx, environment.Options{})
	if err != nil {
		return nil, err
	}
	return compiler.Compile(ctx, env, req)
}

// Run is `marionette compile` without its flags: it compiles the node and
// writes the catalog's JSON to stdout, or the error to stderr, with the
// compile's warnings before either, and returns the exit status (0 or 1).
func (o *Options) Run(ctx context.Context, stdout, stderr io.Writer) int {
	if o.StoreLog == nil {
		o.StoreLog = LogTo(stderr)
	}
	res, err := o.Compile(ctx)
	return Write(stdout, stderr, res, err, o.Node)
}

// Write renders a compile's outcome as `marionette compile` does and
// returns the exit status: the diagnostics, then the error or the catalog.
func Write(stdout, stderr io.Writer, res *compiler.Result, err error, node string) int {
	if res != nil {
		WriteDiagnostics(stderr, res.Diagnostics, "")
	}
	if err != nil {
		WriteError(stderr, err, node)
		return 1
	}
	w := bufio.NewWriter(stdout)
	if err := res.Catalog.WriteJSON(w); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// WriteDiagnostics prints a compile's warnings and log messages as Puppet
// does; suffix, when set, follows each message (which node, which side).
func WriteDiagnostics(w io.Writer, diags diag.List, suffix string) {
	for _, d := range diags {
		fmt.Fprintf(w, "%s: %s%s\n", d.Severity.Label(), d.Error(), suffix)
	}
}

// WriteError prints a failed compile's error as Puppet does; a file with
// several validation errors gets each on its own line before the summary.
func WriteError(w io.Writer, err error, node string) {
	var ie *InputError
	if errors.As(err, &ie) {
		node = ""
	}
	_ = diag.RenderError(w, err, node)
}
