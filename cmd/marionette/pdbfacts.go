package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/fleet"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/oneshot"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/value"
)

// factsPuppetDB is the value of --facts (one node) and --facts-from (a
// fleet) that reads facts from PuppetDB, as facts_terminus = puppetdb
// does; a facts file named so is given as ./puppetdb.
const factsPuppetDB = "puppetdb"

// puppetDB returns the PuppetDB client the flags name: --puppetdb URL, or
// storeconfigs with $confdir/puppetdb.conf; nil when they name none.
func (f *envFlags) puppetDB(logw io.Writer) (*puppetdb.Client, error) {
	opts, err := f.options()
	if err != nil {
		return nil, &configError{Err: err}
	}
	s, err := opts.LoadSettings()
	if err != nil {
		return nil, &configError{Err: err}
	}
	c, err := opts.StoreClient(s, oneshot.LogTo(logw))
	if err != nil {
		return nil, &configError{Err: err}
	}
	return c, nil
}

// needPuppetDB is puppetDB for a command that reads facts from PuppetDB:
// naming none is an error.
func (f *envFlags) needPuppetDB(logw io.Writer, what string) (*puppetdb.Client, error) {
	c, err := f.puppetDB(logw)
	if err == nil && c == nil {
		err = &configError{Err: fmt.Errorf("%s needs a PuppetDB: give --puppetdb URL, or a puppet.conf with storeconfigs and puppetdb.conf", what)}
	}
	return c, err
}

// factsOf reads a node's facts from PuppetDB; a node PuppetDB does not
// know has no facts, which is an error as a missing facts file is.
func factsOf(ctx context.Context, c *puppetdb.Client, certname string) (*value.Hash, error) {
	facts, err := c.NodeFacts(ctx, certname)
	if errors.Is(err, puppetdb.ErrNoFacts) {
		return nil, &configError{Err: fmt.Errorf("No facts available for target node: %s (PuppetDB has none)", certname)}
	}
	return facts, err
}

// compileWithPuppetDBFacts is compile NODE --facts puppetdb: the node's
// facts from PuppetDB, the compile as compileNode's, with the same
// PuppetDB (or the configured one) as the store.
func compileWithPuppetDBFacts(ctx context.Context, f *envFlags, stderr io.Writer) (*compiler.Result, error) {
	env, req, err := prepareNode(ctx, f, stderr)
	if err != nil {
		return nil, err
	}
	c, err := f.puppetDB(stderr)
	if err != nil {
		return nil, err
	}
	if c != nil {
		req.Store = c
	}
	return compiler.Compile(ctx, env, req)
}

// fleetFacts says where a fleet run's facts come from: PuppetDB when pdb
// is set, else each node's facts file.
type fleetFacts struct {
	pdb          *puppetdb.FactsBatch
	maxYAMLNodes int
}

// fromPuppetDB reads the facts of nodes from c, a page of nodes a request.
func fromPuppetDB(c *puppetdb.Client, nodes []fleet.Node) *puppetdb.FactsBatch {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	return c.NewFactsBatch(names, 0)
}

// read returns n's facts.
func (ff fleetFacts) read(ctx context.Context, n fleet.Node) (*value.Hash, error) {
	if ff.pdb != nil {
		facts, err := ff.pdb.Facts(ctx, n.Name)
		if errors.Is(err, puppetdb.ErrNoFacts) {
			return nil, &configError{Err: fmt.Errorf("No facts available for target node: %s (PuppetDB has none)", n.Name)}
		}
		return facts, err
	}
	return node.ReadFactsLimit(nil, n.FactsPath, ff.maxYAMLNodes)
}

// fleetInputs opens the PuppetDB the flags name (needed with --facts-from
// puppetdb) and lists the run's nodes, for compile --all-nodes and diff
// --all-nodes alike.
func fleetInputs(ctx context.Context, f *envFlags, fl *fleetFlags, logw io.Writer) (*puppetdb.Client, []fleet.Node, error) {
	pdb, err := f.puppetDB(logw)
	if err == nil && fl.factsFrom != "" && pdb == nil {
		_, err = f.needPuppetDB(logw, "--facts-from puppetdb")
	}
	if err != nil {
		return nil, nil, err
	}
	nodes, err := fleetNodes(ctx, fl, pdb)
	return pdb, nodes, err
}

// fleetNodes lists a fleet run's nodes: with facts from PuppetDB, the
// names of a --nodes-from file or else every active node PuppetDB has
// facts for (listed page by page; only names are kept); otherwise as
// listNodes does.
func fleetNodes(ctx context.Context, fl *fleetFlags, pdb *puppetdb.Client) ([]fleet.Node, error) {
	if fl.factsFrom == "" {
		return listNodes(fl.factsDir, fl.nodesFrom)
	}
	if fl.nodesFrom != "" {
		return listNodes("", fl.nodesFrom)
	}
	var nodes []fleet.Node
	err := pdb.ActiveNodes(ctx, 0, func(certname string) error {
		nodes = append(nodes, fleet.Node{Name: certname})
		return nil
	})
	if err == nil && len(nodes) == 0 {
		err = errors.New("no nodes to compile: PuppetDB has no active node with facts")
	}
	return nodes, err
}

// checkFactsFrom validates --facts-from against the other node flags.
func (fl *fleetFlags) checkFactsFrom() error {
	switch {
	case fl.factsFrom == "":
		if fl.factsDir == "" && fl.nodesFrom == "" {
			return errors.New("--all-nodes needs --facts-dir or --nodes-from (or --facts-from puppetdb)")
		}
	case fl.factsFrom != factsPuppetDB:
		return fmt.Errorf("--facts-from takes puppetdb, not %q", fl.factsFrom)
	case fl.factsDir != "":
		return errors.New("--facts-dir and --facts-from puppetdb both say where facts come from; give one")
	}
	return nil
}
