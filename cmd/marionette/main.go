// Command marionette is a Puppet-compatible catalog compiler.
//
// Usage:
//
//	marionette <command> [flags] [args]
//	marionette help [COMMAND | TOPIC]
//	marionette --version
//
// Each command lives in its own file of this package; main only dispatches.
// A command's help text comes from its flag set alone: `marionette help
// COMMAND`, `COMMAND --help` and shell completion all read it there.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/compiler"
)

// command is one subcommand of the CLI. run returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand explicitly: no init()-time registration.
func commands() map[string]command {
	return map[string]command{
		"bench":      {"compile a node repeatedly in one process and print the timings", runBench},
		"ca":         {"manage a Puppet certificate authority, like puppetserver ca", runCA},
		"compile":    {"compile a node's catalog, like puppet catalog compile", runCompile},
		"completion": {"print a shell completion script (bash or zsh)", runCompletion},
		"diff":       {"what a change does to every node: compare code versions (git refs, environments, Puppet 7 and 8) or two catalogs", runDiff},
		"help":       {"show help on a command or a topic", runHelp},
		"lookup":     {"look up Hiera data for a node, like puppet lookup", runLookup},
		"node":       {"show how a node is classified, like puppet node find (node deactivate: in PuppetDB)", runNode},
		"parse":      {"parse, dump or validate Puppet manifests, like puppet parser validate", runParse},
		"serve":      {"serve catalogs to Puppet agents over HTTPS, like puppetserver", runServe},
		"version":    {"print marionette's version and the Puppet version it follows", runVersion},

		"test-service": {"answer rspec-puppet suites' catalog compiles and function calls (rspec/marionette_rspec.rb)", runTestService},
	}
}

// version is marionette's release; a binary built by `go install
// ...@vX.Y.Z` reports its module version instead.
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
	// MARIONETTE_MEMPROFILE=FILE writes a profile of every allocation of
	// the run (sampled every 4 KB).
	if path := os.Getenv("MARIONETTE_MEMPROFILE"); path != "" {
		runtime.MemProfileRate = 4096
		code := run(os.Args[1:], os.Stdout, os.Stderr)
		runtime.GC() // the profile shows allocations up to the last collection
		if f, err := os.Create(path); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status. --color is
// a global flag, accepted anywhere before "--", as Puppet's is.
func run(args []string, stdout, stderr io.Writer) int {
	args, mode, err := colorFlag(args)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	cw := newColorWriter(stderr, mode, os.Getenv)
	defer cw.Flush()
	return dispatch(args, stdout, cw)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout, cmds)
		return 0
	case "-version", "--version":
		return runVersion(nil, stdout, stderr)
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "marionette: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if wantsHelp(args[1:]) {
		return commandHelp(c, args[1:], stdout)
	}
	return c.run(args[1:], stdout, stderr)
}

// wantsHelp reports whether a command's arguments ask for its help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// commandHelp prints a command's help on stdout and exits 0, as Puppet's
// `puppet COMMAND --help` does: the command prints its usage (to the
// writer it is given as stderr) when its flags ask for help, and a flag
// package reports that as a usage error, which is no error here.
func commandHelp(c command, args []string, stdout io.Writer) int {
	if code := c.run(args, stdout, stdout); code != 2 {
		return code
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: marionette <command> [flags] [args]")
	fmt.Fprintln(w, "       marionette help [COMMAND | TOPIC]")
	fmt.Fprintln(w, "       marionette --version")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range sortedNames(cmds) {
		fmt.Fprintf(w, "  %-11s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nhelp topics (marionette help TOPIC):")
	for _, t := range helpTopics() {
		fmt.Fprintf(w, "  %-11s %s\n", t.name, t.summary)
	}
	fmt.Fprintln(w, "\nglobal flags:")
	fmt.Fprintln(w, "  --color=auto|always|never  colour errors and warnings (auto: on a terminal, unless NO_COLOR is set)")
}

func sortedNames(cmds map[string]command) []string {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// versionString is marionette's version and the Puppet version it follows.
func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = strings.TrimPrefix(bi.Main.Version, "v")
	}
	return fmt.Sprintf("marionette %s (follows Puppet %s)", v, compiler.PuppetVersion)
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: marionette version")
		return 2
	}
	fmt.Fprintln(stdout, versionString())
	return 0
}
