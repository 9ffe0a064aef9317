// Package eval evaluates Puppet language expressions.
//
// The evaluator knows the language: values, operators, variables and their
// scopes, conditionals, strings, lambdas. Everything that touches the catalog
// or the environment (functions, resources, classes, collectors, qualified
// variables, type aliases) goes through the Host interface, which the compiler
// implements with its per-compile state. Errors, and the control flow of
// return/next/break, travel as Go errors; nothing here panics on bad input.
package eval

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Call is one function call, with its arguments evaluated.
type Call struct {
	Name   string
	Args   []value.Value
	Lambda *Lambda // nil when the call has no block
	Node   syntax.Node
}

// Host is the compile around an evaluation.
type Host interface {
	// CallFunction runs a function (built-in or Puppet-language).
	CallFunction(ev *Evaluator, sc *Scope, c *Call) (value.Value, error)
	// QualifiedVariable resolves $a::b (variable b of class a). name has no
	// leading "::".
	QualifiedVariable(sc *Scope, name string, at syntax.Node) (value.Value, error)
	// ResolveType resolves a capitalized name that is not a built-in data
	// type: a type alias, else a resource type reference.
	ResolveType(sc *Scope, name string, at syntax.Node) (value.Type, error)
	// Statement evaluates the catalog statements: resource declarations,
	// defaults, overrides, collectors and relationships.
	Statement(ev *Evaluator, sc *Scope, x syntax.Expr) (value.Value, error)
}

// StatementRunner is an optional extension of Host: RunStatement runs a
// catalog statement whose value nobody uses (it is not the last of its
// block), so that the host need not build the value. Statement is used
// otherwise.
type StatementRunner interface {
	RunStatement(ev *Evaluator, sc *Scope, x syntax.Expr) error
}

// Evaluator evaluates expressions for one compile. It is not safe for
// concurrent use; each compile has its own.
type Evaluator struct {
	Host Host
	// Context, when not nil, is looked at every so many steps of
	// evaluation; once it is done, evaluation ends with a *Stopped error.
	Context context.Context
	// untilPoll counts the steps down to the next look at Context.
	untilPoll int
	// stopped is the error evaluation stopped with, once it has.
	stopped *Stopped
	// done is set when Context is done, once watch has registered for it;
	// unwatch removes that registration and stops the heap watcher (Release).
	done    *atomic.Bool
	unwatch func()
	// depth guards against runaway recursion in Puppet code.
	depth int
	// nesting counts the evaluations in progress (MaxEvalNesting).
	nesting int
	// depths remembers the nesting depth of containers built (see
	// checkNesting).
	depths map[nodeKey]int
	// depthWalked counts the containers valueDepth has walked, so that a
	// walk that cost much is remembered whatever the depth it found.
	depthWalked int
	// MaxValueSize bounds how large a value may expand when it is turned
	// into a string, compared or flattened (value.DefaultMaxValueSize when
	// zero): shared structure makes small code build huge values.
	MaxValueSize int64
	// MaxHeap, when positive, bounds the process's live heap while this
	// evaluation runs: past it, the next poll stops evaluation with a
	// *HeapExceeded (values each within MaxValueSize can still add up).
	MaxHeap int64
	// render collects output while an EPP template is evaluated.
	render *strings.Builder
	// strings holds string literals boxed as values: a literal evaluated
	// again (in a define or lambda body) is looked up, not allocated again.
	strings map[*syntax.StringLit]value.Value
	// Literals, when set, holds string literals boxed by earlier
	// evaluations of the same code, looked at before strings and never
	// written: a fleet's compiles share them (see BoxedLiterals).
	Literals map[*syntax.StringLit]value.Value
	// regexps holds the regular expressions compiled from Puppet source
	// (literals, strings matched with =~), by source: compiling one costs
	// far more than matching, and the same patterns come back in every
	// instance of a define and every iteration of a loop.
	regexps map[string]*value.Regexp
	// words holds bare words boxed as strings, as strings does literals.
	words map[*syntax.QualifiedName]value.Value
	// paramTypes holds the types of parameters evaluated by ParamType
	// that are written with type names and literals only: the same value
	// at every call of a compile.
	paramTypes map[*syntax.Parameter]value.Value
	// Strict is Puppet's strict setting and StrictVariables its
	// strict_variables: whether unknown variables and numeric strings in
	// arithmetic pass, warn (through Warn) or fail.
	Strict          Strictness
	StrictVariables bool
	// Warn, when set, receives the warnings of strict = warning.
	Warn func(*diag.Diagnostic)
}

// maxDepth bounds nested calls (Puppet code recursing without end).
const maxDepth = 1000

// MaxValueSizeOrDefault is the bound on expanding one value.
func (ev *Evaluator) MaxValueSizeOrDefault() int64 {
	if ev.MaxValueSize > 0 {
		return ev.MaxValueSize
	}
	return value.DefaultMaxValueSize
}

// CheckSize fails, naming what expands v, when v would expand past
// MaxValueSize; scalars pass at no cost.
func (ev *Evaluator) CheckSize(v value.Value, what string) error {
	return value.CheckSize(v, ev.MaxValueSizeOrDefault(), what)
}

// Eval evaluates x in scope sc.
func (ev *Evaluator) Eval(x syntax.Expr, sc *Scope) (value.Value, error) {
	// Every nesting of evaluation goes through here: expressions, calls,
	// lambdas, templates. The syntax trees are bounded in depth, but calls
	// multiply that depth (a recursive function whose call sits deep in an
	// expression), and the Go stack must never be what stops them.
	ev.nesting++
	if ev.nesting > MaxEvalNesting {
		ev.nesting--
		return nil, errorAt(sc, x, "Evaluation is nested more than MaxEvalNesting (%d) deep (a fixed limit of marionette)", MaxEvalNesting)
	}
	v, err := ev.evalExpr(x, sc)
	ev.nesting--
	return v, err
}

func (ev *Evaluator) evalExpr(x syntax.Expr, sc *Scope) (value.Value, error) {
	switch x := x.(type) {
	case nil:
		return value.Undef, nil
	case *syntax.StringLit:
		return ev.stringLit(x), nil
	case *syntax.InterpolatedString:
		return ev.interpolate(x, sc)
	case *syntax.Heredoc:
		return ev.Eval(x.Text, sc)
	case *syntax.IntegerLit:
		return value.Integer(x.Value), nil
	case *syntax.FloatLit:
		return value.Float(x.Value), nil
	case *syntax.BoolLit:
		return value.Boolean(x.Value), nil
	case *syntax.UndefLit:
		return value.Undef, nil
	case *syntax.DefaultLit:
		return value.Default, nil
	case *syntax.RegexLit:
		r, err := ev.regexp(x.Pattern)
		if err != nil {
			return nil, errorAt(sc, x, "Invalid regular expression /%s/: %v", x.Pattern, err)
		}
		return r, nil
	case *syntax.QualifiedName:
		// A bare word used as a value is a string, boxed once per compile
		// (ensure => file in a define or loop body).
		return ev.bareWord(x), nil
	case *syntax.Variable:
		return ev.variable(x, sc)
	case *syntax.TypeReference:
		return ev.typeReference(x, sc)
	case *syntax.ArrayLit:
		v, err := ev.array(x.Elements, sc)
		if err == nil {
			err = ev.checkNesting(v, sc, x)
		}
		return v, err
	case *syntax.HashLit:
		v, err := ev.hash(x, sc)
		if err == nil {
			err = ev.checkNesting(v, sc, x)
		}
		return v, err
	case *syntax.ParenExpr:
		return ev.Eval(x.X, sc)
	case *syntax.Block:
		return ev.Block(x, sc)
	case *syntax.AccessExpr:
		return ev.access(x, sc)
	case *syntax.UnaryExpr:
		return ev.unary(x, sc)
	case *syntax.BinaryExpr:
		return ev.binary(x, sc)
	case *syntax.AssignExpr:
		return ev.assign(x, sc)
	case *syntax.IfExpr:
		return ev.ifExpr(x, sc)
	case *syntax.UnlessExpr:
		return ev.unlessExpr(x, sc)
	case *syntax.CaseExpr:
		return ev.caseExpr(x, sc)
	case *syntax.SelectorExpr:
		return ev.selector(x, sc)
	case *syntax.CallExpr:
		return ev.call(x, sc)
	case *syntax.MethodCall:
		return ev.methodCall(x, sc)
	case *syntax.Lambda:
		return &Lambda{Def: x, Scope: sc}, nil
	case *syntax.ResourceExpr, *syntax.ResourceDefaultsExpr, *syntax.ResourceOverrideExpr,
		*syntax.CollectExpr, *syntax.RelationshipExpr:
		return ev.Host.Statement(ev, sc, x)
	case *syntax.ClassDef, *syntax.DefineDef, *syntax.NodeDef, *syntax.FunctionDef, *syntax.TypeAlias:
		// Definitions are hoisted and registered before evaluation starts.
		return value.Undef, nil
	case *syntax.RenderString:
		if ev.render != nil {
			ev.render.WriteString(x.Value)
		}
		return value.Undef, nil
	case *syntax.RenderExpr:
		v, err := ev.Eval(x.X, sc)
		if err != nil {
			return nil, err
		}
		if ev.render != nil {
			if err := ev.CheckSize(v, "EPP output"); err != nil {
				return nil, errorAt(sc, x, "%v", err)
			}
			ev.render.WriteString(value.ToString(v))
		}
		return value.Undef, nil
	case *syntax.ImportStmt:
		return nil, IssueAt(sc, x, diag.DiscontinuedImport, nil, "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation")
	}
	return nil, errorAt(sc, x, "Unsupported expression: %T", x)
}

// RenderEPP evaluates a parsed EPP template in sc (parameters already bound)
// and returns the text it renders.
func (ev *Evaluator) RenderEPP(prog *syntax.EPPProgram, sc *Scope) (string, error) {
	saved := ev.render
	var out strings.Builder
	ev.render = &out
	defer func() { ev.render = saved }()
	if _, err := ReturnValue(ev.Block(prog.Body, sc)); err != nil {
		return "", err
	}
	return out.String(), nil
}

// Block evaluates the statements of a block in order; its value is the last one's.
func (ev *Evaluator) Block(b *syntax.Block, sc *Scope) (value.Value, error) {
	if b == nil {
		return value.Undef, nil
	}
	return ev.Statements(b.Stmts, sc)
}

// Statements evaluates a statement list; its value is the last statement's.
func (ev *Evaluator) Statements(stmts []syntax.Expr, sc *Scope) (value.Value, error) {
	return ev.statements(stmts, sc, true)
}

// Exec evaluates a block whose value is not used, such as a class or define
// body.
func (ev *Evaluator) Exec(b *syntax.Block, sc *Scope) error {
	if b == nil {
		return nil
	}
	_, err := ev.statements(b.Stmts, sc, false)
	return err
}

// statements evaluates a statement list; wantLast says whether the last
// statement's value is used (that of the others never is).
func (ev *Evaluator) statements(stmts []syntax.Expr, sc *Scope, wantLast bool) (value.Value, error) {
	// One step per block run, not per statement: every loop of Puppet code
	// runs a block again (a lambda's, a function's, a define's body), so
	// this bounds the work between two polls by the size of the code, at
	// a third of the cost of counting statements.
	if ev.due() && len(stmts) > 0 {
		if err := ev.poll(sc, stmts[0]); err != nil {
			return nil, err
		}
	}
	var last value.Value = value.Undef
	for i, s := range stmts {
		if _, ok := s.(*syntax.ResourceExpr); ok && (i < len(stmts)-1 || !wantLast) {
			// A resource declaration's value (its references) is mostly
			// thrown away; let the host skip building it.
			if r, ok := ev.Host.(StatementRunner); ok {
				if err := r.RunStatement(ev, sc, s); err != nil {
					return nil, err
				}
				last = value.Undef
				continue
			}
		}
		v, err := ev.Eval(s, sc)
		if err != nil {
			return nil, err
		}
		last = v
	}
	return last, nil
}

// stringLit returns the value of a string literal, boxed once per compile.
func (ev *Evaluator) stringLit(x *syntax.StringLit) value.Value {
	if v, ok := ev.Literals[x]; ok {
		return v
	}
	return boxOnce(&ev.strings, x, x.Value)
}

// bareWord is the string value of bare word x.
func (ev *Evaluator) bareWord(x *syntax.QualifiedName) value.Value {
	return boxOnce(&ev.words, x, x.Name)
}

// boxOnce returns the string s of node as a value, boxed at its first use
// and kept in *boxes (made on first use) for the next: boxing a string
// allocates, and the same literal is evaluated again and again.
func boxOnce[N comparable](boxes *map[N]value.Value, node N, s string) value.Value {
	if v, ok := (*boxes)[node]; ok {
		return v
	}
	if *boxes == nil {
		*boxes = make(map[N]value.Value)
	}
	v := value.Value(value.String(s))
	(*boxes)[node] = v
	return v
}

// BoxedLiterals returns the string literals this evaluation boxed that
// Literals lacked (nil when none): a compile hands them on to the next
// one's Literals. The map is the evaluator's own; the caller must not
// change it.
func (ev *Evaluator) BoxedLiterals() map[*syntax.StringLit]value.Value { return ev.strings }

// regexp compiles a Puppet regular expression once per compile. A
// *value.Regexp is immutable, so every use may share it.
func (ev *Evaluator) regexp(src string) (*value.Regexp, error) {
	if r, ok := ev.regexps[src]; ok {
		return r, nil
	}
	r, err := value.NewRegexp(src)
	if err != nil {
		return nil, err
	}
	if ev.regexps == nil {
		ev.regexps = make(map[string]*value.Regexp)
	}
	ev.regexps[src] = r
	return r, nil
}

// ParamType evaluates the type of parameter p (p.Type not nil). A type
// written with type names and literals only (String, Hash[String, Integer],
// Enum['a', 'b']) is the same at every call of the compile: it is evaluated
// once, not again for every instance of a define or call of a lambda.
// Type names resolve the same from every scope (a type alias, a resource
// type), and types are immutable values.
func (ev *Evaluator) ParamType(p *syntax.Parameter, sc *Scope) (value.Value, error) {
	if t, ok := ev.paramTypes[p]; ok {
		return t, nil
	}
	tv, err := ev.Eval(p.Type, sc)
	if err != nil || !constantType(p.Type) {
		return tv, err
	}
	if ev.paramTypes == nil {
		ev.paramTypes = make(map[*syntax.Parameter]value.Value)
	}
	ev.paramTypes[p] = tv
	return tv, nil
}

// constantType reports whether type expression x is made of type names
// and literals only: its value does not depend on where or when it is
// evaluated.
func constantType(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.TypeReference, *syntax.StringLit, *syntax.IntegerLit, *syntax.FloatLit,
		*syntax.BoolLit, *syntax.UndefLit, *syntax.DefaultLit, *syntax.RegexLit:
		return true
	case *syntax.AccessExpr:
		if !constantType(x.Operand) {
			return false
		}
		for _, k := range x.Keys {
			if !constantType(k) {
				return false
			}
		}
		return true
	case *syntax.ArrayLit:
		for _, e := range x.Elements {
			if !constantType(e) {
				return false
			}
		}
		return true
	case *syntax.HashLit:
		for _, e := range x.Entries {
			if !constantType(e.Key) || !constantType(e.Value) {
				return false
			}
		}
		return true
	}
	return false
}

func (ev *Evaluator) interpolate(x *syntax.InterpolatedString, sc *Scope) (value.Value, error) {
	// The parts are converted first so that the result can be built with a
	// single allocation of the right size (interpolation is hot).
	var small [16]string
	parts := small[:0]
	if len(x.Parts) > len(small) {
		parts = make([]string, 0, len(x.Parts))
	}
	n := 0
	for _, p := range x.Parts {
		var s string
		if lit, ok := p.(*syntax.StringLit); ok {
			s = lit.Value
		} else {
			v, err := ev.Eval(p, sc)
			if err != nil {
				return nil, err
			}
			if err := ev.CheckSize(v, "String interpolation"); err != nil {
				return nil, errorAt(sc, p, "%v", err)
			}
			s = value.ToString(v)
		}
		parts = append(parts, s)
		n += len(s)
	}
	if len(parts) == 1 {
		return value.String(parts[0]), nil
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range parts {
		b.WriteString(s)
	}
	return value.String(b.String()), nil
}

func (ev *Evaluator) variable(x *syntax.Variable, sc *Scope) (value.Value, error) {
	name := x.Name
	if n, ok := captureIndex(name); ok {
		return sc.Capture(n), nil
	}
	if len(name) > 2 && name[0] == ':' && name[1] == ':' {
		name = name[2:]
		if !isQualified(name) {
			v, ok := sc.Top().Lookup(name)
			if !ok {
				return ev.unknownVariable(sc, x, x.Name)
			}
			return v, nil
		}
	}
	if isQualified(name) {
		return ev.Host.QualifiedVariable(sc, name, x)
	}
	v, ok := sc.Lookup(name)
	if !ok {
		if err := sc.unsetParam(name); err != nil {
			return nil, err
		}
		return ev.unknownVariable(sc, x, name)
	}
	if sc.unset != nil {
		// A parameter without a value hides an outer variable of its name.
		if err := sc.unsetParam(name); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// captureIndex recognizes the numeric variables $0..$n.
func captureIndex(name string) (int, bool) {
	if name == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 0, false
		}
	}
	return n, true
}

func isQualified(name string) bool {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == ':' && name[i+1] == ':' {
			return true
		}
	}
	return false
}

func (ev *Evaluator) typeReference(x *syntax.TypeReference, sc *Scope) (value.Value, error) {
	if t, ok := value.BaseType(x.Name); ok {
		return t, nil
	}
	return ev.Host.ResolveType(sc, x.Name, x)
}

func (ev *Evaluator) array(elems []syntax.Expr, sc *Scope) (value.Value, error) {
	vs, err := ev.evalList(elems, sc)
	if err != nil {
		return nil, err
	}
	return value.Array(vs), nil
}

// appendSplat appends v unfolded: an array's elements, a hash's [k, v] pairs,
// anything else as itself.
func appendSplat(out value.Array, v value.Value) value.Array {
	switch v := v.(type) {
	case value.Array:
		return append(out, v...)
	case *value.Hash:
		for i, k := range v.Keys() {
			out = append(out, value.Array{k, v.Values()[i]})
		}
		return out
	}
	return append(out, v)
}

func (ev *Evaluator) hash(x *syntax.HashLit, sc *Scope) (value.Value, error) {
	b := value.NewHashBuilder(len(x.Entries))
	for _, e := range x.Entries {
		k, err := ev.Eval(e.Key, sc)
		if err != nil {
			return nil, err
		}
		v, err := ev.Eval(e.Value, sc)
		if err != nil {
			return nil, err
		}
		b.Set(k, v)
	}
	return b.Build(), nil
}

// Lambda is a lambda value: its code and the scope it closes over.
type Lambda struct {
	value.Extension
	Def   *syntax.Lambda
	Scope *Scope
}

// Signature describes the lambda's parameters as a Callable type.
func (l *Lambda) Signature() *value.CallableType {
	c := &value.CallableType{}
	required := 0
	for _, p := range l.Def.Params {
		c.Params = append(c.Params, value.AnyType)
		if p.Default == nil && !p.CapturesRest {
			required++
		}
		if p.CapturesRest {
			c.Max = value.MaxInt
		}
	}
	c.Min = int64(required)
	if c.Max == 0 {
		c.Max = int64(len(l.Def.Params))
	}
	return c
}

// ParamCount returns how many parameters the lambda declares.
func (l *Lambda) ParamCount() int { return len(l.Def.Params) }
