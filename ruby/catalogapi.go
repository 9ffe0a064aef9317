package ruby

import (
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// CatalogEditor may be implemented by a Scope to let Ruby code find and
// remove the resources declared so far, as extlib::remove_resource does
// through scope.compiler.findresource, scope.catalog.remove_resource and
// scope.compiler.resources.delete. typ is a capitalized type name.
type CatalogEditor interface {
	HasResource(typ, title string) bool
	RemoveResource(typ, title string)
}

// compilerPart is scope.compiler, scope.catalog or
// scope.compiler.resources: which one is in part.
type compilerPart struct{ part string }

// catalogRef is a resource scope.compiler.findresource found.
type catalogRef struct{ typ, title string }

// resourceTypeRef is what Runtime3ResourceSupport.find_resource_type
// gives: the type, by capitalized name.
type resourceTypeRef struct{ name string }

// runtime3Support is the class of find_resource_type.
const runtime3Support = "Puppet::Pops::Evaluator::Runtime3ResourceSupport"

// catalogEditor is the scope's CatalogEditor, or an unsupported error.
func (in *interp) catalogEditor(line int, what string) (CatalogEditor, error) {
	ce, ok := in.scope.(CatalogEditor)
	if !ok {
		return nil, in.unsupported(line, "%s without the compile's catalog", what)
	}
	return ce, nil
}

// findResourceType is Runtime3ResourceSupport.find_resource_type(scope,
// name).
func (in *interp) findResourceType(line int, args []any) (any, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	name, ok := args[1].(*rstr)
	if !ok {
		return nil, false, nil
	}
	return &resourceTypeRef{name: capitalizeTypeName(name.s)}, true, nil
}

// capitalizeTypeName capitalizes each segment of a type name (notify,
// foo::bar), as references print them.
func capitalizeTypeName(s string) string {
	segs := strings.Split(s, "::")
	for i, g := range segs {
		if g != "" {
			segs[i] = strings.ToUpper(g[:1]) + g[1:]
		}
	}
	return strings.Join(segs, "::")
}

// compilerPartMethod implements findresource on scope.compiler,
// remove_resource on scope.catalog and delete on scope.compiler.resources.
func (in *interp) compilerPartMethod(line int, p *compilerPart, name string, args []any) (any, bool, error) {
	switch {
	case p.part == "compiler" && name == "resources" && len(args) == 0:
		return &compilerPart{part: "resources"}, true, nil
	case p.part == "compiler" && name == "environment" && len(args) == 0:
		return &envObj{}, true, nil
	case p.part == "compiler" && name == "topscope" && len(args) == 0:
		return &scopeObj{top: true}, true, nil
	case p.part == "catalog" && name == "resources" && len(args) == 0:
		list, err := in.catalogResources(line)
		if err != nil {
			return nil, true, err
		}
		out := make([]any, len(list))
		for i, r := range list {
			out[i] = &resourceObj{params: r.Params, typ: r.Type, title: r.Title}
		}
		return &rarray{a: out}, true, nil
	case p.part == "catalog" && name == "resource" && (len(args) == 1 || len(args) == 2):
		// resource(type, title), or resource('Type[title]').
		var typ, title string
		if len(args) == 2 {
			typ, title = toS(args[0]), toS(args[1])
		} else {
			ref := toS(args[0])
			i := strings.IndexByte(ref, '[')
			if i <= 0 || !strings.HasSuffix(ref, "]") {
				return nil, true, in.unsupported(line, "scope.catalog.resource(%s)", inspect(args[0]))
			}
			typ, title = ref[:i], ref[i+1:len(ref)-1]
		}
		typ = capitalizeTypeName(typ)
		if typ == "Class" {
			title = capitalizeTypeName(title)
		}
		list, err := in.catalogResources(line)
		if err != nil {
			return nil, true, err
		}
		for _, r := range list {
			if r.Type == typ && r.Title == title {
				return &resourceObj{params: r.Params, typ: r.Type, title: r.Title}, true, nil
			}
		}
		return nil, true, nil
	case p.part == "compiler" && name == "findresource" && len(args) == 2:
		ce, err := in.catalogEditor(line, "scope.compiler.findresource")
		if err != nil {
			return nil, true, err
		}
		var typ string
		switch t := args[0].(type) {
		case *resourceTypeRef:
			typ = t.name
		case *rstr:
			typ = capitalizeTypeName(t.s)
		default:
			return nil, false, nil
		}
		title := toS(args[1])
		if !ce.HasResource(typ, title) {
			return nil, true, nil
		}
		return &catalogRef{typ: typ, title: title}, true, nil
	case p.part == "catalog" && name == "remove_resource" || p.part == "resources" && name == "delete":
		ce, err := in.catalogEditor(line, "scope.catalog.remove_resource")
		if err != nil {
			return nil, true, err
		}
		var removed []any
		for _, a := range args {
			r, ok := a.(*catalogRef)
			if !ok {
				return nil, false, nil
			}
			if ce.HasResource(r.typ, r.title) {
				ce.RemoveResource(r.typ, r.title)
				removed = append(removed, r)
			}
		}
		if p.part == "resources" {
			// Array#delete answers the deleted object or nil.
			if len(removed) == 0 {
				return nil, true, nil
			}
			return removed[0], true, nil
		}
		return nil, true, nil
	}
	return nil, false, nil
}

// puppetObjMethod implements type_name and title of a Resource type
// (Type[Resource] arguments: Notify['x']).
func (in *interp) puppetObjMethod(line int, o *puppetObj, name string, args []any) (any, bool, error) {
	if m, ok := o.v.(MethodReceiver); ok {
		return in.receiverMethod(m, name, args)
	}
	rt, ok := o.v.(*value.ResourceType)
	if !ok {
		if t, isType := o.v.(value.Type); isType {
			return in.puppetTypeMethod(line, t, name, args)
		}
		return nil, false, nil
	}
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "type_name":
		if rt.Type == "" {
			return nil, true, nil
		}
		return newStr(capitalizeTypeName(rt.Type)), true, nil
	case "title":
		if rt.Title == "" {
			return nil, true, nil
		}
		return newStr(rt.Title), true, nil
	}
	return nil, false, nil
}
