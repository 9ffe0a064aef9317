package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/fleet"
)

// diffAllUsage is the synopsis of diff --all-nodes.
const diffAllUsage = "usage: marionette diff --all-nodes --from ENV_A --to ENV_B (--facts-dir DIR | --nodes-from FILE | --facts-from puppetdb) [--environmentpath DIR] [--jobs N] [--json] [--ignore-tags] [--ignore-file-line=false] [flags]"

// diffAllHelp explains diff --all-nodes below the synopsis.
const diffAllHelp = `
Compiles every node twice, with the code of ENV_A and with the code of ENV_B
(the same facts and ENC data for both), and lists per node the resources
added, removed and changed. ENV_A and ENV_B are environment names under
--environmentpath, or environment directories (any value with a '/').
The environment an ENC names is not used: --from and --to choose the code.

Exit status: 0 when no node differs and every node compiled on both sides,
1 when some node differs, 2 when some node failed to compile (on either
side) or on a usage or setup error.
`

// runDiffAll implements diff --all-nodes: compile every node of a facts
// directory or a nodes list with two environments and compare the catalogs
// (fleet.Diff); here are its flags and exit status.
func runDiffAll(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff --all-nodes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	var allNodes, asJSON bool
	var from, to, envName string
	var fl fleetFlags
	var opts catalogdiff.Options
	fs.BoolVar(&allNodes, "all-nodes", false, "compile and compare every node (of --facts-dir, --nodes-from or, with --facts-from puppetdb, PuppetDB)")
	fs.StringVar(&from, "from", "", "old code: an environment name under --environmentpath, or an environment directory")
	fs.StringVar(&to, "to", "", "new code: an environment name under --environmentpath, or an environment directory")
	fs.StringVar(&envName, "environment-name", "", "compile both sides as this environment (default: each side's own name); "+
		"keeps code that uses $environment from differing")
	fs.StringVar(&fl.factsDir, "facts-dir", "", "directory of facts files, one per node (NODE.yaml or NODE.json)")
	fs.StringVar(&fl.nodesFrom, "nodes-from", "", "file of node names, one a line ('#' starts a comment)")
	fs.StringVar(&fl.factsFrom, "facts-from", "", "puppetdb reads each node's latest facts from PuppetDB; without --nodes-from, every active node with facts is compared")
	fs.IntVar(&fl.jobs, "jobs", 0, "nodes to compile at once (default: number of CPUs)")
	fs.BoolVar(&opts.IgnoreTags, "ignore-tags", false, "do not compare resource tags")
	fs.BoolVar(&opts.IgnoreFileLine, "ignore-file-line", true, "do not compare the file and line resources were declared at "+
		"(files are compared relative to their environment)")
	fs.BoolVar(&asJSON, "json", false, "print the differences as one JSON document")
	fs.Usage = func() {
		fmt.Fprintln(stderr, diffAllUsage)
		fmt.Fprint(stderr, diffAllHelp)
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "Error: %s\n", msg)
		fs.Usage()
		return 2
	}
	// The flags that pick one environment's code or one node's facts do
	// not apply: --from and --to pick the code, the node list the facts.
	var misplaced []string
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "manifest", "modulepath", "environment", "facts":
			misplaced = append(misplaced, "--"+fl.Name)
		}
	})
	switch {
	case fs.NArg() > 0:
		return usageErr("diff --all-nodes takes no catalog files or node names: " + strings.Join(fs.Args(), " "))
	case len(misplaced) > 0:
		return usageErr(strings.Join(misplaced, ", ") + " cannot be used with diff --all-nodes: --from and --to choose the code, --facts-dir or --nodes-from the nodes")
	case from == "" || to == "":
		return usageErr("diff --all-nodes needs --from and --to")
	case fl.checkFactsFrom() != nil:
		return usageErr("diff " + fl.checkFactsFrom().Error())
	case fl.jobs < 0:
		return usageErr("--jobs must not be negative")
	}

	// Log lines and warnings come from many goroutines.
	logw := &lockedWriter{w: stderr}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// puppet.conf may name the environmentpath and the ENC. Each side's
	// environment is loaded once (a snapshot of its code); the site's
	// PuppetDB is both sides' store, and the source of facts with
	// --facts-from puppetdb.
	st, err := f.openSite(logw, true)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	defer st.Close()
	nodes, err := fleetNodes(ctx, &fl, st)
	if err == nil {
		// One Ruby helper for the run (ruby_functions = helper).
		_, err = st.RubyHost()
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	factsOf, err := fleetFacts(st, &fl, nodes)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	d := &fleet.Diff{Options: opts, Log: logw}
	for i, spec := range [2]string{from, to} {
		s, err := fleet.NewDiffSide(st.Loader(), fleet.SideName(i), spec, envName)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --%s %s: %v\n", fleet.SideName(i), spec, err)
			return 2
		}
		d.Sides[i] = s
	}
	d.Request = func(ctx context.Context, n fleet.Node) (*compiler.Request, error) {
		facts, err := st.Facts(ctx, factsOf(n), n.Name)
		if err != nil {
			return nil, err
		}
		// The ENC's classes and parameters count; --from and --to choose
		// the code, not the environment it names.
		classified, err := st.ClassifyIn(ctx, n.Name, "")
		if err != nil {
			return nil, err
		}
		return st.Request(classified, facts)
	}

	// As in compile --all-nodes: many short-lived catalogs on a small live
	// heap; an explicit GOGC still wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(fleetGCPercent))
	}
	progress := &fleet.Reporter{W: logw}
	progress.TTY = isTerminal(stderr)
	rep := d.Run(ctx, fl.jobs, nodes, progress)
	if asJSON {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	c := rep.Counts()
	switch {
	case c.Failed > 0 || c.Skipped > 0:
		return 2
	case c.Changed > 0:
		return 1
	}
	return 0
}
