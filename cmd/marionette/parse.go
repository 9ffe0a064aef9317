package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
)

// runParse implements "marionette parse [--dump] [--validate] FILE...":
// it parses each file (.epp files as EPP templates), with --validate also
// runs the checks Puppet makes after parsing (package syntax/validate),
// prints errors as `puppet parser validate` does, and exits 1 if any file
// has errors.
func runParse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dump := fs.Bool("dump", false, "print the syntax tree of each file")
	doValidate := fs.Bool("validate", false, "also run the validation checks")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette parse [--dump] [--validate] FILE...")
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
			fmt.Fprintf(stderr, "Error: Could not read %s: %v\n", name, underlying(err))
			status = 1
			continue
		}
		var tree syntax.Node
		var errs, warnings syntax.ErrorList
		if strings.HasSuffix(name, ".epp") {
			prog, perr := syntax.ParseEPP(name, src)
			tree, err = prog, perr
			if err == nil && *doValidate {
				errs, warnings = validate.EPP(prog)
			}
		} else {
			prog, perr := syntax.ParseFile(name, src)
			tree, err = prog, perr
			if err == nil && *doValidate {
				errs, warnings = validate.Program(prog)
			}
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "Warning: %s\n", puppetMessage(w))
		}
		if err != nil || len(errs) > 0 {
			printErrors(stderr, err, errs)
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

// printErrors prints a file's errors as puppet parser validate does: a
// syntax error or a lone validation error as the parse failure of the
// environment; several validation errors one per line, then a summary.
func printErrors(w io.Writer, parseErr error, validation syntax.ErrorList) {
	if parseErr != nil {
		var list syntax.ErrorList
		var one *syntax.Error
		switch {
		case errors.As(parseErr, &list) && len(list) > 0:
			validation = list[:1]
		case errors.As(parseErr, &one):
			validation = syntax.ErrorList{one}
		default:
			fmt.Fprintf(w, "Error: %v\n", parseErr)
			return
		}
	}
	if len(validation) == 1 {
		fmt.Fprintf(w, "Error: Could not parse for environment production: %s\n", puppetMessage(validation[0]))
		return
	}
	for _, e := range validation {
		fmt.Fprintf(w, "Error: %s\n", puppetMessage(e))
	}
	fmt.Fprintf(w, "Error: Language validation logged %d errors. Giving up\n", len(validation))
}

// puppetMessage words a parser or validator message as Puppet does, its
// position in Puppet's "(file: F, line: L, column: C)" form.
func puppetMessage(e *syntax.Error) string {
	return e.Msg + diag.Location(diag.At(e.Pos))
}
