package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
)

// runParse implements "marionette parse [--dump] [--validate] FILE...":
// it parses each file (.epp files as EPP templates), with --validate also
// runs the checks Puppet makes after parsing (package syntax/validate),
// prints errors as file:line:column: message, and exits 1 if any file has
// errors.
func runParse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dump := fs.Bool("dump", false, "print the syntax tree of each file")
	doValidate := fs.Bool("validate", false, "also run the validation checks")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette parse [--dump] [--validate] FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, name := range fs.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "marionette parse: %v\n", err)
			status = 1
			continue
		}
		var tree syntax.Node
		var warnings syntax.ErrorList
		if strings.HasSuffix(name, ".epp") {
			prog, perr := syntax.ParseEPP(name, src)
			tree, err = prog, perr
			if err == nil && *doValidate {
				var errs syntax.ErrorList
				errs, warnings = validate.EPP(prog)
				err = errs.Err()
			}
		} else {
			prog, perr := syntax.ParseFile(name, src)
			tree, err = prog, perr
			if err == nil && *doValidate {
				var errs syntax.ErrorList
				errs, warnings = validate.Program(prog)
				err = errs.Err()
			}
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", w.Pos, w.Msg)
		}
		if err != nil {
			printErrors(stderr, err)
			status = 1
			continue
		}
		if *dump {
			if fs.NArg() > 1 {
				fmt.Fprintf(stdout, "# %s\n", name)
			}
			syntax.Dump(stdout, tree)
		}
	}
	return status
}

func printErrors(w io.Writer, err error) {
	var list syntax.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, e.Error())
		}
		return
	}
	fmt.Fprintln(w, err)
}
