package eval

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// ScopeKind names the kinds of scope Puppet has. The kind decides where
// assignments land and where lookups continue.
type ScopeKind uint8

const (
	// TopScope holds facts as legacy variables, ENC parameters and
	// variables assigned outside any class or node ($::x).
	TopScope ScopeKind = iota
	// NodeScope is the body of the matched node definition; classes and
	// defines declared while it is active see its variables.
	NodeScope
	// ClassScope is a class body. Its parent is the inherited class's scope
	// when the class inherits, else the enclosing node or top scope.
	ClassScope
	// DefineScope is the body of one defined-type instance.
	DefineScope
	// LocalScope is the body of a lambda or a Puppet-language function: a
	// child of the scope that defined it (closures).
	LocalScope
	// MatchScope is ephemeral: it holds the captures $0..$n of a successful
	// match for the branch that follows, and nothing else.
	MatchScope
)

var scopeKindNames = [...]string{"top", "node", "class", "define", "local", "match"}

func (k ScopeKind) String() string {
	if int(k) < len(scopeKindNames) {
		return scopeKindNames[k]
	}
	return "scope(" + strconv.Itoa(int(k)) + ")"
}

// Scope is one variable scope. Scopes belong to one compile and are not shared
// between goroutines.
type Scope struct {
	Kind ScopeKind
	// Name is the class or defined type name for class and define scopes.
	Name string
	// parent is where unresolved lookups continue.
	parent *Scope
	// vars holds the scope's variables in assignment order (a small slice
	// beats a map for the few variables most scopes have; one slice of pairs
	// is one allocation where two slices would be two).
	vars []binding
	// index maps a name to its position in vars once the scope holds more
	// than indexAfter variables, so that a top scope of many facts is set
	// and read in linear time, not quadratic.
	index map[string]int
	// captures holds $0..$n for a MatchScope.
	captures []value.Value
	// File is the manifest whose code runs in this scope, for positions.
	File *syntax.File
	// unset is set while a class's or define's parameter defaults are
	// evaluated in this scope (see SetUnsetParams).
	unset *unsetParams
	// facts, set on the top scope of a compile that records what it reads
	// (RecordFactReads), is told every name looked up or assigned there.
	facts *readset.Recorder
}

// RecordFactReads makes the top scope s tell r every variable looked up
// or assigned in it as a read of the fact of that name (whether it holds
// that fact, a classifier parameter or nothing: a fact appearing later
// would change what the lookup or assignment does), and every use of
// $facts as a whole or a listing of its variables as a read of all facts.
func (s *Scope) RecordFactReads(r *readset.Recorder) { s.facts = r }

// noteRead records a lookup of name in a scope that records fact reads.
func (s *Scope) noteRead(name string) {
	if name == "facts" {
		s.facts.AllFacts()
	} else {
		s.facts.Fact(name)
	}
}

// FactsAt returns the facts hash when $facts seen from s is the facts
// hash of a top scope that records fact reads, and that recorder: the
// caller records the keys it reads instead of the whole hash.
func (s *Scope) FactsAt() (*value.Hash, *readset.Recorder) {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.Kind == MatchScope {
			continue
		}
		if i := sc.find("facts"); i >= 0 {
			h, ok := sc.vars[i].val.(*value.Hash)
			if sc.facts == nil || !ok {
				return nil, nil
			}
			return h, sc.facts
		}
	}
	return nil, nil
}

// unsetParams are the parameters of callee (Class[X], Mymod::Thing[t])
// while its defaults are evaluated.
type unsetParams struct {
	callee  string
	params  []*syntax.Parameter // all parameters, in order
	current int                 // the one whose default is being evaluated
}

// ParamAccessError is a default expression naming a parameter that has no
// value yet. The class or define reports it (as a plain error) whatever
// calls the default went through, as Puppet does.
type ParamAccessError struct{ Msg string }

func (e *ParamAccessError) Error() string { return e.Msg }

// SetUnsetParams starts the evaluation of the defaults of callee, a class
// or defined type instance with parameters params (in order): until the end
// (nil params), a reference to one of them that has no value in this scope
// is a ParamAccessError rather than a lookup in the enclosing scopes.
func (s *Scope) SetUnsetParams(callee string, params []*syntax.Parameter) {
	if len(params) == 0 {
		s.unset = nil
		return
	}
	s.unset = &unsetParams{callee: callee, params: params}
}

// EvaluatingDefault records that the default of params[i] is evaluated now.
func (s *Scope) EvaluatingDefault(i int) {
	if s.unset != nil {
		s.unset.current = i
	}
}

// unsetParam reports a reference to a parameter that has no value yet, from
// the parameters' own scope or a lambda inside it. Puppet words it by where
// the parameter is: at or after the one being defaulted, it is not yet
// evaluated; before it, it has no value at all.
func (s *Scope) unsetParam(name string) error {
	for c := s; c != nil; c = c.parent {
		if _, set := c.GetLocal(name); set {
			return nil
		}
		if u := c.unset; u != nil {
			i := slices.IndexFunc(u.params, func(p *syntax.Parameter) bool { return p.Name == name })
			switch {
			case i < 0:
				return nil
			case i >= u.current:
				return &ParamAccessError{fmt.Sprintf("%s: default expression for $%s tries to illegally access not yet evaluated $%s", u.callee, u.params[u.current].Name, name)}
			default:
				return &ParamAccessError{fmt.Sprintf("%s: expects a value for parameter $%s", u.callee, name)}
			}
		}
		if c.Kind != LocalScope && c.Kind != MatchScope {
			return nil
		}
	}
	return nil
}

// indexAfter is how many variables a scope scans before it keeps an index.
const indexAfter = 16

// find returns the position of name in s.vars, or -1.
func (s *Scope) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range s.vars {
		if s.vars[i].name == name {
			return i
		}
	}
	return -1
}

// add appends a variable known not to be set in s.
func (s *Scope) add(name string, v value.Value) {
	s.vars = append(s.vars, binding{name, v})
	switch {
	case s.index != nil:
		s.index[name] = len(s.vars) - 1
	case len(s.vars) > indexAfter:
		s.index = make(map[string]int, 2*len(s.vars))
		for i, b := range s.vars {
			s.index[b.name] = i
		}
	}
}

// binding is one variable of a scope.
type binding struct {
	name string
	val  value.Value
}

// NewScope returns a scope of the given kind whose lookups continue in parent.
func NewScope(kind ScopeKind, name string, parent *Scope, file *syntax.File) *Scope {
	return &Scope{Kind: kind, Name: name, parent: parent, File: file}
}

// newLambdaScope returns the local scope of a lambda call with room for n
// variables (its parameters and the body's assignments). Most lambdas have
// at most four: their scope and its variables are then one allocation
// (lambdas run once per element).
func newLambdaScope(parent *Scope, n int) *Scope {
	if n > 4 {
		sc := NewScope(LocalScope, "", parent, parent.File)
		sc.Reserve(n)
		return sc
	}
	if n > 2 {
		m := &struct {
			s    Scope
			vars [4]binding
		}{}
		m.s = Scope{Kind: LocalScope, parent: parent, File: parent.File, vars: m.vars[:0]}
		return &m.s
	}
	m := &struct {
		s    Scope
		vars [2]binding
	}{}
	m.s = Scope{Kind: LocalScope, parent: parent, File: parent.File, vars: m.vars[:0]}
	return &m.s
}

// bodyAssigns counts the assignments among the statements of a lambda's
// body: with its parameters, the variables its scope usually gets (the
// scope is sized for them rather than grown).
func bodyAssigns(body *syntax.Block) int {
	n := 0
	if body != nil {
		for _, s := range body.Stmts {
			if _, ok := s.(*syntax.AssignExpr); ok {
				n++
			}
		}
	}
	return n
}

// Parent returns the scope where lookups continue.
func (s *Scope) Parent() *Scope { return s.parent }

// NewMatchScope returns an ephemeral scope holding match captures.
func (s *Scope) NewMatchScope(captures []value.Value) *Scope {
	return &Scope{Kind: MatchScope, parent: s, captures: captures, File: s.File}
}

// Top returns the top scope of the chain.
func (s *Scope) Top() *Scope {
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// assignTarget is the scope an assignment made in s lands in: match scopes are
// transparent, so `$y = $1` inside an if-branch assigns in the enclosing scope.
func (s *Scope) assignTarget() *Scope {
	for s.Kind == MatchScope && s.parent != nil {
		s = s.parent
	}
	return s
}

// Set assigns a variable in this scope. It reports false when the variable is
// already set here (Puppet variables cannot be reassigned).
func (s *Scope) Set(name string, v value.Value) bool {
	t := s.assignTarget()
	if t.facts != nil {
		t.noteRead(name)
	}
	if t.find(name) >= 0 {
		return false
	}
	t.add(name, v)
	return true
}

// Reserve makes room for n more variables, so that binding a known number of
// parameters allocates once instead of growing the slice step by step.
func (s *Scope) Reserve(n int) {
	t := s.assignTarget()
	t.vars = slices.Grow(t.vars, n)
}

// GetLocal returns a variable set in this very scope (match scopes skipped).
func (s *Scope) GetLocal(name string) (value.Value, bool) {
	t := s.assignTarget()
	if t.facts != nil {
		t.noteRead(name)
	}
	if i := t.find(name); i >= 0 {
		return t.vars[i].val, true
	}
	return nil, false
}

// Lookup resolves an unqualified variable along the scope chain.
func (s *Scope) Lookup(name string) (value.Value, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.Kind == MatchScope {
			continue
		}
		if sc.facts != nil {
			sc.noteRead(name)
		}
		if i := sc.find(name); i >= 0 {
			return sc.vars[i].val, true
		}
	}
	return nil, false
}

// Capture resolves $n: the nearest match scope's capture n. A match scope
// without that group (or no match scope at all) yields undef. A node scope
// may hold the captures of its regex name; class and define bodies see them
// through their enclosing node scope.
func (s *Scope) Capture(n int) value.Value {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.Kind == MatchScope || sc.captures != nil {
			if n < len(sc.captures) {
				return sc.captures[n]
			}
			return value.Undef
		}
	}
	return value.Undef
}

// SetCaptures gives a (node) scope the captures of the regex that selected it.
func (s *Scope) SetCaptures(captures []value.Value) { s.captures = captures }

// Each calls f for every variable set in this scope, in assignment order.
func (s *Scope) Each(f func(name string, v value.Value)) {
	if s.facts != nil {
		s.facts.AllFacts()
	}
	for _, b := range s.vars {
		f(b.name, b.val)
	}
}

// EachName calls f with the name of every variable set in this scope, in
// assignment order, and whether its value is undef: a listing that uses
// nothing more of the values (on a top scope recording fact reads, a
// read of the facts' names, not of their values).
func (s *Scope) EachName(f func(name string, undef bool)) {
	if s.facts != nil {
		s.facts.FactNames()
	}
	for _, b := range s.vars {
		f(b.name, value.IsUndef(b.val))
	}
}

// Replace overwrites a variable already set in this scope (used by the
// compiler when ENC parameters take precedence over facts).
func (s *Scope) Replace(name string, v value.Value) {
	t := s.assignTarget()
	if t.facts != nil {
		t.noteRead(name)
	}
	if i := t.find(name); i >= 0 {
		t.vars[i].val = v
		return
	}
	t.add(name, v)
}
