package compiler

import (
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
)

// compileEnv is a compile's view of its environment: definitions are looked
// up through it so that the compile reports, in its own diagnostics, the
// warnings of each file it loads or uses, once, when it first does. The
// warnings belong to the file, not to the shared environment: a file
// loaded by one compile still warns in every other compile that uses it,
// and concurrent compiles never share a list.
type compileEnv struct {
	*environment.Environment
	c    *Compilation
	used map[*environment.SourceFile]bool
	// strictErr is the parse error of the first file used whose warnings
	// strict = error turns into errors.
	strictErr error
}

// lookup finds a definition as Environment.Lookup does, and reports the
// warnings of the files that took.
func (e *compileEnv) lookup(kind environment.Kind, name string) (*environment.Definition, error) {
	if reads := e.c.req.Reads; reads != nil {
		// The name autoloads from the module of its first segment, or
		// from the main manifest (every compile reads that); which
		// modules exist is the environment's, not the compile's.
		first, _, _ := strings.Cut(environment.CanonicalName(name), "::")
		if dir, ok := e.Environment.ModuleDir(first); ok {
			reads.Tree(dir)
		}
	}
	d, err := e.Environment.Lookup(kind, name, e.use)
	if d != nil && d.Source != nil {
		e.c.req.Reads.File(d.Source.Path)
	}
	if d != nil {
		e.use(d.Source)
	}
	if err == nil && e.strictErr != nil {
		return nil, e.strictErr
	}
	return d, err
}

// use reports the warnings of f unless this compile already has.
func (e *compileEnv) use(f *environment.SourceFile) {
	if f == nil || e.used[f] {
		return
	}
	if e.used == nil {
		e.used = make(map[*environment.SourceFile]bool)
	}
	e.used[f] = true
	warnings := f.Warnings
	if strict := e.c.ev.Strict; strict != eval.StrictWarning {
		var failed diag.List
		warnings = nil
		for _, w := range f.Warnings {
			switch {
			case !strictIssue(w):
				warnings = append(warnings, w)
			case strict == eval.StrictError:
				e := *w
				e.Severity = diag.Error
				failed = append(failed, &e)
			}
		}
		if failed != nil && e.strictErr == nil {
			e.strictErr = environment.NewParseError(f.Path, failed)
		}
	}
	e.c.diags = append(e.c.diags, warnings...)
}

// strictIssue reports whether a file's warning is one the strict setting
// governs (Puppet's validator gives it the strict severity): a hash
// literal's duplicate key.
func strictIssue(w *diag.Diagnostic) bool {
	return w.Code == diag.DuplicateKey
}

// useMainFiles reports the warnings of the main manifest, which Puppet
// logs when it parses it, before the compile.
func (e *compileEnv) useMainFiles() {
	for _, f := range e.MainFiles() {
		e.use(f)
	}
}

// ModuleDir is Environment.ModuleDir recording that the compile uses the
// module: templates, files and data are read by paths in it.
func (e *compileEnv) ModuleDir(module string) (string, bool) {
	dir, ok := e.Environment.ModuleDir(module)
	if ok {
		e.c.req.Reads.Tree(dir)
	}
	return dir, ok
}

// ModuleDirs is Environment.ModuleDirs recording that the compile may
// read any module (an ERB template's require looks in every one).
func (e *compileEnv) ModuleDirs() []string {
	dirs := e.Environment.ModuleDirs()
	if reads := e.c.req.Reads; reads != nil {
		for _, d := range dirs {
			reads.Tree(d)
		}
	}
	return dirs
}

// RubyFunctionFile is Environment.RubyFunctionFile recording the module
// the function comes from (which functions exist is the environment's).
func (e *compileEnv) RubyFunctionFile(name string) string {
	return e.recordModuleOf(e.Environment.RubyFunctionFile(name))
}

// RubyFunction3File is Environment.RubyFunction3File, recorded as
// RubyFunctionFile is.
func (e *compileEnv) RubyFunction3File(name string) string {
	return e.recordModuleOf(e.Environment.RubyFunction3File(name))
}

// recordModuleOf records the module directory holding file (a module's
// Ruby function: it may require the module's other files).
func (e *compileEnv) recordModuleOf(file string) string {
	if reads := e.c.req.Reads; reads != nil && file != "" {
		for _, mod := range e.Environment.ModuleDirs() {
			if strings.HasPrefix(file, mod+string(filepath.Separator)) {
				reads.Tree(mod)
				return file
			}
		}
		reads.File(file)
	}
	return file
}

// UntrackedRead records that a function read what the compile's record
// cannot follow (functions.UntrackedReader).
func (c *Compilation) UntrackedRead(what string) { c.req.Reads.Untracked(what) }
