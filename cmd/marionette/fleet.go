package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/atomicfile"
	"github.com/marionette-dev/marionette/fleet"
	"github.com/marionette-dev/marionette/site"
)

// runFleet implements compile --all-nodes: compile every node of a facts
// directory or a nodes list into OUT/<node>.json, loading each environment
// (the configured one, or the one the ENC puts a node in) once and sharing
// it (with one Hiera cache and one function table) across all compiles. It exits 0 when every node compiled, 1 when any failed and
// 2 on a usage or setup error.
func runFleet(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile --all-nodes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	var fl fleetFlags
	addFleetFlags(fs, &fl)
	timeout := addTimeoutFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette compile --all-nodes (--facts-dir DIR | --nodes-from FILE | --facts-from puppetdb) --out DIR [--jobs N] [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	out, jobs := fl.out, fl.jobs
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "Error: %s\n", msg)
		fs.Usage()
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("--all-nodes takes no node name: " + strings.Join(fs.Args(), " "))
	case fl.checkFactsFrom() != nil:
		return usageErr(fl.checkFactsFrom().Error())
	case out == "":
		return usageErr("--all-nodes needs --out")
	case f.facts != "":
		return usageErr("--facts names one node's facts; use --facts-dir with --all-nodes")
	case jobs < 0:
		return usageErr("--jobs must not be negative")
	}
	if err := checkTimeout(*timeout); err != nil {
		return usageErr(err.Error())
	}

	// Log lines and warnings come from many goroutines.
	logw := &lockedWriter{w: stderr}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Environments are loaded once for the run (a snapshot of the code),
	// however many nodes use them. The site's PuppetDB is the store of
	// every compile, and the source of facts with --facts-from puppetdb.
	st, err := f.openSite(logw, true)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	defer st.Close()
	nodes, err := fleetNodes(ctx, &fl, st)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if err := f.checkInputs(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	factsOf, err := fleetFacts(st, &fl, nodes)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	compileOne, err := fleetCompiler(st, out, *timeout, logw, factsOf)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}

	// A fleet run allocates many short-lived catalogs on a small live heap;
	// the default GOGC=100 spends about a third of the CPU collecting them.
	// An explicit GOGC still wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(fleetGCPercent))
	}

	progress := &fleet.Reporter{W: logw}
	progress.TTY = isTerminal(stderr)
	sum := fleet.Compile(ctx, jobs, nodes, compileOne, progress)
	if err := sum.Write(stdout); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if sum.OK != sum.Total {
		return 1
	}
	return 0
}

// fleetFlags are the flags of compile --all-nodes.
type fleetFlags struct {
	allNodes                 bool
	factsDir, nodesFrom, out string
	factsFrom                string
	jobs                     int
}

// addFleetFlags defines the flags of compile --all-nodes on fs.
func addFleetFlags(fs *flag.FlagSet, fl *fleetFlags) {
	fs.BoolVar(&fl.allNodes, "all-nodes", false, "compile every node (of --facts-dir, --nodes-from or, with --facts-from puppetdb, PuppetDB)")
	fs.StringVar(&fl.factsDir, "facts-dir", "", "with --all-nodes: directory of facts files, one per node (NODE.yaml or NODE.json)")
	fs.StringVar(&fl.nodesFrom, "nodes-from", "", "with --all-nodes: file of node names, one a line ('#' starts a comment)")
	fs.StringVar(&fl.factsFrom, "facts-from", "", "with --all-nodes: puppetdb reads each node's latest facts from PuppetDB; without --nodes-from, every active node with facts is compiled")
	fs.StringVar(&fl.out, "out", "", "with --all-nodes: directory to write NODE.json catalogs into")
	fs.IntVar(&fl.jobs, "jobs", 0, "with --all-nodes: nodes to compile at once (default: number of CPUs)")
}

// unused reports a fleet flag given without --all-nodes: it would be
// silently ignored.
func (fl *fleetFlags) unused(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "facts-dir", "nodes-from", "facts-from", "out", "jobs":
			if err == nil {
				err = fmt.Errorf("--%s needs --all-nodes", f.Name)
			}
		}
	})
	return err
}

// listNodes lists the nodes of a --nodes-from file (facts from factsDir
// when given) or of a --facts-dir directory; none is an error.
func listNodes(factsDir, nodesFrom string) ([]fleet.Node, error) {
	var nodes []fleet.Node
	var err error
	if nodesFrom != "" {
		nodes, err = fleet.FromNodesFile(nodesFrom, factsDir)
	} else {
		nodes, err = fleet.FromFactsDir(factsDir)
	}
	if err == nil && len(nodes) == 0 {
		err = errors.New("no nodes to compile")
	}
	return nodes, err
}

// fleetGCPercent is the garbage collector target of a fleet run (see
// runFleet). The live heap between nodes is small (the environment and the
// nodes in progress, 5-8 MB for the medium workload with 2 jobs), so each
// collection costs little but 400% still ran one every 7 nodes: 1000%
// runs a third as many (1,000 medium nodes: 138 -> 47 collections, GC
// CPU 0.84 -> 0.53 ms a node) for a peak RSS of 140 MB instead of 80.
const fleetGCPercent = 1000

// fleetCompiler checks the configured environment and returns the
// function that compiles one node into out/NODE.json, with facts from
// factsOf.
func fleetCompiler(st *site.Site, out string, timeout time.Duration, logw io.Writer, factsOf func(fleet.Node) site.FactsSource) (fleet.CompileFunc, error) {
	// A missing or broken configured environment is a setup error, not
	// one per node.
	if _, err := st.Loader().Get(context.Background(), st.Environment()); err != nil {
		return nil, err
	}
	return func(ctx context.Context, n fleet.Node) (err error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		defer func() {
			if err != nil {
				err = deadlineError(ctx, err, timeout)
			}
		}()
		facts, err := st.Facts(ctx, factsOf(n), n.Name)
		if err != nil {
			return err
		}
		res, err := st.Compile(ctx, n.Name, facts)
		if res != nil {
			printDiagnostics(logw, res.Diagnostics, " (node "+n.Name+")")
		}
		if err != nil {
			return err
		}
		cat := res.Catalog
		// WriteJSON gathers the JSON in large pieces itself: no bufio.
		return atomicfile.Write(filepath.Join(out, n.Name+".json"), 0o644, cat.WriteJSON)
	}, nil
}

// lockedWriter serialises writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
