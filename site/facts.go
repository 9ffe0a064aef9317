package site

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/value"
)

// FactsKind says where a node's facts come from.
type FactsKind int

const (
	// FactsFile reads FactsSource.File (YAML or JSON; "" is no facts).
	FactsFile FactsKind = iota
	// FactsNotGiven is a command line that names no facts: reading them
	// is Puppet's "No facts available" error, as a compile without facts
	// would silently give another catalog.
	FactsNotGiven
	// FactsNone is no facts, on purpose (--facts none).
	FactsNone
	// FactsPuppetDB reads the node's latest facts from the Site's
	// PuppetDB, as facts_terminus = puppetdb does.
	FactsPuppetDB
	// FactsCache reads the facts a compile server stored for the node,
	// $vardir/yaml/facts/NODE.yaml (none: no facts).
	FactsCache
)

// Values of --facts (one node) and --facts-from (a fleet) that name no
// file; a file named so is given as ./none or ./puppetdb.
const (
	FactsFlagNone     = "none"
	FactsFlagPuppetDB = "puppetdb"
)

// FactsSource is where a node's facts come from.
type FactsSource struct {
	Kind FactsKind
	// File is the facts file of FactsFile.
	File string
	// Batch, with FactsPuppetDB, reads a fleet's facts a page of nodes a
	// request (Site.FactsBatch); nil reads one node a request.
	Batch *puppetdb.FactsBatch
}

// FactsFlag is the source --facts names: "" none given, "none",
// "puppetdb", else a file.
func FactsFlag(v string) FactsSource {
	switch v {
	case "":
		return FactsSource{Kind: FactsNotGiven}
	case FactsFlagNone:
		return FactsSource{Kind: FactsNone}
	case FactsFlagPuppetDB:
		return FactsSource{Kind: FactsPuppetDB}
	}
	return FactsSource{Kind: FactsFile, File: v}
}

// Facts reads node certname's facts from src. Facts that are missing or
// unreadable are InputErrors, except the compile server's cache, where
// they are no facts.
func (s *Site) Facts(ctx context.Context, src FactsSource, certname string) (*value.Hash, error) {
	switch src.Kind {
	case FactsNotGiven:
		// As Puppet's commands find the facts the server stored.
		if s.hasCachedFacts(certname) {
			return s.cachedFacts(certname), nil
		}
		return nil, FactsNotGivenError(certname)
	case FactsNone:
		return value.EmptyHash, nil
	case FactsPuppetDB:
		var facts *value.Hash
		var err error
		if src.Batch != nil {
			facts, err = src.Batch.Facts(ctx, certname)
		} else {
			var c *puppetdb.Client
			if c, err = s.NeedPuppetDB("--facts puppetdb"); err != nil {
				return nil, err
			}
			facts, err = c.NodeFacts(ctx, certname)
		}
		if errors.Is(err, puppetdb.ErrNoFacts) {
			return nil, &InputError{Err: noFactsError{certname}}
		}
		if err == nil && facts == nil {
			facts = value.EmptyHash
		}
		return facts, err
	case FactsCache:
		return s.cachedFacts(certname), nil
	}
	facts, err := node.ReadFactsLimit(nil, src.File, s.opts.Limits.MaxYAMLNodes)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return facts, nil
}

// FactsNotGivenError is the error of a command line that names no facts
// for node certname (FactsNotGiven).
func FactsNotGivenError(certname string) error {
	return inputErrorf("No facts available for target node: %s (give --facts FILE, or --facts none to use no facts; none in the server's facts cache $vardir/yaml/facts)", certname)
}

// noFactsError is a node PuppetDB has no facts for: an error for a
// command, no facts for a compile server (errors.Is puppetdb.ErrNoFacts).
type noFactsError struct{ certname string }

func (e noFactsError) Error() string {
	return fmt.Sprintf("No facts available for target node: %s (PuppetDB has none)", e.certname)
}

func (noFactsError) Unwrap() error { return puppetdb.ErrNoFacts }

// FactsBatch reads the facts of nodes from the Site's PuppetDB, a page of
// nodes a request, each node's dropped once read.
func (s *Site) FactsBatch(nodes []string) (*puppetdb.FactsBatch, error) {
	c, err := s.NeedPuppetDB("--facts-from puppetdb")
	if err != nil {
		return nil, err
	}
	return c.NewFactsBatch(nodes, 0), nil
}

// FactsCacheDir is where a compile server stores the facts agents send,
// as puppetserver does: $vardir/yaml/facts.
func FactsCacheDir(s *puppetconf.Settings) string {
	return filepath.Join(s.Get(puppetconf.Vardir), "yaml", "facts")
}

// CachedFactsTag starts a facts file of the cache: the facts object as
// JSON is a YAML flow mapping, tagged as Puppet's facts object, which
// puppetserver's yaml facts terminus reads.
const CachedFactsTag = "--- !ruby/object:Puppet::Node::Facts "

// hasCachedFacts reports whether the server's facts cache holds facts
// of certname.
func (s *Site) hasCachedFacts(certname string) bool {
	dir := s.opts.FactsCacheDir
	if dir == "" {
		dir = FactsCacheDir(s.settings)
	}
	return fileExists(filepath.Join(dir, certname+".yaml"))
}

// cachedFacts reads the facts last stored for a node; none, or a file
// that does not read, is no facts.
func (s *Site) cachedFacts(certname string) *value.Hash {
	dir := s.opts.FactsCacheDir
	if dir == "" {
		dir = FactsCacheDir(s.settings)
	}
	data, err := os.ReadFile(filepath.Join(dir, certname+".yaml"))
	if err != nil {
		return value.EmptyHash
	}
	facts, _, err := DecodeFacts(bytes.TrimPrefix(data, []byte(CachedFactsTag)), certname)
	if err != nil {
		return value.EmptyHash
	}
	return facts
}

// DecodeFacts decodes Puppet's facts object on the wire ({"name",
// "values", "timestamp", "expiration"}) of node certname; compact is it
// compacted, as a server stores it. encoding/json checks the nesting
// depth before FromJSON recurses.
func DecodeFacts(data []byte, certname string) (facts *value.Hash, compact []byte, err error) {
	facts, compact, ok := decodeFactsOnce(data, certname)
	if !ok {
		if facts, compact, err = decodeFactsThorough(data, certname); err != nil {
			return nil, nil, err
		}
	}
	// The facts hash itself is not one of its values.
	if n := countValues(facts, MaxFacts+2) - 1; n > MaxFacts {
		return nil, nil, inputErrorf("The facts of %s hold more than MaxFacts (%d) values (a limit of marionette)", certname, MaxFacts)
	}
	return facts, compact, nil
}

// MaxFacts bounds the values (facts and the values nested in them) an
// agent's facts may hold. Facter reports a few hundred to some thousands
// on a large host; a flood of them costs every later compile of the node
// (the facts are stored), so it is refused before that.
const MaxFacts = 100_000

// countValues counts v's values, nested ones included, stopping once it
// reaches limit.
func countValues(v value.Value, limit int) int {
	n := 0
	var walk func(v value.Value)
	walk = func(v value.Value) {
		if n >= limit {
			return
		}
		n++
		switch v := v.(type) {
		case *value.Hash:
			for i := 0; i < v.Len() && n < limit; i++ {
				_, x := v.At(i)
				walk(x)
			}
		case value.Array:
			for _, x := range v {
				if n >= limit {
					return
				}
				walk(x)
			}
		}
	}
	walk(v)
	return n
}

// decodeFactsThorough is DecodeFacts for any facts object, and the errors
// of those that do not decode.
func decodeFactsThorough(data []byte, certname string) (facts *value.Hash, compact []byte, err error) {
	var wf struct {
		Name   string          `json:"name"`
		Values json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(data, &wf); err != nil {
		return nil, nil, internError(err)
	}
	if wf.Name != certname {
		return nil, nil, inputErrorf("Catalog for %s was requested with fact definition for the wrong node (%s).", strconv.Quote(certname), strconv.Quote(wf.Name))
	}
	facts = value.EmptyHash
	if len(wf.Values) > 0 && string(wf.Values) != "null" {
		v, err := dataformat.FromJSON(wf.Values, "facts")
		if err != nil {
			return nil, nil, internError(err)
		}
		h, ok := v.(*value.Hash)
		if !ok {
			return nil, nil, inputErrorf("Could not intern from json: the facts' values are no hash")
		}
		facts = h
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return nil, nil, internError(err)
	}
	return facts, b.Bytes(), nil
}

// decodeFactsOnce is DecodeFacts in one pass over data for the common
// facts object (what agents send: compact, "name" a string, "values" an
// object): decoded once into values, and stored as it is when compact. ok
// is false for anything else (errors, the wrong node, keys encoding/json
// would match without regard to case), which DecodeFacts decodes its
// thorough way.
func decodeFactsOnce(data []byte, certname string) (facts *value.Hash, compact []byte, ok bool) {
	v, isCompact, err := dataformat.FromJSONCompact(data, "facts")
	if err != nil {
		return nil, nil, false
	}
	obj, isHash := v.(*value.Hash)
	if !isHash {
		return nil, nil, false
	}
	var name, values value.Value
	for i := 0; i < obj.Len(); i++ {
		k, val := obj.At(i)
		key, _ := k.(value.String)
		switch {
		case key == "name":
			name = val
		case key == "values":
			values = val
		case strings.EqualFold(string(key), "name") || strings.EqualFold(string(key), "values"):
			return nil, nil, false
		}
	}
	if n, isString := name.(value.String); !isString || string(n) != certname {
		return nil, nil, false
	}
	switch vals := values.(type) {
	case *value.Hash:
		facts = vals
	case nil:
		facts = value.EmptyHash
	default:
		if values != value.Undef {
			return nil, nil, false
		}
		facts = value.EmptyHash
	}
	if isCompact {
		return facts, data, true
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return nil, nil, false
	}
	return facts, b.Bytes(), true
}

// internError is Puppet's wording of facts that do not decode.
func internError(err error) error {
	return inputErrorf("Could not intern from json: %v", err)
}
