package compiler

import (
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/erb"
	"github.com/marionette-dev/marionette/eval"
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
	if err != nil {
		return "", err
	}
	return c.renderShared(t.(*erb.Template), sc)
}

// InlineTemplate implements functions.Templates.
func (c *Compilation) InlineTemplate(sc *eval.Scope, src string) (string, error) {
	return c.renderERB("inline_template", []byte(src), sc)
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
	return s.c.CallFunction(s.c.ev, s.sc, &eval.Call{Name: name, Args: args, Node: s.at})
}

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
	for _, mod := range c.env.moduleList {
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
