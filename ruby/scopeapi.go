package ruby

import (
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// DefinitionFinder may be implemented by a Scope to answer
// scope.find_hostclass(name) and scope.find_definition(name) (also through
// known_resource_types): kind is "hostclass" or "definition"; name is the
// definition's canonical name, found false when the environment has none.
type DefinitionFinder interface {
	FindDefinition(kind, name string) (canonical string, found bool, err error)
}

// TypeParser may be implemented by a Scope to parse a Puppet type
// expression as Puppet code reads it (TypeParser.singleton.parse).
type TypeParser interface {
	ParseType(spec string) (value.Value, error)
}

// knownTypesObj is an environment's known_resource_types.
type knownTypesObj struct{}

// resourceTypeObj is a Puppet::Resource::Type: a class (hostclass) or a
// defined type (definition).
type resourceTypeObj struct{ kind, name string }

// typeParserObj is Puppet::Pops::Types::TypeParser.singleton.
type typeParserObj struct{}

const typeParserClass = "Puppet::Pops::Types::TypeParser"

// findDefinition is find_hostclass and find_definition.
func (in *interp) findDefinition(line int, method string, args []any) (any, error) {
	if len(args) != 1 {
		return nil, in.unsupported(line, "%s with %d arguments", method, len(args))
	}
	n, ok := args[0].(*rstr)
	if !ok {
		return nil, in.unsupported(line, "%s(%s)", method, inspect(args[0]))
	}
	df, ok := in.scope.(DefinitionFinder)
	if !ok {
		return nil, in.unsupported(line, "%s without the compile's environment", method)
	}
	kind := strings.TrimPrefix(method, "find_")
	name, found, err := df.FindDefinition(kind, n.s)
	if err != nil {
		return nil, in.errorf(line, "Puppet::ParseError", "%s", err.Error())
	}
	if !found {
		return nil, nil
	}
	return &resourceTypeObj{kind: kind, name: name}, nil
}

// knownTypesMethod implements find_hostclass and find_definition of
// known_resource_types.
func (in *interp) knownTypesMethod(line int, name string, args []any) (any, bool, error) {
	if name != "find_hostclass" && name != "find_definition" {
		return nil, false, nil
	}
	v, err := in.findDefinition(line, name, args)
	return v, true, err
}

// resourceTypeMethod implements name and type of a class or defined type.
func (in *interp) resourceTypeMethod(line int, t *resourceTypeObj, name string, args []any) (any, bool, error) {
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "name":
		return newStr(t.name), true, nil
	case "type":
		return symbol(t.kind), true, nil
	}
	return nil, false, nil
}

// typeParserMethod is TypeParser.singleton.parse(string): the type as a
// Puppet value, whose instance? the subset answers.
func (in *interp) typeParserMethod(line int, name string, args []any) (any, bool, error) {
	if name != "parse" || len(args) < 1 || len(args) > 2 {
		return nil, false, nil
	}
	s, ok := args[0].(*rstr)
	if !ok {
		return nil, true, in.unsupported(line, "TypeParser#parse of %s", inspect(args[0]))
	}
	tp, ok := in.scope.(TypeParser)
	if !ok {
		return nil, true, in.unsupported(line, "TypeParser#parse without the compile's types")
	}
	t, err := tp.ParseType(s.s)
	if err != nil {
		return nil, true, in.errorf(line, "Puppet::ParseError", "%s", err.Error())
	}
	return &puppetObj{v: t}, true, nil
}

// puppetTypeMethod implements instance?(v) and to_s of a Puppet type.
func (in *interp) puppetTypeMethod(line int, t value.Type, name string, args []any) (any, bool, error) {
	switch {
	case name == "instance?" && len(args) == 1:
		v, err := toPuppet(args[0])
		if err != nil {
			return nil, true, in.unsupported(line, "instance? of %s", className(args[0]))
		}
		return value.IsInstance(t, v), true, nil
	case (name == "to_s" || name == "name") && len(args) == 0:
		if name == "name" {
			s := value.ToString(t)
			if i := strings.IndexByte(s, '['); i >= 0 {
				s = s[:i]
			}
			return newStr(s), true, nil
		}
		return newStr(value.ToString(t)), true, nil
	}
	return nil, false, nil
}

// absolutePath is Puppet::Util.absolute_path?(path[, :posix]) on a POSIX
// server.
func (in *interp) absolutePath(line int, args []any) (any, bool, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, false, nil
	}
	if len(args) == 2 && args[1] != symbol("posix") {
		return nil, true, in.unsupported(line, "Puppet::Util.absolute_path? for %s", inspect(args[1]))
	}
	s, ok := args[0].(*rstr)
	if !ok {
		return nil, true, in.unsupported(line, "Puppet::Util.absolute_path? of %s", className(args[0]))
	}
	return strings.HasPrefix(s.s, "/"), true, nil
}
