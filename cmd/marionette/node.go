package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// runNode prints what classification says about a node, like `puppet node
// find`: the classifier's classes, parameters and environment, and which node
// definition of the main manifest matches.
func runNode(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "deactivate" {
		return runNodeDeactivate(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	var out outputFlags
	addOutputFlags(fs, &out, "yaml", "json", "pson")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: marionette node NODE [--enc SCRIPT] [--manifest FILE_OR_DIR] [--facts F] [flags]")
		fmt.Fprintln(fs.Output(), "       marionette node deactivate NODE... [--confdir DIR] [--puppetdb URL]")
		fs.PrintDefaults()
	}
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		f.node, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if f.node == "" && fs.NArg() > 0 {
		f.node = fs.Arg(0)
	}
	if f.node == "" {
		fs.Usage()
		return 2
	}
	if err := out.check(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	doc := value.NewHashBuilder(5)
	add := func(k string, v value.Value) { doc.Set(value.String(k), v) }
	add("name", value.String(f.node))
	ctx := context.Background()
	st, err := f.openSite(stderr, false)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer st.Close()
	// Facts are optional here: they only pick a node definition; the
	// server's facts cache when it has the node's.
	src := site.FactsFlag(f.facts)
	if src.Kind == site.FactsNotGiven {
		src.Kind = site.FactsCache
	}
	facts, err := st.Facts(ctx, src, f.node)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	n, err := st.Classify(ctx, f.node)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if res := n.ENC; res != nil {
		classes := value.NewHashBuilder(len(res.Classes))
		for _, c := range res.Classes {
			var params value.Value = value.Undef
			if c.Params != nil {
				params = c.Params
			}
			classes.Set(value.String(c.Name), params)
		}
		add("classes", classes.Build())
		if res.Parameters != nil {
			add("parameters", res.Parameters)
		}
	}
	add("environment", value.String(n.Environment))
	// Which node definition matches, when there is a main manifest.
	env, err := st.LoadEnvironment(ctx, n)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	def, err := compiler.MatchNodeName(env, f.node, facts, !st.Resolver().Fuzzy)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if def != "" {
		add("node_definition", value.String(def))
	}
	text, err := render(doc.Build(), out.renderAs, out.pretty(stdout))
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
