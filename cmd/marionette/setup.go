package main

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/oneshot"
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
}

// addEnvironmentFlags defines the environment flags on fs.
func addEnvironmentFlags(fs *flag.FlagSet, f *envFlags) {
	f.fs = fs
	fs.StringVar(&f.manifest, "manifest", "", "main manifest: a .pp file or a directory")
	fs.StringVar(&f.modulepath, "modulepath", "", "module directories, separated by ':'")
	fs.StringVar(&f.facts, "facts", "", "facts file (YAML or JSON)")
	fs.StringVar(&f.enc, "enc", "", "external node classifier executable")
	fs.StringVar(&f.hieraConfig, "hiera-config", "", "global hiera.yaml")
	fs.StringVar(&f.environment, "environment", "production", "environment name")
	fs.StringVar(&f.envPath, "environmentpath", "", "directory of directory environments")
	fs.StringVar(&f.config, "config", "", "puppet.conf to read settings from")
	fs.StringVar(&f.codedir, "codedir", "", "Puppet's codedir")
	fs.StringVar(&f.confdir, "confdir", "", "Puppet's confdir")
	fs.BoolVar(&f.strict, "strict-hostname-checking", true, "match node definitions on the exact certname only")
	fs.DurationVar(&f.encTimeout, "enc-timeout", enc.DefaultTimeout, "how long the external node classifier may run")
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
	return o, err
}

// resolver builds the environment loader and node resolver of the flags;
// each environment's deprecation warnings go to warn once, when loaded.
func (f *envFlags) resolver(warn io.Writer, o environment.Options) (*node.Resolver, error) {
	opts, err := f.options()
	if err != nil {
		return nil, err
	}
	return opts.Resolver(warn, o)
}

// prepareNode reads f.node's facts, classifies it and loads its
// environment, as the flags say.
func prepareNode(ctx context.Context, f *envFlags, warn io.Writer) (*compiler.Environment, *compiler.Request, error) {
	return prepareWith(ctx, f, warn, environment.Options{})
}

func prepareWith(ctx context.Context, f *envFlags, warn io.Writer, o environment.Options) (*compiler.Environment, *compiler.Request, error) {
	opts, err := f.options()
	if err != nil {
		return nil, nil, err
	}
	return opts.Prepare(ctx, warn, o)
}
