package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/oneshot"
	"github.com/marionette-dev/marionette/value"
)

// envFlags are the flags that say where code, facts and data come from;
// compile, lookup, node, bench and diff --all-nodes share them.
type envFlags struct {
	fs                                     *flag.FlagSet
	node, manifest, modulepath, facts      string
	enc, hieraConfig, environment, envPath string
	config, codedir, confdir               string
	strict                                 bool
	encTimeout                             time.Duration
	// warn receives the PuppetDB client's warnings when --facts
	// puppetdb reads facts (nil discards them).
	warn io.Writer
}

// addEnvironmentFlags defines the environment flags on fs.
func addEnvironmentFlags(fs *flag.FlagSet, f *envFlags) {
	f.fs = fs
	fs.StringVar(&f.manifest, "manifest", "", "main manifest: a .pp file or a directory")
	fs.StringVar(&f.modulepath, "modulepath", "", "module directories, separated by ':'")
	fs.StringVar(&f.facts, "facts", "", "facts `FILE` (YAML or JSON), none to use no facts, or puppetdb to read the node's facts from PuppetDB (a file named so: ./puppetdb)")
	// Read through f.options() like the settings flags.
	fs.String("puppetdb", "", "collect exported resources from (and answer puppetdb_query with, and read --facts puppetdb from) the PuppetDB at `URL`, as storeconfigs with puppetdb.conf would")
	fs.StringVar(&f.enc, "enc", "", "external node classifier executable")
	fs.StringVar(&f.hieraConfig, "hiera-config", "", "global hiera.yaml")
	fs.StringVar(&f.environment, "environment", "production", "environment name")
	fs.StringVar(&f.envPath, "environmentpath", "", "directory of directory environments")
	fs.StringVar(&f.config, "config", "", "puppet.conf to read settings from")
	fs.StringVar(&f.codedir, "codedir", "", "Puppet's codedir")
	fs.StringVar(&f.confdir, "confdir", "", "Puppet's confdir")
	fs.BoolVar(&f.strict, "strict-hostname-checking", true, "match node definitions on the exact certname only")
	// The strictness flags reach the library through options().SetFlag;
	// unset, puppet.conf's settings or the Puppet major's defaults apply.
	fs.String("puppet-version", "7", "the Puppet major (7 or 8) whose defaults and behaviour to follow")
	fs.String("strict", "", "Puppet's strict setting: off, warning or error (default: warning for Puppet 7, error for 8)")
	fs.Bool("strict-variables", false, "fail on unknown variables (default: false for Puppet 7, true for 8)")
	fs.String("ruby-functions", "subset", "module Ruby functions beyond marionette's Ruby subset: subset (fail) or helper (run them in Ruby with Puppet's library)")
	fs.DurationVar(&f.encTimeout, "enc-timeout", enc.DefaultTimeout, "how long the external node classifier may run")
	// The limits below reach the library through options().SetFlag, which
	// sees only the flags given; the defaults here are for the help text.
	fs.Int("enc-max-output", enc.DefaultMaxOutput, "bytes the external node classifier may print")
	fs.Int("max-yaml-nodes", dataformat.MaxYAMLNodes, "values one YAML document (Hiera data, facts, ENC output) may expand to")
	fs.Int("max-template-size", erb.MaxStringSize, "bytes of an ERB template's output or of any string it builds")
	fs.Int("max-resources", compiler.DefaultMaxResources, "resources a catalog may hold")
}

// options are the flags as the compile library takes them; setting and
// mapping them there keeps every command (and the conformance suite, which
// compiles in process) in step with compile.
func (f *envFlags) options() (*oneshot.Options, error) {
	o := &oneshot.Options{Node: f.node, ENCTimeout: f.encTimeout}
	var err error
	f.fs.Visit(func(fl *flag.Flag) {
		if _, e := o.SetFlag(fl.Name, fl.Value.String()); e != nil && err == nil {
			err = e
		}
	})
	if o.Facts == "none" {
		o.Facts = "" // --facts none: compile with no facts, on purpose
	}
	return o, err
}

// resolver builds the environment loader and node resolver of the flags.
// Load-time warnings are a compile's own diagnostics (Result.Diagnostics).
func (f *envFlags) resolver(warn io.Writer, o environment.Options) (*node.Resolver, error) {
	opts, err := f.options()
	if err != nil {
		return nil, err
	}
	return opts.Resolver(o)
}

// prepareNode reads f.node's facts, classifies it and loads its
// environment, as the flags say.
func prepareNode(ctx context.Context, f *envFlags, warn io.Writer) (*compiler.Environment, *compiler.Request, error) {
	return prepareWith(ctx, f, warn, environment.Options{})
}

func prepareWith(ctx context.Context, f *envFlags, warn io.Writer, o environment.Options) (*compiler.Environment, *compiler.Request, error) {
	if err := f.checkInputs(); err != nil {
		return nil, nil, err
	}
	opts, err := f.options()
	if err != nil {
		return nil, nil, &configError{Err: err}
	}
	r, err := opts.Resolver(o)
	if err != nil {
		return nil, nil, &configError{Err: err}
	}
	f.warn = warn
	facts, err := f.readFacts(true)
	if err != nil {
		return nil, nil, err
	}
	return opts.Limit(r.Prepare(ctx, f.node, facts))
}

// readFacts reads --facts. Without it, required says whether that is an
// error, as it is for Puppet with no facts for the node: a compile
// without facts gives another catalog, silently. --facts none opts out.
func (f *envFlags) readFacts(required bool) (*value.Hash, error) {
	switch f.facts {
	case "":
		if !required {
			return value.EmptyHash, nil
		}
		return nil, &configError{Err: fmt.Errorf("No facts available for target node: %s (give --facts FILE, or --facts none to use no facts)", f.node)}
	case "none":
		return value.EmptyHash, nil
	case factsPuppetDB:
		w := f.warn
		if w == nil {
			w = io.Discard
		}
		c, err := f.needPuppetDB(w, "--facts puppetdb")
		if err != nil {
			return nil, err
		}
		return factsOf(context.Background(), c, f.node)
	}
	opts, err := f.options()
	if err != nil {
		return nil, &configError{Err: err}
	}
	facts, err := node.ReadFactsLimit(nil, f.facts, opts.Limits.MaxYAMLNodes)
	if err != nil {
		return nil, &configError{Err: err}
	}
	return facts, nil
}

// checkInputs rejects command lines that would compile something other
// than the user meant, silently: a --manifest or --hiera-config naming no
// file (Puppet would compile an empty manifest, or use no global Hiera
// data), or no code at all.
func (f *envFlags) checkInputs() error {
	for _, c := range []struct{ flag, path string }{
		{"--manifest", f.manifest},
		{"--hiera-config", f.hieraConfig},
	} {
		if c.path == "" {
			continue
		}
		if _, err := os.Stat(c.path); err != nil {
			return &configError{Err: fmt.Errorf("%s %s: %v", c.flag, c.path, underlying(err))}
		}
	}
	if f.manifest != "" || f.modulepath != "" || f.envPath != "" || f.config != "" || f.codedir != "" {
		return nil
	}
	return &configError{Err: errors.New("No environment to compile: give --manifest (and --modulepath), --environmentpath, or a puppet.conf with --config")}
}

// underlying drops the operation and path of a file error: the message
// names the path already.
func underlying(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
