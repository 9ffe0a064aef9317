// Package compiler compiles a node's catalog from a parsed environment.
//
// The pipeline is Puppet's, as named stages run in order by Compile (their
// names and durations come back in Result.Stages):
//
//	node           check the node's name
//	top            create Stage[main], Class[Settings] and Class[main]; set
//	               the top-scope variables (facts, ENC parameters,
//	               $trusted, $server_facts, ...)
//	main           evaluate the main manifest's code in Class[main]
//	nodebody       find the node definition that matches the node's name
//	               and evaluate it (after the parents it inherits) in
//	               Node[name]
//	enc            declare the classes the ENC returned, at node scope
//	lazy           evaluate defined-type instances and collectors until
//	               nothing new appears (the generator fixpoint)
//	overrides      apply resource overrides and collector blocks
//	relationships  turn -> ~> <- <~ into before/notify metaparameters
//	realize        check that every resource realize() named exists
//	validate       check attribute names of native types and that
//	               relationship metaparameters name existing resources
//	containment    add the resources to the catalog with the edges from
//	               their containers, then the edges of contain()
//	tags           set the catalog's tags
//	size           bound the catalog's encoded size (MaxValueSize), shared
//	               values counted in full, before anything encodes it
//
// Resource defaults are not a stage: they are applied as each resource is
// declared, from the scopes it is declared in.
//
// A compile polls its context between stages, every so many steps of
// evaluation (blocks run, function and lambda calls), for each
// defined-type instance and collector candidate, and while rendering ERB
// templates, so a cancelled compile or one past its deadline stops within
// a fraction of a millisecond of work.
//
// One compilation holds all per-compile state; the Environment is only read.
package compiler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/resourcetype"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// PuppetVersion is the Puppet version whose behaviour marionette follows.
const PuppetVersion = "7.23.0"

// PuppetVersionFor is the version of the given Puppet major that
// marionette follows: 8.10.0 for 8, PuppetVersion otherwise.
func PuppetVersionFor(major int) string {
	if major >= 8 {
		return "8.10.0"
	}
	return PuppetVersion
}

// Request is what to compile: which node, with which facts and classifier data.
type Request struct {
	Node  string
	Facts *value.Hash
	// Classes from an ENC. Params is nil for a class given as a plain name
	// (declared like include); a hash declares it resource-like.
	Classes []ENCClass
	// Parameters from an ENC become top-scope variables.
	Parameters *value.Hash
	// FuzzyNodeMatching enables Puppet 6's node matching on the name's
	// dot-separated prefixes and the hostname fact (Puppet's
	// strict_hostname_checking = false); Puppet 7 matches the exact
	// certname only.
	FuzzyNodeMatching bool
	// AnyNodeName skips the check that Node is a valid certname: test
	// frameworks name a compile after what it tests (rspec-puppet's type
	// alias specs compile node 'stdlib::filemode'), which Puppet lets
	// through there.
	AnyNodeName bool
	// Strict and StrictVariables are Puppet's strict and strict_variables
	// settings (the zero values are Puppet 7's defaults).
	Strict          eval.Strictness
	StrictVariables bool
	// Now is the compile time (catalog version); zero means time.Now().
	Now time.Time
	// Limits bound the compile; the zero Limits are the defaults.
	Limits Limits
	// Trusted, when set, is what $trusted holds: a compile server fills it
	// from the agent's verified client certificate. Nil means a local
	// compile, whose $trusted comes from the clientcert fact as Puppet's
	// does.
	Trusted *TrustedInfo
	// ServerFacts, when set, are the compile server's facts (servername,
	// serverip, serverip6), in $server_facts and as top-scope variables,
	// as Puppet's server adds them.
	ServerFacts *value.Hash
	// Store, when set, is the storeconfigs backend (PuppetDB): exported
	// collectors collect from it and puppetdb_query queries it, and the
	// Result carries StoreCatalog. Nil compiles as Puppet without
	// storeconfigs.
	Store Store
	// KeepExported keeps in the catalog the exported resources nothing
	// collected (marked exported), as puppetserver's v4 catalog API
	// returns them; agents' catalogs (v3) leave them out.
	KeepExported bool
	// RichData marks the catalog to be written with rich data
	// (catalog.Catalog.RichData), as Puppet 8 writes catalogs.
	RichData bool
	// RubyHost, when set, runs the module Ruby functions that the Ruby
	// subset cannot run in real Ruby with Puppet's library (marionette's
	// ruby_functions = auto or helper), in one session per compile. Nil
	// fails them with the subset's error. With RubyHostOptional (auto) a
	// helper that cannot start gives the subset's error, saying why the
	// helper could not run the function; without it that is the error.
	RubyHost         *rubyhost.Host
	RubyHostOptional bool
	// Capture names top-scope variables whose values the Result carries
	// (Result.Captured): a test harness calling a function assigns its
	// result to one.
	Capture []string
	// Reads, when set, records what the compile reads (the modules it
	// uses, templates, Hiera files, files found missing) and what it
	// cannot track: marionette diff reuses a catalog whose reads have not
	// changed.
	Reads *readset.Recorder
}

// TrustedInfo is the trusted data of a remote compile request.
type TrustedInfo struct {
	// Authenticated is Puppet's "remote" for a request with a verified
	// certificate, "" for an unauthenticated one ($trusted's false).
	Authenticated string
	Certname      string
	// Extensions are the certificate's Puppet extensions (short names for
	// Puppet's registered OIDs, dotted OIDs otherwise); nil for none.
	Extensions *value.Hash
	// External is $trusted['external']: what trusted_external_command
	// printed for the node; nil is an empty hash.
	External *value.Hash
	// Hash, when set, is $trusted as it is, the other fields unused:
	// puppetserver's v4 catalog API takes $trusted from the request
	// verbatim (an empty hash when the request has none).
	Hash *value.Hash
}

// Result is what one compile produced: the catalog, and the warnings and
// log messages (warning(), notice(), deprecations, Hiera) of that compile
// only, in the order they were raised.
type Result struct {
	Catalog     *catalog.Catalog
	Diagnostics diag.List
	// Stages is how long each stage of the pipeline took, in order.
	Stages []StageTime
	// StoreCatalog is the catalog as Puppet's storeconfigs backend
	// receives it: Catalog plus the exported resources the node did not
	// collect (Exported, with their containment edges). Set only when
	// the Request has a Store.
	StoreCatalog *catalog.Catalog
	// Captured holds the Request's Capture variables that were set, by
	// name.
	Captured map[string]value.Value
}

// StageTime is the duration of one named stage of a compile.
type StageTime struct {
	Name     string
	Duration time.Duration
}

// ENCClass is one class an ENC assigned.
type ENCClass struct {
	Name   string
	Params *value.Hash
}

// Compilation is the state of one compile.
type Compilation struct {
	ctx   context.Context
	env   compileEnv
	req   *Request
	types *resourcetype.Set
	funcs compileFunctions
	ev    *eval.Evaluator
	cat   *catalog.Catalog

	top       *eval.Scope
	nodeScope *eval.Scope

	// Every resource declared so far (virtual ones too), in order, and
	// the same by type: collectors look only at their type's.
	resources []*resource
	byType    map[string][]*resource
	byRef     map[catalog.Ref]*resource
	// aliases are the type aliases resolved so far.
	aliases map[*environment.Definition]*value.AliasType
	// uniq indexes native resources by uniqueness key (type + namevars).
	uniq map[uniqIndex]*resource
	// Per-scope compile data: the resource a scope belongs to and its
	// resource defaults.
	scopes map[*eval.Scope]*scopeData
	// defaultTypes are the types some scope has resource defaults for.
	defaultTypes map[string]bool
	// Declared classes by canonical name.
	classes map[string]*classInstance

	mainClass, nodeRes, mainStage *resource

	// lookups answers lookup(), hiera*() and automatic parameter lookup.
	lookups *hiera.Session

	pendingDefines []*resource
	collectors     []*collector
	overrides      []*override
	relationships  []*relationship
	realizeReqs    []*realizeRequest
	containEdges   []catalog.Edge
	// warned remembers WarnOnce keys.
	warned map[string]bool
	// dispatchers are the dispatchers of the module Ruby functions with
	// several dispatches called so far (chooseDispatch): their parameter
	// types are parsed once per compile, not at every call.
	dispatchers map[*ruby.RubyFunction]functions.Func
	// erbObjects is the Ruby identity of Puppet hashes shared by the ERB
	// templates of the rendering tree in progress (renderShared).
	erbObjects *erb.Objects
	// files are the templates, Ruby functions and Ruby libraries this
	// compile has loaded, by kind and path, and templatePaths the files
	// template names resolved to: a file used again in the same compile
	// costs no stat calls (see loadFile).
	files         map[fileCacheKey]any
	templatePaths map[string]string
	// rubyLibMisses are the Ruby requires no module's lib holds.
	rubyLibMisses map[string]bool
	// rubySession is the compile's session with the Ruby helper, opened
	// by the first function beyond the Ruby subset (see rubyBeyondSubset)
	// and closed with the compile.
	rubySession *rubyhost.Session
	// resourceTypes are the resource types names resolved to so far
	// (ResolveType): File['x'] in a define builds no new type a time.
	resourceTypes map[string]*value.ResourceType
	// hieraObjects are the Ruby objects of the values Hiera backends'
	// contexts hand back (callHieraBackend).
	hieraObjects *erb.Objects
	// hieraReadRoots are the directories of the Hiera backend calls in
	// progress, where Ruby's File methods answer (callHieraBackend).
	hieraReadRoots []string
	// capitalized are type names as written and capitalized (capitalize).
	capitalized map[string]string
	// moduleNames are the modules definition files belong to (moduleOf).
	moduleNames map[*syntax.File]string
	// diags are this compile's warnings and log messages.
	diags diag.List
}

// stage is one named step of the pipeline.
type stage struct {
	name string
	run  func(*Compilation) error
}

// stages is the compile pipeline, in order.
var stages = []stage{
	{"node", (*Compilation).stageNode},
	{"top", (*Compilation).stageTop},
	{"main", (*Compilation).stageMain},
	{"nodebody", (*Compilation).stageNodeBody},
	{"enc", (*Compilation).stageENC},
	{"lazy", (*Compilation).stageLazy},
	{"overrides", (*Compilation).stageOverrides},
	{"relationships", (*Compilation).stageRelationships},
	{"realize", (*Compilation).stageRealize},
	{"validate", (*Compilation).stageValidate},
	{"containment", (*Compilation).stageContainment},
	{"tags", (*Compilation).stageTags},
	{"size", (*Compilation).stageSize},
}

// Environment is the environment a compile reads (see package environment).
type Environment = environment.Environment

// Compile compiles the catalog for req.Node in env. The Result holds the
// diagnostics raised before an error too, so a caller can print them either
// way; its Catalog is nil when err is not.
//
// A compile stops once ctx is done: it then returns an error diagnostic
// "Compilation of node N was stopped: deadline exceeded after 50ms" (at
// the code that was running, when known) whose cause is ctx.Err(), so
// errors.Is(err, context.DeadlineExceeded) or context.Canceled holds.
func Compile(ctx context.Context, env *Environment, req *Request) (*Result, error) {
	begin := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	c := newCompilation(ctx, env, req)
	defer c.ev.Release()
	defer c.closeRubySession()
	c.env.useMainFiles()
	res := &Result{Stages: make([]StageTime, 0, len(stages))}
	if c.env.strictErr != nil {
		// As a main manifest that does not parse (see environment.Loader).
		res.Diagnostics = c.diags
		return res, fmt.Errorf("Could not parse for environment %s: %w", env.Name, c.env.strictErr)
	}
	for _, s := range stages {
		err := c.ev.Poll()
		if err == nil {
			start := time.Now()
			err = s.run(c)
			res.Stages = append(res.Stages, StageTime{Name: s.name, Duration: time.Since(start)})
		}
		if err == nil && c.ev.Stopped() != nil {
			// Some code swallowed the stop; the stage's work is partial.
			err = c.ev.Stopped()
		}
		if err != nil {
			if c.ev.Stopped() != nil {
				// Whatever error the stop surfaced as (wrapped in a
				// resource statement's error, say), report the stop.
				err = c.stopError(time.Since(begin))
			}
			res.Diagnostics = c.diags
			return res, err
		}
	}
	env.Sizes.Note(len(c.resources), len(c.byRef), len(c.uniq), len(c.scopes))
	env.AddLiterals(c.ev.BoxedLiterals())
	c.cat.RichData = req.RichData
	res.Catalog = c.cat
	if req.Store != nil || req.KeepExported {
		res.StoreCatalog = c.storeCatalog()
	}
	if req.KeepExported {
		res.Catalog = res.StoreCatalog
	}
	for _, name := range req.Capture {
		if v, ok := c.top.Lookup(name); ok {
			if res.Captured == nil {
				res.Captured = make(map[string]value.Value, len(req.Capture))
			}
			res.Captured[name] = v
		}
	}
	res.Diagnostics = c.diags
	return res, nil
}

// stopError is the error of a compile whose context was seen done.
func (c *Compilation) stopError(elapsed time.Duration) error {
	st := c.ev.Stopped()
	why := st.Err.Error()
	switch {
	case errors.Is(st.Err, context.DeadlineExceeded):
		why = "deadline exceeded"
	case errors.Is(st.Err, context.Canceled):
		why = "cancelled"
	}
	if elapsed >= time.Millisecond {
		elapsed = elapsed.Round(time.Millisecond)
	} else {
		elapsed = elapsed.Round(time.Microsecond)
	}
	return &diag.Diagnostic{
		Severity: diag.Error,
		Message:  fmt.Sprintf("Compilation of node %s was stopped: %s after %s", c.req.Node, why, elapsed),
		Range:    diag.At(st.Pos),
		Cause:    st.Err,
	}
}

// compileFunctions are the functions a compile can call: its own (the
// compiler's, which need the compile, and its store's) before those of the
// environment, built when it was loaded.
type compileFunctions struct{ own, env functions.Table }

// Lookup returns the function of that name.
func (f compileFunctions) Lookup(name string) (functions.Func, bool) {
	if fn, ok := f.own[name]; ok {
		return fn, true
	}
	return f.env.Lookup(name)
}

// newCompilation sets up the per-compile state.
func newCompilation(ctx context.Context, env *Environment, req *Request) *Compilation {
	// The tables start as big as the environment's last compile made
	// them (environment.CompileSizes).
	sz := &env.Sizes
	c := &Compilation{
		ctx:       ctx,
		env:       compileEnv{Environment: env},
		req:       req,
		types:     env.Types,
		resources: make([]*resource, 0, sz.Resources.Load()),
		byRef:     make(map[catalog.Ref]*resource, sz.Refs.Load()),
		uniq:      make(map[uniqIndex]*resource, sz.Uniq.Load()),
		scopes:    make(map[*eval.Scope]*scopeData, sz.Scopes.Load()),
		classes:   make(map[string]*classInstance),
	}
	c.env.c = c
	own := make(functions.Table, compilerFunctionCount+1)
	addCompilerFunctions(own)
	if req.Store != nil {
		c.addStoreFunctions(own)
	}
	c.funcs = compileFunctions{own: own, env: env.Functions()}
	if req.Store != nil {
		req.Reads.Untracked("PuppetDB (storeconfigs)")
	}
	c.ev = &eval.Evaluator{Host: c, Context: ctx, Strict: req.Strict, StrictVariables: req.StrictVariables, Warn: c.diags.Add,
		MaxValueSize: req.Limits.MaxValueSize, MaxHeap: req.Limits.HeapBudget(), Literals: env.Literals()}
	c.lookups = hiera.NewSession(hiera.Options{
		Cache:           env.Hiera.Cache,
		GlobalConfig:    env.Hiera.GlobalConfig,
		EnvironmentDir:  env.Hiera.EnvironmentDir,
		Codedir:         env.Hiera.Codedir,
		ModuleDir:       c.env.ModuleDir,
		Reads:           req.Reads,
		Warn:            c.diags.Add,
		ConvertTo:       c.convertTo,
		MaxYAMLNodes:    req.Limits.MaxYAMLNodes,
		Backend:         c.callHieraBackend,
		EnvironmentName: env.Name,
	}, c)
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	c.cat = catalog.New(req.Node, env.Name)
	c.cat.Version = now.Unix()
	c.cat.UUID = newUUID()
	return c
}

// logf records a message of this compile at a Puppet log level.
func (c *Compilation) logf(level, format string, args ...any) {
	sev, ok := diag.ParseSeverity(level)
	if !ok {
		sev = diag.Notice
	}
	c.diags.Add(&diag.Diagnostic{Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// Fact is $facts[name] as a Hiera interpolation sees it
// (hiera.FactScope): a read of that fact only.
func (c *Compilation) Fact(name string) (value.Value, bool) {
	return factOf(c.top, name)
}

// factOf is $facts[name] seen from sc, recorded as a read of that fact
// when the compile records reads.
func factOf(sc *eval.Scope, name string) (value.Value, bool) {
	h, rec := sc.FactsAt()
	if h == nil {
		v, ok := sc.Lookup("facts")
		if h, isHash := v.(*value.Hash); ok && isHash {
			return h.Get(value.String(name))
		}
		return nil, false
	}
	rec.Fact(name)
	return h.Get(value.String(name))
}

// Variable resolves a variable as a Hiera interpolation sees it: top-scope
// names, `::x`, and qualified class variables.
func (c *Compilation) Variable(name string) (value.Value, bool) {
	if len(name) > 2 && name[:2] == "::" {
		name = name[2:]
	}
	if isQualifiedName(name) {
		v, err := c.qualified(name)
		if err != nil || value.IsUndef(v) {
			return nil, false
		}
		return v, true
	}
	return c.top.Lookup(name)
}
