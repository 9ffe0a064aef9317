package ruby

// EnvironmentInfo may be implemented by a Scope to answer what Ruby code
// asks of the compile's environment: scope.compiler.environment (or
// scope.environment) with name, modulepath and module(name).path, and
// Puppet::Parser::Files.find_template and find_file.
type EnvironmentInfo interface {
	EnvironmentName() string
	// EnvironmentModulePath is the module path's directories.
	EnvironmentModulePath() []string
	// ModulePathOf is the directory of a module of the environment.
	ModulePathOf(name string) (dir string, ok bool)
}

// envObj is a Puppet::Node::Environment.
type envObj struct{}

// moduleObj is a Puppet::Module of the environment.
type moduleObj struct{ name, path string }

// environmentInfo is the scope's EnvironmentInfo, or an unsupported error.
func (in *interp) environmentInfo(line int, what string) (EnvironmentInfo, error) {
	ei, ok := in.scope.(EnvironmentInfo)
	if !ok {
		return nil, in.unsupported(line, "%s without the compile's environment", what)
	}
	return ei, nil
}

// envMethod implements name, to_s, modulepath and module(name) of the
// environment.
func (in *interp) envMethod(line int, name string, args []any) (any, bool, error) {
	ei, err := in.environmentInfo(line, "the environment's "+name)
	if err != nil {
		return nil, true, err
	}
	switch {
	case (name == "name" || name == "to_s" || name == "to_sym") && len(args) == 0:
		if name == "name" || name == "to_sym" {
			// Environment#name is a Symbol.
			return symbol(ei.EnvironmentName()), true, nil
		}
		return newStr(ei.EnvironmentName()), true, nil
	case name == "known_resource_types" && len(args) == 0:
		return &knownTypesObj{}, true, nil
	case name == "modulepath" && len(args) == 0:
		dirs := ei.EnvironmentModulePath()
		out := make([]any, len(dirs))
		for i, d := range dirs {
			out[i] = newStr(d)
		}
		return &rarray{a: out}, true, nil
	case name == "module" && len(args) == 1:
		n, ok := args[0].(*rstr)
		if !ok {
			return nil, true, in.unsupported(line, "environment.module(%s)", inspect(args[0]))
		}
		dir, found := ei.ModulePathOf(n.s)
		if !found {
			return nil, true, nil
		}
		return &moduleObj{name: n.s, path: dir}, true, nil
	}
	return nil, false, nil
}

// moduleMethod implements name, path and the finders of files below a
// module (file, template), which answer a path only when it exists.
func (in *interp) moduleMethod(line int, m *moduleObj, name string, args []any) (any, bool, error) {
	switch {
	case (name == "name" || name == "path") && len(args) == 0:
		if name == "name" {
			return newStr(m.name), true, nil
		}
		return newStr(m.path), true, nil
	case (name == "file" || name == "template") && len(args) == 1:
		f, ok := args[0].(*rstr)
		if !ok {
			return nil, true, in.unsupported(line, "module.%s(%s)", name, inspect(args[0]))
		}
		dir := "files"
		if name == "template" {
			dir = "templates"
		}
		return in.moduleSubpath(line, m.path+"/"+dir+"/"+f.s)
	}
	return nil, false, nil
}

// moduleSubpath answers a path below a module when it exists, else nil.
func (in *interp) moduleSubpath(line int, p string) (any, bool, error) {
	mf, err := in.moduleFile(line, "exist?", p, false)
	if err != nil {
		return nil, true, err
	}
	if !mf.Exists {
		return nil, true, nil
	}
	return newStr(p), true, nil
}

// findInModule is Puppet::Parser::Files.find_template and find_file: an
// absolute name as it is, 'module/path' as the path below the module's
// templates (or files) directory when it exists, else nil.
func (in *interp) findInModule(line int, method string, args []any) (any, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	name, ok := args[0].(*rstr)
	if !ok {
		return nil, true, in.unsupported(line, "Puppet::Parser::Files.%s of %s", method, inspect(args[0]))
	}
	if _, ok := args[1].(*envObj); !ok {
		return nil, true, in.unsupported(line, "Puppet::Parser::Files.%s in %s", method, inspect(args[1]))
	}
	if len(name.s) > 0 && name.s[0] == '/' {
		return name, true, nil
	}
	ei, err := in.environmentInfo(line, "Puppet::Parser::Files."+method)
	if err != nil {
		return nil, true, err
	}
	mod, rest := name.s, ""
	for i := 0; i < len(name.s); i++ {
		if name.s[i] == '/' {
			mod, rest = name.s[:i], name.s[i+1:]
			break
		}
	}
	if rest == "" {
		return nil, true, nil
	}
	dir, found := ei.ModulePathOf(mod)
	if !found {
		return nil, true, nil
	}
	sub := "templates"
	if method == "find_file" {
		sub = "files"
	}
	return in.moduleSubpath(line, dir+"/"+sub+"/"+rest)
}
