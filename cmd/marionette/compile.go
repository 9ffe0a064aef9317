package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/site"
)

func runCompile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	var out outputFlags
	addOutputFlags(fs, &out, "json", "pson", "yaml")
	timeout := addTimeoutFlag(fs)
	profile := fs.Bool("profile-stages", false, "print how long each stage of the compile took to stderr")
	verbose := fs.Bool("verbose", false, "under Puppet's error line, show the source line with a caret, the problem's code and what it may have meant")
	// The fleet flags, here for the help text: --all-nodes runs runFleet,
	// which defines them again.
	var fl fleetFlags
	addFleetFlags(fs, &fl)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: marionette compile NODE --manifest FILE_OR_DIR --modulepath DIR[:DIR...] --facts FILE [flags]")
		fmt.Fprintln(w, "       marionette compile NODE --environmentpath DIR [--environment ENV] --facts FILE [flags]")
		fmt.Fprintln(w, "       marionette compile --all-nodes (--facts-dir DIR | --nodes-from FILE | --facts-from puppetdb) --out DIR [--jobs N] [flags]")
		fmt.Fprintln(w, "Prints NODE's catalog as `puppet catalog compile --render-as json` does; --facts none compiles without facts.")
		fs.PrintDefaults()
	}
	// compile --all-nodes compiles a whole fleet (fleet.go).
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--all-nodes" || a == "-all-nodes" || strings.HasPrefix(a, "--all-nodes=") || strings.HasPrefix(a, "-all-nodes=") {
			return runFleet(args, stdout, stderr)
		}
	}
	if !parseNodeArgs(fs, args, &f.node) {
		return 2
	}
	if f.node == "" {
		fs.Usage()
		return 2
	}
	if err := fl.unused(fs); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if err := out.check(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if err := checkTimeout(*timeout); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	maxMemory := f.Limits.MaxMemory
	if maxMemory == 0 {
		maxMemory = site.DefaultMaxMemory()
	}
	tuneOneShot(os.Getenv, maxMemory)
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	res, err := compileNode(ctx, &f, stderr)
	if res != nil {
		printDiagnostics(stderr, res.Diagnostics, "")
		if *profile {
			printStages(stderr, res.Stages)
		}
	}
	if err != nil {
		err = deadlineError(ctx, err, *timeout)
		if *verbose {
			site.WriteErrorWith(stderr, err, f.node, diag.RenderOptions{Verbose: true, Source: site.FileSource()})
		} else {
			reportError(stderr, err, f.node)
		}
		return 1
	}
	pretty := out.pretty(stdout)
	if err := out.write(stdout, func(w io.Writer) error { return writeCatalog(w, res.Catalog, out.renderAs, pretty) }); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// defaultTimeout is the default of --timeout: far above any real compile
// (the large benchmark workload takes well under a second), short enough
// that a runaway compile does not hold a CI job for long.
const defaultTimeout = 2 * time.Minute

// addTimeoutFlag defines --timeout, the deadline of a whole compile
// (classification, environment loading and evaluation).
func addTimeoutFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("timeout", defaultTimeout, "give up a node's compile after this long (a limit of marionette; Puppet has none)")
}

// checkTimeout rejects a --timeout that would fail every compile.
func checkTimeout(d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("--timeout must be positive, got %v", d)
	}
	return nil
}

// deadlineError replaces the error of a compile cut short by --timeout
// with one that says so.
func deadlineError(ctx context.Context, err error, timeout time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &configError{Err: fmt.Errorf("The compile took longer than --timeout %v (a limit of marionette) and was stopped", timeout)}
	}
	return err
}

// configError is an error about the command line, settings or facts
// rather than the compile of a node: it is reported without Puppet's " on
// node N".
type configError = site.InputError

// reportError prints a failed compile's error as Puppet does; a file with
// several validation errors gets each on its own line before the summary.
func reportError(stderr io.Writer, err error, node string) {
	site.WriteError(stderr, err, node)
}

// parseInterspersed parses fs's flags wherever they stand among the
// positional arguments, which it returns in order; after "--" every
// argument is positional. It reports false when a flag does not parse.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return pos, true
		}
		if n := len(args) - fs.NArg(); n > 0 && args[n-1] == "--" {
			return append(pos, fs.Args()...), true
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

// parseNodeArgs parses the flags of a command that takes one node name,
// which may come before or after the flags.
func parseNodeArgs(fs *flag.FlagSet, args []string, node *string) bool {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		*node, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return false
	}
	if *node == "" && fs.NArg() > 0 {
		*node = fs.Arg(0)
	}
	return true
}

// printStages prints how long each stage of a compile took.
func printStages(w io.Writer, stages []compiler.StageTime) {
	for _, st := range stages {
		fmt.Fprintf(w, "stage %-16s %9.3f ms\n", st.Name, float64(st.Duration.Microseconds())/1000)
	}
}

// printDiagnostics prints a compile's warnings and log messages as Puppet
// does; suffix, when set, follows each message (which node, which side).
func printDiagnostics(w io.Writer, diags diag.List, suffix string) {
	site.WriteDiagnostics(w, diags, suffix)
}

// compileNode compiles f.node as the flags say, through the same library
// call the conformance suite makes (site.CompileNode).
func compileNode(ctx context.Context, f *envFlags, stderr io.Writer) (*compiler.Result, error) {
	if err := f.checkInputs(); err != nil {
		return nil, err
	}
	o := f.Options
	o.Log = site.LogTo(stderr)
	return site.CompileNode(ctx, o, f.node, site.FactsFlag(f.facts))
}

// tuneOneShot sets the runtime up for one compile in a process that then
// exits, where GOGC and GOMAXPROCS leave it free to:
//   - A one-off process allocates a few megabytes and exits: collecting
//     garbage less often saves a sixth of its time (GOGC 100 -> 400:
//     medium workload, median of 30: 11.9 -> 10.1 ms; peak RSS unchanged
//     at 13 MB, large 39 -> 43 MB). 400 -> 800 spares the one collection
//     of a 1,000-resource site node (interleaved medians of 15, load 7:
//     sites/govuk/frontend 76 -> 57 ms of CPU, sites/ocf/death 85 -> 81;
//     perf_control's large role, which ran none, the same; peak RSS of the
//     large workload 47 -> 56 MB).
//   - One compile is one goroutine: a second processor only adds idle
//     threads spinning and waking. With one, forge/zabbix-server-pgsql
//     takes 4-7 ms less CPU for the same wall time (interleaved medians,
//     40 runs), the medium and large workloads the same time.
//   - maxMemory (--max-memory) becomes the runtime's soft memory limit, so
//     that the collector runs, and the compile's look at the live heap
//     (compiler.Limits.HeapBudget) stays current, as the heap nears it.
//   - No allocation profile is kept (MARIONETTE_MEMPROFILE aside).
//   - The first hugeHeapReserve bytes of the heap are backed by huge
//     pages where the system allows it (hugePageHeap): perf_control's
//     large role takes ~2,700 fewer page faults.
func tuneOneShot(getenv func(string) string, maxMemory int64) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(oneShotGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" && maxMemory > 0 {
		debug.SetMemoryLimit(maxMemory)
	}
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	if getenv("MARIONETTE_MEMPROFILE") == "" {
		// Nobody reads the allocation samples the runtime takes every
		// 512 KB (a stack walk each, and buckets of their own pages).
		runtime.MemProfileRate = 0
	}
	hugePageHeap(getenv, maxMemory)
}

// hugeHeapReserve is how much of a one-off compile's heap hugePageHeap
// asks huge pages for: about what perf_control's large role allocates.
const hugeHeapReserve = 16 << 20

// oneShotGCPercent is a one-off compile's GC target (see tuneOneShot).
const oneShotGCPercent = 800
