// Command marionette is a Puppet-compatible catalog compiler.
//
// Usage:
//
//	marionette <command> [flags] [args]
//
// Each command lives in its own file of this package; main only dispatches.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
)

// command is one subcommand of the CLI. run returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand explicitly: no init()-time registration.
func commands() map[string]command {
	return map[string]command{
		"bench":   {"compile a node repeatedly in one process and print the timings", runBench},
		"compile": {"compile a node's catalog", runCompile},
		"diff":    {"compare two catalogs, like octocatalog-diff", runDiff},
		"lookup":  {"look up Hiera data for a node, like puppet lookup", runLookup},
		"node":    {"show how a node is classified, like puppet node find", runNode},
		"parse":   {"parse, dump or validate Puppet manifests", runParse},
		"serve":   {"serve catalogs to Puppet agents over HTTPS, like puppetserver", runServe},
		"version": {"print the version", runVersion},
	}
}

const version = "0.1.0-dev"

func main() {
	// MARIONETTE_CPUPROFILE=FILE writes a CPU profile of the run (for the
	// performance work; see BENCHMARKS.md).
	if path := os.Getenv("MARIONETTE_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				code := run(os.Args[1:], os.Stdout, os.Stderr)
				pprof.StopCPUProfile()
				f.Close()
				os.Exit(code)
			}
		}
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "marionette: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: marionette <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "marionette %s (Puppet 7 language)\n", version)
	return 0
}
