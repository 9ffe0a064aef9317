// Package functions implements Puppet's built-in functions that need nothing
// from the catalog: strings, collections, types, iteration and logging. It
// also defines what every function table entry is: a Func, usually built
// with Dispatch from Signatures (or checked with UnpackArgs, CountArgs and
// Arity3), which reaches the running compile only through the typed
// Services of its Ctx. The compiler's own functions (include, realize,
// defined, create_resources, lookup, epp, ...) and stdlib's are Funcs of
// the same kind, in the same Table.
//
// Regular expressions are compiled on first use (sync.OnceValue), so that a
// process pays only for those it uses.
package functions

import (
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/value"
)

// Level is a log level of the logging functions.
type Level string

const (
	Debug   Level = "debug"
	Info    Level = "info"
	Notice  Level = "notice"
	Warning Level = "warning"
	Err     Level = "err"
	Alert   Level = "alert"
	Emerg   Level = "emerg"
	Crit    Level = "crit"
)

// Ctx is what a function call sees: the evaluator (to call lambdas), the
// calling scope, the call itself, and where log messages go.
type Ctx struct {
	Eval  *eval.Evaluator
	Scope *eval.Scope
	Call  *eval.Call
	// Log receives the messages of notice(), warning(), ... Never nil.
	Log func(level Level, msg string)
	// Services is what the compile the call runs in provides (the
	// compiler's *Compilation). A host that provides none may leave it nil;
	// functions that need it then fail with ErrNoService.
	Services Services
}

// Func implements one function. Errors are plain errors with Puppet's
// wording ("'split' parameter 'pattern' expects ..."); the caller adds the
// file, line and column of the call.
type Func func(c *Ctx, args []value.Value) (value.Value, error)

// Table maps function names to implementations. It is built once and never
// modified, so compiles share it.
type Table map[string]Func

// Svc returns the compile's services, NoServices when the host provides
// none.
func (c *Ctx) Svc() Services {
	if c.Services == nil {
		return NoServices{}
	}
	return c.Services
}

// Lookup returns the function with the given name.
func (t Table) Lookup(name string) (Func, bool) {
	f, ok := t[name]
	return f, ok
}
