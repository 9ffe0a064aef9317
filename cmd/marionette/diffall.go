package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/fleet"
	"github.com/marionette-dev/marionette/node"
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

// diffSideNames label the two compiles of a node.
var diffSideNames = [2]string{"from", "to"}

// runDiffAll implements diff --all-nodes: compile every node of a facts
// directory or a nodes list with two environments and compare the catalogs.
// Each environment is loaded once and shared (with one Hiera cache and one
// function table) by all of that side's compiles.
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
	// The PuppetDB the flags name is both sides' store, and the source of
	// facts with --facts-from puppetdb.
	pdb, nodes, err := fleetInputs(ctx, &f, &fl, logw)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	ff := fleetFacts{}
	if fl.factsFrom != "" {
		ff.pdb = fromPuppetDB(pdb, nodes)
	}
	// puppet.conf may name the environmentpath and the ENC.
	eopts, err := f.options()
	var rs *node.Resolver
	if err == nil {
		rs, err = eopts.Resolver(environment.Options{Snapshot: true})
	}
	if err == nil {
		// One Ruby helper for the run (ruby_functions = helper).
		err = eopts.StartRubyHost()
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	// The --max-* limits bound every compile and facts file of the run.
	ff.maxYAMLNodes = eopts.Limits.MaxYAMLNodes
	var sides [2]*diffSide
	for i, spec := range [2]string{from, to} {
		s, err := newDiffSide(rs, diffSideNames[i], spec, envName)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --%s %s: %v\n", diffSideNames[i], spec, err)
			return 2
		}
		sides[i] = s
	}

	// As in compile --all-nodes: many short-lived catalogs on a small live
	// heap; an explicit GOGC still wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(fleetGCPercent))
	}

	results := make([]nodeDiff, len(nodes))
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
		results[i].Node = n.Name
	}
	compareOne := func(ctx context.Context, n fleet.Node) error {
		// Each node is compared once, by one goroutine, into its own slot.
		r := &results[index[n.Name]]
		facts, err := ff.read(ctx, n)
		if err != nil {
			r.Err = err
			return err
		}
		// The ENC's classes and parameters count; --from and --to choose
		// the code, not the environment it names.
		classified, err := rs.Classifier.Classify(ctx, n.Name, "")
		if err != nil {
			r.Err = err
			return err
		}
		req := rs.Request(classified, facts)
		req.Limits = eopts.Limits
		req.RubyHost = eopts.RubyHost
		if pdb != nil {
			req.Store = pdb
		}
		var cats [2]*catalogdiff.Catalog
		for i, s := range sides {
			cats[i], r.SideErr[i] = s.compile(ctx, req, logw)
		}
		if r.SideErr[0] != nil || r.SideErr[1] != nil {
			return r.failure(sides)
		}
		r.Diff = catalogdiff.Compare(cats[0], cats[1], opts)
		return nil
	}

	progress := &fleet.Reporter{W: logw}
	progress.TTY = isTerminal(stderr)
	sum := fleet.Compile(ctx, fl.jobs, nodes, compareOne, progress)
	for i, fr := range sum.Results {
		r := &results[i]
		switch {
		case fr.Skipped:
			r.Skipped = true
		case fr.Err != nil && r.Err == nil && r.SideErr[0] == nil && r.SideErr[1] == nil:
			// A panic outside the two compiles (they recover their own).
			r.Err = fr.Err
		}
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Node < results[j].Node })

	rep := &diffAllReport{From: sides[0].label, To: sides[1].label, Nodes: results}
	if asJSON {
		err = rep.writeJSON(stdout)
	} else {
		err = rep.writeText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	c := rep.counts()
	switch {
	case c.Failed > 0 || c.Skipped > 0:
		return 2
	case c.Changed > 0:
		return 1
	}
	return 0
}

// diffSide is one environment of a diff --all-nodes run, loaded once.
type diffSide struct {
	name  string // "from" or "to"
	label string // the environment as given on the command line
	// envDir is the environment directory and roots the directories that
	// resource file names are made relative to, longest first.
	envDir string
	roots  []string
	env    *compiler.Environment
}

// newDiffSide loads the environment spec names: a directory environment
// on the environmentpath, or, when spec holds a path separator, the
// directory spec itself. envName, when set, replaces the environment's name.
// The environment's own environment.conf gives the manifest and module path.
func newDiffSide(r *node.Resolver, name, spec, envName string) (*diffSide, error) {
	var dir string
	if strings.ContainsRune(spec, '/') || strings.ContainsRune(spec, filepath.Separator) {
		abs, err := filepath.Abs(spec)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("no environment directory %s", abs)
		}
		dir = abs
	} else {
		if !r.Loader.Directories() {
			return nil, fmt.Errorf("an environment name needs --environmentpath (or give a directory, such as ./%s)", spec)
		}
		var err error
		if dir, err = r.Loader.Dir(spec); err != nil {
			return nil, err
		}
	}
	if envName == "" {
		envName = filepath.Base(dir)
	}
	env, err := r.Loader.GetDir(context.Background(), dir, envName)
	if err != nil {
		return nil, err
	}
	s := &diffSide{name: name, label: spec, envDir: dir, env: env}
	s.roots = append(s.roots, dir)
	for _, mp := range env.ModulePath {
		if !strings.HasPrefix(mp, dir+string(filepath.Separator)) {
			s.roots = append(s.roots, mp)
		}
	}
	sort.Slice(s.roots, func(i, j int) bool { return len(s.roots[i]) > len(s.roots[j]) })
	return s, nil
}

// compile compiles one node's catalog on this side and converts it as
// catalogdiff reads a catalog file, with resource file names made relative
// to the environment so that the two sides' files compare. A panic is
// turned into the error of this side.
func (s *diffSide) compile(ctx context.Context, req *compiler.Request, logw io.Writer) (cat *catalogdiff.Catalog, err error) {
	defer func() {
		if p := recover(); p != nil {
			cat, err = nil, fmt.Errorf("internal error: panic: %v\n%s", p, debug.Stack())
		}
	}()
	node := req.Node
	// Each side compiles its own copy of the request.
	own := *req
	res, err := compiler.Compile(ctx, s.env, &own)
	printDiagnostics(logw, res.Diagnostics, fmt.Sprintf(" (node %s, %s %s)", node, s.name, s.label))
	if err != nil {
		return nil, err
	}
	c := res.Catalog
	// As catalogdiff.Parse would read c's JSON, without the JSON.
	cat, err = catalogdiff.FromCatalog(c)
	if err != nil {
		return nil, fmt.Errorf("internal error: reading the compiled catalog: %v", err)
	}
	for _, r := range cat.Resources {
		r.File = s.relative(r.File)
	}
	return cat, nil
}

// relative makes a resource's file name relative to the environment (or
// to the module directory outside it that holds it).
func (s *diffSide) relative(file string) string {
	for _, root := range s.roots {
		if rest, ok := strings.CutPrefix(file, root+string(filepath.Separator)); ok {
			return filepath.ToSlash(rest)
		}
	}
	return file
}

// nodeDiff is the outcome of one node.
type nodeDiff struct {
	Node string
	// Err is a failure before either compile (facts, ENC).
	Err error
	// SideErr are the failures of the from and to compiles.
	SideErr [2]error
	// Diff is set when both sides compiled.
	Diff *catalogdiff.Result
	// Skipped is set when the run was interrupted before the node started.
	Skipped bool
}

// failure summarises a failed node as one error, for the progress count.
func (r *nodeDiff) failure(sides [2]*diffSide) error {
	var parts []string
	for i, err := range r.SideErr {
		if err != nil {
			parts = append(parts, fmt.Sprintf("%s %s: %v", sides[i].name, sides[i].label, err))
		}
	}
	return fmt.Errorf("%s", strings.Join(parts, "; "))
}

// status is "changed", "unchanged", "failed" or "skipped".
func (r *nodeDiff) status() string {
	switch {
	case r.Skipped:
		return "skipped"
	case r.Err != nil || r.SideErr[0] != nil || r.SideErr[1] != nil || r.Diff == nil:
		return "failed"
	case r.Diff.Empty():
		return "unchanged"
	}
	return "changed"
}

// diffAllReport is the outcome of a diff --all-nodes run, nodes sorted by
// name.
type diffAllReport struct {
	From, To string
	Nodes    []nodeDiff
}

// diffAllCounts counts the nodes by status.
type diffAllCounts struct {
	Nodes     int `json:"nodes"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
}

func (rep *diffAllReport) counts() diffAllCounts {
	c := diffAllCounts{Nodes: len(rep.Nodes)}
	for i := range rep.Nodes {
		switch rep.Nodes[i].status() {
		case "changed":
			c.Changed++
		case "unchanged":
			c.Unchanged++
		case "failed":
			c.Failed++
		case "skipped":
			c.Skipped++
		}
	}
	return c
}

// String is the counts of the summary line.
func (c diffAllCounts) String() string {
	s := fmt.Sprintf("%d changed, %d unchanged, %d failed", c.Changed, c.Unchanged, c.Failed)
	if c.Skipped > 0 {
		s += fmt.Sprintf(", %d not compared (interrupted)", c.Skipped)
	}
	return s
}

// nodeErrors lists a node's failures as (side, environment, message); side
// "both" is a failure before either compile.
func (rep *diffAllReport) nodeErrors(r *nodeDiff) []diffAllError {
	var out []diffAllError
	if r.Err != nil {
		out = append(out, diffAllError{Side: "both", Error: r.Err.Error()})
	}
	for i, err := range r.SideErr {
		if err != nil {
			env := rep.From
			if i == 1 {
				env = rep.To
			}
			out = append(out, diffAllError{Side: diffSideNames[i], Environment: env, Error: err.Error()})
		}
	}
	return out
}

// diffAllError is one failure of a node.
type diffAllError struct {
	Side        string `json:"side"`
	Environment string `json:"environment,omitempty"`
	Error       string `json:"error"`
}

// writeText prints a section per node that differs (a header, then the
// report `marionette diff` prints for two catalog files), the failed nodes
// with the side that failed, and the summary line.
func (rep *diffAllReport) writeText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for i := range rep.Nodes {
		r := &rep.Nodes[i]
		if r.status() != "changed" {
			continue
		}
		fmt.Fprintf(bw, "=== %s ===\n", r.Node)
		if err := r.Diff.WriteText(bw); err != nil {
			return err
		}
		fmt.Fprintln(bw)
	}
	c := rep.counts()
	if c.Failed > 0 {
		fmt.Fprintln(bw, "Failed nodes:")
		for i := range rep.Nodes {
			r := &rep.Nodes[i]
			for _, e := range rep.nodeErrors(r) {
				where := ""
				if e.Side != "both" {
					where = fmt.Sprintf(" (%s %s)", e.Side, e.Environment)
				}
				fmt.Fprintf(bw, "  %s%s: %s\n", r.Node, where, e.Error)
			}
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "%d nodes (%s → %s): %s\n", c.Nodes, rep.From, rep.To, c)
	return bw.Flush()
}

// writeJSON prints one indented JSON document: the environments, the
// counts and every node with its status and, when it changed, the
// differences in the form `marionette diff --json` prints (or, when it
// failed, its errors).
func (rep *diffAllReport) writeJSON(w io.Writer) error {
	type diffJSON struct {
		Summary catalogdiff.Summary `json:"summary"`
		*catalogdiff.Result
	}
	type nodeJSON struct {
		Node   string         `json:"node"`
		Status string         `json:"status"`
		Errors []diffAllError `json:"errors,omitempty"`
		Diff   *diffJSON      `json:"diff,omitempty"`
	}
	doc := struct {
		From    string        `json:"from"`
		To      string        `json:"to"`
		Summary diffAllCounts `json:"summary"`
		Nodes   []nodeJSON    `json:"nodes"`
	}{From: rep.From, To: rep.To, Summary: rep.counts(), Nodes: []nodeJSON{}}
	for i := range rep.Nodes {
		r := &rep.Nodes[i]
		n := nodeJSON{Node: r.Node, Status: r.status(), Errors: rep.nodeErrors(r)}
		if n.Status == "changed" {
			n.Diff = &diffJSON{r.Diff.Summary(), r.Diff}
		}
		doc.Nodes = append(doc.Nodes, n)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
