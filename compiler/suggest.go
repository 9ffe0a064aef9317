package compiler

import (
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/functions"
)

// unknownClass is Puppet's error for a class no file defines (message),
// with the closest known class name as its detail.
func (c *Compilation) unknownClass(name, message string) *diag.Diagnostic {
	d := diag.New(diag.UnknownClass, diag.Range{}, message)
	d.Args = diag.Args{"name": name}
	d.Detail = diag.DidYouMean(name, c.env.KnownNames(environment.KindClass))
	return d
}

// unknownResourceType is Puppet's error for a resource type that neither
// Puppet, a module nor a defined type provides (message), with the closest
// known type as its detail.
func (c *Compilation) unknownResourceType(name, message string) *diag.Diagnostic {
	d := diag.New(diag.UnknownResourceType, diag.Range{}, message)
	d.Args = diag.Args{"type_name": name}
	d.Detail = diag.DidYouMean(strings.ToLower(name), c.resourceTypeNames())
	return d
}

// functionNames lists the functions a compile can call that it knows
// without loading more files: the native ones and the Puppet-language ones
// loaded so far.
func (c *Compilation) functionNames() []string {
	names := c.env.KnownNames(environment.KindFunction)
	for _, table := range []functions.Table{c.funcs.own, c.funcs.env} {
		for name := range table {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// resourceTypeNames lists the resource types known without loading more
// files: the built-in and module types, and the defined types loaded so
// far, in lower case.
func (c *Compilation) resourceTypeNames() []string {
	names := c.env.KnownNames(environment.KindDefine)
	if c.types != nil {
		for _, name := range c.types.Names() {
			names = append(names, strings.ToLower(name))
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
