package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/site"
)

// runNodeDeactivate is `marionette node deactivate NODE...`, as `puppet
// node deactivate`: a "deactivate node" command (v3) for each node to the
// PuppetDB of $confdir/puppetdb.conf (or --puppetdb), stopping at the
// first that fails.
func runNodeDeactivate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("node deactivate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	confdir := fs.String("confdir", "", "Puppet's confdir: its puppetdb.conf names the PuppetDB")
	config := fs.String("config", "", "puppet.conf to read (default: $confdir/puppet.conf)")
	pdbURL := fs.String("puppetdb", "", "the PuppetDB `URL` (default: $confdir/puppetdb.conf)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette node deactivate NODE... [--confdir DIR] [--puppetdb URL]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(interleave(args, fs)); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "Error: Please provide at least one node for deactivation")
		return 1
	}
	c, err := deactivateClient(*confdir, *config, *pdbURL, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	for _, node := range fs.Args() {
		uuid, err := deactivateNode(context.Background(), c, node)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "Submitted 'deactivate node' for %s with UUID %s\n", node, uuid)
	}
	return 0
}

// deactivateClient is the PuppetDB client of --puppetdb, else of
// puppetdb.conf in the confdir of the flags or puppet.conf.
func deactivateClient(confdir, config, url string, logw io.Writer) (*puppetdb.Client, error) {
	st, err := site.Open(site.Options{
		Overrides: site.Overrides{Confdir: confdir, Config: config, ConfigInConfdir: true, PuppetDB: url},
		Log:       site.LogTo(logw),
	})
	if err != nil {
		return nil, err
	}
	return st.ConfiguredPuppetDB()
}

// deactivateNode submits "deactivate node" for node and returns the
// command's UUID.
func deactivateNode(ctx context.Context, c *puppetdb.Client, node string) (string, error) {
	p, err := puppetdb.Deactivate(node, time.Now())
	if err != nil {
		return "", err
	}
	return c.SubmitCommand(ctx, puppetdb.DeactivateNode, puppetdb.DeactivateNodeVersion, node, p)
}
