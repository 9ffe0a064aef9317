package compiler

import (
	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// The methods in this file and in builtins.go implement functions.Services:
// what functions (stdlib's, the compiler's own) ask of the running compile
// through functions.Ctx.Services.

var _ functions.Services = (*Compilation)(nil)

// Resource returns the parameters set so far on typ[title], following
// aliases like a reference does.
func (c *Compilation) Resource(typ, title string) (*value.Hash, bool) {
	if typ == "Class" {
		title = value.CapitalizeName(title)
	}
	r := c.byRef[catalog.Ref{Type: typ, Title: title}]
	if r == nil {
		return nil, false
	}
	b := value.NewHashBuilder(len(r.Params))
	for _, p := range r.Params {
		b.Set(value.String(p.Name), p.Value)
	}
	return b.Build(), true
}

// ResourceTitles lists the titles of the resources of a type, in
// declaration order.
func (c *Compilation) ResourceTitles(typ string) []string {
	var out []string
	for _, r := range c.resources {
		if r.Type == typ {
			out = append(out, r.Title)
		}
	}
	return out
}

// ScopeResource is the reference of the class or defined-type instance
// whose body sc belongs to; "" at top and node scope.
func (c *Compilation) ScopeResource(sc *eval.Scope) string {
	d := c.data(sc)
	if d == nil || d.resource == nil || d.resource == c.mainClass || d.resource == c.nodeRes {
		return ""
	}
	if d.resource.Type == "Node" {
		return ""
	}
	return d.resource.Ref().String()
}

// ModulePath returns a module's directory.
func (c *Compilation) ModulePath(name string) (string, bool) { return c.env.ModuleDir(name) }

// WarnOnce logs a warning once per key and compile.
func (c *Compilation) WarnOnce(key, msg string) {
	if c.warned == nil {
		c.warned = make(map[string]bool)
	}
	if c.warned[key] {
		return
	}
	c.warned[key] = true
	c.logf("warning", "%s", msg)
}

// FunctionExists reports whether a function of that name can be called:
// a native one, a Puppet-language one, or a module's Ruby function file
// (3.x ones included, as Puppet's loaders find them).
func (c *Compilation) FunctionExists(name string) bool {
	if _, ok := c.funcs.Lookup(name); ok {
		return true
	}
	if d, err := c.env.lookup(environment.KindFunction, name); err == nil && d != nil {
		return true
	}
	return c.env.RubyFunctionFile(name) != ""
}
