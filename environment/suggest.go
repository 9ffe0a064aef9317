package environment

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// maxSuggestionFiles bounds the module files a "did you mean" detail
// looks at, so that an error in a huge module path stays cheap.
const maxSuggestionFiles = 10000

// KnownNames lists, sorted, the names of kind the environment knows: the
// definitions loaded so far and, for classes and defined types, the names
// the module files would define where the autoloader looks (init.pp:
// the module's name, manifests/a/b.pp: module::a::b). They are the
// candidates of a "did you mean" detail, read from disk only when an error
// needs them.
func (env *Environment) KnownNames(kind Kind) []string {
	env.mu.Lock()
	var names []string
	for key := range env.defs {
		if key.kind == kind {
			names = append(names, key.name)
		}
	}
	modules := make(map[string]string, len(env.modules))
	if kind == KindClass || kind == KindDefine {
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
