package ruby

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// interp is the state of one rendering.
type interp struct {
	// catches are the tags of the catch blocks running, innermost last.
	catches []any
	tmpl    *Template
	scope   Scope
	out     strings.Builder
	ivars   map[string]any // instance variables read or assigned so far
	// facts are the facts read as @facts['x'] (factIndex), by name.
	facts map[string]any
	// assigned lists the instance variables the template assigned, in
	// order: they exist (instance_variables, defined?) even when nil.
	assigned []string
	match    *matchData // last successful regexp match ($~, $1, ...)
	steps    int        // evaluation steps, bounded so templates cannot hang
	// maxString bounds the output and any one string (MaxStringSize unless
	// RenderOptions raise it).
	maxString int
	depth     int              // call depth, bounded so recursion cannot overflow
	defs      map[string]*nDef // methods the template defined with def
	// setvars holds variables the template set with scope.setvar; they
	// shadow the scope's for the rest of the rendering (and of the
	// rendering tree, when the scope shares objects: see setvarMap).
	setvars map[string]any
	// scopeHash is scope.to_hash's answer while nothing that can change a
	// variable (a Puppet function call, a setvar) has run since: templates
	// call it in loops, and converting every visible variable, the facts
	// among them, at each call was most of a small template's rendering.
	// Each call gets its own copy of it, as each gets a new Hash in Puppet.
	scopeHash *rhash
	// fn is set when running a Ruby function rather than a template: self
	// is then the function (4.x API) or the calling scope (3.x API).
	fn *RubyFunction
	// read records the Puppet arrays and hashes the template read, with
	// the Ruby objects it was given for them: Puppet hands templates the
	// variable's own object, so changing it in place changes the variable
	// (see writeBack).
	read map[string]readVar
	// shellwords is set once the code required 'shellwords' (module
	// functions always have it: their files require it at the top).
	shellwords bool
	// modules are the modules required code defined, by full name, with
	// their functions (def self.name); moduleStack the module bodies being
	// run, current the module whose function is running.
	modules     map[string]map[string]*nDef
	moduleStack []string
	current     string
	required    map[string]bool // library files required so far
	// pbkdf2 is set once a known copy of the pbkdf2-ruby gem was
	// required: its PBKDF2 class and String#^ are the subset's own.
	pbkdf2 bool
	// rescued is the error the running rescue clause caught, which raise
	// without arguments raises again.
	rescued *rubyError
	// classParents are the superclasses of the classes the code defined
	// (class MyError < StandardError), for rescue clauses.
	classParents map[string]string
	// consts are the constants the code assigned (NUM_ARGS = 2), by full
	// name.
	consts map[string]any
	// block is the block the running def was called with (yield).
	block *blockVal
	// methods are the core classes' method tables (builtinMethods).
	methods *methodTables
	// callSibling calls another function of a function's file (set by
	// RubyFunction.call: the interpreter's own code cannot name Call, or
	// builtinMethods would depend on itself).
	callSibling func(name string, args []value.Value) (value.Value, error)
}

// readVar is a Puppet variable as read and the Ruby object made of it.
type readVar struct {
	orig value.Value
	obj  any
}

// stopEvery is how many steps pass between two calls of Stopper.Stopped.
const stopEvery = 1024

// self is the template object itself (Puppet's TemplateWrapper).
type self struct{}

// env holds local variables; blocks get a child env that sees the parent's.
type env struct {
	vars   map[string]any
	parent *env
}

func (e *env) lookup(name string) (any, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (e *env) assign(name string, v any) {
	for s := e; s != nil; s = s.parent {
		if _, ok := s.vars[name]; ok {
			s.vars[name] = v
			return
		}
	}
	e.vars[name] = v
}

// Control flow out of blocks travels as errors.
type breakSignal struct {
	v    any
	line int
}

type nextSignal struct {
	v    any
	line int
}

type returnSignal struct {
	v    any
	line int
}

// throwSignal is Kernel#throw unwinding to the catch block of its tag.
type throwSignal struct {
	tag, v any
}

func (*throwSignal) Error() string  { return "throw" }
func (*returnSignal) Error() string { return "return" }
func (*breakSignal) Error() string  { return "break" }
func (*nextSignal) Error() string   { return "next" }

// rubyError is a Ruby exception raised while rendering; a rescue clause can
// catch it. Errors about unsupported Ruby are not rubyErrors and cannot be
// rescued, so they always surface.
type rubyError struct {
	class string
	msg   string
	full  string
	line  int // the template line the exception was raised at
	// cause is the error of a Puppet function the code called, which
	// Ruby sees as an exception of class (see RescuableError).
	cause error
}

func (e *rubyError) Error() string { return e.full }
func (e *rubyError) Unwrap() error { return e.cause }

// RescuableError may be implemented by an error a Scope's CallFunction
// returns, to let Ruby code rescue it as Puppet's Ruby code can: RubyClass
// is the exception class Ruby sees (Puppet::ParseError for an evaluation
// error). Any other error of a called function cannot be rescued.
type RescuableError interface {
	error
	RubyClass() string
}

func (in *interp) errorf(line int, class, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &rubyError{class: class, msg: msg, line: line, full: fmt.Sprintf("template %s:%d: %s: %s", in.tmpl.name, line, class, msg)}
}

// tooLarge reports a string or array past one of the limits in limits.go,
// where Ruby would try to allocate it: the message names the limit and says
// how to raise it (flag is "" for a fixed limit).
func (in *interp) tooLarge(line int, what string, limitName string, limit int64, flag string) error {
	return fmt.Errorf("template %s:%d: %s larger than %s (%d): %s", in.tmpl.name, line, what, limitName, limit, limitOfMarionette(flag))
}

// limitOfMarionette is the end of a limit's error: it is marionette's, not
// Ruby's, and the flag that raises it, if any.
func limitOfMarionette(flag string) string {
	if flag == "" {
		return "a fixed limit of marionette"
	}
	return "a limit of marionette (" + flag + " raises it)"
}

// stringTooLarge is tooLarge for a string.
func (in *interp) stringTooLarge(line int) error {
	return in.tooLarge(line, "string", "MaxStringSize", int64(in.maxString), TemplateSizeFlag)
}

// arrayTooLarge is tooLarge for an array.
func (in *interp) arrayTooLarge(line int) error {
	return in.tooLarge(line, "array", "MaxArraySize", MaxArraySize, "")
}

// repeatSize is the size of n copies of something of size size, for
// String#* and Array#*: Ruby's ArgumentError when n is negative or the
// product overflows max (its largest size), else the product.
func (in *interp) repeatSize(line int, size, n, max int64) (int64, error) {
	switch {
	case n < 0:
		return 0, in.errorf(line, "ArgumentError", "negative argument")
	case size > 0 && n > max/size:
		return 0, in.errorf(line, "ArgumentError", "argument too big")
	}
	return size * n, nil
}

// tooManySteps reports a rendering past MaxSteps.
func (in *interp) tooManySteps(line int) error {
	return fmt.Errorf("template %s:%d: rendering takes more than MaxSteps (%d) steps (an endless loop?): %s", in.tmpl.name, line, MaxSteps, limitOfMarionette(""))
}

// callsTooDeep reports calls nested past MaxCallDepth.
func (in *interp) callsTooDeep(line int) error {
	return fmt.Errorf("template %s:%d: calls nested more than MaxCallDepth (%d) deep: %s", in.tmpl.name, line, MaxCallDepth, limitOfMarionette(""))
}

func (in *interp) unsupported(line int, format string, args ...any) error {
	return unsupportedf("unsupported Ruby in template %s:%d: %s", in.tmpl.name, line, fmt.Sprintf(format, args...))
}

// noMethod reports a call to a method this package lacks: NoMethodError
// when Ruby lacks it too, else an unsupported-Ruby error.
func (in *interp) noMethod(line int, recv any, name string) error {
	class := className(recv)
	switch recv.(type) {
	case *rstr, *rarray, *rhash, int64, float64, nil, bool, symbol, *rrange, *rregexp, *matchData:
		if !rubyHasMethod(class, name) {
			return in.errorf(line, "NoMethodError", "undefined method `%s' for %s:%s", name, truncate(inspectMax(recv, 1024), 60), class)
		}
	}
	return in.unsupported(line, "method %s for %s (%s)", name, class, truncate(inspectMax(recv, 1024), 60))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func (in *interp) eval(n node, e *env) (any, error) {
	in.steps++
	if in.steps > MaxSteps {
		return nil, in.tooManySteps(n.lineNo())
	}
	if in.steps%stopEvery == 0 {
		if st, ok := in.scope.(Stopper); ok {
			if err := st.Stopped(); err != nil {
				return nil, err
			}
		}
	}
	switch n := n.(type) {
	case *nLambda:
		return &procVal{blk: &blockVal{params: n.block.params, body: n.block.body, env: e, lambda: true}, lambda: true}, nil
	case *nSeq:
		var last any
		for _, s := range n.stmts {
			v, err := in.eval(s, e)
			if err != nil {
				return nil, err
			}
			last = v
		}
		return last, nil
	case *nText:
		in.out.WriteString(n.s)
		return nil, nil
	case *nOutput:
		v, err := in.eval(n.expr, e)
		if err != nil {
			return nil, err
		}
		s, err := in.callToS(n.line, v)
		if err != nil {
			return nil, err
		}
		in.out.WriteString(s)
		if in.out.Len() > in.maxString {
			return nil, in.tooLarge(n.line, "template output", "MaxStringSize", int64(in.maxString), TemplateSizeFlag)
		}
		return nil, nil
	case *nNil:
		return nil, nil
	case *nBool:
		return n.v, nil
	case *nSelf:
		return &self{}, nil
	case *nInt:
		return n.v, nil
	case *nFloat:
		return n.v, nil
	case *nStr:
		s, err := in.interpolate(n.parts, e)
		if err != nil {
			return nil, err
		}
		return newStr(s), nil
	case *nSym:
		s, err := in.interpolate(n.parts, e)
		if err != nil {
			return nil, err
		}
		return symbol(s), nil
	case *nRegexp:
		if n.compiled != nil {
			return n.compiled, nil
		}
		s, err := in.interpolate(n.parts, e)
		if err != nil {
			return nil, err
		}
		return in.compileRegexp(n.line, s, n.opts)
	case *nArray:
		a, err := in.evalArgs(n.elems, e)
		if err != nil {
			return nil, err
		}
		return &rarray{a: a}, nil
	case *nHash:
		h := newHash()
		for i, k := range n.keys {
			if _, ok := k.(*nDoubleSplat); ok {
				if err := in.mergeDoubleSplat(k.lineNo(), h, n.vals[i], e); err != nil {
					return nil, err
				}
				continue
			}
			kv, err := in.eval(k, e)
			if err != nil {
				return nil, err
			}
			vv, err := in.eval(n.vals[i], e)
			if err != nil {
				return nil, err
			}
			h.set(kv, vv)
		}
		return h, nil
	case *nRange:
		lo, err := in.eval(n.lo, e)
		if err != nil {
			return nil, err
		}
		hi, err := in.eval(n.hi, e)
		if err != nil {
			return nil, err
		}
		return &rrange{lo, hi, n.excl}, nil
	case *nIVar:
		return in.ivar(n.name), nil
	case *nGVar:
		return in.gvar(n)
	case *nLocal:
		v, _ := e.lookup(n.name)
		return v, nil
	case *nConst:
		return in.constant(n)
	case *nSplat:
		return nil, in.unsupported(n.line, "splat here")
	case *nBlockPass:
		return nil, in.unsupported(n.line, "block argument here")
	case *nCall:
		return in.evalCall(n, e)
	case *nMatchAssign:
		v, err := in.eval(n.match, e)
		if err != nil {
			return nil, err
		}
		for _, name := range n.names {
			var g any
			if v != nil && in.match != nil {
				if i := slices.Index(in.match.names, name); i >= 0 {
					g = in.match.group(i)
				}
			}
			e.assign(name, g)
		}
		return v, nil
	case *nAssign:
		v, err := in.eval(n.value, e)
		if err != nil {
			return nil, err
		}
		return v, in.assign(n.target, v, e)
	case *nOpAssign:
		return in.evalOpAssign(n, e)
	case *nMultiAssign:
		v, err := in.eval(n.value, e)
		if err != nil {
			return nil, err
		}
		var vals []any
		if a, ok := v.(*rarray); ok {
			vals = a.a
		} else {
			vals = []any{v}
		}
		for i, t := range n.targets {
			var x any
			if i < len(vals) {
				x = vals[i]
			}
			if err := in.assign(t, x, e); err != nil {
				return nil, err
			}
		}
		return v, nil
	case *nAnd:
		l, err := in.eval(n.l, e)
		if err != nil || !truthy(l) {
			return l, err
		}
		return in.eval(n.r, e)
	case *nOr:
		l, err := in.eval(n.l, e)
		if err != nil || truthy(l) {
			return l, err
		}
		return in.eval(n.r, e)
	case *nNot:
		v, err := in.eval(n.v, e)
		if err != nil {
			return nil, err
		}
		return !truthy(v), nil
	case *nDefined:
		return in.defined(n, e)
	case *nIf:
		c, err := in.eval(n.cond, e)
		if err != nil {
			return nil, err
		}
		if truthy(c) {
			return in.eval(n.then, e)
		}
		if n.els != nil {
			return in.eval(n.els, e)
		}
		return nil, nil
	case *nWhile:
		for {
			c, err := in.eval(n.cond, e)
			if err != nil {
				return nil, err
			}
			if truthy(c) == n.until {
				return nil, nil
			}
			if _, err := in.eval(n.body, e); err != nil {
				switch s := err.(type) {
				case *breakSignal:
					return s.v, nil
				case *nextSignal:
					continue
				}
				return nil, err
			}
		}
	case *nFor:
		return in.evalFor(n, e)
	case *nCase:
		return in.evalCase(n, e)
	case *nBreak:
		var v any
		if n.v != nil {
			var err error
			if v, err = in.eval(n.v, e); err != nil {
				return nil, err
			}
		}
		return nil, &breakSignal{v, n.line}
	case *nNext:
		var v any
		if n.v != nil {
			var err error
			if v, err = in.eval(n.v, e); err != nil {
				return nil, err
			}
		}
		return nil, &nextSignal{v, n.line}
	case *nBegin:
		return in.evalBegin(n, e)
	case *nModule:
		return in.evalModule(n, e)
	case *nDef:
		if in.defineModuleMethod(n) {
			return symbol(n.name), nil
		}
		if in.defs == nil {
			in.defs = map[string]*nDef{}
		}
		in.defs[n.name] = n
		return symbol(n.name), nil
	case *nReturn:
		var v any
		if n.v != nil {
			var err error
			if v, err = in.eval(n.v, e); err != nil {
				return nil, err
			}
		}
		return nil, &returnSignal{v, n.line}
	case *nIndexCall:
		item, _ := e.lookup("__item")
		i := *n.ib.next
		*n.ib.next = i + 1
		return in.yield(n.line, n.ib.inner, item, i)
	}
	return nil, in.unsupported(n.lineNo(), "%T", n)
}

func (in *interp) interpolate(parts []strNode, e *env) (string, error) {
	if len(parts) == 1 && parts[0].expr == nil {
		return parts[0].lit, nil
	}
	var b strings.Builder
	for _, p := range parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := in.eval(p.expr, e)
		if err != nil {
			return "", err
		}
		s, err := in.callToS(p.expr.lineNo(), v)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// callToS converts a value for output or interpolation.
func (in *interp) callToS(line int, v any) (string, error) {
	switch v := v.(type) {
	case *puppetObj:
		return value.ToString(v.v), nil
	case *self, *scopeObj:
		return "", in.unsupported(line, "printing the %s object", className(v))
	case *uriObj:
		return in.uriText(line, v)
	}
	var s string
	switch v.(type) {
	case *rarray, *rhash:
		s = inspectMax(v, in.maxString)
	default:
		s = toS(v)
	}
	if len(s) > in.maxString {
		return "", in.stringTooLarge(line)
	}
	return s, nil
}

// setIvar assigns an instance variable.
func (in *interp) setIvar(name string, v any) {
	if !slices.Contains(in.assigned, name) {
		in.assigned = append(in.assigned, name)
	}
	in.ivars[name] = v
}

// ivarDefined is Ruby's instance_variable_defined?: the template assigned
// it, or it is a scope variable (Puppet sets none for an undef value).
func (in *interp) ivarDefined(name string) bool {
	if name == "__scope__" || slices.Contains(in.assigned, name) {
		return true
	}
	v, ok := in.scope.Variable(name)
	return ok && !value.IsUndef(v)
}

// ivarArg reads the name argument of instance_variable_get: "@x" or :@x.
func (in *interp) ivarArg(line int, a any) (string, error) {
	var n string
	switch a := a.(type) {
	case *rstr:
		n = a.s
	case symbol:
		n = string(a)
	default:
		return "", in.errorf(line, "TypeError", "%s is not a symbol nor a string", truncate(inspectMax(a, 1024), 60))
	}
	rest, ok := strings.CutPrefix(n, "@")
	if !ok || rest == "" || strings.HasPrefix(rest, "@") {
		return "", in.errorf(line, "NameError", "'%s' is not allowed as an instance variable name", n)
	}
	return rest, nil
}

// instanceVariables is the template's instance_variables as under Puppet:
// @__scope__, one per scope variable that is not undef (non-word
// characters of its name made '_'), then those the template assigned.
func (in *interp) instanceVariables(line int) (any, error) {
	l, ok := in.scope.(VariableLister)
	if !ok {
		return nil, in.unsupported(line, "instance_variables (the scope cannot list its variables)")
	}
	seen := map[string]bool{"__scope__": true}
	out := []any{symbol("@__scope__")}
	var names []string
	if nl, ok := in.scope.(VariableNameLister); ok {
		names = nl.VariableNames()
	} else {
		for _, k := range l.Variables().Keys() {
			names = append(names, value.ToString(k))
		}
	}
	for _, k := range names {
		n := ivarName(k)
		if !seen[n] {
			seen[n] = true
			out = append(out, symbol("@"+n))
		}
	}
	for _, n := range in.assigned {
		if !seen[n] {
			seen[n] = true
			out = append(out, symbol("@"+n))
		}
	}
	return &rarray{a: out}, nil
}

// ivarName is the instance variable Puppet sets for a scope variable: its
// name with each character other than a letter, digit or '_' made '_'.
func ivarName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// ivar reads an instance variable: one assigned in the template, else the
// Puppet variable of that name (nil when there is none, as in Ruby).
func (in *interp) ivar(name string) any {
	if v, ok := in.ivars[name]; ok {
		return v
	}
	var v any
	if pv, ok := in.scope.Variable(name); ok {
		v = in.fromPuppetVar(name, pv)
	}
	in.ivars[name] = v
	return v
}

// FactReader may be implemented by a Scope whose compile records the
// facts it reads (readset): a template's @facts['x'] then reads the fact
// x only, not every fact.
type FactReader interface {
	Fact(name string) (value.Value, bool)
}

// factIndex is a template's @facts['x'] while @facts itself is untouched
// (not read whole, not assigned): the fact x from a FactReader scope,
// converted once per render (handled is false otherwise).
func (in *interp) factIndex(n *nCall, e *env) (v any, handled bool, err error) {
	fr, ok := in.scope.(FactReader)
	if !ok || in.fn != nil {
		return nil, false, nil
	}
	if _, touched := in.ivars["facts"]; touched {
		return nil, false, nil
	}
	if _, touched := in.read["facts"]; touched {
		return nil, false, nil
	}
	arg, err := in.eval(n.args[0], e)
	if err != nil {
		return nil, true, err
	}
	key, ok := arg.(*rstr)
	if !ok {
		// Another key: @facts whole, indexed as Ruby would.
		v, err := in.callMethod(n.line, in.ivar("facts"), "[]", []any{arg}, nil)
		return v, true, err
	}
	if v, seen := in.facts[key.s]; seen {
		return v, true, nil
	}
	if in.facts == nil {
		in.facts = map[string]any{}
	}
	if pv, found := fr.Fact(key.s); found {
		v = in.fromPuppet(pv)
	}
	in.facts[key.s] = v
	return v, true, nil
}

// scopeFactIndex evaluates n, RECV['x'] where RECV is inner, X[S] or
// X.lookupvar(S) with S a string: when X is a scope, S is 'facts' and the
// facts are not otherwise used in this run (not read whole, not set), the
// fact x is read alone from a FactReader scope, as factIndex does for a
// template's @facts['x']; otherwise the calls are made as written.
func (in *interp) scopeFactIndex(n, inner *nCall, e *env) (any, error) {
	recv, err := in.eval(inner.recv, e)
	if err != nil {
		return nil, err
	}
	innerArgs, err := in.evalArgs(inner.args, e)
	if err != nil {
		return nil, err
	}
	so, isScope := recv.(*scopeObj)
	name, _ := innerArgs[0].(*rstr)
	sc := in.scope
	if isScope && so.top {
		if ts, ok := in.scope.(TopScoper); ok {
			sc = ts.TopScope()
		}
	}
	fr, canRead := sc.(FactReader)
	_, set := in.setvarMap(false)["facts"]
	_, read := in.read["facts"]
	if isScope && canRead && name != nil && name.s == "facts" && !set && !read {
		args, err := in.evalArgs(n.args, e)
		if err != nil {
			return nil, err
		}
		if key, ok := args[0].(*rstr); ok {
			if v, seen := in.facts[key.s]; seen {
				return v, nil
			}
			if in.facts == nil {
				in.facts = map[string]any{}
			}
			var v any
			if pv, found := fr.Fact(key.s); found {
				v = in.fromPuppet(pv)
			}
			in.facts[key.s] = v
			return v, nil
		}
		whole, err := in.callMethod(inner.line, recv, inner.name, innerArgs, nil)
		if err != nil {
			return nil, err
		}
		return in.callMethod(n.line, whole, "[]", args, nil)
	}
	whole, err := in.callMethod(inner.line, recv, inner.name, innerArgs, nil)
	if err != nil {
		return nil, err
	}
	args, err := in.evalArgs(n.args, e)
	if err != nil {
		return nil, err
	}
	return in.callMethod(n.line, whole, "[]", args, nil)
}

// fromPuppetVar converts the value of the variable name. Arrays and hashes
// are made once per name and remembered: @x and scope['x'] are the same
// object, as under Puppet, and writeBack can tell whether it changed.
func (in *interp) fromPuppetVar(name string, pv value.Value) any {
	// scope['::x'] is @x when x is the top scope's own variable.
	if top, ok := strings.CutPrefix(name, "::"); ok && !strings.Contains(top, "::") {
		if lv, found := in.scope.Variable(top); found && sameObject(lv, pv) {
			name = top
		}
	}
	if r, ok := in.read[name]; ok {
		return r.obj
	}
	v := in.fromPuppet(pv)
	switch v.(type) {
	case *rarray, *rhash:
		if in.read == nil {
			in.read = map[string]readVar{}
		}
		in.read[name] = readVar{orig: pv, obj: v}
	}
	return v
}

// hasShellwords reports whether Shellwords and its String and Array methods
// are loaded.
func (in *interp) hasShellwords() bool { return in.shellwords || in.fn != nil }

// sameObject reports whether two Puppet arrays or hashes are the very same
// value (not merely equal ones).
func sameObject(a, b value.Value) bool {
	switch a := a.(type) {
	case value.Array:
		b, ok := b.(value.Array)
		return ok && len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
	case *value.Hash:
		b, ok := b.(*value.Hash)
		return ok && a == b
	}
	return false
}

// writeBack gives the scope the new value of each variable whose array or
// hash the template changed in place, as Puppet's templates share the
// variable's Ruby object. Nothing is mutated: the scope rebinds the name.
func (in *interp) writeBack() {
	u, ok := in.scope.(VariableUpdater)
	if !ok || len(in.read) == 0 {
		return
	}
	names := make([]string, 0, len(in.read))
	for n := range in.read {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		r := in.read[n]
		now, err := toPuppet(r.obj)
		if err != nil {
			continue
		}
		// What the template holds is still the value it was given: most
		// templates only read their variables, and the round trip below
		// converts the whole value twice more.
		if value.Identical(now, r.orig) && sameKeyOrder(now, r.orig) {
			continue
		}
		// Compare with the original's own round trip, so that values
		// Ruby cannot hold exactly (default, rich data) do not count as
		// changes.
		before, err := toPuppet(fromPuppet(r.orig))
		if err != nil || value.Identical(now, before) && sameKeyOrder(now, before) {
			continue
		}
		u.UpdateVariable(n, now)
	}
}

// sameKeyOrder reports whether two hashes (Identical already) also list
// their keys in the same order, which Puppet's output shows.
func sameKeyOrder(a, b value.Value) bool {
	ha, ok1 := a.(*value.Hash)
	hb, ok2 := b.(*value.Hash)
	if !ok1 || !ok2 {
		return true
	}
	for i := 0; i < ha.Len(); i++ {
		ka, _ := ha.At(i)
		kb, _ := hb.At(i)
		if !value.Identical(ka, kb) {
			return false
		}
	}
	return true
}

// setvarMap returns the map of the variables set with scope.setvar: the
// whole rendering tree's when the scope shares objects (a nested template
// rendered by scope.function_template reads what its parent set, as under
// Puppet), else this rendering's own. With create false it may be nil.
func (in *interp) setvarMap(create bool) map[string]any {
	m := &in.setvars
	if s, ok := in.scope.(ObjectSharer); ok {
		if objs := s.SharedObjects(); objs != nil {
			m = &objs.setvars
		}
	}
	if *m == nil && create {
		*m = map[string]any{}
	}
	return *m
}

// fromPuppet converts a variable's value, sharing Ruby hashes across the
// rendering tree when the scope asks for it (ObjectSharer).
func (in *interp) fromPuppet(v value.Value) any {
	if s, ok := in.scope.(ObjectSharer); ok {
		return fromPuppetShared(v, s.SharedObjects())
	}
	return fromPuppet(v)
}

func (in *interp) gvar(n *nGVar) (any, error) {
	if len(n.name) == 1 && n.name[0] >= '1' && n.name[0] <= '9' {
		if in.match == nil {
			return nil, nil
		}
		return in.match.group(int(n.name[0] - '0')), nil
	}
	if n.name == "~" {
		if in.match == nil {
			return nil, nil
		}
		return in.match, nil
	}
	if n.name == "!" {
		// The error being rescued, nil outside a rescue clause.
		if in.rescued == nil {
			return nil, nil
		}
		return &rexception{class: in.rescued.class, msg: in.rescued.msg}, nil
	}
	if n.name == "LOAD_PATH" || n.name == ":" {
		// Code adds its module's lib to the load path before a require;
		// every module's lib is on it already (RubyLibrary), so a fresh
		// Array takes the change harmlessly.
		return &rarray{}, nil
	}
	if c := n.name[0]; c >= 'a' && c <= 'z' || c == '_' {
		// A global of the code's own, which nothing here can assign: Ruby
		// reads it as nil (govuk's nginx templates: $is_default_vhost).
		return nil, nil
	}
	return nil, in.unsupported(n.line, "global variable $%s", n.name)
}

func (m *matchData) group(i int) any {
	if i < 0 || 2*i+1 >= len(m.groups) || m.groups[2*i] < 0 {
		return nil
	}
	return newStr(m.str[m.groups[2*i]:m.groups[2*i+1]])
}

// knownConstants are the classes templates name (in is_a? checks mostly).
var knownConstants = map[string]bool{
	"String": true, "Array": true, "Hash": true, "Integer": true, "Fixnum": true, "Bignum": true,
	"Float": true, "Numeric": true, "Symbol": true, "NilClass": true, "TrueClass": true,
	"FalseClass": true, "Regexp": true, "Range": true, "Object": true, "Comparable": true,
	"Enumerable": true, "Kernel": true, "File": true, "Puppet::Error": true, "Puppet::ParseError": true,
	"ArgumentError": true, "RuntimeError": true, "StandardError": true, "TypeError": true,
	"NoMethodError": true, "NameError": true, "IndexError": true, "KeyError": true, "ZeroDivisionError": true,
	"Digest::MD5": true, "Digest::SHA1": true, "Digest::SHA256": true, "Digest::SHA512": true,
	"IPAddr": true, "Gem::Version": true, "JSON": true, "Shellwords": true, "Zlib": true,
	"URI": true, "Puppet::Util::Package": true, "Puppet::Parser::Files": true,
	"Puppet::FileSystem": true, "Puppet::Util": true, "Puppet::Pops::Types::TypeParser": true,
	"Base64": true, "OpenSSL::KDF": true, "OpenSSL::Digest": true, "OpenSSL::HMAC": true,
	"OpenSSL::X509::Certificate": true, "OpenSSL::PKey::RSA": true, sensitiveClass: true,
	"CGI": true, "Puppet": true, runtime3Support: true, "YAML": true, "Psych": true, "Puppet::Parser::Functions": true,
}

// setConst assigns a constant in the module being defined, if any.
func (in *interp) setConst(name string, v any) {
	if len(in.moduleStack) > 0 {
		name = in.moduleStack[len(in.moduleStack)-1] + "::" + name
	}
	if in.consts == nil {
		in.consts = map[string]any{}
	}
	in.consts[name] = v
}

// assignedConst finds a constant the code assigned: in the module being
// defined or run, else at the top level.
func (in *interp) assignedConst(name string) (any, bool) {
	for _, m := range []string{in.current, in.topModule()} {
		if m != "" {
			if v, ok := in.consts[m+"::"+name]; ok {
				return v, true
			}
		}
	}
	v, ok := in.consts[name]
	return v, ok
}

// topModule is the module whose body is being run, or "".
func (in *interp) topModule() string {
	if len(in.moduleStack) == 0 {
		return ""
	}
	return in.moduleStack[len(in.moduleStack)-1]
}

func (in *interp) constant(n *nConst) (any, error) {
	if v, ok := in.assignedConst(n.name); ok {
		return v, nil
	}
	if n.name == "Shellwords" && !in.hasShellwords() {
		return nil, in.errorf(n.line, "NameError", "uninitialized constant Shellwords")
	}
	if knownConstants[n.name] {
		return &rclass{n.name}, nil
	}
	if m, ok := in.moduleConstant(n.name); ok {
		return m, nil
	}
	if n.name == "PBKDF2" && in.pbkdf2 {
		return &rclass{n.name}, nil
	}
	if n.name == "RUBY_VERSION" {
		return &rstr{s: rubyVersion, frozen: true}, nil
	}
	return nil, in.unsupported(n.line, "constant %s", n.name)
}

func (in *interp) assign(target node, v any, e *env) error {
	switch t := target.(type) {
	case *nLocal:
		e.assign(t.name, v)
		return nil
	case *nIVar:
		in.setIvar(t.name, v)
		return nil
	case *nConst:
		in.setConst(t.name, v)
		return nil
	case *nCall:
		recv, err := in.eval(t.recv, e)
		if err != nil {
			return err
		}
		if t.name == "[]" {
			args, err := in.evalArgs(t.args, e)
			if err != nil {
				return err
			}
			_, err = in.callMethod(t.line, recv, "[]=", append(args, v), nil)
			return err
		}
		_, err = in.callMethod(t.line, recv, t.name+"=", []any{v}, nil)
		return err
	}
	return in.unsupported(target.lineNo(), "assignment to %T", target)
}

func (in *interp) evalOpAssign(n *nOpAssign, e *env) (any, error) {
	// Evaluate the receiver and index once, as Ruby does.
	var read func() (any, error)
	var write func(any) error
	switch t := n.target.(type) {
	case *nLocal:
		read = func() (any, error) { v, _ := e.lookup(t.name); return v, nil }
		write = func(v any) error { e.assign(t.name, v); return nil }
	case *nIVar:
		read = func() (any, error) { return in.ivar(t.name), nil }
		write = func(v any) error { in.setIvar(t.name, v); return nil }
	case *nConst:
		// FOO ||= x reads an undefined constant as nil, as Ruby does.
		read = func() (any, error) { v, _ := in.assignedConst(t.name); return v, nil }
		write = func(v any) error { in.setConst(t.name, v); return nil }
	case *nCall:
		recv, err := in.eval(t.recv, e)
		if err != nil {
			return nil, err
		}
		args, err := in.evalArgs(t.args, e)
		if err != nil {
			return nil, err
		}
		if t.name == "[]" {
			read = func() (any, error) { return in.callMethod(t.line, recv, "[]", args, nil) }
			write = func(v any) error {
				_, err := in.callMethod(t.line, recv, "[]=", append(append([]any{}, args...), v), nil)
				return err
			}
		} else {
			read = func() (any, error) { return in.callMethod(t.line, recv, t.name, nil, nil) }
			write = func(v any) error { _, err := in.callMethod(t.line, recv, t.name+"=", []any{v}, nil); return err }
		}
	default:
		return nil, in.unsupported(n.line, "assignment to %T", n.target)
	}
	cur, err := read()
	if err != nil {
		return nil, err
	}
	var v any
	switch n.op {
	case "||":
		if truthy(cur) {
			return cur, nil
		}
		v, err = in.eval(n.value, e)
	case "&&":
		if !truthy(cur) {
			return cur, nil
		}
		v, err = in.eval(n.value, e)
	default:
		var r any
		r, err = in.eval(n.value, e)
		if err == nil {
			v, err = in.callMethod(n.line, cur, n.op, []any{r}, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	return v, write(v)
}

func (in *interp) defined(n *nDefined, e *env) (any, error) {
	switch t := n.v.(type) {
	case *nIVar:
		if in.ivarDefined(t.name) {
			return newStr("instance-variable"), nil
		}
		return nil, nil
	case *nLocal:
		if _, ok := e.lookup(t.name); ok {
			return newStr("local-variable"), nil
		}
		return newStr("local-variable"), nil
	case *nCall:
		if t.recv == nil && len(t.args) == 0 {
			if _, ok := e.lookup(t.name); ok {
				return newStr("local-variable"), nil
			}
			if t.name == "scope" {
				return newStr("method"), nil
			}
			return nil, nil
		}
	case *nConst:
		if _, ok := in.assignedConst(t.name); ok || knownConstants[t.name] {
			return newStr("constant"), nil
		}
		return nil, nil
	}
	return nil, in.unsupported(n.line, "defined? of this expression")
}

func (in *interp) evalFor(n *nFor, e *env) (any, error) {
	iter, err := in.eval(n.iter, e)
	if err != nil {
		return nil, err
	}
	// for loops do not open a scope: the variables stay visible afterwards.
	b := &blockVal{params: n.vars, body: n.body, env: e, noScope: true}
	_, err = in.iterate(n.line, iter, b)
	if err != nil {
		if s, ok := err.(*breakSignal); ok {
			return s.v, nil
		}
		return nil, err
	}
	return iter, nil
}

func (in *interp) evalCase(n *nCase, e *env) (any, error) {
	var subject any
	if n.subject != nil {
		var err error
		if subject, err = in.eval(n.subject, e); err != nil {
			return nil, err
		}
	}
	for _, w := range n.whens {
		for _, c := range w.conds {
			var tests []any
			if s, ok := c.(*nSplat); ok {
				v, err := in.eval(s.v, e)
				if err != nil {
					return nil, err
				}
				tests = toArray(v)
			} else {
				v, err := in.eval(c, e)
				if err != nil {
					return nil, err
				}
				tests = []any{v}
			}
			for _, t := range tests {
				var hit bool
				if n.subject == nil {
					hit = truthy(t)
				} else {
					r, err := in.caseEq(c.lineNo(), t, subject)
					if err != nil {
						return nil, err
					}
					hit = r
				}
				if hit {
					return in.eval(w.body, e)
				}
			}
		}
	}
	if n.els != nil {
		return in.eval(n.els, e)
	}
	return nil, nil
}

// caseEq is Ruby's === as case/when uses it.
func (in *interp) caseEq(line int, pattern, v any) (bool, error) {
	switch p := pattern.(type) {
	case *rclass:
		return isA(v, p.name), nil
	case *rregexp:
		s, ok := v.(*rstr)
		if !ok {
			if sym, isSym := v.(symbol); isSym {
				s, ok = newStr(string(sym)), true
			}
		}
		if !ok {
			return false, nil
		}
		m, err := in.matchRegexp(line, p, s.s)
		return m != nil, err
	case *rrange:
		return rangeIncludes(p, v), nil
	}
	return rubyEqual(pattern, v), nil
}

func rangeIncludes(r *rrange, v any) bool {
	if c, ok := compare(r.lo, v); !ok || c > 0 {
		return false
	}
	if r.hi == nil {
		return true
	}
	c, ok := compare(v, r.hi)
	if !ok {
		return false
	}
	return c < 0 || c == 0 && !r.excl
}

// kernelRand is Kernel#rand: a Float in [0, 1) without a bound (or with
// a bound below 1), an Integer below the bound's absolute value, or one
// in an Integer range.
func (in *interp) kernelRand(line int, args []any) (any, error) {
	var bound int64
	if len(args) == 1 {
		switch a := args[0].(type) {
		case nil:
		case int64:
			bound = a
		case float64:
			bound = int64(a)
		case *rrange:
			lo, ok1 := a.lo.(int64)
			hi, ok2 := a.hi.(int64)
			if !ok1 || !ok2 {
				return nil, in.unsupported(line, "rand of this range")
			}
			if a.excl {
				hi--
			}
			if hi < lo || hi-lo < 0 {
				return nil, nil
			}
			return lo + rand.Int64N(hi-lo+1), nil
		default:
			return nil, in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", className(a))
		}
	}
	if bound < 0 {
		bound = -bound
	}
	if bound <= 0 {
		return rand.Float64(), nil
	}
	return rand.Int64N(bound), nil
}

// mergeDoubleSplat adds the pairs of **v to a hash being built.
func (in *interp) mergeDoubleSplat(line int, h *rhash, v node, e *env) error {
	x, err := in.eval(v, e)
	if err != nil {
		return err
	}
	src, ok := x.(*rhash)
	if !ok {
		name := className(x)
		if x == nil {
			name = "nil"
		}
		return in.errorf(line, "TypeError", "no implicit conversion of %s into Hash", name)
	}
	for i, k := range src.keys {
		h.set(k, src.vals[i])
	}
	return nil
}

func (in *interp) evalBegin(n *nBegin, e *env) (any, error) {
	v, err := in.eval(n.body, e)
	if re, ok := err.(*rubyError); ok {
		for i := range n.rescues {
			c := &n.rescues[i]
			if !in.rescues(c, re.class) {
				continue
			}
			if c.varName != "" {
				e.assign(c.varName, &rexception{class: re.class, msg: re.msg})
			}
			saved := in.rescued
			in.rescued = re
			v, err = in.eval(c.body, e)
			in.rescued = saved
			break
		}
	} else if err == nil && n.els != nil {
		v, err = in.eval(n.els, e)
	}
	if n.ensure != nil {
		if _, err2 := in.eval(n.ensure, e); err2 != nil {
			// An error in ensure replaces the one being raised, as in Ruby.
			v, err = nil, err2
		}
	}
	return v, err
}

// evalArgs evaluates arguments, expanding *splats.
func (in *interp) evalArgs(args []node, e *env) ([]any, error) {
	out := make([]any, 0, len(args))
	for _, a := range args {
		if s, ok := a.(*nSplat); ok {
			v, err := in.eval(s.v, e)
			if err != nil {
				return nil, err
			}
			out = append(out, toArray(v)...)
			continue
		}
		v, err := in.eval(a, e)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// toArray is Kernel#Array.
func toArray(v any) []any {
	switch v := v.(type) {
	case nil:
		return nil
	case *rarray:
		return v.a
	case *rhash:
		out := make([]any, len(v.keys))
		for i, k := range v.keys {
			out[i] = &rarray{a: []any{k, v.vals[i]}}
		}
		return out
	}
	return []any{v}
}

// blockVal is a block ready to be called.
type blockVal struct {
	params  []param
	body    node
	env     *env
	noScope bool // for loops bind into the enclosing scope
	// symbol is set for a &:method block, which calls method on its first
	// argument (method may be empty: &:'' is valid Ruby).
	symbol bool
	method string
	// lambda is set for a lambda passed as a block (&f): return in it
	// returns from the lambda, not from the method around it.
	lambda bool
	// native is the Puppet lambda given to a 4.x function, its block.
	native func(args []value.Value) (value.Value, error)
}

func (in *interp) evalCall(n *nCall, e *env) (any, error) {
	if inner, ok := n.recv.(*nCall); ok && n.name == "[]" && len(n.args) == 1 && n.block == nil && !n.safeNav &&
		(inner.name == "[]" || inner.name == "lookupvar") && inner.recv != nil && len(inner.args) == 1 && inner.block == nil && !inner.safeNav {
		if str, isStr := inner.args[0].(*nStr); isStr && len(str.parts) == 1 && str.parts[0].expr == nil && str.parts[0].lit == "facts" {
			if _, call := inner.recv.(*nCall); call {
				return in.scopeFactIndex(n, inner, e)
			}
		}
	}
	if iv, ok := n.recv.(*nIVar); ok && iv.name == "facts" && n.name == "[]" && len(n.args) == 1 && n.block == nil {
		if v, handled, err := in.factIndex(n, e); handled {
			return v, err
		}
	}
	var recv any
	if n.recv != nil {
		var err error
		if recv, err = in.eval(n.recv, e); err != nil {
			return nil, err
		}
		if recv == nil && n.safeNav {
			return nil, nil
		}
	} else if len(n.args) == 0 && n.block == nil {
		// A bare name the parser could not prove local: look for a local
		// assigned in a sibling scope before treating it as a method.
		if v, ok := e.lookup(n.name); ok {
			return v, nil
		}
	}
	args, err := in.evalArgs(n.args, e)
	if err != nil {
		return nil, err
	}
	var blk *blockVal
	if n.block != nil {
		if bp, ok := n.block.body.(*nBlockPass); ok {
			v, err := in.eval(bp.v, e)
			if err != nil {
				return nil, err
			}
			switch b := v.(type) {
			case *procVal:
				blk = b.blk
			case symbol:
				blk = &blockVal{symbol: true, method: string(b)}
			default:
				return nil, in.unsupported(n.line, "block argument that is not a Symbol or Proc")
			}
		} else {
			blk = &blockVal{params: n.block.params, body: n.block.body, env: e}
		}
	}
	if n.recv == nil {
		return in.callSelf(n.line, n.name, args, blk)
	}
	in.depth++
	defer func() { in.depth-- }()
	if in.depth > MaxCallDepth {
		return nil, in.callsTooDeep(n.line)
	}
	return in.callMethod(n.line, recv, n.name, args, blk)
}

// yield calls a block with arguments, binding parameters like a Ruby proc:
// a lone Array argument spreads over several parameters.
func (in *interp) yield(line int, b *blockVal, args ...any) (any, error) {
	if b.native != nil {
		return in.yieldLambda(line, b, args)
	}
	if b.symbol {
		if len(args) == 0 {
			return nil, in.errorf(line, "ArgumentError", "no receiver given")
		}
		return in.callMethod(line, args[0], b.method, args[1:], nil)
	}
	e := b.env
	if !b.noScope {
		e = &env{vars: make(map[string]any, len(b.params)), parent: b.env}
	}
	if len(b.params) > 1 && len(args) == 1 {
		if a, ok := args[0].(*rarray); ok {
			args = a.a
		}
	}
	bindParams(e, b.params, args, b.noScope)
	v, err := in.eval(b.body, e)
	if err != nil {
		if s, ok := err.(*nextSignal); ok {
			return s.v, nil
		}
		if r, ok := err.(*returnSignal); ok && b.lambda {
			return r.v, nil
		}
		return nil, err
	}
	return v, nil
}

func bindParams(e *env, params []param, args []any, assignOuter bool) {
	for i, p := range params {
		var v any
		if p.splat {
			if i < len(args) {
				v = &rarray{a: append([]any(nil), args[i:]...)}
			} else {
				v = &rarray{}
			}
		} else if i < len(args) {
			v = args[i]
		}
		if p.sub != nil {
			var sub []any
			if a, ok := v.(*rarray); ok {
				sub = a.a
			} else {
				sub = []any{v}
			}
			bindParams(e, p.sub, sub, assignOuter)
			continue
		}
		if assignOuter {
			e.assign(p.name, v)
		} else {
			e.vars[p.name] = v
		}
	}
}

// callSelf calls a method on the template object (a call with no receiver).
func (in *interp) callSelf(line int, name string, args []any, blk *blockVal) (any, error) {
	if d, ok := in.currentModuleMethod(name); ok {
		return in.callDef(line, d, args, blk)
	}
	if d, ok := in.defs[name]; ok {
		return in.callDef(line, d, args, blk)
	}
	if in.fn != nil {
		if v, handled, err := in.fnSelf(line, name, args); handled {
			return v, err
		}
	}
	switch name {
	case "scope":
		if len(args) == 0 {
			return &scopeObj{}, nil
		}
	case "catch":
		// catch(tag) { ... }: a throw of the same object ends the block
		// with the thrown value.
		if len(args) == 1 && blk != nil {
			in.catches = append(in.catches, args[0])
			v, err := in.yield(line, blk, args[0])
			in.catches = in.catches[:len(in.catches)-1]
			if t, ok := err.(*throwSignal); ok && t.tag == args[0] {
				return t.v, nil
			}
			return v, err
		}
	case "throw":
		if len(args) == 1 || len(args) == 2 {
			for _, tag := range in.catches {
				if tag == args[0] {
					t := &throwSignal{tag: args[0]}
					if len(args) == 2 {
						t.v = args[1]
					}
					return nil, t
				}
			}
			return nil, in.errorf(line, "UncaughtThrowError", "uncaught throw %s", inspect(args[0]))
		}
	case "has_variable?":
		if len(args) == 1 {
			if s, ok := args[0].(*rstr); ok {
				_, found := in.scope.Variable(s.s)
				return found, nil
			}
		}
	case "Array":
		if len(args) == 1 {
			return &rarray{a: append([]any(nil), toArray(args[0])...)}, nil
		}
	case "String":
		if len(args) == 1 {
			s, err := in.callToS(line, args[0])
			return newStr(s), err
		}
	case "Integer", "Float":
		if len(args) == 1 {
			return in.kernelNumber(line, name, args[0])
		}
	case "Hash":
		if len(args) == 1 {
			switch a := args[0].(type) {
			case nil:
				return newHash(), nil
			case *rhash:
				return a, nil
			case *rarray:
				if len(a.a) == 0 {
					return newHash(), nil
				}
			}
			return nil, in.errorf(line, "TypeError", "can't convert %s into Hash", className(args[0]))
		}
	case "raise", "fail":
		msg := "unhandled exception"
		class := "RuntimeError"
		if len(args) == 0 && in.rescued != nil {
			// raise alone in a rescue clause raises the error again.
			return nil, in.rescued
		}
		if len(args) > 0 {
			msg = toS(args[len(args)-1])
			switch c := args[0].(type) {
			case *rclass:
				class = c.name
				if len(args) == 1 {
					msg = c.name
				}
			case *rmodule:
				// A class the code defined (class MyError < StandardError).
				class = c.name
				if len(args) == 1 {
					msg = c.name
				}
			case *rexception:
				class = c.class
			}
		}
		return nil, in.errorf(line, class, "%s", msg)
	case "_":
		// Puppet's gettext method: the message, untranslated.
		if len(args) == 1 {
			if s, ok := args[0].(*rstr); ok {
				return newStr(s.s), nil
			}
		}
	case "rand":
		// Kernel#rand, as stdlib's shuffle uses it: Puppet's answer is
		// random too (and the catalog is never reused, see readset).
		if len(args) <= 1 {
			if u, ok := in.scope.(UntrackedReader); ok {
				u.UntrackedRead("a random draw (Ruby's rand)")
			}
			return in.kernelRand(line, args)
		}
	case "URI":
		// Kernel#URI, as URI.parse.
		return in.parseURI(line, args)
	case "format", "sprintf":
		if len(args) >= 1 {
			s, err := in.format(line, args[0], args[1:])
			if err != nil {
				return nil, err
			}
			return newStr(s), nil
		}
	case "require_relative":
		// Relative to the function's file, within its module's lib
		// (mongodb's function requires ../util/mongodb_md5er).
		if len(args) == 1 && in.fn != nil {
			if s, ok := args[0].(*rstr); ok {
				if i := strings.LastIndex(in.fn.File, "/lib/"); i >= 0 {
					target := path.Clean(path.Join(path.Dir(in.fn.File[i+len("/lib/"):]), s.s))
					return in.require(line, target)
				}
			}
		}
		return false, nil
	case "require":
		// Puppet has loaded most of what templates require; shellwords
		// it has not, and its String and Array methods come with it.
		if len(args) == 1 && toS(args[0]) == "shellwords" && !in.shellwords {
			in.shellwords = true
			return true, nil
		}
		if len(args) == 1 {
			if s, ok := args[0].(*rstr); ok {
				return in.require(line, s.s)
			}
		}
		return false, nil
	case "__FILE__":
		if len(args) == 0 {
			return newStr(in.tmpl.name), nil
		}
	case "file":
		return nil, in.unsupported(line, "the template's file name")
	case "instance_variables":
		if len(args) == 0 {
			return in.instanceVariables(line)
		}
	case "instance_variable_get", "instance_variable_defined?":
		if len(args) == 1 {
			n, err := in.ivarArg(line, args[0])
			if err != nil {
				return nil, err
			}
			if name == "instance_variable_defined?" {
				return in.ivarDefined(n), nil
			}
			if n == "__scope__" {
				return &scopeObj{}, nil
			}
			return in.ivar(n), nil
		}
	case "lambda", "proc":
		if len(args) == 0 && blk != nil && !blk.symbol {
			if name == "lambda" {
				b := *blk
				b.lambda = true
				blk = &b
			}
			return &procVal{blk: blk, lambda: name == "lambda"}, nil
		}
	case "binding", "eval", "puts", "print", "p":
	case "block_given?":
		return in.block != nil, nil
	case "yield":
		if in.block == nil {
			return nil, in.errorf(line, "LocalJumpError", "no block given (yield)")
		}
		return in.yield(line, in.block, args...)
	}
	return nil, in.unsupported(line, "method %s on the template", name)
}

// callScope implements the methods templates call on `scope`.
// callTopScope is a method of a 4.x function's closure_scope: the top
// scope, whose variables it reads and, with []= or setvar, sets.
func (in *interp) callTopScope(line int, name string, args []any) (any, error) {
	ts, ok := in.scope.(TopScoper)
	if !ok {
		return in.callScope(line, name, args)
	}
	top := ts.TopScope()
	if name == "[]=" || name == "setvar" {
		var n *rstr
		if len(args) == 2 {
			n, _ = args[0].(*rstr)
		}
		setter, canSet := top.(VariableSetter)
		if n == nil || !canSet {
			return nil, in.unsupported(line, "closure_scope.%s", name)
		}
		v, err := toPuppet(args[1])
		if err != nil {
			return nil, in.unsupported(line, "closure_scope.%s of %v", name, err)
		}
		in.scopeHash = nil
		if err := setter.SetVariable(n.s, v); err != nil {
			return nil, in.errorf(line, "Puppet::ParseError", "%s", err.Error())
		}
		return args[1], nil
	}
	saved := in.scope
	in.scope = top
	defer func() { in.scope = saved }()
	return in.callScope(line, name, args)
}

func (in *interp) callScope(line int, name string, args []any) (any, error) {
	varName := func() (string, bool) {
		if len(args) >= 1 {
			if s, ok := args[0].(*rstr); ok {
				return s.s, true
			}
		}
		return "", false
	}
	switch {
	case (name == "setvar" || name == "[]=") && in.fn != nil:
		// A function's scope is the calling Puppet scope: the variable
		// is set there, once, as Puppet's Scope#setvar does.
		n, ok := varName()
		setter, canSet := in.scope.(VariableSetter)
		if !ok || len(args) != 2 || !canSet {
			return nil, in.unsupported(line, "scope.%s needs a name and a value", name)
		}
		v, err := toPuppet(args[1])
		if err != nil {
			return nil, in.unsupported(line, "scope.%s of %v", name, err)
		}
		in.scopeHash = nil
		if err := setter.SetVariable(n, v); err != nil {
			return nil, in.errorf(line, "Puppet::ParseError", "%s", err.Error())
		}
		return args[1], nil
	case name == "setvar":
		n, ok := varName()
		if !ok || len(args) != 2 {
			return nil, in.unsupported(line, "scope.setvar needs a name and a value")
		}
		in.setvarMap(true)[n] = args[1]
		return args[1], nil
	case name == "[]" || name == "lookupvar":
		n, ok := varName()
		if !ok {
			return nil, in.unsupported(line, "scope.%s needs a String", name)
		}
		if v, found := in.setvarMap(false)[n]; found {
			return v, nil
		}
		if v, found := in.scope.Variable(n); found {
			return in.fromPuppetVar(n, v), nil
		}
		return nil, nil
	case name == "include?" || name == "exist?" || name == "key?" || name == "has_key?":
		n, ok := varName()
		if !ok {
			return nil, in.unsupported(line, "scope.%s needs a String", name)
		}
		_, found := in.scope.Variable(n)
		return found, nil
	case name == "to_hash" && len(args) == 0:
		if l, ok := in.scope.(VariableLister); ok {
			if in.scopeHash == nil {
				h, ok := fromPuppet(l.Variables()).(*rhash)
				if !ok {
					return nil, in.unsupported(line, "scope.to_hash (the scope's variables are no Hash)")
				}
				in.scopeHash = h
			}
			return in.scopeHash.copy(), nil
		}
		return nil, in.unsupported(line, "scope.to_hash (the scope cannot list its variables)")
	case name == "call_function":
		n, ok := varName()
		if !ok {
			return nil, in.unsupported(line, "scope.call_function needs a function name")
		}
		// Puppet passes the second argument on with Ruby's splat (*args).
		fargs := args[1:]
		if len(args) == 2 {
			fargs = splat(args[1])
		}
		return in.callPuppet(line, n, fargs)
	case name == "lookupdefaults" && len(args) == 1:
		typ, ok := args[0].(*rstr)
		if !ok {
			return nil, in.unsupported(line, "scope.lookupdefaults needs a type name String")
		}
		l, ok := in.scope.(DefaultsLister)
		if !ok {
			return nil, in.unsupported(line, "scope.lookupdefaults (the scope has no resource defaults)")
		}
		h := newHash()
		for _, d := range l.ResourceDefaults(typ.s) {
			h.set(symbol(d.Name), in.fromPuppetVar(d.Name, d.Value))
		}
		return h, nil
	case name == "resource" && len(args) == 0:
		return in.scopeResource(line)
	case (name == "compiler" || name == "catalog") && len(args) == 0:
		return &compilerPart{part: name}, nil
	case name == "environment" && len(args) == 0:
		return &envObj{}, nil
	case name == "find_hostclass" || name == "find_definition":
		return in.findDefinition(line, name, args)
	case name == "known_resource_types" && len(args) == 0:
		return &knownTypesObj{}, nil
	case strings.HasPrefix(name, "function_"):
		fn := strings.TrimPrefix(name, "function_")
		if len(args) != 1 {
			return nil, in.errorf(line, "ArgumentError", "custom functions must be called with a single array that contains the arguments. For example, function_example([1]) instead of function_example(1)")
		}
		a, ok := args[0].(*rarray)
		if !ok {
			return nil, in.errorf(line, "ArgumentError", "custom functions must be called with a single array that contains the arguments. For example, function_example([1]) instead of function_example(1)")
		}
		return in.callPuppetAs(line, fn, a.a, true)
	}
	return nil, in.unsupported(line, "method %s on scope", name)
}

// DefaultsLister may be implemented by a Scope to give Ruby code
// scope.lookupdefaults: the resource defaults (Type { attr => value }) in
// effect for a type there, the nearest scope's value winning.
type DefaultsLister interface {
	ResourceDefaults(typ string) []Default
}

// Default is one attribute of a resource default.
type Default struct {
	Name  string
	Value value.Value
}

// Function3Caller may be implemented by a Scope to run scope.function_x
// as Puppet does: with a module's 3.x function x when there is one, even
// where a 4.x function of that name exists (stdlib ships both forms of
// has_interface_with). found is false when no 3.x function x exists; the
// call then goes to CallFunction.
type Function3Caller interface {
	CallFunction3(name string, args []value.Value) (v value.Value, found bool, err error)
}

func (in *interp) callPuppet(line int, name string, args []any) (any, error) {
	return in.callPuppetAs(line, name, args, false)
}

// callPuppetAs calls a Puppet function; function3 is set for
// scope.function_x, which prefers a 3.x function.
func (in *interp) callPuppetAs(line int, name string, args []any, function3 bool) (any, error) {
	return in.callPuppetIn(in.scope, line, name, args, function3)
}

// callPuppetIn calls a Puppet function in scope sc.
func (in *interp) callPuppetIn(sc Scope, line int, name string, args []any, function3 bool) (any, error) {
	in.scopeHash = nil // the function may set variables
	pv := make([]value.Value, len(args))
	for i, a := range args {
		v, err := toPuppet(a)
		if err != nil {
			return nil, in.unsupported(line, "argument to %s: %v", name, err)
		}
		pv[i] = v
	}
	call := sc.CallFunction
	if in.callSibling != nil && in.fn.sibling(name) != nil {
		call = in.callSibling
	} else if f3, ok := sc.(Function3Caller); ok && function3 {
		call = func(name string, args []value.Value) (value.Value, error) {
			v, found, err := f3.CallFunction3(name, args)
			if !found {
				return sc.CallFunction(name, args)
			}
			return v, err
		}
	}
	r, err := call(name, pv)
	if err != nil {
		var re RescuableError
		if errors.As(err, &re) {
			return nil, &rubyError{class: re.RubyClass(), msg: re.Error(), line: line, full: fmt.Sprintf("template %s:%d: %v", in.tmpl.name, line, err), cause: err}
		}
		return nil, fmt.Errorf("template %s:%d: %w", in.tmpl.name, line, err)
	}
	return fromPuppet(r), nil
}

// callDef calls a method the template defined; it sees instance variables
// but none of the caller's locals.
func (in *interp) callDef(line int, d *nDef, args []any, blk *blockVal) (any, error) {
	in.depth++
	saved, savedMatch := in.block, in.match
	// $~ (and $1...) is local to each method call, as in Ruby: a method
	// starts without one and leaves its caller's as it was.
	in.block, in.match = blk, nil
	defer func() { in.depth--; in.block, in.match = saved, savedMatch }()
	if in.depth > MaxCallDepth {
		return nil, in.callsTooDeep(line)
	}
	e, err := in.bindDefParams(line, d, args)
	if err != nil {
		return nil, err
	}
	v, err := in.eval(d.body, e)
	if r, ok := err.(*returnSignal); ok {
		return r.v, nil
	}
	return v, err
}

// splat gives the values Ruby's *v spreads into an argument list: an Array's
// elements, a Hash's [key, value] pairs, nothing for nil, else v alone.
func splat(v any) []any {
	switch x := v.(type) {
	case *rarray:
		return x.a
	case *rhash:
		out := make([]any, len(x.keys))
		for i, k := range x.keys {
			out[i] = &rarray{a: []any{k, x.vals[i]}}
		}
		return out
	case nil:
		return nil
	}
	return []any{v}
}
