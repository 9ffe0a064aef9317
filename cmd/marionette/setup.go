package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/site"
)

// envFlags are the flags that say where code, facts and data come from;
// compile, lookup, node, bench and diff --all-nodes share them. The site
// package defines and parses them (site.Options.AddFlags), as the
// conformance suite reads its cases' compile arguments.
type envFlags struct {
	fs          *flag.FlagSet
	node, facts string
	site.Options
}

// addEnvironmentFlags defines the environment flags on fs.
func addEnvironmentFlags(fs *flag.FlagSet, f *envFlags) {
	f.fs = fs
	f.AddFlags(fs)
	f.ConfigInConfdir = true // $confdir/puppet.conf, as Puppet's commands read it
	fs.StringVar(&f.facts, "facts", "", "facts `FILE` (YAML or JSON), none to use no facts, or puppetdb to read the node's facts from PuppetDB (a file named so: ./puppetdb)")
}

// openSite builds the site of the flags; logw receives the PuppetDB
// client's warnings; snapshot loads each environment once for the run
// (a batch of compiles). Its errors are about the settings
// (site.InputError).
func (f *envFlags) openSite(logw io.Writer, snapshot bool) (*site.Site, error) {
	o := f.Options
	o.Log = site.LogTo(logw)
	o.LoaderOptions.Snapshot = snapshot
	return site.Open(o)
}

// prepareNode reads f.node's facts, classifies it and loads its
// environment, as the flags say; the caller closes the site. lookup
// prepares a Hiera lookup (site.PrepareLookup) instead of a compile.
func prepareNode(ctx context.Context, f *envFlags, warn io.Writer, snapshot, lookup bool) (*site.Site, *compiler.Environment, *compiler.Request, error) {
	if err := f.checkInputs(); err != nil {
		return nil, nil, nil, err
	}
	st, err := f.openSite(warn, snapshot)
	if err != nil {
		return nil, nil, nil, err
	}
	facts, err := st.Facts(ctx, site.FactsFlag(f.facts), f.node)
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	prepare := st.Prepare
	if lookup {
		prepare = st.PrepareLookup
	}
	env, req, err := prepare(ctx, f.node, facts)
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	return st, env, req, nil
}

// checkInputs rejects command lines that would compile something other
// than the user meant, silently: a --manifest or --hiera-config naming no
// file (Puppet would compile an empty manifest, or use no global Hiera
// data), or no code at all.
func (f *envFlags) checkInputs() error {
	for _, c := range []struct{ flag, path string }{
		{"--manifest", f.Manifest},
		{"--hiera-config", f.HieraConfig},
	} {
		if c.path == "" {
			continue
		}
		if _, err := os.Stat(c.path); err != nil {
			return &configError{Err: fmt.Errorf("%s %s: %v", c.flag, c.path, underlying(err))}
		}
	}
	if f.Manifest != "" || f.ModulePath != nil || f.EnvironmentPath != "" || f.Config != "" || f.Codedir != "" {
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
