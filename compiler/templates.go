package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// EPP implements functions.Templates.
func (c *Compilation) EPP(name string, params []value.Value) (value.Value, error) {
	path, err := c.findTemplate(name)
	if err != nil {
		return nil, err
	}
	prog, err := c.loadFile(path, "epp", func(src []byte) (any, error) {
		return syntax.ParseEPP(path, src)
	})
	if err != nil {
		return nil, err
	}
	// A template file sees top scope only.
	return c.renderEPP(prog.(*syntax.EPPProgram), c.top, params)
}

// InlineEPP implements functions.Templates.
func (c *Compilation) InlineEPP(scope *eval.Scope, src string, params []value.Value) (value.Value, error) {
	// Positions in inline EPP name it as the Puppet major does.
	name := "inline_epp"
	if c.env.PuppetMajor() >= 8 {
		name = "inlined-epp-text"
	}
	prog, err := syntax.ParseEPP(name, []byte(src))
	if err != nil {
		return nil, err
	}
	if scope == nil {
		scope = c.top
	}
	// Inline EPP is evaluated in the calling scope, as in Puppet: the
	// variables of the class or define that calls it are visible.
	return c.renderEPP(prog, scope, params)
}

// findTemplate resolves 'module/path' to <module>/templates/path.
func (c *Compilation) findTemplate(name string) (string, error) {
	if filepath.IsAbs(name) {
		return name, nil
	}
	if p, ok := c.templatePaths[name]; ok {
		return p, nil
	}
	mod, rest, ok := strings.Cut(name, "/")
	if ok {
		if dir, found := c.env.ModuleDir(mod); found {
			p := filepath.Join(dir, "templates", rest)
			if _, err := os.Stat(p); err == nil {
				if c.templatePaths == nil {
					c.templatePaths = make(map[string]string)
				}
				c.templatePaths[name] = p
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("Could not find template '%s'", name)
}

// renderEPP evaluates a template in a scope of its own under parent:
// declared parameters are bound from the argument hash (with their types and
// defaults); a template without a parameter list sees the hash's entries as
// variables. An undef argument for no declared parameter is ignored, as
// Puppet ignores it.
func (c *Compilation) renderEPP(prog *syntax.EPPProgram, parent *eval.Scope, args []value.Value) (value.Value, error) {
	params := value.EmptyHash
	if len(args) == 1 && !value.IsUndef(args[0]) {
		h, ok := args[0].(*value.Hash)
		if !ok {
			return nil, fmt.Errorf("'epp' parameter 'parameters' expects a Hash value")
		}
		params = h
	}
	tsc := eval.NewScope(eval.LocalScope, "", parent, prog.File)
	if prog.HasParams {
		var undeclared []value.Value
		for i, k := range params.Keys() {
			if hasParam(prog.Params, value.ToString(k)) {
				continue
			}
			if !value.IsUndef(params.Values()[i]) {
				return nil, fmt.Errorf("Too many arguments: no parameter named '%s'", value.ToString(k))
			}
			undeclared = append(undeclared, k)
		}
		if len(undeclared) > 0 {
			b := value.NewHashBuilder(params.Len())
			for i, k := range params.Keys() {
				b.Set(k, params.Values()[i])
			}
			for _, k := range undeclared {
				b.Delete(k)
			}
			params = b.Build()
		}
		if err := c.bindParams(tsc, "lambda", prog.Params, params, nil, false, true, ""); err != nil {
			return nil, err
		}
	} else {
		for i, k := range params.Keys() {
			tsc.Set(value.ToString(k), params.Values()[i])
		}
	}
	out, err := c.ev.RenderEPP(prog, tsc)
	if err != nil {
		return nil, err
	}
	return value.String(out), nil
}
