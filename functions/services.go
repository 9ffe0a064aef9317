package functions

import (
	"errors"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Services is what the running compile provides to the functions that need
// more than their arguments: stdlib's ensure_resource, getparam,
// get_module_path, ... and the compiler's own include, lookup, epp, ....
// The compiler's *Compilation implements it; tests implement it with a
// fake, embedding NoServices for what they do not provide.
type Services interface {
	Catalog
	Environment
	Data
	Templates
}

// ClassRelation says what declaring a class does besides including it.
type ClassRelation int

const (
	// Include only includes the class (include, hiera_include).
	Include ClassRelation = iota
	// Contain also makes the calling class contain it (contain).
	Contain
	// Require also makes the calling resource require it (require).
	Require
)

// Catalog reads and declares catalog content.
type Catalog interface {
	// Resource returns the parameters set so far on the resource typ[title]
	// and whether the catalog has it. typ is capitalized per segment
	// ("Package", "Apt::Source", "Class"); title is matched the way a
	// resource reference finds its resource (aliases included). Parameters
	// whose value is undef may be left out.
	Resource(typ, title string) (params *value.Hash, found bool)
	// ResourceTitles returns the titles of every resource of type typ
	// declared so far, in declaration order.
	ResourceTitles(typ string) []string
	// ScopeResource returns the reference of the class or defined-type
	// instance whose body sc (or an enclosing lambda scope) evaluates:
	// "Class[Foo::Bar]" or "Foo::Bar[title]"; "" at top or node scope.
	ScopeResource(sc *eval.Scope) string
	// DeclareClasses includes the named classes from scope sc (the call is
	// at), relating them to the caller as rel says, and returns their
	// Class references.
	DeclareClasses(sc *eval.Scope, at syntax.Node, names []string, rel ClassRelation) (value.Array, error)
	// CreateResources declares a resource of type typ ("@type" virtual,
	// "@@type" exported) for each title => attributes entry of resources,
	// attributes missing there taken from defaults (which may be nil).
	CreateResources(sc *eval.Scope, at syntax.Node, typ string, resources, defaults *value.Hash) error
	// Realize realizes the virtual resources the references (resource
	// references or arrays of them) name; a reference to no resource fails
	// the compile at its end, as in Puppet.
	Realize(refs []value.Value)
	// Defined is defined() for one argument: a class, defined type,
	// function or resource type name, "$variable", or a type reference.
	Defined(sc *eval.Scope, v value.Value) (bool, error)
	// Tag adds tags to the resource whose body sc evaluates.
	Tag(sc *eval.Scope, tags []string)
	// Tagged reports whether that resource has all the tags.
	Tagged(sc *eval.Scope, tags []string) bool
}

// Environment answers about the compile's environment.
type Environment interface {
	// ModulePath returns the directory of the named module in the
	// compile's environment, and whether there is one.
	ModulePath(name string) (dir string, found bool)
	// FunctionExists reports whether a function of that name can be called.
	FunctionExists(name string) bool
	// WarnOnce logs msg as a warning unless a warning with the same key
	// was logged before in this compile (stdlib's deprecations).
	WarnOnce(key, msg string)
}

// Data looks data up in the compile's Hiera hierarchy.
type Data interface {
	// Lookup is lookup() with its arguments decoded.
	Lookup(req hiera.Request) (value.Value, error)
	// Hiera is hiera(), hiera_array() or hiera_hash(); defaultFunc, when
	// not nil, computes the default from the key.
	Hiera(kind hiera.HieraFunction, key string, def value.Value, hasDefault bool, defaultFunc func(key string) (value.Value, error)) (value.Value, error)
}

// Templates renders EPP and ERB templates.
type Templates interface {
	// EPP renders a module's EPP template ("module/file.epp") with the
	// optional parameter hash (params holds it, or is empty).
	EPP(name string, params []value.Value) (value.Value, error)
	// InlineEPP renders EPP source. Unlike a template file, inline EPP
	// sees the variables of the calling scope.
	InlineEPP(scope *eval.Scope, src string, params []value.Value) (value.Value, error)
	// Template renders a module's ERB template ("module/file.erb") in scope
	// sc.
	Template(sc *eval.Scope, name string) (string, error)
	// InlineTemplate renders ERB source in scope sc.
	InlineTemplate(sc *eval.Scope, src string) (string, error)
}

// UntrackedReader is implemented by a compile that records what it reads
// (marionette diff's incremental mode, see readset): a function that reads
// what the record cannot follow (a path outside the modules, a command's
// output) reports it, and the compile's catalog is never reused.
type UntrackedReader interface {
	UntrackedRead(what string)
}

// NoteUntracked reports an untracked read (what names it: "generate()")
// to the compile c runs in, when that compile records its reads.
func NoteUntracked(c *Ctx, what string) {
	if c == nil {
		return
	}
	if u, ok := c.Svc().(UntrackedReader); ok {
		u.UntrackedRead(what)
	}
}

// ErrNoService is the error of a NoServices method: the host does not
// provide the service.
var ErrNoService = errors.New("not available: the compile does not provide this service")

// NoServices provides no service: its queries find nothing and its actions
// fail with ErrNoService. Test hosts embed it and override what they fake.
type NoServices struct{}

var _ Services = NoServices{}

// Resource finds nothing.
func (NoServices) Resource(typ, title string) (*value.Hash, bool) { return nil, false }

// ResourceTitles finds nothing.
func (NoServices) ResourceTitles(typ string) []string { return nil }

// ScopeResource answers top scope.
func (NoServices) ScopeResource(sc *eval.Scope) string { return "" }

// DeclareClasses fails.
func (NoServices) DeclareClasses(*eval.Scope, syntax.Node, []string, ClassRelation) (value.Array, error) {
	return nil, ErrNoService
}

// CreateResources fails.
func (NoServices) CreateResources(*eval.Scope, syntax.Node, string, *value.Hash, *value.Hash) error {
	return ErrNoService
}

// Realize does nothing.
func (NoServices) Realize([]value.Value) {}

// Defined fails.
func (NoServices) Defined(*eval.Scope, value.Value) (bool, error) { return false, ErrNoService }

// Tag does nothing.
func (NoServices) Tag(*eval.Scope, []string) {}

// Tagged answers false.
func (NoServices) Tagged(*eval.Scope, []string) bool { return false }

// ModulePath finds no module.
func (NoServices) ModulePath(string) (string, bool) { return "", false }

// FunctionExists answers false.
func (NoServices) FunctionExists(string) bool { return false }

// WarnOnce drops the warning.
func (NoServices) WarnOnce(string, string) {}

// Lookup fails.
func (NoServices) Lookup(hiera.Request) (value.Value, error) { return nil, ErrNoService }

// Hiera fails.
func (NoServices) Hiera(hiera.HieraFunction, string, value.Value, bool, func(string) (value.Value, error)) (value.Value, error) {
	return nil, ErrNoService
}

// EPP fails.
func (NoServices) EPP(string, []value.Value) (value.Value, error) { return nil, ErrNoService }

// InlineEPP fails.
func (NoServices) InlineEPP(*eval.Scope, string, []value.Value) (value.Value, error) {
	return nil, ErrNoService
}

// Template fails.
func (NoServices) Template(*eval.Scope, string) (string, error) { return "", ErrNoService }

// InlineTemplate fails.
func (NoServices) InlineTemplate(*eval.Scope, string) (string, error) { return "", ErrNoService }
