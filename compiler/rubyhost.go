package compiler

import (
	"errors"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/value"
)

// RubyFunctionsHint is what an unsupported-Ruby error adds when the Ruby
// helper is off: how to run such functions in real Ruby instead.
const RubyFunctionsHint = "set --ruby-functions=helper or auto to run such functions in Ruby with Puppet's library"

// unsupportedRubyError is the subset's error about Ruby it cannot run,
// with the hint to turn the Ruby helper on, or why the helper could not
// run it.
type unsupportedRubyError struct {
	err  error
	note string
}

func (e *unsupportedRubyError) Error() string {
	if e.note != "" {
		return e.err.Error() + " (" + e.note + ")"
	}
	return e.err.Error() + " (" + RubyFunctionsHint + ")"
}

func (e *unsupportedRubyError) Unwrap() error { return e.err }

// isUnsupportedRuby reports whether err is the Ruby subset's refusal of
// Ruby it does not implement, as opposed to an error the function itself
// raised (which real Ruby would raise too).
func isUnsupportedRuby(err error) bool {
	return errors.Is(err, ruby.ErrUnsupported)
}

// rubyBeyondSubset handles an error from running a module Ruby function in
// the subset: Ruby the subset cannot run goes to the Ruby helper when the
// compile has one (Request.RubyHost); other errors are returned as they
// are. A lambda given to the function is its block, run back in the
// compile.
//
// A function the subset stopped part way may already have called other
// functions; the helper runs it again from the start, so such calls are
// made twice (functions that declare resources, like ensure_packages, are
// idempotent in Puppet for that reason).
func (c *Compilation) rubyBeyondSubset(sc *eval.Scope, name string, call *eval.Call, err error) (value.Value, bool, error) {
	var hinted *unsupportedRubyError
	if !isUnsupportedRuby(err) || errors.As(err, &hinted) {
		return nil, true, err
	}
	if oerr := c.openRubySession(name, err); oerr != nil {
		return nil, true, oerr
	}
	// What Ruby with Puppet's library does is beyond what is recorded.
	c.req.Reads.Untracked("the Ruby helper (" + name + ")")
	cb := &rubyHostScope{erbScope: erbScope{c: c, sc: sc, at: call.Node}, lambda: call.Lambda}
	req := rubyhost.Request{ModulePath: c.env.ModulePath, Name: name, Args: call.Args}
	if call.Lambda != nil {
		req.Block, req.BlockParams = true, len(call.Lambda.Def.Params)
	}
	v, herr := c.rubySession.Call(c.ctx, req, cb)
	if herr != nil {
		if stop := c.ev.Poll(); stop != nil {
			return nil, true, stop
		}
		if hiera.IsContextNotFound(herr) {
			return nil, true, herr
		}
		var re *rubyhost.RubyError
		if errors.As(herr, &re) {
			return nil, true, errors.New(re.Message)
		}
		return nil, true, fmt.Errorf("%s: %w", name, herr)
	}
	return v, true, nil
}

// openRubySession opens the compile's Ruby helper session, once, for
// what (a function's or template's name) that the subset refused with
// err. The error it returns is the one to report instead: the subset's
// with the hint, when the compile has no helper or (ruby_functions=auto)
// the helper cannot start.
func (c *Compilation) openRubySession(what string, err error) error {
	if c.req.RubyHost == nil {
		return &unsupportedRubyError{err: err}
	}
	if c.rubySession == nil {
		s, serr := c.req.RubyHost.Session(c.ctx)
		if serr != nil {
			if c.req.RubyHostOptional {
				return &unsupportedRubyError{err: err, note: "the Ruby helper that would run it is unavailable: " + serr.Error()}
			}
			return fmt.Errorf("%s: %w", what, serr)
		}
		c.rubySession = s
	}
	return nil
}

// closeRubySession ends the compile's Ruby helper session, if it opened
// one: the helper process of the session exits with what it loaded.
func (c *Compilation) closeRubySession() {
	if c.rubySession != nil {
		c.rubySession.Close()
		c.rubySession = nil
	}
}

// rubyHostScope answers the Ruby helper's callbacks: variables as a
// template sees them, assignments as Puppet's scope.setvar makes them,
// functions from the compile's table, and data types read as Puppet code
// would read them.
type rubyHostScope struct {
	erbScope
	lambda *eval.Lambda
}

// CallFunctionTop calls a function in top scope (rubyhost.TopCaller), as a
// 4.x function's own call_function does under Puppet.
func (s *rubyHostScope) CallFunctionTop(name string, args []value.Value) (value.Value, error) {
	return s.TopScope().CallFunction(name, args)
}

// Yield runs the call's lambda for the function's block.
func (s *rubyHostScope) Yield(args []value.Value) (value.Value, error) {
	if s.lambda == nil {
		return nil, errors.New("no block given (yield)")
	}
	v, err := s.c.ev.CallLambda(s.lambda, args)
	if err != nil {
		return nil, s.rescuable(err)
	}
	return v, nil
}

func (s *rubyHostScope) Log(level, msg string) { s.c.logf(level, "%s", msg) }

// ParseType reads a type expression as Puppet code would
// (ruby.TypeParser; the helper's callbacks).
func (s *erbScope) ParseType(spec string) (value.Value, error) {
	return s.c.parseTypeSpec(spec)
}

// SetVariable assigns a variable from Ruby: in the calling scope, or
// in top scope (compiler.topscope.setvar, as a role() function does).
// Like Puppet's setvar it refuses a variable already set there.
func (s *rubyHostScope) SetVariable(name string, v value.Value, top bool) error {
	target := s.sc
	if top {
		target = s.c.top
	}
	name = strings.TrimPrefix(name, "::")
	if isQualifiedName(name) {
		return fmt.Errorf("Cannot assign to a qualified variable '$%s'", name)
	}
	if !target.Set(name, v) {
		return fmt.Errorf("Cannot reassign variable '$%s'", name)
	}
	return nil
}

// Resource reads a resource of the catalog, its type named as Ruby code
// names it (file, Apt::Source, 'class').
func (s *rubyHostScope) Resource(typ, title string) (*value.Hash, bool) {
	return s.c.Resource(value.CapitalizeName(typ), title)
}

// Resources lists the catalog's resources so far, in declaration order
// (catalog.resources).
func (s *rubyHostScope) Resources() []rubyhost.CatalogResource {
	out := make([]rubyhost.CatalogResource, 0, len(s.c.resources))
	for _, r := range s.c.resources {
		b := value.NewHashBuilder(len(r.Params))
		for _, p := range r.Params {
			b.Set(value.String(p.Name), p.Value)
		}
		out = append(out, rubyhost.CatalogResource{Type: r.Type, Title: r.Title, Params: b.Build()})
	}
	return out
}

// Variables are the variables of the calling scope's chain, or of top
// scope, for scope.to_hash.
func (s *rubyHostScope) Variables(top bool) *value.Hash {
	if top {
		return (&erbScope{c: s.c, sc: s.c.top}).Variables()
	}
	return s.erbScope.Variables()
}
