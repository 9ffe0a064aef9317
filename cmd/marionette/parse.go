package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/source"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/syntax/validate"
)

// runParse implements "marionette parse [--dump] [--validate] [--verbose]
// FILE...": it parses each file (.epp files as EPP templates), with
// --validate also runs the checks Puppet makes after parsing (package
// syntax/validate), prints errors as `puppet parser validate` does, each
// followed by its source line with a caret under the column (--verbose
// adds the problem's code and detail), and exits 1 if any file has errors.
func runParse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dump := fs.Bool("dump", false, "print the syntax tree of each file")
	doValidate := fs.Bool("validate", false, "also run the validation checks")
	verbose := fs.Bool("verbose", false, "show each problem's code and detail")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette parse [--dump] [--validate] [--verbose] FILE...")
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
		file := source.NewFile(name, src)
		render := diag.RenderOptions{Verbose: *verbose, Source: func(filename string) *source.File {
			if filename == name {
				return file
			}
			return nil
		}}
		var tree syntax.Node
		var errs, warnings diag.List
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
			fmt.Fprintf(stderr, "Warning: %s\n", w.Error())
			render.Annotate(stderr, w)
		}
		if err != nil || len(errs) > 0 {
			printErrors(stderr, render, err, errs)
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
// Each error's line is followed by what render adds (its source line and
// caret).
func printErrors(w io.Writer, render diag.RenderOptions, parseErr error, validation diag.List) {
	if parseErr != nil {
		var list diag.List
		if !errors.As(parseErr, &list) || len(list) == 0 {
			fmt.Fprintf(w, "Error: %v\n", parseErr)
			return
		}
		validation = list[:1]
	}
	if len(validation) == 1 {
		fmt.Fprintf(w, "Error: Could not parse for environment production: %s\n", validation[0].Error())
		render.Annotate(w, validation[0])
		return
	}
	for _, e := range validation {
		fmt.Fprintf(w, "Error: %s\n", e.Error())
		render.Annotate(w, e)
	}
	fmt.Fprintf(w, "Error: %s\n", diag.ValidationSummary(len(validation)))
}
