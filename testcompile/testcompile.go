// Package testcompile is the compile service behind module authors' test
// suites: a warm process that takes a compile request as data (code as
// text, facts, $trusted, node parameters, Hiera config, module path) and
// returns Puppet's catalog JSON or Puppet's error, keeping parsed modules
// across requests. rspec-puppet's catalog builds reach it through the
// Ruby adapter in rspec/marionette_rspec.rb.
//
// The protocol is one JSON object per line each way: a Request in, its
// Response out, in order.
package testcompile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/filecache"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/value"
)

// Request is one compile or function call, with everything Puppet would
// take from its settings and the node given as data.
type Request struct {
	// ID is echoed in the Response.
	ID json.RawMessage `json:"id,omitempty"`
	// Op is "compile" (the default), "call", "factsets" or "ping".
	Op string `json:"op,omitempty"`
	// Node is the certname; its check against the facts is skipped.
	Node string `json:"node"`
	// Environment names the environment ("production" when empty).
	Environment string   `json:"environment,omitempty"`
	ModulePath  []string `json:"modulepath,omitempty"`
	// HieraConfig is the global hiera.yaml ("" for none).
	HieraConfig string `json:"hiera_config,omitempty"`
	// Code replaces the main manifest (Puppet's code setting).
	Code  string          `json:"code"`
	Facts json.RawMessage `json:"facts,omitempty"`
	// Trusted is $trusted's extensions and external data; the rest of
	// $trusted is that of an authenticated node named Node.
	Trusted *Trusted `json:"trusted,omitempty"`
	// NodeParams are the node's parameters beyond its facts (top-scope
	// variables, winning over facts).
	NodeParams json.RawMessage `json:"node_params,omitempty"`
	// KeepExported keeps exported resources in the catalog (rspec-puppet's
	// exported resources matchers).
	KeepExported bool `json:"keep_exported,omitempty"`
	// Strict, StrictVariables and PuppetVersion are those settings ("" and
	// false: Puppet's defaults).
	Strict          string `json:"strict,omitempty"`
	StrictVariables bool   `json:"strict_variables,omitempty"`
	PuppetVersion   string `json:"puppet_version,omitempty"`
	// Function and Args are a call's function name and arguments; Code
	// is evaluated first.
	Function string            `json:"function,omitempty"`
	Args     []json.RawMessage `json:"args,omitempty"`
	// Calls are function calls made, in order, after Code (and before
	// Function): a test's earlier calls, whose resources the catalog
	// holds.
	Calls []Call `json:"calls,omitempty"`
	// Files and Keys are a "factsets" request's fact-set files and the
	// top-level facts wanted of each.
	Files []string `json:"files,omitempty"`
	Keys  []string `json:"keys,omitempty"`
}

// Call is one function call of a Request's Calls.
type Call struct {
	Function string            `json:"function"`
	Args     []json.RawMessage `json:"args,omitempty"`
}

// Trusted is the data of $trusted that a test gives.
type Trusted struct {
	Extensions json.RawMessage `json:"extensions,omitempty"`
	External   json.RawMessage `json:"external,omitempty"`
}

// Response answers one Request.
type Response struct {
	ID json.RawMessage `json:"id,omitempty"`
	OK bool            `json:"ok"`
	// Catalog is Puppet's catalog JSON (as `marionette compile` prints it).
	Catalog json.RawMessage `json:"catalog,omitempty"`
	// Result is a call's return value as JSON.
	Result json.RawMessage `json:"result,omitempty"`
	// Values answers a "factsets" request: per file, per key, the fact's
	// JSON value (null when the file has no such top-level fact).
	Values [][]json.RawMessage `json:"values,omitempty"`
	// Error is the compile's or call's error.
	Error *Error `json:"error,omitempty"`
	// Logs are the compile's warnings and log messages.
	Logs []Log `json:"logs,omitempty"`
	// Millis is how long the request took on the service.
	Millis float64 `json:"ms"`
}

// Error is a failure in Puppet's words.
type Error struct {
	// Message is Puppet's whole message, location and " on node N"
	// included, as a compile raises it; Detail is the innermost message
	// alone (what a function raised), File, Line and Column its place.
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	// Kind is "argument" for a function's signature mismatch (Ruby's
	// ArgumentError in Puppet), "" otherwise.
	Kind string `json:"kind,omitempty"`
	// Class is the Ruby exception class Puppet's function raised (a Ruby
	// function's own, ArgumentError for a call its signatures reject), ""
	// for Puppet's evaluation errors: what rspec-puppet's raise_error
	// matchers see.
	Class string `json:"class,omitempty"`
	// Unsupported says marionette could not answer the way Puppet would
	// (Ruby beyond its subset, a value it cannot render): the caller
	// should ask Puppet instead.
	Unsupported bool `json:"unsupported,omitempty"`
}

// Log is one warning or message of a compile.
type Log struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// Service answers Requests, keeping one environment loader per set of
// settings so parsed modules, resource types and Hiera files stay warm.
// It is safe for concurrent use.
type Service struct {
	files      *filecache.Cache
	hieraCache *hiera.Cache
	// confdir is an empty directory standing for Puppet's confdir, so no
	// hiera.yaml or puppet.conf of the machine leaks into a test.
	confdir string
	// factFiles are the fact-set files "factsets" requests read.
	factFiles factFiles
	// sources pairs function errors with the Ruby classes their
	// functions' Ruby files raise them as.
	sources sourceClasses

	mu      sync.Mutex
	loaders map[string]*node.Resolver
}

// New returns a Service whose confdir stand-in is confdir (an empty
// directory).
func New(confdir string) *Service {
	files := filecache.New()
	return &Service{
		files:      files,
		hieraCache: hiera.NewCacheOn(files),
		confdir:    confdir,
		loaders:    make(map[string]*node.Resolver),
	}
}

// resolver returns the resolver (environment loader and settings) for the
// request's settings, made once per distinct set.
func (s *Service) resolver(req *Request) (*node.Resolver, error) {
	envName := req.Environment
	if envName == "" {
		envName = "production"
	}
	flags := map[string]string{
		puppetconf.Environment:     envName,
		puppetconf.Confdir:         s.confdir,
		puppetconf.Codedir:         s.confdir,
		puppetconf.StrictVariables: fmt.Sprint(req.StrictVariables),
	}
	if req.HieraConfig != "" {
		flags[puppetconf.HieraConfig] = req.HieraConfig
	}
	if req.Strict != "" {
		flags[puppetconf.Strict] = req.Strict
	}
	if req.PuppetVersion != "" {
		flags[puppetconf.PuppetVersion] = req.PuppetVersion
	}
	key := strings.Join(req.ModulePath, "\x00") + "\x01" + fmt.Sprint(flags)
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.loaders[key]; r != nil {
		return r, nil
	}
	po := puppetconf.DefaultOptions()
	po.Flags = flags
	settings, err := puppetconf.Load(po)
	if err != nil {
		return nil, err
	}
	mp := req.ModulePath
	if mp == nil {
		mp = []string{}
	}
	loader := environment.New(settings, environment.Options{ModulePath: mp, Files: s.files, HieraCache: s.hieraCache})
	r, err := node.NewResolver(loader, 0)
	if err != nil {
		return nil, err
	}
	s.loaders[key] = r
	return r, nil
}

// argsVariable and resultVariable are the top-scope variables a call
// passes its arguments in and takes its result from; no manifest uses
// such names.
const (
	argsVariable   = "__marionette_call_args"
	resultVariable = "__marionette_call_result"
)

// Handle answers one request.
func (s *Service) Handle(ctx context.Context, req *Request) *Response {
	start := time.Now()
	resp := s.handle(ctx, req)
	resp.ID = req.ID
	resp.Millis = float64(time.Since(start).Microseconds()) / 1000
	return resp
}

func (s *Service) handle(ctx context.Context, req *Request) *Response {
	switch req.Op {
	case "ping":
		return &Response{OK: true}
	case "factsets":
		values, err := s.factFiles.values(req.Files, req.Keys)
		if err != nil {
			return &Response{Error: &Error{Message: err.Error()}}
		}
		return &Response{OK: true, Values: values}
	case "", "compile", "call":
	default:
		return &Response{Error: &Error{Message: fmt.Sprintf("unknown op %q", req.Op)}}
	}
	r, err := s.resolver(req)
	if err != nil {
		return failure(err, "")
	}
	facts, err := hashOf(req.Facts, "facts")
	if err != nil {
		return failure(err, "")
	}
	params, err := hashOf(req.NodeParams, "node_params")
	if err != nil {
		return failure(err, "")
	}
	code := req.Code
	calls := req.Calls
	if req.Op == "call" {
		calls = append(calls[:len(calls):len(calls)], Call{Function: req.Function, Args: req.Args})
	}
	if len(calls) > 0 {
		b := value.NewHashBuilder(params.Len() + len(calls))
		for i := 0; i < params.Len(); i++ {
			b.Set(params.At(i))
		}
		for i, c := range calls {
			if !isFunctionName(c.Function) {
				return &Response{Error: &Error{Message: fmt.Sprintf("bad request: %q is no function name", c.Function)}}
			}
			args := make(value.Array, 0, len(c.Args))
			for j, a := range c.Args {
				v, err := dataformat.FromJSON(a, "args")
				if err != nil {
					return failure(fmt.Errorf("argument %d: %v", j+1, err), "")
				}
				args = append(args, v)
			}
			// The last call's variables are those a call's result is
			// captured from; earlier calls (req.Calls) are numbered.
			argsVar, resultVar := argsVariable, resultVariable
			if i < len(calls)-1 || req.Op != "call" {
				argsVar, resultVar = fmt.Sprintf("%s_%d", argsVariable, i), fmt.Sprintf("%s_%d", resultVariable, i)
			}
			b.Set(value.String(argsVar), args)
			code += fmt.Sprintf("\n$%s = %s(*$%s)\n", resultVar, c.Function, argsVar)
		}
		params = b.Build()
	}
	base, err := r.Loader.Get(ctx, r.Environment)
	if err != nil {
		return failure(err, "")
	}
	env, err := base.WithCode(code)
	if err != nil {
		return failure(err, req.Node)
	}
	creq := r.Request(&node.Node{Name: req.Node, Environment: r.Environment, Parameters: params}, facts)
	creq.KeepExported = req.KeepExported
	creq.AnyNodeName = true
	if req.Op == "call" {
		creq.Capture = []string{resultVariable}
	}
	if creq.Trusted, err = trustedInfo(req); err != nil {
		return failure(err, "")
	}
	res, err := compiler.Compile(ctx, env, creq)
	resp := &Response{}
	if res != nil {
		for _, d := range res.Diagnostics {
			resp.Logs = append(resp.Logs, Log{Level: d.Severity.String(), Message: d.Error()})
		}
	}
	if err != nil {
		f := failure(err, req.Node)
		f.Logs = resp.Logs
		if req.Op == "call" && f.Error.Class == "" && !f.Error.Unsupported {
			f.Error.Class = s.sources.class(req.ModulePath, req.Function, f.Error.Detail)
		}
		return f
	}
	resp.OK = true
	if req.Op == "call" {
		v, ok := res.Captured[resultVariable]
		if !ok {
			v = value.Undef
		}
		if !plainData(v) {
			return &Response{Logs: resp.Logs, Error: &Error{Message: fmt.Sprintf("the result of %s is no JSON data", req.Function), Unsupported: true}}
		}
		resp.Result = catalog.ValueJSON(v)
		return resp
	}
	// Rich data: the catalog a test loads is the one Puppet's compile
	// leaves in memory, whose Deferred, Regexp, Timespan, Binary and
	// default values are objects (rspec-puppet resolves the Deferred ones
	// after the compile), not the strings of `puppet catalog compile`.
	var buf bytes.Buffer
	if err := res.Catalog.WriteRichJSON(&buf); err != nil {
		return failure(err, req.Node)
	}
	resp.Catalog = bytes.TrimSpace(buf.Bytes())
	return resp
}

// isFunctionName reports whether name is a function's name, a::b or ::a
// included: the call is written into code.
func isFunctionName(name string) bool {
	segments := strings.Split(strings.TrimPrefix(name, "::"), "::")
	for _, seg := range segments {
		if seg == "" || seg[0] < 'a' || seg[0] > 'z' {
			return false
		}
		for _, c := range seg {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
	}
	return true
}

// hashOf decodes a JSON object (absent: the empty hash).
func hashOf(data json.RawMessage, what string) (*value.Hash, error) {
	if len(data) == 0 || string(data) == "null" {
		return value.EmptyHash, nil
	}
	v, err := dataformat.FromJSON(data, what)
	if err != nil {
		return nil, err
	}
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("%s must be a JSON object", what)
	}
	return h, nil
}

// trustedInfo is $trusted as Puppet builds it for a remote request: the
// node's name, the test's extensions and external data.
func trustedInfo(req *Request) (*compiler.TrustedInfo, error) {
	var ext, external json.RawMessage
	if req.Trusted != nil {
		ext, external = req.Trusted.Extensions, req.Trusted.External
	}
	extensions, err := hashOf(ext, "trusted extensions")
	if err != nil {
		return nil, err
	}
	externalData, err := hashOf(external, "trusted external data")
	if err != nil {
		return nil, err
	}
	host, domain, found := strings.Cut(req.Node, ".")
	domainValue := value.Value(value.Undef)
	if found {
		domainValue = value.String(domain)
	}
	return &compiler.TrustedInfo{Hash: value.NewHash(
		value.String("authenticated"), value.String("remote"),
		value.String("certname"), value.String(req.Node),
		value.String("extensions"), extensions,
		value.String("hostname"), value.String(host),
		value.String("domain"), domainValue,
		value.String("external"), externalData,
	)}, nil
}

// plainData reports whether v is JSON data: what a caller can turn back
// into the Ruby value Puppet's function would have returned.
func plainData(v value.Value) bool {
	switch v := v.(type) {
	case value.String, value.Integer, value.Float, value.Boolean:
		return true
	case value.Array:
		for _, e := range v {
			if !plainData(e) {
				return false
			}
		}
		return true
	case *value.Hash:
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			if _, str := k.(value.String); !str || !plainData(e) {
				return false
			}
		}
		return true
	}
	return value.IsUndef(v)
}

// failure is the Response for err, worded as Puppet raises it ("on node
// N" added when node is set).
func failure(err error, nodeName string) *Response {
	d := diag.As(err)
	msg := err.Error()
	if nodeName != "" {
		msg += " on node " + nodeName
	}
	e := &Error{Message: msg, Detail: innermost(err), File: d.Range.Start.Filename, Line: d.Range.Start.Line, Column: d.Range.Start.Column, Class: rubyClass(err)}
	if errors.Is(err, ruby.ErrUnsupported) || strings.Contains(msg, "by marionette") {
		e.Unsupported = true
	}
	return &Response{Error: e}
}

// rubyClass is the Ruby exception class of a function's error as Puppet
// raises it to a Ruby caller: the class a Ruby function raised, Ruby's
// ArgumentError for a call a Ruby function's signatures reject; "" for
// anything else.
func rubyClass(err error) string {
	var re *ruby.RubyError
	if errors.As(err, &re) {
		return re.Class
	}
	var ae *functions.ArgumentError
	if errors.As(err, &ae) {
		return "ArgumentError"
	}
	var rescuable ruby.RescuableError
	if errors.As(err, &rescuable) {
		return rescuable.RubyClass()
	}
	for e := err; e != nil; {
		d, ok := e.(*diag.Diagnostic)
		if !ok {
			break
		}
		if d.Code == diag.DuplicateResource {
			// What a catalog raises for a resource declared twice.
			return "Puppet::Resource::Catalog::DuplicateResourceError"
		}
		e = d.Cause
	}
	return ""
}

// innermost is the message of the deepest diagnostic err wraps, without
// its location: what a function itself raised.
func innermost(err error) string {
	msg := err.Error()
	for err != nil {
		var d *diag.Diagnostic
		if !errors.As(err, &d) {
			break
		}
		msg = d.Message
		if d.Cause == nil {
			break
		}
		err = d.Cause
		// A cause whose words start the message (a sentinel such as
		// "duplicate declaration") adds nothing to it.
		if _, isDiag := err.(*diag.Diagnostic); !isDiag && !strings.HasPrefix(strings.ToLower(msg), strings.ToLower(err.Error())) {
			msg = err.Error()
		}
	}
	return msg
}

// Serve answers the requests read from in, one JSON object per line, with
// one JSON Response per line on out, until in ends.
func (s *Service) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	// Catalog requests carry whole manifests and fact sets.
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var req Request
		var resp *Response
		if err := json.Unmarshal(line, &req); err != nil {
			resp = &Response{Error: &Error{Message: "bad request: " + err.Error()}}
		} else {
			resp = s.Handle(ctx, &req)
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

// TempConfdir makes the empty directory a Service stands for Puppet's
// confdir with; the caller removes it.
func TempConfdir() (string, error) {
	return os.MkdirTemp("", "marionette-test-service-")
}
