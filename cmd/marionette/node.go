package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/value"
)

// runNode prints what classification says about a node, like `puppet node
// find`: the classifier's classes, parameters and environment, and which node
// definition of the main manifest matches.
func runNode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f envFlags
	addEnvironmentFlags(fs, &f)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: marionette node NODE [--enc SCRIPT] [--manifest FILE_OR_DIR] [--facts F] [flags]")
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
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v any) {
		var kn, vn yaml.Node
		kn.SetString(k)
		if err := vn.Encode(v); err != nil {
			vn.SetString(fmt.Sprint(v))
		}
		doc.Content = append(doc.Content, &kn, &vn)
	}
	add("name", f.node)
	ctx := context.Background()
	r, err := f.resolver(stderr, environment.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	facts, err := node.ReadFacts(nil, f.facts)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	n, err := r.Classify(ctx, f.node)
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
		add("classes", plain(classes.Build()))
		if res.Parameters != nil {
			add("parameters", plain(res.Parameters))
		}
	}
	add("environment", n.Environment)
	// Which node definition matches, when there is a main manifest.
	env, err := r.LoadEnvironment(ctx, n)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	def, err := compiler.MatchNodeName(env, f.node, facts, !r.Fuzzy)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if def != "" {
		add("node_definition", def)
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, "---\n"+string(out))
	return 0
}
