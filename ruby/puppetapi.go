package ruby

import (
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// Logger may be implemented by a Scope to receive what Ruby code logs
// through Puppet.debug, Puppet.info, Puppet.notice, Puppet.warning and
// Puppet.err (extlib::echo); level is the Puppet log level's name.
type Logger interface {
	Log(level, msg string)
}

// Settings may be implemented by a Scope to answer Puppet[:name] with the
// compile's settings, as $settings::name shows them; found is false for a
// setting Puppet does not know, which Ruby reads as nil.
type Settings interface {
	Setting(name string) (v value.Value, found bool)
}

// puppetLogLevels are the Puppet logging methods Ruby code calls on the
// Puppet module.
const puppetLogLevels = "debug info notice warning err alert emerg crit"

// puppetClassMethod implements the Puppet module's methods the subset
// supports: Puppet[:setting] and the logging methods.
func (in *interp) puppetClassMethod(line int, name string, args []any) (any, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	if name == "[]" {
		var setting string
		switch a := args[0].(type) {
		case symbol:
			setting = string(a)
		case *rstr:
			setting = a.s
		default:
			return nil, false, nil
		}
		st, ok := in.scope.(Settings)
		if !ok {
			return nil, true, in.unsupported(line, "Puppet[%s] without the compile's settings", inspect(args[0]))
		}
		v, found := st.Setting(setting)
		if !found {
			return nil, true, nil
		}
		return fromPuppet(v), true, nil
	}
	// A log call returns nil when the level is not logged; the subset
	// returns nil always, as no function here uses the Log it may return.
	if lg, ok := in.scope.(Logger); ok {
		lg.Log(name, toS(args[0]))
	}
	return nil, true, nil
}

// cgiMethod implements CGI.escape and CGI.unescape (URL form encoding).
func (in *interp) cgiMethod(line int, name string, args []any) (any, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	s, err := in.strArg(line, args, 0)
	if err != nil {
		return nil, true, err
	}
	if name == "escape" {
		return newStr(cgiEscape(s)), true, nil
	}
	return newStr(cgiUnescape(s)), true, nil
}

// cgiEscape encodes every byte but letters, digits and _.-~ as %XX
// (upper-case hex), a space as +, as Ruby's CGI.escape does.
func cgiEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '-', c == '~':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// cgiUnescape decodes + as a space and each valid %XX; an invalid escape
// stays as written, as in Ruby.
func cgiUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// ResourceLister may be implemented by a Scope to answer scope.resource
// (extlib::dump_params): the parameters of the resource whose body is
// being evaluated, a class or a defined-type instance, its namevar
// included, in order, as Puppet's Resource#to_hash gives them. ok is false
// when the scope has no such resource.
type ResourceLister interface {
	ResourceParameters() (params *value.Hash, ok bool)
}

// resourceObj is what scope.resource and scope.catalog.resources give
// Ruby code: a Puppet::Resource of which the subset has to_hash, [], and
// for a catalog's resource type, title and to_s.
type resourceObj struct {
	params     *value.Hash
	typ, title string // "" for scope.resource
}

// CatalogLister may be implemented by a Scope to answer
// scope.catalog.resources and scope.catalog.resource(type, title): the
// resources declared so far, in declaration order.
type CatalogLister interface {
	CatalogResources() []CatalogResource
}

// CatalogResource is a resource of the catalog as Ruby code sees it: its
// capitalized type, its title, and Params as Puppet's Resource#to_hash
// gives them (the namevar its title sets, then its parameters).
type CatalogResource struct {
	Type, Title string
	Params      *value.Hash
}

// catalogResources is scope.catalog.resources.
func (in *interp) catalogResources(line int) ([]CatalogResource, error) {
	cl, ok := in.scope.(CatalogLister)
	if !ok {
		return nil, in.unsupported(line, "scope.catalog.resources without the compile's catalog")
	}
	return cl.CatalogResources(), nil
}

// scopeResource is scope.resource.
func (in *interp) scopeResource(line int) (any, error) {
	rl, ok := in.scope.(ResourceLister)
	if !ok {
		return nil, in.unsupported(line, "scope.resource without the compile's resources")
	}
	params, ok := rl.ResourceParameters()
	if !ok {
		return nil, in.unsupported(line, "scope.resource outside a class or defined type")
	}
	return &resourceObj{params: params}, nil
}

// resourceMethod implements Puppet::Resource#to_hash (Symbol keys) and #[].
func (in *interp) resourceMethod(line int, r *resourceObj, name string, args []any) (any, bool, error) {
	if r.typ != "" && len(args) == 0 {
		switch name {
		case "type":
			return newStr(r.typ), true, nil
		case "title":
			return newStr(r.title), true, nil
		case "to_s", "ref":
			return newStr(r.typ + "[" + r.title + "]"), true, nil
		}
	}
	switch name {
	case "to_hash", "to_h":
		if len(args) != 0 {
			return nil, false, nil
		}
		h := newHash()
		for i := 0; i < r.params.Len(); i++ {
			k, v := r.params.At(i)
			h.set(symbol(value.ToString(k)), fromPuppet(v))
		}
		return h, true, nil
	case "[]":
		if len(args) != 1 {
			return nil, false, nil
		}
		v, found := r.params.Get(value.String(toS(args[0])))
		if !found {
			return nil, true, nil
		}
		return fromPuppet(v), true, nil
	}
	return nil, false, nil
}
