// Package node is Puppet's node terminus for a compile: it reads a node's
// facts, classifies the node (plain, or with an external node classifier,
// which may move the node to another environment), and produces the
// environment and compiler.Request a compile needs.
package node

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/enc"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// ReadFacts reads a facts file: a plain map of facts, or Puppet's
// {"name": ..., "values": {...}} form, in JSON (a .json file) or YAML.
// fsys nil reads the operating system's files; path "" means no facts.
func ReadFacts(fsys fs.FS, path string) (*value.Hash, error) {
	return ReadFactsLimit(fsys, path, 0)
}

// ReadFactsLimit is ReadFacts with a YAML file bounded to maxYAMLNodes
// values (0: dataformat.MaxYAMLNodes).
func ReadFactsLimit(fsys fs.FS, path string, maxYAMLNodes int) (*value.Hash, error) {
	if path == "" {
		return value.EmptyHash, nil
	}
	data, err := puppetconf.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	var v value.Value
	if strings.HasSuffix(path, ".json") {
		v, err = dataformat.FromJSON(data, path)
	} else {
		// Puppet's own cached facts (yaml/facts/NODE.yaml) are Ruby
		// objects; FactsFromYAML reads them as the facts terminus does.
		v, err = dataformat.FactsFromYAMLLimit(data, path, maxYAMLNodes)
	}
	if err != nil {
		return nil, fmt.Errorf("could not read facts: %v", err)
	}
	if value.IsUndef(v) {
		return value.EmptyHash, nil
	}
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("facts file %s must hold a hash of facts", path)
	}
	if vals, ok := h.GetString("values"); ok {
		if _, named := h.GetString("name"); named {
			if vh, ok := vals.(*value.Hash); ok {
				return vh, nil
			}
		}
	}
	return h, nil
}

// Classifier is the node terminus: plain (no classes, the configured
// environment) or exec (an external node classifier).
type Classifier struct {
	// ENC is the classifier's path; "" is the plain terminus.
	ENC string
	// Timeout bounds a classifier run (0: enc.DefaultTimeout).
	Timeout time.Duration
	// MaxOutput and MaxYAMLNodes bound its output (0: enc's defaults).
	MaxOutput, MaxYAMLNodes int
}

// Node is a classified node.
type Node struct {
	Name string
	// Environment is the environment the node is compiled in: the one the
	// classifier names, else the configured one.
	Environment string
	// Classes and Parameters are the classifier's.
	Classes    []compiler.ENCClass
	Parameters *value.Hash
	// ENC is the classifier's answer as given; nil for the plain terminus.
	ENC *enc.Result
}

// Classify classifies node name, whose configured environment is env.
func (c *Classifier) Classify(ctx context.Context, name, env string) (*Node, error) {
	n := &Node{Name: name, Environment: env}
	if c == nil || c.ENC == "" {
		return n, nil
	}
	opts := enc.DefaultOptions()
	if c.Timeout != 0 {
		opts.Timeout = c.Timeout // a negative one is rejected by enc.Run
	}
	if c.MaxOutput != 0 {
		opts.MaxOutput = c.MaxOutput
	}
	opts.MaxYAMLNodes = c.MaxYAMLNodes
	res, err := enc.Run(ctx, c.ENC, name, opts)
	if err != nil {
		return nil, err
	}
	n.ENC = res
	for _, cl := range res.Classes {
		n.Classes = append(n.Classes, compiler.ENCClass{Name: cl.Name, Params: cl.Params})
	}
	n.Parameters = res.Parameters
	if res.Environment != "" {
		n.Environment = res.Environment
	}
	return n, nil
}

// Request is the compile request for the node with these facts.
func (n *Node) Request(facts *value.Hash, fuzzy bool) *compiler.Request {
	return &compiler.Request{
		Node:              n.Name,
		Facts:             facts,
		Classes:           n.Classes,
		Parameters:        n.Parameters,
		FuzzyNodeMatching: fuzzy,
	}
}

// Resolver turns a node name and facts into what a compile needs: the
// node's environment, loaded, and the compile request. It is safe for
// concurrent use.
type Resolver struct {
	Loader     *environment.Loader
	Classifier *Classifier
	// Environment is the configured environment (the environment setting).
	Environment string
	// Fuzzy is Puppet's strict_hostname_checking = false.
	Fuzzy bool
	// Strict and StrictVariables are the strict and strict_variables
	// settings (their defaults follow puppet_version).
	Strict          eval.Strictness
	StrictVariables bool
	// RichData writes catalogs with rich data, as Puppet 8 does.
	RichData bool
}

// Request is the compile request for the classified node n with these
// facts, under the resolver's settings.
func (r *Resolver) Request(n *Node, facts *value.Hash) *compiler.Request {
	req := n.Request(facts, r.Fuzzy)
	req.Strict = r.Strict
	req.StrictVariables = r.StrictVariables
	req.RichData = r.RichData
	return req
}

// NewResolver makes a Resolver from the Loader's settings: the environment
// setting, node_terminus and external_nodes, strict_hostname_checking.
// encTimeout bounds classifier runs.
func NewResolver(l *environment.Loader, encTimeout time.Duration) (*Resolver, error) {
	s := l.Settings()
	strict, err := s.StrictHostnameChecking()
	if err != nil {
		return nil, err
	}
	strictness, err := s.Strictness()
	if err != nil {
		return nil, err
	}
	strictVars, err := s.StrictVariables()
	if err != nil {
		return nil, err
	}
	level, _ := eval.ParseStrictness(strictness)
	major, err := s.PuppetMajor()
	if err != nil {
		return nil, err
	}
	return &Resolver{
		RichData:        major >= 8,
		Loader:          l,
		Classifier:      &Classifier{ENC: s.ENC(), Timeout: encTimeout},
		Environment:     s.Get(puppetconf.Environment),
		Fuzzy:           !strict,
		Strict:          level,
		StrictVariables: strictVars,
	}, nil
}

// Classify checks that the configured environment exists and classifies
// the node.
func (r *Resolver) Classify(ctx context.Context, name string) (*Node, error) {
	// As Puppet, which fails on a missing environment before it asks the
	// classifier where the node goes.
	if r.Loader.Directories() {
		if _, err := r.Loader.Dir(r.Environment); err != nil {
			return nil, err
		}
	}
	return r.Classifier.Classify(ctx, name, r.Environment)
}

// Prepare classifies node name and loads its environment; the request
// carries facts.
func (r *Resolver) Prepare(ctx context.Context, name string, facts *value.Hash) (*compiler.Environment, *compiler.Request, error) {
	n, err := r.Classify(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	env, err := r.LoadEnvironment(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	return env, r.Request(n, facts), nil
}

// LoadEnvironment loads the classified node's environment.
func (r *Resolver) LoadEnvironment(ctx context.Context, n *Node) (*compiler.Environment, error) {
	env, err := r.Loader.Get(ctx, n.Environment)
	var nf *environment.NotFoundError
	if errors.As(err, &nf) && n.Environment != r.Environment {
		// The classifier moved the node to an environment that is not
		// there: Puppet's node search fails.
		return nil, fmt.Errorf("Failed when searching for node %s: %w", n.Name, err)
	}
	return env, err
}
