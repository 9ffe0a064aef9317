package compiler

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/ruby"
	"github.com/marionette-dev/marionette/rubyhost"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Template implements functions.Templates.
func (c *Compilation) Template(sc *eval.Scope, name string) (string, error) {
	path, err := c.findTemplate(name)
	if err != nil {
		return "", err
	}
	t, err := c.loadFile(path, "erb", func(src []byte) (any, error) {
		return erb.Parse(path, src)
	})
	if errors.Is(err, fs.ErrNotExist) {
		// An absolute name is not looked for: Puppet fails reading it,
		// in its own file_system code (whose file and line it reports
		// as Filepath and Line; not ours to print).
		return "", fmt.Errorf("Failed to parse template %s:\n  Detail: No such file or directory @ rb_sysopen - %s\n", name, path)
	}
	var out string
	if err == nil {
		out, err = c.renderShared(t.(*erb.Template), sc)
	}
	if c.templateBeyondSubset(err) {
		out, err = c.templateInRuby(sc, "template "+name, rubyhost.TemplateRequest{File: path}, err)
		var re *rubyhost.RubyError
		if errors.As(err, &re) && re.Line != "" {
			return "", fmt.Errorf("Failed to parse template %s:\n  Filepath: %s\n  Line: %s\n  Detail: %s\n", name, re.File, re.Line, re.Message)
		}
		return out, err
	}
	if line, msg, cause, ok := ruby.TemplateException(err); ok {
		// Puppet's wording, which ends in a newline before the
		// evaluator's location.
		return "", fmt.Errorf("Failed to parse template %s:\n  Filepath: %s\n  Line: %d\n  Detail: %s\n", name, path, line, exceptionDetail(msg, cause))
	}
	return out, err
}

// InlineTemplate implements functions.Templates.
func (c *Compilation) InlineTemplate(sc *eval.Scope, src string) (string, error) {
	out, err := c.renderERB("inline_template", []byte(src), sc)
	if c.templateBeyondSubset(err) {
		out, err = c.templateInRuby(sc, "inline_template", rubyhost.TemplateRequest{Source: src}, err)
		var re *rubyhost.RubyError
		if errors.As(err, &re) && re.Line != "" {
			return "", fmt.Errorf("Failed to parse inline template: %s", re.Message)
		}
		return out, err
	}
	if _, msg, cause, ok := ruby.TemplateException(err); ok {
		return "", fmt.Errorf("Failed to parse inline template: %s", exceptionDetail(msg, cause))
	}
	return out, err
}

// templateBeyondSubset reports whether a template the subset failed with
// err goes to the Ruby helper: Ruby the subset refused, when the compile
// has the helper (ruby_functions auto or helper) and the refusal is not
// already the helper's own.
func (c *Compilation) templateBeyondSubset(err error) bool {
	var hinted *unsupportedRubyError
	return c.req.RubyHost != nil && isUnsupportedRuby(err) && !errors.As(err, &hinted) && c.ev.Poll() == nil
}

// templateInRuby renders a template the subset refused (err) with real
// Ruby's ERB in the compile's Ruby helper session, the calling scope's
// variables and functions bridged.
func (c *Compilation) templateInRuby(sc *eval.Scope, what string, req rubyhost.TemplateRequest, err error) (string, error) {
	if oerr := c.openRubySession(what, err); oerr != nil {
		return "", oerr
	}
	c.req.Reads.Untracked("the Ruby helper (" + what + ")")
	req.ModulePath = c.env.ModulePath
	out, herr := c.rubySession.Template(c.ctx, req, &templateHostScope{rubyHostScope{erbScope: erbScope{c: c, sc: sc}}})
	if herr != nil {
		if stop := c.ev.Poll(); stop != nil {
			return "", stop
		}
		var re *rubyhost.RubyError
		if errors.As(herr, &re) {
			if re.Line != "" {
				return "", re
			}
			return "", errors.New(re.Message)
		}
		return "", fmt.Errorf("%s: %w", what, herr)
	}
	return out, nil
}

// templateHostScope answers a template's callbacks in the helper: a
// function it calls fails with that function's own message, as under
// Puppet (see exceptionDetail).
type templateHostScope struct{ rubyHostScope }

func (s *templateHostScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	v, err := s.rubyHostScope.CallFunction(name, args)
	if err != nil {
		return nil, errors.New(exceptionDetail(err.Error(), err))
	}
	return v, nil
}

// exceptionDetail is the message of a template's exception as Puppet
// reports it: the error of a Puppet function the template called is that
// function's own message, without the evaluator's wrapping of the call
// (which under Puppet only calls from Puppet code get).
func exceptionDetail(msg string, cause error) string {
	if cause == nil {
		return msg
	}
	var d *diag.Diagnostic
	if errors.As(cause, &d) && d.Cause != nil {
		inner := d.Cause.Error()
		for _, kind := range []string{"Error while evaluating a Function Call, ", "Error while evaluating a Method call, "} {
			if d.Message == "Evaluation Error: "+kind+inner {
				return inner
			}
		}
	}
	return cause.Error()
}

func (c *Compilation) renderERB(name string, src []byte, sc *eval.Scope) (string, error) {
	t, err := erb.Parse(name, src)
	if err != nil {
		return "", err
	}
	return c.renderShared(t, sc)
}

// renderShared renders a template whose Ruby view of Puppet hashes is
// shared with the templates it renders in turn (erb.ObjectSharer): the
// outermost template of a tree starts the table, nested ones reuse it.
func (c *Compilation) renderShared(t *erb.Template, sc *eval.Scope) (string, error) {
	if c.erbObjects == nil {
		c.erbObjects = erb.NewObjects()
		defer func() { c.erbObjects = nil }()
	}
	return t.RenderWith(&erbScope{c: c, sc: sc}, erb.RenderOptions{MaxSize: c.req.Limits.MaxTemplateSize})
}

func (s *erbScope) SharedObjects() *erb.Objects { return s.c.erbObjects }

// Stopped ends the rendering once the compile's context is done
// (erb.Stopper).
func (s *erbScope) Stopped() error { return s.c.ev.Poll() }

// erbScope is what a template sees of the calling scope: its variables
// (@x, scope['x'], scope.lookupvar) and Puppet's functions.
type erbScope struct {
	c  *Compilation
	sc *eval.Scope
	// at is the Puppet call of the Ruby function running (nil in
	// templates): functions it calls, such as create_resources, place
	// what they declare there, as Puppet does.
	at syntax.Node
	// top marks the scope TopScope made: SetVariable sets top-scope
	// variables through it.
	top bool
}

func (s *erbScope) Variable(name string) (value.Value, bool) {
	switch {
	case strings.HasPrefix(name, "::") && !isQualifiedName(name[2:]):
		return s.c.top.Lookup(name[2:])
	case isQualifiedName(strings.TrimPrefix(name, "::")):
		v, err := s.c.qualified(strings.TrimPrefix(name, "::"))
		if err != nil || value.IsUndef(v) {
			return nil, false
		}
		return v, true
	}
	return s.sc.Lookup(name)
}

// UntrackedRead records an input the compile's record cannot follow
// (ruby.UntrackedReader).
func (s *erbScope) UntrackedRead(what string) { s.c.UntrackedRead(what) }

// Fact is $facts[name] seen from the scope (hiera.FactScope).
func (s *erbScope) Fact(name string) (value.Value, bool) { return factOf(s.sc, name) }

// UpdateVariable rebinds a variable whose array or hash the template
// changed in place (erb.VariableUpdater), in the scope that holds it, so
// that later code there sees the change as under Puppet. Qualified names
// are left alone: their class scope is not the template's to change.
func (s *erbScope) UpdateVariable(name string, v value.Value) {
	if top, ok := strings.CutPrefix(name, "::"); ok {
		if !isQualifiedName(top) {
			if _, found := s.c.top.GetLocal(top); found {
				s.c.top.Replace(top, v)
			}
		}
		return
	}
	if isQualifiedName(name) {
		return
	}
	for sc := s.sc; sc != nil; sc = sc.Parent() {
		if sc.Kind == eval.MatchScope {
			continue
		}
		if _, found := sc.GetLocal(name); found {
			sc.Replace(name, v)
			// A class's or define's parameter is also its resource's
			// attribute: the same Ruby object under Puppet.
			if sc.Kind == eval.ClassScope || sc.Kind == eval.DefineScope {
				if d := s.c.scopes[sc]; d != nil && d.resource != nil {
					if _, isParam := d.resource.Param(name); isParam {
						d.resource.SetParam(name, v)
					}
				}
			}
			return
		}
	}
}

func (s *erbScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	v, err := s.c.CallFunction(s.c.ev, s.sc, &eval.Call{Name: name, Args: args, Node: s.at})
	if err != nil {
		return nil, s.rescuable(err)
	}
	return v, nil
}

// rescuable marks the error of a function Ruby code called as one the
// code may rescue, as under Puppet; a stopped compile or Ruby beyond the
// subset may not be rescued.
func (s *erbScope) rescuable(err error) error {
	if isUnsupportedRuby(err) || s.c.ev.Poll() != nil {
		return err
	}
	class := "Puppet::ParseError"
	var re *ruby.RubyError
	if errors.As(err, &re) {
		class = re.Class
	}
	return &rescuableError{err: err, class: class}
}

// rescuableError is an error of a function Ruby code called, which the
// code can rescue as an exception of class (ruby.RescuableError).
type rescuableError struct {
	err   error
	class string
}

func (e *rescuableError) Error() string     { return e.err.Error() }
func (e *rescuableError) Unwrap() error     { return e.err }
func (e *rescuableError) RubyClass() string { return e.class }

// Variables lists every variable visible in the scope whose value is not
// undef, nearest scope first winning (for scope.to_hash).
func (s *erbScope) Variables() *value.Hash {
	var chain []*eval.Scope
	for sc := s.sc; sc != nil; sc = sc.Parent() {
		chain = append(chain, sc)
	}
	b := value.NewHashBuilder(16)
	for i := len(chain) - 1; i >= 0; i-- {
		chain[i].Each(func(name string, v value.Value) {
			if !value.IsUndef(v) {
				b.Set(value.String(name), v)
			}
		})
	}
	return b.Build()
}

// VariableNames lists the names Variables would, in its order, without
// the values (for instance_variables; ruby.VariableNameLister).
func (s *erbScope) VariableNames() []string {
	var chain []*eval.Scope
	for sc := s.sc; sc != nil; sc = sc.Parent() {
		chain = append(chain, sc)
	}
	var names []string
	seen := make(map[string]bool)
	for i := len(chain) - 1; i >= 0; i-- {
		chain[i].EachName(func(name string, undef bool) {
			if !undef && !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		})
	}
	return names
}

// RubyFile finds the file a Ruby require of path loads: path.rb under the
// lib directory of a module, in module path order, as Puppet puts every
// module's lib on Ruby's load path.
//
// A path no module has is remembered for the rest of the compile: most
// requires name Ruby's own libraries (openssl, base64), and looking for
// them again would stat every module's lib once more.
func (s *erbScope) RubyFile(path string) (string, []byte, bool) {
	c := s.c
	if c.rubyLibMisses[path] {
		return "", nil, false
	}
	for _, mod := range c.env.ModuleDirs() {
		file := filepath.Join(mod, "lib", filepath.FromSlash(path)+".rb")
		src, err := c.loadFile(file, "rubylib", func(src []byte) (any, error) { return src, nil })
		if err == nil {
			return file, src.([]byte), true
		}
	}
	if c.rubyLibMisses == nil {
		c.rubyLibMisses = make(map[string]bool)
	}
	c.rubyLibMisses[path] = true
	return "", nil, false
}

// ModuleFile answers Ruby's File.exist?, File.read and the like for a
// path inside one of the environment's module directories, and only there
// (extlib's has_module reads the module's metadata.json): a path outside
// them, or a symlink inside leading out of its module, is not answered.
func (s *erbScope) ModuleFile(path string, read bool) (erb.ModuleFile, bool) {
	clean := filepath.Clean(path)
	for _, mod := range s.c.env.ModuleDirs() {
		if clean != mod && !strings.HasPrefix(clean, mod+string(filepath.Separator)) {
			continue
		}
		// The nearest existing ancestor must resolve inside the module
		// too, so that a symlink cannot tell even whether a file outside
		// exists.
		existing := clean
		for {
			if _, err := os.Lstat(existing); err == nil || existing == mod {
				break
			}
			existing = filepath.Dir(existing)
		}
		realMod, err1 := filepath.EvalSymlinks(mod)
		real, err2 := filepath.EvalSymlinks(existing)
		if err1 != nil || err2 != nil || real != realMod && !strings.HasPrefix(real, realMod+string(filepath.Separator)) {
			return erb.ModuleFile{}, false
		}
		if existing != clean {
			return erb.ModuleFile{}, true
		}
		return s.statFile(real, read)
	}
	return s.hieraFile(clean, read)
}

// statFile tells Ruby's File methods whether path exists, whether it is a
// directory and, when read is set, a file's content; ok is false when it
// cannot be read.
func (s *erbScope) statFile(path string, read bool) (f erb.ModuleFile, ok bool) {
	st, err := os.Stat(path)
	if err != nil {
		return erb.ModuleFile{}, true
	}
	f = erb.ModuleFile{Exists: true, Dir: st.IsDir()}
	if read && !f.Dir {
		file, err := os.Open(path)
		if err != nil {
			return erb.ModuleFile{}, false
		}
		defer file.Close()
		// One byte past the largest string tells the reader it is too large.
		limit := int64(max(s.c.req.Limits.MaxTemplateSize, ruby.MaxStringSize))
		if f.Content, err = io.ReadAll(io.LimitReader(file, limit+1)); err != nil {
			return erb.ModuleFile{}, false
		}
	}
	return f, true
}

// hieraFile answers Ruby's File methods for a path below the directory of
// a Hiera backend call in progress: what Hiera itself may read there (and
// as Hiera does, through symlinks).
func (s *erbScope) hieraFile(clean string, read bool) (erb.ModuleFile, bool) {
	for _, root := range s.c.hieraReadRoots {
		if clean != root && !strings.HasPrefix(clean, root+string(filepath.Separator)) {
			continue
		}
		// What the backend looks at decides the catalog as data does.
		s.c.req.Reads.File(clean)
		return s.statFile(clean, read)
	}
	return erb.ModuleFile{}, false
}

// Log records what Ruby code logs through Puppet.debug, Puppet.warning
// and the like as a message of this compile (ruby.Logger).
func (s *erbScope) Log(level, msg string) { s.c.logf(level, "%s", msg) }

// ResourceDefaults gives Ruby's scope.lookupdefaults (ruby.DefaultsLister):
// the defaults of a type visible from the scope, as applyDefaults applies
// them, the nearest scope's value of each attribute winning.
func (s *erbScope) ResourceDefaults(typ string) []ruby.Default {
	typ = value.CapitalizeName(typ)
	var out []ruby.Default
	seen := map[string]bool{}
	for d := s.c.data(s.sc); d != nil; d = s.c.dynamicParent(d) {
		for _, a := range d.defaults[typ] {
			if !seen[a.name] {
				seen[a.name] = true
				out = append(out, ruby.Default{Name: a.name, Value: a.value})
			}
		}
	}
	return out
}

// Setting answers Puppet[:name] with the compile's setting as
// $settings::name shows it (ruby.Settings).
func (s *erbScope) Setting(name string) (value.Value, bool) {
	v, found, _ := s.c.qualifiedLookup("settings::" + name)
	return v, found
}

// ResourceParameters answers scope.resource.to_hash (ruby.ResourceLister):
// the parameters of the class or defined-type instance whose body holds
// the scope, undef ones left out, and its name (the title) when no
// parameter gives it, as Puppet's Resource#to_hash has them.
func (s *erbScope) ResourceParameters() (*value.Hash, bool) {
	for sc := s.sc; sc != nil; sc = sc.Parent() {
		d := s.c.scopes[sc]
		if d == nil || d.resource == nil {
			continue
		}
		r := d.resource
		b := value.NewHashBuilder(len(r.Params) + 1)
		named := false
		for _, p := range r.Params {
			if value.IsUndef(p.Value) {
				continue
			}
			named = named || p.Name == "name"
			b.Set(value.String(p.Name), p.Value)
		}
		if !named {
			b.Set(value.String("name"), value.String(r.Title))
		}
		return b.Build(), true
	}
	return nil, false
}

// CatalogResources lists the resources declared so far, in declaration
// order, for scope.catalog.resources (ruby.CatalogLister): each one's
// parameters as Puppet's Resource#to_hash has them, the attributes its
// title sets (by the type's title patterns; name for classes and defined
// types) overridden by its own parameters.
func (s *erbScope) CatalogResources() []ruby.CatalogResource {
	c := s.c
	out := make([]ruby.CatalogResource, 0, len(c.resources))
	for _, r := range c.resources {
		b := value.NewHashBuilder(len(r.Params) + 1)
		titled := false
		if r.Kind == catalog.KindNative && c.types != nil {
			if schema, ok := c.types.Lookup(r.Type); ok {
				if attrs, err := schema.ParseTitle(r.Title); err == nil {
					for _, a := range attrs {
						if str, isStr := a.Value.(string); isStr {
							b.Set(value.String(a.Name), value.String(str))
						}
					}
					titled = true
				}
			}
		}
		if !titled {
			b.Set(value.String("name"), value.String(r.Title))
		}
		for _, p := range r.Params {
			b.Set(value.String(p.Name), p.Value)
		}
		out = append(out, ruby.CatalogResource{Type: r.Type, Title: r.Title, Params: b.Build()})
	}
	return out
}

// HasResource tells whether typ[title] has been declared, following
// aliases as a reference does (ruby.CatalogEditor).
func (s *erbScope) HasResource(typ, title string) bool {
	return s.c.byRef[catalog.Ref{Type: typ, Title: title}] != nil
}

// RemoveResource takes typ[title] out of the catalog-to-be, as
// extlib::remove_resource does to Puppet's catalog and compiler: it is
// neither in the catalog nor evaluated (a defined type's body), and its
// title and uniqueness key are free again (ruby.CatalogEditor).
func (s *erbScope) RemoveResource(typ, title string) {
	c := s.c
	r := c.byRef[catalog.Ref{Type: typ, Title: title}]
	if r == nil {
		return
	}
	for ref, x := range c.byRef {
		if x == r {
			delete(c.byRef, ref)
		}
	}
	for k, x := range c.uniq {
		if x == r {
			delete(c.uniq, k)
		}
	}
	c.resources = slices.DeleteFunc(c.resources, func(x *resource) bool { return x == r })
	c.byType[r.Type] = slices.DeleteFunc(c.byType[r.Type], func(x *resource) bool { return x == r })
	c.pendingDefines = slices.DeleteFunc(c.pendingDefines, func(x *resource) bool { return x == r })
}

// TopScope is the top scope seen from the same call site (ruby.TopScoper):
// a 4.x function's call_function runs there under Puppet, while what it
// declares keeps the file and line of the Puppet call (a local scope of
// the top one, in the caller's file).
func (s *erbScope) TopScope() ruby.Scope {
	return &erbScope{c: s.c, sc: eval.NewScope(eval.LocalScope, "", s.c.top, s.sc.File), at: s.at, top: true}
}

// SetVariable sets a variable for Ruby code (ruby.VariableSetter), as
// Puppet's Scope#setvar and #[]= do: once, like any Puppet variable; in top
// scope for a function's closure_scope or compiler.topscope, else in the
// scope that called the function.
func (s *erbScope) SetVariable(name string, v value.Value) error {
	name = strings.TrimPrefix(name, "::")
	if isQualifiedName(name) {
		return fmt.Errorf("Cannot assign to a qualified variable '$%s'", name)
	}
	if !s.top {
		// A 3.x function's setvar: the calling scope's variable.
		if !s.sc.Set(name, v) {
			return fmt.Errorf("Cannot reassign variable '$%s'", name)
		}
		return nil
	}
	if !s.c.top.Set(name, v) {
		return fmt.Errorf("Cannot reassign variable '$%s'", name)
	}
	return nil
}

// EnvironmentName is the environment's name (ruby.EnvironmentInfo).
func (s *erbScope) EnvironmentName() string { return s.c.env.Name }

// EnvironmentModulePath lists the module path's directories that exist,
// as Puppet's Environment#modulepath does.
func (s *erbScope) EnvironmentModulePath() []string {
	var out []string
	for _, d := range s.c.env.ModulePath {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// ModulePathOf is the directory of a module of the environment
// (environment.module(name).path).
func (s *erbScope) ModulePathOf(name string) (string, bool) {
	return s.c.env.ModuleDir(name)
}

// FindDefinition answers scope.find_hostclass and find_definition
// (ruby.DefinitionFinder): the canonical name of the class or defined type,
// found false when the environment has none.
func (s *erbScope) FindDefinition(kind, name string) (string, bool, error) {
	k := environment.KindClass
	if kind == "definition" {
		k = environment.KindDefine
	}
	d, err := s.c.env.lookup(k, strings.TrimPrefix(name, "::"))
	if err != nil {
		return "", false, err
	}
	if d == nil {
		return "", false, nil
	}
	return d.Name, true, nil
}
