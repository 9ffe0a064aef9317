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

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/fleet"
	"github.com/marionette-dev/marionette/site"
)

// diffAllUsage is the synopsis of diff between two versions of the code.
const diffAllUsage = `usage: marionette diff NODE... --from CODE --to CODE (--facts FILE | --facts-dir DIR) [flags]
       marionette diff --all-nodes --from CODE --to CODE (--facts-dir DIR | --nodes-from FILE | --facts-from puppetdb) [--html FILE] [--json] [flags]
       marionette diff NODE... --from-puppet 7 --to-puppet 8 [--from CODE --to CODE] (--facts FILE | --facts-dir DIR) [flags]`

// diffAllHelp explains the compiling diff below the synopsis.
const diffAllHelp = `
Compiles each node twice, with the old and the new code (the same facts and
ENC data for both), and reports what the change does to each node's
catalog: resources added and removed with their parameters, parameters
changed (multi-line text such as content, and the text of files that a
source => 'puppet:///modules/...' names, as unified diffs), edges and
classes. Equal changes on many nodes are shown once, with the nodes; the
nodes that fail to compile only with the new code come first.

CODE is an environment name under --environmentpath, an environment
directory (any value with a '/'), or a git ref (origin/main, HEAD~1, a tag,
a commit) of the git repository --repo (default: the one holding the
current directory), whose root is an environment: manifests/, modules/,
hiera.yaml, data/. A ref's tree is read from git's objects; the work tree
is not touched. Without --from or --to, that side is the configured
environment (--environment, default production). --from-puppet and
--to-puppet compile the sides with Puppet 7 or Puppet 8 semantics
(strictness, functions, catalog format).

Facts: each node's facts file; --fact-override NAME.KEY=VALUE changes a
fact for every node (VALUE: integer, float, true/false or JSON when it
reads as one, else a string; (string)VALUE forces a string). A "trusted"
hash in the facts (as agents' saved facts carry) gives $trusted, its
extensions included, as a certificate would on a compile server.

Filters: --ignore 'Type[Title]' or 'Type[Title]::param' or '::param'
(patterns with * and ?; repeatable), --ignore-type, --ignore-title,
--ignore-param, --ignore-tags.

Output: text (coloured on a terminal, see --color), --json, and with
--html FILE a self-contained page (summary, grouped changes, per-node
details, a filter box).

Incremental: with --cache-dir DIR each compiled catalog is kept with what
its compile read (the modules it used, Hiera files, files found missing)
and its request (facts, ENC data, settings); a later diff with the same
DIR compiles again only the sides whose reads or request changed, and
reuses the rest. A compile that read what cannot be followed (generate(),
a file by absolute path, glob(), the time of day, the Ruby helper,
PuppetDB) is never reused.

Exit status (marionette help exit-status): 0 no node differs and every
node compiled on both sides, 1 some node differs, 2 some node failed to
compile (on either side) or a usage or setup error.
`

// ruleList collects a repeatable flag's values.
type ruleList []string

func (r *ruleList) String() string     { return strings.Join(*r, ", ") }
func (r *ruleList) Set(s string) error { *r = append(*r, s); return nil }

// diffCompileFlags are the flags of a compiling diff beyond the
// environment and fleet flags.
type diffCompileFlags struct {
	allNodes, asJSON           bool
	from, to, envName, repo    string
	fromPuppet, toPuppet       string
	html, catalogsDir          string
	cacheDir                   string
	factOverrides              ruleList
	ignore, ignoreTypes        ruleList
	ignoreTitles, ignoreParams ruleList
}

// isCompileDiff reports whether diff's arguments ask for compiles (code
// versions) rather than two catalog files.
func isCompileDiff(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "all-nodes", "from", "to", "from-puppet", "to-puppet":
			return true
		}
	}
	return false
}

// ignoreRules builds the comparison's ignore rules from the filter flags.
func (d *diffCompileFlags) ignoreRules() ([]catalogdiff.IgnoreRule, error) {
	return buildIgnoreRules(d.ignore, d.ignoreTypes, d.ignoreTitles, d.ignoreParams)
}

// buildIgnoreRules reads --ignore rules and the one-part filters.
func buildIgnoreRules(ignore, types, titles, params []string) ([]catalogdiff.IgnoreRule, error) {
	var rules []catalogdiff.IgnoreRule
	for _, s := range ignore {
		r, err := catalogdiff.ParseIgnoreRule(s)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	for _, t := range types {
		rules = append(rules, catalogdiff.NewIgnoreRule(t, "", ""))
	}
	for _, t := range titles {
		rules = append(rules, catalogdiff.NewIgnoreRule("", t, ""))
	}
	for _, p := range params {
		rules = append(rules, catalogdiff.NewIgnoreRule("", "", p))
	}
	return rules, nil
}

// addIgnoreFlags defines the filter flags on fs.
func addIgnoreFlags(fs *flag.FlagSet, ignore, types, titles, params *ruleList) {
	fs.Var(ignore, "ignore", "leave out `Type[Title]`, Type[Title]::param or ::param (* and ? patterns; repeatable)")
	fs.Var(types, "ignore-type", "leave out resources of this `type` (pattern; repeatable)")
	fs.Var(titles, "ignore-title", "leave out resources with this `title` (pattern; repeatable)")
	fs.Var(params, "ignore-param", "leave out this `parameter` (or attribute: tags, file, line) of every resource (pattern; repeatable)")
}

// runDiffAll implements the compiling diff: compile every node with two
// versions of the code (or two Puppet majors) and compare the catalogs
// (fleet.Diff); here are its flags and exit status.
func runDiffAll(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	var d diffCompileFlags
	var fl fleetFlags
	var opts catalogdiff.Options
	fs.BoolVar(&d.allNodes, "all-nodes", false, "compile and compare every node (of --facts-dir, --nodes-from or, with --facts-from puppetdb, PuppetDB)")
	fs.StringVar(&d.from, "from", "", "old `code`: an environment name, an environment directory, or a git ref")
	fs.StringVar(&d.to, "to", "", "new `code`: an environment name, an environment directory, or a git ref")
	fs.StringVar(&d.repo, "repo", "", "the git repository of --from and --to refs (default: the one holding the current directory)")
	fs.StringVar(&d.fromPuppet, "from-puppet", "", "compile the old side with Puppet `major` 7 or 8 semantics (default: --puppet-version)")
	fs.StringVar(&d.toPuppet, "to-puppet", "", "compile the new side with Puppet `major` 7 or 8 semantics (default: --puppet-version)")
	fs.StringVar(&d.envName, "environment-name", "", "compile both sides as this environment (default: each side's own name; production for a git ref); "+
		"keeps code that uses $environment from differing")
	fs.StringVar(&fl.factsDir, "facts-dir", "", "directory of facts files, one per node (NODE.yaml or NODE.json)")
	fs.StringVar(&fl.nodesFrom, "nodes-from", "", "file of node names, one a line ('#' starts a comment)")
	fs.StringVar(&fl.factsFrom, "facts-from", "", "puppetdb reads each node's latest facts from PuppetDB; without --nodes-from, every active node with facts is compared")
	fs.IntVar(&fl.jobs, "jobs", 0, "nodes to compile at once (default: number of CPUs)")
	fs.Var(&d.factOverrides, "fact-override", "set a fact for every node: `NAME[.KEY...]=VALUE` (repeatable; NAME= removes it)")
	fs.BoolVar(&opts.IgnoreTags, "ignore-tags", false, "do not compare resource tags")
	fs.BoolVar(&opts.IgnoreFileLine, "ignore-file-line", true, "do not compare the file and line resources were declared at "+
		"(files are compared relative to their environment)")
	addIgnoreFlags(fs, &d.ignore, &d.ignoreTypes, &d.ignoreTitles, &d.ignoreParams)
	fs.BoolVar(&d.asJSON, "json", false, "print the differences as one JSON document")
	fs.StringVar(&d.catalogsDir, "catalogs-dir", "", "keep every compiled catalog in `DIR`/from/NODE.json and DIR/to/NODE.json")
	fs.StringVar(&d.cacheDir, "cache-dir", "", "keep compiled catalogs with what their compiles read in `DIR`; a later diff compiles again only the nodes whose code, data or facts changed")
	fs.StringVar(&d.html, "html", "", "also write the report as one self-contained HTML page to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, diffAllUsage)
		fmt.Fprint(stderr, diffAllHelp)
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	nodeNames, ok := parseInterspersed(fs, args)
	if !ok {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "Error: %s\n", msg)
		fs.Usage()
		return 2
	}
	// The flags that pick one environment's code do not apply: --from and
	// --to pick the code.
	var misplaced []string
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "manifest", "modulepath":
			misplaced = append(misplaced, "--"+fl.Name)
		case "environment":
			// It names the code of a side without --from or --to only.
			if d.from != "" && d.to != "" {
				misplaced = append(misplaced, "--"+fl.Name)
			}
		case "facts":
			if d.allNodes {
				misplaced = append(misplaced, "--"+fl.Name)
			}
		}
	})
	var err error
	if opts.Ignore, err = d.ignoreRules(); err != nil {
		return usageErr(err.Error())
	}
	var overrides []fleet.FactOverride
	for _, s := range d.factOverrides {
		o, err := fleet.ParseFactOverride(s)
		if err != nil {
			return usageErr(err.Error())
		}
		overrides = append(overrides, o)
	}
	switch {
	case d.allNodes && len(nodeNames) > 0:
		return usageErr("diff --all-nodes takes no catalog files or node names: " + strings.Join(nodeNames, " "))
	case !d.allNodes && len(nodeNames) == 0:
		return usageErr("diff needs node names, or --all-nodes")
	case len(misplaced) > 0:
		return usageErr(strings.Join(misplaced, ", ") + " cannot be used with diff --from/--to: --from and --to choose the code, --facts-dir or --nodes-from the nodes")
	case (d.from == "" || d.to == "") && d.fromPuppet == d.toPuppet:
		return usageErr("diff needs --from and --to (or --from-puppet and --to-puppet: then a side without code compiles the configured environment)")
	case d.allNodes && fl.checkFactsFrom() != nil:
		return usageErr("diff " + fl.checkFactsFrom().Error())
	case !d.allNodes && f.facts != "" && len(nodeNames) > 1:
		return usageErr("--facts names one node's facts; use --facts-dir for several nodes")
	case !d.allNodes && f.facts != "" && (fl.factsDir != "" || fl.factsFrom != ""):
		return usageErr("--facts and --facts-dir or --facts-from both say where facts come from; give one")
	case !d.allNodes && f.facts == "" && fl.factsDir == "" && fl.factsFrom == "":
		return usageErr("diff NODE needs --facts FILE or --facts-dir DIR")
	case fl.jobs < 0:
		return usageErr("--jobs must not be negative")
	}
	for _, v := range []string{d.fromPuppet, d.toPuppet} {
		if v != "" && v != "7" && v != "8" {
			return usageErr(fmt.Sprintf("--from-puppet and --to-puppet take 7 or 8, not %q", v))
		}
	}

	// Log lines and warnings come from many goroutines.
	logw := &lockedWriter{w: stderr}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// puppet.conf may name the environmentpath and the ENC. Each side's
	// environment is loaded once (a snapshot of its code); the site's
	// PuppetDB is both sides' store, and the source of facts with
	// --facts-from puppetdb. A side with another Puppet major has a site
	// of its own, whose settings follow that major.
	var sites [2]*site.Site
	for i, major := range [2]string{d.fromPuppet, d.toPuppet} {
		if i == 1 && d.toPuppet == d.fromPuppet {
			sites[1] = sites[0]
			break
		}
		sf := f
		if major != "" {
			sf.PuppetVersion = major
		}
		st, err := sf.openSite(logw, true)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		defer st.Close()
		sites[i] = st
	}
	st := sites[0]
	nodes, err := diffNodes(ctx, &d, &fl, &f, st, nodeNames)
	if err == nil {
		// One Ruby helper for the run (ruby_functions = helper).
		_, err = st.RubyHost()
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	factsOf := func(n fleet.Node) site.FactsSource { return site.FactsFlag(f.facts) }
	if d.allNodes || f.facts == "" {
		if factsOf, err = fleetFacts(st, &fl, nodes); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
	}
	diff := &fleet.Diff{Options: opts, Log: logw, CatalogsDir: d.catalogsDir}
	if d.cacheDir != "" {
		if diff.Cache, err = fleet.OpenReadCache(d.cacheDir); err != nil {
			fmt.Fprintf(stderr, "Error: --cache-dir: %v\n", err)
			return 2
		}
	}
	for i, spec := range [2]string{d.from, d.to} {
		s, err := newDiffSide(ctx, sites[i], fleet.SideName(i), spec, d.repo, d.envName)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --%s %s: %v\n", fleet.SideName(i), spec, err)
			return 2
		}
		defer s.Close()
		if major := [2]string{d.fromPuppet, d.toPuppet}[i]; major != "" {
			s.SetLabel(strings.TrimSpace(s.Label() + " (Puppet " + major + ")"))
		}
		if sites[i] != st {
			if s.Adjust, err = requestSettings(sites[i]); err != nil {
				fmt.Fprintf(stderr, "Error: %v\n", err)
				return 2
			}
		}
		diff.Sides[i] = s
	}
	diff.Request = func(ctx context.Context, n fleet.Node) (*compiler.Request, error) {
		facts, err := st.Facts(ctx, factsOf(n), n.Name)
		if err != nil {
			return nil, err
		}
		facts = fleet.ApplyFactOverrides(facts, overrides)
		// The ENC's classes and parameters count; --from and --to choose
		// the code, not the environment it names.
		classified, err := st.ClassifyIn(ctx, n.Name, "")
		if err != nil {
			return nil, err
		}
		req, err := st.Request(classified, facts)
		if err != nil {
			return nil, err
		}
		if req.Trusted = fleet.TrustedFromFacts(n.Name, facts); req.Trusted != nil {
			req.Facts = fleet.WithoutTrusted(facts)
		}
		return req, nil
	}

	// As in compile --all-nodes: many short-lived catalogs on a small live
	// heap; an explicit GOGC still wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(fleetGCPercent))
	}
	progress := &fleet.Reporter{W: logw}
	progress.TTY = isTerminal(stderr)
	rep := diff.Run(ctx, fl.jobs, nodes, progress)
	if diff.Cache != nil {
		cs := &diff.CacheStats
		fmt.Fprintf(logw, "Diff cache: %d compiles, %d reused from %s, %d not cacheable (they read what is not recorded)\n",
			cs.Compiled.Load(), cs.Reused.Load(), d.cacheDir, cs.Untracked.Load())
	}
	if d.html != "" {
		if err := writeHTMLReport(d.html, rep); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
	}
	if d.asJSON {
		err = rep.WriteJSON(stdout)
	} else {
		err = writeColored(stdout, stderr, rep.WriteText)
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

// diffNodes lists the nodes to compare: the fleet's with --all-nodes, else
// the named ones, with facts from --facts-dir when given.
func diffNodes(ctx context.Context, d *diffCompileFlags, fl *fleetFlags, f *envFlags, st *site.Site, names []string) ([]fleet.Node, error) {
	if d.allNodes {
		return fleetNodes(ctx, fl, st)
	}
	var nodes []fleet.Node
	for _, name := range names {
		n := fleet.Node{Name: name}
		if fl.factsDir != "" {
			p, err := fleet.FactsFile(fl.factsDir, name)
			if err != nil {
				return nil, err
			}
			n.FactsPath = p
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// newDiffSide makes one side of a compiling diff from its CODE: a
// directory, an environment name, a git ref, or (empty) the configured
// environment.
func newDiffSide(ctx context.Context, st *site.Site, name, spec, repo, envName string) (*fleet.DiffSide, error) {
	l := st.Loader()
	if spec == "" {
		if !l.Directories() {
			return nil, errors.New("give the code as an environment directory or a git ref (no --environmentpath to find the configured environment in)")
		}
		return fleet.NewDiffSide(l, name, st.Environment(), envName)
	}
	isDir := strings.ContainsRune(spec, '/') || strings.ContainsRune(spec, filepath.Separator) || spec == "." || spec == ".."
	if fi, err := os.Stat(spec); err == nil && fi.IsDir() && isDir {
		if envName == "" && (spec == "." || spec == "..") {
			// The work tree of a control repository: named as its git refs
			// are, so that $environment does not differ from theirs.
			envName = st.Environment()
		}
		return fleet.NewDiffSide(l, name, spec, envName)
	}
	if l.Directories() && !isDir {
		if _, err := l.Dir(spec); err == nil {
			return fleet.NewDiffSide(l, name, spec, envName)
		}
	}
	gitDir := repo
	if gitDir == "" {
		gitDir = "."
	}
	if root, err := fleet.GitRoot(gitDir); err == nil && fleet.IsGitRef(root, spec) {
		if envName == "" {
			envName = st.Environment()
		}
		return fleet.NewGitDiffSide(ctx, l, name, root, spec, envName)
	}
	// Neither a git ref: the error says what an environment would need.
	return fleet.NewDiffSide(l, name, spec, envName)
}

// requestSettings is the request change of a side compiled under
// another Puppet major: its strictness and catalog format, as its site's
// settings give them.
func requestSettings(st *site.Site) (func(*compiler.Request), error) {
	s := st.Loader().Settings()
	strictness, err := s.Strictness()
	if err != nil {
		return nil, err
	}
	strictVars, err := s.StrictVariables()
	if err != nil {
		return nil, err
	}
	major, err := s.PuppetMajor()
	if err != nil {
		return nil, err
	}
	level, _ := eval.ParseStrictness(strictness)
	return func(r *compiler.Request) {
		r.Strict, r.StrictVariables, r.RichData = level, strictVars, major >= 8
	}, nil
}
