package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

// runLookup mirrors `puppet lookup`: it looks keys up in a node's Hiera
// data (facts and ENC parameters in scope, manifests not evaluated).
func runLookup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lookup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	fs.StringVar(&f.node, "node", "", "the node whose data to look up (required)")
	merge := fs.String("merge", "", "merge strategy: first, unique, hash or deep")
	knockout := fs.String("knock-out-prefix", "", "knockout prefix for a deep merge")
	sortArrays := fs.Bool("sort-merged-arrays", false, "sort merged arrays (deep merge)")
	mergeHashArrays := fs.Bool("merge-hash-arrays", false, "merge hashes in arrays (deep merge)")
	typeSpec := fs.String("type", "", "assert the value's type, e.g. Array[String]")
	dflt := fs.String("default", "", "value to return when nothing is found")
	explain := fs.Bool("explain", false, "explain every layer and level searched")
	var out outputFlags
	addOutputFlags(fs, &out, "yaml", "json", "pson", "s")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: marionette lookup KEY... --node NODE --facts FILE [--explain] [--merge STRATEGY] [flags]")
		fs.PrintDefaults()
	}
	// Keys may come before, between or after the flags, as with puppet
	// lookup; after "--" every argument is a key.
	keys, ok := parseInterspersed(fs, args)
	if !ok {
		return 2
	}
	if len(keys) == 0 || f.node == "" {
		fs.Usage()
		return 2
	}
	if err := out.check(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	defaultGiven := false
	fs.Visit(func(fl *flag.Flag) { defaultGiven = defaultGiven || fl.Name == "default" })

	ctx := context.Background()
	st, env, req, err := prepareNode(ctx, &f, stderr, false, true)
	if err != nil {
		fmt.Fprintf(stderr, "Error: Could not run: %v\n", err)
		return 1
	}
	defer st.Close()
	dl, err := compiler.NewDataLookup(ctx, env, req)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer dl.Close()
	hreq := hiera.Request{Keys: keys}
	if *merge != "" {
		hreq.Merge = mergeOption(*merge, *knockout, *sortArrays, *mergeHashArrays)
	}
	if *typeSpec != "" {
		t, err := dl.ParseType(*typeSpec)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --type: %v\n", err)
			return 1
		}
		hreq.Type = t
	}
	if defaultGiven {
		hreq.Default, hreq.HasDefault = value.String(*dflt), true
	}
	v, trace, err := dl.Lookup(hreq, *explain)
	printDiagnostics(stderr, dl.Diagnostics(), "")
	if *explain {
		// As puppet lookup --explain: a key not found is part of the
		// explanation (on stdout, exit 0); other errors are errors.
		var nf *hiera.NotFound
		notFound := errors.As(err, &nf)
		werr := out.write(stdout, func(w io.Writer) error {
			if trace != nil {
				fmt.Fprint(w, trace.String())
			}
			if notFound {
				fmt.Fprintln(w, err)
			}
			return nil
		})
		if werr != nil {
			fmt.Fprintf(stderr, "Error: %v\n", werr)
			return 1
		}
		if err != nil && !notFound {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: Could not run: %v\n", err)
		return 1
	}
	text, err := render(v, out.renderAs, out.pretty(stdout))
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if err := out.write(stdout, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, text)
		return err
	}); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// mergeOption builds lookup's merge argument from the command line.
func mergeOption(strategy, knockout string, sortArrays, mergeHashArrays bool) value.Value {
	if strategy != "deep" || (knockout == "" && !sortArrays && !mergeHashArrays) {
		return value.String(strategy)
	}
	b := value.NewHashBuilder(4)
	b.Set(value.String("strategy"), value.String("deep"))
	if knockout != "" {
		b.Set(value.String("knockout_prefix"), value.String(knockout))
	}
	if sortArrays {
		b.Set(value.String("sort_merged_arrays"), value.True)
	}
	if mergeHashArrays {
		b.Set(value.String("merge_hash_arrays"), value.True)
	}
	return b.Build()
}
