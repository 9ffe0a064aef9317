package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/fleet"
	"github.com/marionette-dev/marionette/site"
)

// fleetNodes lists a fleet run's nodes: with facts from PuppetDB, the
// names of a --nodes-from file or else every active node PuppetDB has
// facts for (listed page by page; only names are kept); otherwise as
// listNodes does.
func fleetNodes(ctx context.Context, fl *fleetFlags, st *site.Site) ([]fleet.Node, error) {
	if fl.factsFrom == "" {
		return listNodes(fl.factsDir, fl.nodesFrom)
	}
	if fl.nodesFrom != "" {
		return listNodes("", fl.nodesFrom)
	}
	pdb, err := st.NeedPuppetDB("--facts-from puppetdb")
	if err != nil {
		return nil, err
	}
	var nodes []fleet.Node
	err = pdb.ActiveNodes(ctx, 0, func(certname string) error {
		nodes = append(nodes, fleet.Node{Name: certname})
		return nil
	})
	if err == nil && len(nodes) == 0 {
		err = errors.New("no nodes to compile: PuppetDB has no active node with facts")
	}
	return nodes, err
}

// fleetFacts says where each node of a fleet run gets its facts: its
// facts file, or with --facts-from puppetdb a batch that reads a page of
// nodes a request.
func fleetFacts(st *site.Site, fl *fleetFlags, nodes []fleet.Node) (func(fleet.Node) site.FactsSource, error) {
	if fl.factsFrom == "" {
		return func(n fleet.Node) site.FactsSource { return site.FactsSource{Kind: site.FactsFile, File: n.FactsPath} }, nil
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	batch, err := st.FactsBatch(names)
	if err != nil {
		return nil, err
	}
	return func(fleet.Node) site.FactsSource { return site.FactsSource{Kind: site.FactsPuppetDB, Batch: batch} }, nil
}

// checkFactsFrom validates --facts-from against the other node flags.
func (fl *fleetFlags) checkFactsFrom() error {
	switch {
	case fl.factsFrom == "":
		if fl.factsDir == "" && fl.nodesFrom == "" {
			return errors.New("--all-nodes needs --facts-dir or --nodes-from (or --facts-from puppetdb)")
		}
	case fl.factsFrom != site.FactsFlagPuppetDB:
		return fmt.Errorf("--facts-from takes puppetdb, not %q", fl.factsFrom)
	case fl.factsDir != "":
		return errors.New("--facts-dir and --facts-from puppetdb both say where facts come from; give one")
	}
	return nil
}
