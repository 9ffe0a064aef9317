package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/marionette-dev/marionette/catalogdiff"
)

// runDiff compares two catalog JSON files, like octocatalog-diff: exit 0 when
// they are the same, 1 when they differ, 2 on errors (as diff(1) does).
// With --all-nodes it compiles a fleet with two environments and compares
// every node's two catalogs (diffall.go).
func runDiff(args []string, stdout, stderr io.Writer) int {
	if isCompileDiff(args) {
		return runDiffAll(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts catalogdiff.Options
	var asJSON bool
	fs.BoolVar(&opts.IgnoreTags, "ignore-tags", false, "do not compare resource tags")
	fs.BoolVar(&opts.IgnoreFileLine, "ignore-file-line", true, "do not compare the file and line resources were declared at")
	fs.BoolVar(&asJSON, "json", false, "print the differences as JSON")
	var ignore, types, titles, params ruleList
	addIgnoreFlags(fs, &ignore, &types, &titles, &params)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette diff OLD_CATALOG.json NEW_CATALOG.json [--ignore-tags] [--ignore-file-line=false] [--json]")
		fmt.Fprintln(stderr, "       "+strings.ReplaceAll(strings.TrimPrefix(diffAllUsage, "usage: "), "\n       ", "\n       "))
		fmt.Fprint(stderr, diffAllHelp)
		fmt.Fprintln(stderr, "\nflags comparing two catalog files (comparing code: marionette diff --from A --to B --help):")
		fs.PrintDefaults()
	}
	// Flags may come before, between or after the two files.
	files, ok := parseInterspersed(fs, args)
	if !ok {
		return 2
	}
	if len(files) != 2 {
		fs.Usage()
		return 2
	}
	var err error
	if opts.Ignore, err = buildIgnoreRules(ignore, types, titles, params); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	var cats [2]*catalogdiff.Catalog
	for i, path := range files {
		c, err := catalogdiff.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		cats[i] = c
	}
	res := catalogdiff.Compare(cats[0], cats[1], opts)
	if asJSON {
		err = res.WriteJSON(stdout)
	} else {
		err = writeColored(stdout, stderr, res.WriteText)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	if res.Empty() {
		return 0
	}
	return 1
}
