package ruby

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/value"
)

// RubyFunction is a Puppet function written in Ruby, loaded from a module
// file. It runs on the same interpreter as templates, so it supports the
// same subset of Ruby; anything outside it fails with an "unsupported Ruby
// in function F:L" error rather than computing something different.
//
// A RubyFunction is immutable and may be called concurrently.
type RubyFunction struct {
	// Name is the function's Puppet name, e.g. "apache::bool2httpd".
	Name string
	// File is the name the function was loaded under, used in errors.
	File string
	// API is 4 for Puppet::Functions.create_function, 3 for
	// Puppet::Parser::Functions.newfunction.
	API int
	// Type is the 3.x function type, "rvalue" or "statement"; for 4.x
	// functions it is "rvalue".
	Type string

	// Dispatches are the 4.x function's dispatch blocks, in order. Puppet
	// checks arguments against their parameter types and calls the first
	// that matches; this package does not evaluate Puppet types, so a
	// caller that can should check them and use CallDispatch.
	Dispatches []Dispatch

	arity  int // 3.x :arity option; noArity when absent
	tmpl   *Template
	method *nDef            // 4.x: the method the function dispatches to
	defs   map[string]*nDef // 4.x: every method the function defines
	block  *nBlock          // 3.x: the newfunction block
	// internal is set for create_function(name, InternalFunction), whose
	// dispatches may have scope_param.
	internal bool
	// requires are the file's top-level require calls, run before each
	// call (the libraries they load live only as long as the call).
	requires []*nCall
	// setup are the 4.x function body's class definitions and constant
	// assignments, which Ruby runs once when the file loads; they run
	// before each call, as the libraries do.
	setup []node
	// locals are the assignments of local variables at the top of a 3.x
	// function's file (its module Puppet::Parser::Functions body), which
	// the newfunction block sees as a closure: they run before each call.
	locals []node
	// siblings are the other functions the same file defines, by name.
	siblings map[string]*RubyFunction
}

const noArity = 1 << 30

// Dispatch is one `dispatch :method do ... end` block of a 4.x function.
type Dispatch struct {
	Method     string
	Params     []DispatchParam
	ReturnType string // from return_type, or ""
	method     *nDef
}

// DispatchParam is a parameter a dispatch block declares.
type DispatchParam struct {
	// Kind is the declaring method: "param" (also for required_param),
	// "optional_param", "repeated_param", "required_repeated_param",
	// "optional_repeated_param", "block_param", "optional_block_param", or
	// "scope_param" (no argument: the method receives the calling scope).
	Kind string
	Type string // the Puppet type as written, e.g. "Optional[String]"
	Name string
}

// RubyError is a Ruby exception a function raised (raise Puppet::ParseError,
// "msg", ArgumentError, or an error Ruby itself would raise). Its text is
// the exception message, as Puppet reports it.
type RubyError struct {
	File    string
	Line    int
	Class   string // e.g. "Puppet::ParseError"
	Message string
}

func (e *RubyError) Error() string { return e.Message }

// fnError is any other error from a function: its text names the function
// file rather than a template, and it unwraps to the original error.
type fnError struct {
	msg string
	err error
}

func (e *fnError) Error() string { return e.msg }
func (e *fnError) Unwrap() error { return e.err }

// LoadRubyFunction parses a function file of either API:
//
//	Puppet::Functions.create_function(:name) do ... def name(args) ... end ... end
//	module Puppet::Parser::Functions
//	  newfunction(:name, :type => :rvalue, ...) do |args| ... end
//	end
//
// A 4.x function runs the method a `dispatch :m do ... end` block names,
// else the method whose name is the last segment of the function name. A
// 3.x function's block receives one Array of the arguments.
func LoadRubyFunction(file string, src []byte) (f *RubyFunction, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("function %s: internal error loading: %v", file, r)
		}
	}()
	body, err := parseRuby(file, src, true)
	if err != nil {
		return nil, err
	}
	f = &RubyFunction{File: file, tmpl: &Template{name: file, body: body}, arity: noArity, Type: "rvalue"}
	seq, ok := body.(*nSeq)
	if !ok {
		return nil, fmt.Errorf("function %s: no function definition found", file)
	}
	// A file may define several functions (docker's docker_run_flags.rb
	// defines docker::escape too): the one named like the file is the
	// function, the others are its siblings, which its calls reach as
	// Puppet reaches them once the file has loaded.
	var defs, requires []*nCall
	main := -1
	base := strings.TrimSuffix(filepath.Base(file), ".rb")
	for _, st := range seq.stmts {
		c, ok := st.(*nCall)
		if ok && c.recv == nil && (c.name == "require" || c.name == "require_relative") && len(c.args) == 1 {
			requires = append(requires, c)
		}
		if !ok || c.block == nil || len(c.args) == 0 {
			continue
		}
		if c.name == "create_function" && isConst(c.recv, "Puppet::Functions") ||
			c.name == "newfunction" && (c.recv == nil || isConst(c.recv, "Puppet::Parser::Functions")) {
			if name, ok := symName(c.args[0]); ok && main < 0 && name[strings.LastIndex(name, ":")+1:] == base {
				main = len(defs)
			}
			defs = append(defs, c)
		}
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("function %s: no Puppet::Functions.create_function or newfunction call found", file)
	}
	main = max(main, 0)
	f, err = f.loadCall(defs[main])
	if err != nil {
		return nil, err
	}
	f.requires = requires
	// Methods the file defines at its top level (helpers after the
	// module, as puppetlabs-mysql's mysql_deepmerge has) are Object's
	// private methods: every function of the file can call them.
	var fileDefs []*nDef
	for _, st := range seq.stmts {
		if d, ok := st.(*nDef); ok && !d.singleton {
			fileDefs = append(fileDefs, d)
		}
	}
	f.addFileDefs(fileDefs)
	for _, st := range seq.stmts {
		if a, ok := st.(*nAssign); ok {
			if _, local := a.target.(*nLocal); local && f.API == 3 {
				f.locals = append(f.locals, a)
			}
		}
	}
	for i, c := range defs {
		if i == main {
			continue
		}
		sib, err := (&RubyFunction{File: file, tmpl: f.tmpl, arity: noArity, Type: "rvalue"}).loadCall(c)
		if err != nil {
			return nil, err
		}
		sib.addFileDefs(fileDefs)
		if sib.API == 3 {
			sib.locals = f.locals
		}
		if f.siblings == nil {
			f.siblings = map[string]*RubyFunction{}
		}
		f.siblings[sib.Name] = sib
		sib.siblings = f.siblings
	}
	return f, nil
}

// addFileDefs adds the methods a file defines at its top level to those
// f's code can call; a method of the function's own wins.
func (f *RubyFunction) addFileDefs(defs []*nDef) {
	for _, d := range defs {
		if f.defs == nil {
			f.defs = map[string]*nDef{}
		}
		if _, own := f.defs[d.name]; !own {
			f.defs[d.name] = d
		}
	}
}

// sibling returns the function of that name that f's file also defines,
// or nil (also when f is nil: a template is running).
func (f *RubyFunction) sibling(name string) *RubyFunction {
	if f == nil {
		return nil
	}
	return f.siblings[name]
}

// parseRuby parses a Ruby file; functions drops the module
// Puppet::Parser::Functions wrapper of 3.x function files.
func parseRuby(file string, src []byte, functions bool) (node, error) {
	text, err := replaceHeredocs(string(src))
	if err != nil {
		return nil, unsupportedf("unsupported Ruby in function %s:%v", file, err)
	}
	toks, err := lexRuby(file, text, 1)
	if err != nil {
		return nil, fnErr(file, err)
	}
	if !functions {
		return parseTokens(file, toks)
	}
	body, err := parseTokens(file, stripFunctionsModule(toks, nil))
	if err != nil {
		// The module may be followed by helper methods (def overlay ...
		// end after it): its end is then the first at the start of a
		// line with no indentation.
		if retry, rerr := parseTokens(file, stripFunctionsModule(toks, strings.Split(text, "\n"))); rerr == nil {
			return retry, nil
		}
	}
	return body, err
}

// parseTokens parses a Ruby file's tokens.
func parseTokens(file string, toks []token) (node, error) {
	last := 1
	if len(toks) > 0 {
		last = toks[len(toks)-1].line
	}
	toks = append(toks[:len(toks):len(toks)], token{kind: tEOF, line: last})
	p := &parser{name: file, toks: toks}
	body, err := p.parseProgram()
	if err != nil {
		return nil, fnErr(file, err)
	}
	return body, nil
}

// parseRubyFile parses a Ruby library file (see RubyLibrary).
func parseRubyFile(file string, src []byte) (node, error) { return parseRuby(file, src, false) }

// loadCall loads the function a create_function or newfunction call defines.
func (f *RubyFunction) loadCall(c *nCall) (*RubyFunction, error) {
	if c.name == "create_function" {
		return f.load4(c)
	}
	return f.load3(c)
}

func isConst(n node, name string) bool {
	c, ok := n.(*nConst)
	return ok && c.name == name
}

// symName returns the text of a literal Symbol or String node.
func symName(n node) (string, bool) {
	var parts []strNode
	switch n := n.(type) {
	case *nSym:
		parts = n.parts
	case *nStr:
		parts = n.parts
	default:
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.expr != nil {
			return "", false
		}
		b.WriteString(p.lit)
	}
	return b.String(), true
}

func (f *RubyFunction) load4(c *nCall) (*RubyFunction, error) {
	name, ok := symName(c.args[0])
	if !ok {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: function name is not a literal", f.File, c.line)
	}
	if _, isPass := c.block.body.(*nBlockPass); isPass {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: create_function without a do block", f.File, c.line)
	}
	f.Name, f.API = name, 4
	f.internal = len(c.args) > 1 && isConst(c.args[1], "Puppet::Functions::InternalFunction")
	f.defs = map[string]*nDef{}
	stmts := []node{c.block.body}
	if s, ok := c.block.body.(*nSeq); ok {
		stmts = s.stmts
	}
	for _, st := range stmts {
		switch st := st.(type) {
		case *nDef:
			if _, dup := f.defs[st.name]; !dup {
				f.defs[st.name] = st
			}
		case *nModule:
			f.setup = append(f.setup, st)
		case *nAssign, *nOpAssign, *nIf:
			if assignsConst(st) {
				f.setup = append(f.setup, st)
			}
		case *nCall:
			if st.recv == nil && st.name == "dispatch" && len(st.args) > 0 {
				d, err := f.parseDispatch(st)
				if err != nil {
					return nil, err
				}
				f.Dispatches = append(f.Dispatches, d)
			}
		}
	}
	for i := range f.Dispatches {
		d := &f.Dispatches[i]
		if d.method = f.defs[d.Method]; d.method == nil {
			return nil, fmt.Errorf("function %s:%d: %s dispatches to %s, which it does not define", f.File, c.line, name, d.Method)
		}
	}
	if len(f.Dispatches) == 0 {
		method := name[strings.LastIndex(name, ":")+1:]
		d, ok := f.defs[method]
		if !ok {
			return nil, fmt.Errorf("function %s:%d: %s defines no method %s", f.File, c.line, name, method)
		}
		f.method = d
	}
	return f, nil
}

// assignsConst tells whether a statement assigns a constant, possibly
// under a modifier (X = 1 unless defined? X).
func assignsConst(n node) bool {
	switch n := n.(type) {
	case *nAssign:
		_, ok := n.target.(*nConst)
		return ok
	case *nOpAssign:
		_, ok := n.target.(*nConst)
		return ok
	case *nIf:
		return n.els == nil && assignsConst(n.then)
	}
	return false
}

// parseDispatch reads a dispatch block's declarations.
func (f *RubyFunction) parseDispatch(c *nCall) (Dispatch, error) {
	m, ok := symName(c.args[0])
	if !ok {
		return Dispatch{}, unsupportedf("unsupported Ruby in function %s:%d: dispatch to a computed method", f.File, c.line)
	}
	d := Dispatch{Method: m}
	if c.block == nil {
		return d, nil
	}
	stmts := []node{c.block.body}
	if s, ok := c.block.body.(*nSeq); ok {
		stmts = s.stmts
	}
	for _, st := range stmts {
		call, ok := st.(*nCall)
		if !ok || call.recv != nil {
			return d, unsupportedf("unsupported Ruby in function %s:%d: statement in a dispatch block", f.File, st.lineNo())
		}
		var typ, pname string
		if len(call.args) > 0 {
			typ, _ = symName(call.args[0])
		}
		if len(call.args) > 1 {
			pname, _ = symName(call.args[1])
		}
		switch call.name {
		case "scope_param":
			// The method receives the calling scope before the arguments;
			// only an InternalFunction's dispatcher has scope_param.
			if !f.internal {
				return d, unsupportedf("unsupported Ruby in function %s:%d: scope_param outside a Puppet::Functions::InternalFunction", f.File, call.line)
			}
			d.Params = append(d.Params, DispatchParam{Kind: "scope_param"})
		case "param", "required_param", "optional_param", "repeated_param", "required_repeated_param", "optional_repeated_param", "block_param", "optional_block_param":
			kind := call.name
			if kind == "required_param" {
				kind = "param"
			}
			if strings.HasSuffix(kind, "block_param") && len(call.args) == 1 {
				// block_param :name uses the default Callable type.
				pname, typ = typ, "Callable"
			}
			d.Params = append(d.Params, DispatchParam{Kind: kind, Type: typ, Name: pname})
		case "return_type":
			d.ReturnType = typ
		default:
			return d, unsupportedf("unsupported Ruby in function %s:%d: %s in a dispatch block", f.File, call.line, call.name)
		}
	}
	return d, nil
}

func (f *RubyFunction) load3(c *nCall) (*RubyFunction, error) {
	name, ok := symName(c.args[0])
	if !ok {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: function name is not a literal", f.File, c.line)
	}
	if _, isPass := c.block.body.(*nBlockPass); isPass {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: newfunction without a do block", f.File, c.line)
	}
	f.Name, f.API, f.block = name, 3, c.block
	if len(c.block.params) > 1 {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: newfunction block with %d parameters", f.File, c.line, len(c.block.params))
	}
	for _, a := range c.args[1:] {
		h, ok := a.(*nHash)
		if !ok {
			continue
		}
		for i, k := range h.keys {
			key, ok := symName(k)
			if !ok {
				continue
			}
			switch key {
			case "type":
				t, ok := symName(h.vals[i])
				if !ok || t != "rvalue" && t != "statement" {
					return nil, unsupportedf("unsupported Ruby in function %s:%d: :type must be :rvalue or :statement", f.File, c.line)
				}
				f.Type = t
			case "arity":
				switch v := h.vals[i].(type) {
				case *nInt:
					f.arity = int(v.v)
				default:
					return nil, unsupportedf("unsupported Ruby in function %s:%d: :arity is not an Integer literal", f.File, c.line)
				}
			}
		}
	}
	if f.Type == "" {
		f.Type = "statement"
	}
	return f, nil
}

// CallDispatch runs the method of f.Dispatches[i], for a caller that has
// matched the arguments against that dispatch's parameter types.
func (f *RubyFunction) CallDispatch(s Scope, i int, args []value.Value) (value.Value, error) {
	if f.API != 4 || i < 0 || i >= len(f.Dispatches) {
		return nil, fmt.Errorf("function %s: %s has no dispatch %d", f.File, f.Name, i)
	}
	return f.call(s, f.Dispatches[i].method, args)
}

// Call runs the function with Puppet arguments; s is the calling scope,
// which 3.x functions reach as self (lookupvar, function_x, call_function)
// and 4.x functions through call_function. Undef arguments reach a 3.x
// function as ” as under Puppet.
func (f *RubyFunction) Call(s Scope, args []value.Value) (value.Value, error) {
	m := f.method
	if f.API == 4 {
		switch len(f.Dispatches) {
		case 0:
		case 1:
			m = f.Dispatches[0].method
		default:
			return nil, unsupportedf("unsupported Ruby in function %s:%d: %s has %d dispatches that Puppet selects by argument type; use CallDispatch", f.File, f.Dispatches[0].method.line, f.Name, len(f.Dispatches))
		}
	}
	return f.call(s, m, args)
}

// call runs the function; m is the method a 4.x function runs.
func (f *RubyFunction) call(s Scope, m *nDef, args []value.Value) (result value.Value, err error) {
	// Each call gets its own copy of the methods, as evaluating a nested
	// def adds to them.
	defs := make(map[string]*nDef, len(f.defs))
	for k, d := range f.defs {
		defs[k] = d
	}
	in := &interp{methods: builtinMethods(), tmpl: f.tmpl, scope: s, ivars: map[string]any{}, fn: f, defs: defs, maxString: MaxStringSize}
	if f.siblings != nil {
		in.callSibling = func(name string, args []value.Value) (value.Value, error) { return f.siblings[name].Call(s, args) }
	}
	defer func() {
		if r := recover(); r != nil {
			if tooLarge, ok := r.(*value.ValueTooLarge); ok {
				result, err = nil, fmt.Errorf("function %s: %w", f.Name, tooLarge)
				return
			}
			result, err = nil, fmt.Errorf("function %s: internal error running %s: %v", f.File, f.Name, r)
		}
	}()
	rargs := make([]any, len(args))
	for i, a := range args {
		if f.API == 3 && (a == nil || a == value.Undef) {
			rargs[i] = newStr("")
			continue
		}
		rargs[i] = fromPuppet(a)
	}
	for _, d := range f.Dispatches {
		if d.method == m && len(d.Params) > 0 && d.Params[0].Kind == "scope_param" {
			rargs = append([]any{&scopeObj{}}, rargs...)
			break
		}
	}
	for _, r := range f.requires {
		if _, err := in.eval(r, &env{vars: map[string]any{}}); err != nil {
			return nil, in.fnError(err)
		}
	}
	for _, st := range f.setup {
		if _, err := in.eval(st, &env{vars: map[string]any{}}); err != nil {
			return nil, in.fnError(err)
		}
	}
	var v any
	if f.API == 4 {
		if by, ok := s.(BlockYielder); ok && by.HasBlock() {
			in.block = &blockVal{native: by.Yield}
		}
		v, err = in.callEntry(m, rargs)
	} else {
		if f.arity != noArity {
			if f.arity >= 0 && len(rargs) != f.arity {
				return nil, &RubyError{File: f.File, Line: f.block.line, Class: "ArgumentError", Message: fmt.Sprintf("%s(): Wrong number of arguments given (%d for %d)", f.Name, len(rargs), f.arity)}
			}
			if f.arity < 0 && len(rargs) < -f.arity-1 {
				return nil, &RubyError{File: f.File, Line: f.block.line, Class: "ArgumentError", Message: fmt.Sprintf("%s(): Wrong number of arguments given (%d for minimum %d)", f.Name, len(rargs), -f.arity-1)}
			}
		}
		top := &env{vars: map[string]any{}}
		for _, st := range f.locals {
			if _, err := in.eval(st, top); err != nil {
				return nil, in.fnError(err)
			}
		}
		b := &blockVal{params: f.block.params, body: f.block.body, env: top}
		v, err = in.yield(f.block.line, b, &rarray{a: rargs})
		if r, ok := err.(*returnSignal); ok {
			v, err = r.v, nil
		}
	}
	if err != nil {
		return nil, in.fnError(err)
	}
	if f.API == 3 && f.Type == "statement" {
		return value.Undef, nil
	}
	pv, cerr := toPuppet(v)
	if cerr != nil {
		return nil, unsupportedf("unsupported Ruby in function %s:%d: %s returned %v", f.File, f.tmpl.body.lineNo(), f.Name, cerr)
	}
	return pv, nil
}

// callEntry calls the method a 4.x function dispatches to, checking the
// argument count as Puppet's default dispatch does.
func (in *interp) callEntry(d *nDef, args []any) (any, error) {
	lo, hi := defArity(d)
	if len(args) < lo || hi >= 0 && len(args) > hi {
		var want string
		switch {
		case hi < 0:
			want = "at least " + plural(lo, "argument")
		case lo == hi:
			want = plural(lo, "argument")
		default:
			want = fmt.Sprintf("between %d and %d arguments", lo, hi)
		}
		return nil, in.errorf(d.line, "ArgumentError", "'%s' expects %s, got %d", in.fn.Name, want, len(args))
	}
	e, err := in.bindDefParams(d.line, d, args)
	if err != nil {
		return nil, err
	}
	v, err := in.eval(d.body, e)
	if r, ok := err.(*returnSignal); ok {
		return r.v, nil
	}
	return v, err
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// defArity returns the least and most arguments a def accepts; most is -1
// when a *splat takes any number.
func defArity(d *nDef) (lo, hi int) {
	for _, p := range d.params {
		switch {
		case p.block:
		case p.splat:
			hi = -1 - hi
		case p.dflt != nil:
			hi++
		default:
			lo++
			hi++
		}
	}
	if hi < 0 {
		return lo, -1
	}
	return lo, hi
}

// bindDefParams binds a def's parameters to arguments in a fresh
// environment, evaluating the defaults of omitted optional parameters.
func (in *interp) bindDefParams(line int, d *nDef, args []any) (*env, error) {
	lo, hi := defArity(d)
	if len(args) < lo || hi >= 0 && len(args) > hi {
		want := strconv.Itoa(lo)
		switch {
		case hi < 0:
			want += "+"
		case hi != lo:
			want += ".." + strconv.Itoa(hi)
		}
		return nil, in.errorf(line, "ArgumentError", "wrong number of arguments (given %d, expected %s)", len(args), want)
	}
	e := &env{vars: map[string]any{}}
	optional := len(args) - lo // optional parameters that get an argument
	k := 0
	for _, p := range d.params {
		switch {
		case p.block:
			// &block: the call's block as a Proc, nil without one.
			if in.block != nil {
				e.vars[p.name] = &procVal{blk: in.block}
			} else {
				e.vars[p.name] = nil
			}
		case p.splat:
			n := len(args) - k - (lo - requiredBefore(d, p))
			if n < 0 {
				n = 0
			}
			e.vars[p.name] = &rarray{a: append([]any(nil), args[k:k+n]...)}
			k += n
		case p.dflt != nil && optional <= 0:
			v, err := in.eval(p.dflt, e)
			if err != nil {
				return nil, err
			}
			e.vars[p.name] = v
		default:
			if p.dflt != nil {
				optional--
			}
			if p.sub != nil {
				bindParams(e, []param{p}, args[k:k+1], false)
			} else {
				e.vars[p.name] = args[k]
			}
			k++
		}
	}
	return e, nil
}

// requiredBefore counts the required parameters of d before splat, so
// that a splat takes what remains after the required ones that follow it.
func requiredBefore(d *nDef, splat param) int {
	n := 0
	for _, p := range d.params {
		if p.name == splat.name && p.splat {
			break
		}
		if !p.splat && !p.block && p.dflt == nil {
			n++
		}
	}
	return n
}

// fnSelf implements calls with no receiver (or on self) inside a function:
// the scope's methods for 3.x functions, call_function for 4.x ones.
func (in *interp) fnSelf(line int, name string, args []any) (any, bool, error) {
	if name == heredocPlaceholder {
		return nil, true, in.unsupported(line, "heredoc with interpolation or escapes")
	}
	if in.fn.API == 4 {
		switch name {
		case "call_function":
			if len(args) == 0 {
				return nil, true, in.errorf(line, "ArgumentError", "wrong number of arguments (given 0, expected 1+)")
			}
			n, ok := args[0].(*rstr)
			if !ok {
				if sym, isSym := args[0].(symbol); isSym {
					n, ok = newStr(string(sym)), true
				}
			}
			if !ok {
				return nil, true, in.unsupported(line, "call_function needs a function name")
			}
			// A 4.x function's own call_function runs in its closure
			// scope, which for a function a module loaded is the top
			// scope, not the caller's: what the called function declares
			// (ensure_resource, create_resources) lands in Class[main].
			sc := in.scope
			if ts, ok := sc.(TopScoper); ok {
				sc = ts.TopScope()
			}
			v, err := in.callPuppetIn(sc, line, n.s, args[1:], false)
			return v, true, err
		case "closure_scope":
			if len(args) == 0 {
				return &scopeObj{top: true}, true, nil
			}
		}
		return nil, false, nil
	}
	switch {
	case name == "lookupvar", name == "[]", name == "call_function", name == "setvar", name == "[]=",
		name == "include?", name == "exist?", name == "to_hash", name == "lookupdefaults", strings.HasPrefix(name, "function_"),
		(name == "compiler" || name == "catalog" || name == "environment" || name == "known_resource_types") && len(args) == 0,
		name == "find_hostclass", name == "find_definition":
		v, err := in.callScope(line, name, args)
		return v, true, err
	}
	return nil, false, nil
}

var lineInFull = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^template .*?:(\d+): `) })

// fnError turns an error from the interpreter into one about the function.
func (in *interp) fnError(err error) error {
	switch e := err.(type) {
	case *rubyError:
		if e.cause != nil {
			// A called function's error that was not rescued surfaces
			// as it would have without Ruby around it: Puppet reports it
			// once, at the call of this function.
			return calledError(e.cause)
		}
		line := 0
		if m := lineInFull().FindStringSubmatch(e.full); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		return &RubyError{File: in.fn.File, Line: line, Class: e.class, Message: e.msg}
	case *breakSignal:
		return fmt.Errorf("function %s:%d: break outside a block", in.fn.File, e.line)
	case *nextSignal:
		return fmt.Errorf("function %s:%d: next outside a block", in.fn.File, e.line)
	}
	return fnErr(in.fn.File, err)
}

// calledError is the error of a Puppet function that Ruby code called,
// without the evaluator's wrapping of that call ("Error while evaluating a
// Function Call, " and the location): the call of the function running
// wraps it again, as under Puppet. Other errors are returned as they are.
func calledError(err error) error {
	var d *diag.Diagnostic
	if errors.As(err, &d) && d.Cause != nil {
		inner := d.Cause.Error()
		for _, kind := range []string{"Error while evaluating a Function Call, ", "Error while evaluating a Method call, "} {
			if d.Message == "Evaluation Error: "+kind+inner {
				return d.Cause
			}
		}
	}
	return err
}

// fnErr rewrites an error naming the "template" file to name the function.
func fnErr(file string, err error) error {
	msg := err.Error()
	msg = strings.Replace(msg, "unsupported Ruby in template "+file, "unsupported Ruby in function "+file, 1)
	if strings.HasPrefix(msg, "template "+file) {
		msg = "function " + strings.TrimPrefix(msg, "template ")
	}
	if errors.Is(err, ErrUnsupported) {
		return &UnsupportedError{msg: msg, err: err}
	}
	var re *rubyError
	if errors.As(err, &re) {
		return &fnError{msg: msg, err: err}
	}
	return &fnError{msg: msg, err: errors.Unwrap(err)}
}

// stripFunctionsModule removes a `module Puppet::Parser::Functions`
// wrapper and its `end`, leaving the newfunction call at top level. The
// module's end is the file's last token, or, given the file's lines, the
// first end that starts a line without indentation.
func stripFunctionsModule(toks []token, lines []string) []token {
	want := []string{"module", "Puppet", "::", "Parser", "::", "Functions"}
	i := -1
	for k := range toks {
		if toks[k].kind == tKeyword && toks[k].text == "module" && (k == 0 || toks[k-1].kind == tNL) {
			i = k
			break
		}
	}
	if i < 0 || i+len(want) > len(toks) {
		return toks
	}
	for k, w := range want {
		if toks[i+k].text != w {
			return toks
		}
	}
	j := len(toks) - 1
	for j > i && toks[j].kind == tNL {
		j--
	}
	if lines != nil {
		for k := i + len(want); k < len(toks); k++ {
			if toks[k].kind == tKeyword && toks[k].text == "end" && toks[k].lineStart &&
				toks[k].line-1 < len(lines) && strings.HasPrefix(lines[toks[k].line-1], "end") {
				j = k
				break
			}
		}
	}
	if toks[j].kind != tKeyword || toks[j].text != "end" {
		return toks
	}
	out := append([]token(nil), toks[:i]...)
	out = append(out, token{kind: tNL, line: toks[i].line})
	out = append(out, toks[i+len(want):j]...)
	return append(out, toks[j+1:]...)
}

// heredocPlaceholder replaces heredocs this package cannot represent as a
// literal; evaluating it fails as unsupported, but such heredocs are
// nearly always :doc strings that are never evaluated.
const heredocPlaceholder = "__marionette_heredoc__"

var heredocStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<<([-~]?)(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)`) })

// replaceHeredocs rewrites heredocs into string literals on their opening
// line, blanking their body lines so that line numbers stay the same.
func replaceHeredocs(src string) (string, error) {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		loc := heredocStart().FindStringSubmatchIndex(line)
		if loc == nil {
			continue
		}
		flag := line[loc[2]:loc[3]]
		q1, id, q2 := line[loc[4]:loc[5]], line[loc[6]:loc[7]], line[loc[8]:loc[9]]
		if q1 != q2 {
			continue
		}
		if flag == "" && q1 == "" && (id[0] < 'A' || id[0] > 'Z') {
			continue // `a <<b` is a shift
		}
		if flag == "" && q1 == "" && loc[0] > 0 && line[loc[0]-1] != ' ' && line[loc[0]-1] != '(' && line[loc[0]-1] != ',' {
			continue
		}
		var body []string
		end := -1
		for k := i + 1; k < len(lines); k++ {
			t := lines[k]
			if flag != "" {
				t = strings.TrimSpace(t)
			}
			if t == id {
				end = k
				break
			}
			body = append(body, lines[k])
		}
		if end < 0 {
			return "", fmt.Errorf("%d: heredoc %s is not terminated", i+1, id)
		}
		if flag == "~" {
			body = dedent(body)
		}
		text := strings.Join(body, "\n")
		if len(body) > 0 {
			text += "\n"
		}
		var lit string
		if q1 != "'" && (strings.Contains(text, "#{") || strings.Contains(text, "\\") || strings.Contains(text, "#@") || strings.Contains(text, "#$")) {
			lit = heredocPlaceholder + "()"
		} else {
			lit = rubyDQ(text)
		}
		lines[i] = line[:loc[0]] + lit + line[loc[1]:]
		for k := i + 1; k <= end; k++ {
			lines[k] = ""
		}
		i = end
	}
	return strings.Join(lines, "\n"), nil
}

// dedent removes the common leading whitespace of non-blank lines, as <<~.
func dedent(lines []string) []string {
	min := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if min < 0 || n < min {
			min = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= min && min > 0 {
			out[i] = l[min:]
		} else {
			out[i] = strings.TrimLeft(l, " \t")
		}
	}
	return out
}

// rubyDQ quotes s as a one-line Ruby double-quoted string literal.
func rubyDQ(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// BlockYielder may be implemented by the Scope of a 4.x function's call to
// give the function the Puppet lambda of the call as its block: yield,
// block_given? and a &block parameter reach it. Yield runs the lambda
// with Puppet arguments.
type BlockYielder interface {
	HasBlock() bool
	Yield(args []value.Value) (value.Value, error)
}

// yieldLambda calls a Puppet lambda given as a block with Ruby arguments.
func (in *interp) yieldLambda(line int, b *blockVal, args []any) (any, error) {
	pargs := make([]value.Value, len(args))
	for i, a := range args {
		v, err := toPuppet(a)
		if err != nil {
			return nil, in.unsupported(line, "a block argument for a Puppet lambda: %v", err)
		}
		pargs[i] = v
	}
	r, err := b.native(pargs)
	if err != nil {
		var re RescuableError
		if errors.As(err, &re) {
			return nil, &rubyError{class: re.RubyClass(), msg: re.Error(), line: line, full: fmt.Sprintf("template %s:%d: %v", in.tmpl.name, line, err), cause: err}
		}
		return nil, fmt.Errorf("template %s:%d: %w", in.tmpl.name, line, err)
	}
	return in.fromPuppet(r), nil
}
