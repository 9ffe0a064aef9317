package compiler

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/value"
)

// RubyFunctionsHint is what an unsupported-Ruby error adds when the Ruby
// helper is off: how to run such functions in real Ruby instead.
const RubyFunctionsHint = "set --ruby-functions=helper to run such functions in Ruby with Puppet's library"

// unsupportedRubyError is the subset's error about Ruby it cannot run,
// with the hint to turn the Ruby helper on.
type unsupportedRubyError struct{ err error }

func (e *unsupportedRubyError) Error() string {
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
// are. A function given a lambda stays with the subset's error, as a
// Puppet lambda cannot cross to Ruby.
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
	if c.req.RubyHost == nil || call.Lambda != nil {
		return nil, true, &unsupportedRubyError{err: err}
	}
	// What Ruby with Puppet's library does is beyond what is recorded.
	c.req.Reads.Untracked("the Ruby helper (" + name + ")")
	cb := &rubyHostScope{erbScope: erbScope{c: c, sc: sc, at: call.Node}}
	v, herr := c.req.RubyHost.Call(c.ctx, rubyhost.Request{ModulePath: c.env.ModulePath, Name: name, Args: call.Args}, cb)
	if herr != nil {
		if stop := c.ev.Poll(); stop != nil {
			return nil, true, stop
		}
		var re *rubyhost.RubyError
		if errors.As(herr, &re) {
			return nil, true, errors.New(re.Message)
		}
		return nil, true, fmt.Errorf("%s: %w", name, herr)
	}
	return v, true, nil
}

// rubyHostScope answers the Ruby helper's callbacks: variables as a
// template sees them, functions from the compile's table, and data types
// read as Puppet code would read them.
type rubyHostScope struct {
	erbScope
}

func (s *rubyHostScope) Log(level, msg string) { s.c.logf(level, "%s", msg) }

func (s *rubyHostScope) ParseType(spec string) (value.Value, error) {
	return s.c.parseTypeSpec(spec)
}
