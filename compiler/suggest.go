package compiler

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/diag"
)

// maxSuggestionFiles bounds the module files a "did you mean" detail
// looks at, so that an error in a huge module path stays cheap.
const maxSuggestionFiles = 10000

// knownNames lists, sorted, the names of kind the environment knows: the
// definitions loaded so far and, for classes and defined types, the names
// the module files would define where the autoloader looks (init.pp:
// the module's name, manifests/a/b.pp: module::a::b). They are the
// candidates of a "did you mean" detail, read from disk only when an error
// needs them.
func (env *Environment) knownNames(kind defKind) []string {
	env.mu.Lock()
	var names []string
	for key := range env.defs {
		if key.kind == kind {
			names = append(names, key.name)
		}
	}
	modules := make(map[string]string, len(env.modules))
	if kind == kindClass || kind == kindDefine {
		maps.Copy(modules, env.modules)
	}
	env.mu.Unlock()
	files := 0
	for module, dir := range modules {
		manifests := filepath.Join(dir, "manifests")
		filepath.WalkDir(manifests, func(path string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil // a module without manifests, an unreadable directory
			case files >= maxSuggestionFiles:
				return filepath.SkipAll
			}
			if e.IsDir() || !strings.HasSuffix(path, ".pp") {
				return nil
			}
			files++
			rel, _ := filepath.Rel(manifests, strings.TrimSuffix(path, ".pp"))
			if rel == "init" {
				names = append(names, module)
			} else {
				names = append(names, module+"::"+strings.ReplaceAll(filepath.ToSlash(rel), "/", "::"))
			}
			return nil
		})
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// unknownClass is Puppet's error for a class no file defines (message),
// with the closest known class name as its detail.
func (c *Compilation) unknownClass(name, message string) *diag.Diagnostic {
	d := diag.New(diag.UnknownClass, diag.Range{}, message)
	d.Args = diag.Args{"name": name}
	d.Detail = diag.DidYouMean(name, c.env.knownNames(kindClass))
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
	names := c.env.knownNames(kindFunction)
	for name := range c.funcs {
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// resourceTypeNames lists the resource types known without loading more
// files: the built-in and module types, and the defined types loaded so
// far, in lower case.
func (c *Compilation) resourceTypeNames() []string {
	names := c.env.knownNames(kindDefine)
	if c.types != nil {
		for _, name := range c.types.Names() {
			names = append(names, strings.ToLower(name))
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
