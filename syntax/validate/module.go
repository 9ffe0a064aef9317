package validate

import (
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// ModuleFile checks the rule Puppet applies to a file autoloaded from a
// module (its manifests, functions or types directory) on top of Program's:
// at top level the file holds only definitions (classes, defined types,
// functions and type aliases). Anything else, node definitions included,
// would run only when the file happened to be loaded, so Puppet rejects it.
// Which files are module files depends on the module path, so the caller
// decides when to apply it.
func ModuleFile(prog *syntax.Program) diag.List {
	v := &validator{file: prog.File}
	for _, s := range prog.Body {
		switch s.(type) {
		case *syntax.ClassDef, *syntax.DefineDef, *syntax.FunctionDef, *syntax.TypeAlias:
		default:
			v.error(s, diag.IllegalTopConstructLocation, "This "+label(s)+" is unacceptable as a top level construct in this location")
		}
	}
	return v.errs
}
