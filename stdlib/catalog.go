package stdlib

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

func addCatalog(t functions.Table) {
	t["ensure_resource"] = legacyStatement(ensureResource)
	t["ensure_resources"] = legacyStatement(ensureResources)
	t["ensure_packages"] = arity("ensure_packages", 1, 2, ensurePackages)
	t["defined_with_params"] = legacy(definedWithParams)
	t["getparam"] = legacy(getparam)
	t["assert_private"] = legacyStatement(assertPrivate)
	t["fact"] = fact
	t["os_version_gte"] = arity("os_version_gte", 2, 2, osVersionGTE)
	t["get_module_path"] = legacy(getModulePath)
	t["load_module_metadata"] = legacy(loadModuleMetadata)
}

// catalogOf returns the compile's catalog, which a host that provides no
// services (Ctx.Services nil) does not have.
func catalogOf(c *functions.Ctx, fn string) (functions.Catalog, error) {
	if c.Services == nil {
		return nil, errorf("%s(): not available: the compile does not provide the catalog", fn)
	}
	return c.Services, nil
}

// canonicalType capitalizes each segment of a type name: "apt::source"
// becomes "Apt::Source".
func canonicalType(name string) string {
	segs := strings.Split(strings.TrimPrefix(name, "::"), "::")
	for i, s := range segs {
		segs[i] = value.CapitalizeName(strings.ToLower(s))
	}
	return strings.Join(segs, "::")
}

var referenceSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)^([^\[\]]+)\[(.+)\]$`) })

// splitReference is Puppet::Resource.type_and_title for a "Type[title]"
// string or a resource reference value. A bare type gives an empty title.
func splitReference(ref value.Value) (typ, title string, err error) {
	switch r := ref.(type) {
	case value.String:
		if m := referenceSyntax().FindStringSubmatch(string(r)); m != nil {
			title := m[2]
			// Puppet strips the quotes of Type['title'].
			if len(title) >= 2 && (title[0] == '\'' || title[0] == '"') && title[len(title)-1] == title[0] {
				title = title[1 : len(title)-1]
			}
			return canonicalType(m[1]), title, nil
		}
		return "", "", errorf("No title provided and %s is not a valid resource reference", value.RubyInspect(r))
	case *value.ResourceType:
		return canonicalType(r.Type), r.Title, nil
	case *value.ClassType:
		return "Class", canonicalType(r.Name), nil
	}
	return "", "", errorf("Reference is not understood: '%s'", value.RubyClass(ref))
}

func definedWithParams(c *functions.Ctx, args []value.Value) (value.Value, error) {
	ref := arg(args, 0)
	if !value.Truthy(ref) {
		return nil, errorf("Must specify a reference")
	}
	params, _ := arg(args, 1).(*value.Hash)
	cat, err := catalogOf(c, "defined_with_params")
	if err != nil {
		return nil, err
	}
	typ, title, err := splitReference(ref)
	if err != nil {
		return nil, err
	}
	return value.Boolean(isDefinedWithParams(c, cat, typ, title, params)), nil
}

// isDefinedWithParams reports whether a resource typ[title] (any of the
// type when title is empty), other than the one being evaluated, has all
// the given parameter values.
func isDefinedWithParams(c *functions.Ctx, cat functions.Catalog, typ, title string, params *value.Hash) bool {
	titles := []string{title}
	if title == "" {
		titles = cat.ResourceTitles(typ)
	}
	self := cat.ScopeResource(c.Scope)
	for _, t := range titles {
		res, found := cat.Resource(typ, t)
		if !found || typ+"["+t+"]" == self {
			continue
		}
		matched := true
		for i := range params.Len() {
			k, want := params.At(i)
			have, _ := res.Get(k)
			if !(value.IsUndef(have) && value.IsUndef(want)) && !value.RubyEqual(have, want) {
				matched = false
				break
			}
		}
		if matched {
			return true
		}
	}
	return false
}

func ensureResource(c *functions.Ctx, args []value.Value) (value.Value, error) {
	typ, title := arg(args, 0), arg(args, 1)
	if !value.Truthy(typ) {
		return nil, errorf("Must specify a type")
	}
	if !value.Truthy(title) {
		return nil, errorf("Must specify a title")
	}
	params := value.EmptyHash
	// Undef parameters arrive as "": they match like no parameters, but
	// declaring the resource with them fails as in Ruby.
	var paramsErr error
	switch p := arg(args, 2).(type) {
	case *value.Hash:
		params = p
	case value.String:
		if len(args) > 2 {
			paramsErr = errorf("no implicit conversion of String into Hash")
		}
		if p != "" {
			return nil, errorf("undefined method `map' for %s:String", value.RubyInspect(p))
		}
	default:
		if len(args) > 2 {
			return nil, errorf("undefined method `map' for %s:%s", value.RubyInspect(p), value.RubyClass(p))
		}
	}
	cat, err := catalogOf(c, "ensure_resource")
	if err != nil {
		return nil, err
	}
	typeName := canonicalType(value.RubyString(typ))
	for _, item := range flattenDeep(value.Array{title}) {
		name := value.RubyString(item)
		if isDefinedWithParams(c, cat, typeName, name, params) {
			continue
		}
		if paramsErr != nil {
			return nil, paramsErr
		}
		// The title keeps its type, as in Ruby ({ item => params }).
		resources := value.NewHash(item, params)
		if err := callFunction(c, "create_resources", value.String(typeName), resources); err != nil {
			return nil, err
		}
	}
	return value.Undef, nil
}

// callFunction calls another function through the compile, as Ruby's
// call_function does.
func callFunction(c *functions.Ctx, name string, args ...value.Value) error {
	if c.Eval == nil || c.Eval.Host == nil {
		return errorf("%s() is not available here", name)
	}
	call := &eval.Call{Name: name, Args: args}
	if c.Call != nil {
		call.Node = c.Call.Node
	}
	_, err := c.Eval.Host.CallFunction(c.Eval, c.Scope, call)
	return err
}

func ensureResources(c *functions.Ctx, args []value.Value) (value.Value, error) {
	typ, title := arg(args, 0), arg(args, 1)
	if !value.Truthy(typ) {
		return nil, errorf("Must specify a type")
	}
	if !value.Truthy(title) {
		return nil, errorf("Must specify a title")
	}
	resources, ok := title.(*value.Hash)
	if !ok {
		return nil, errorf("ensure_resources(): Requires second argument to be a Hash")
	}
	defaults, _ := arg(args, 2).(*value.Hash)
	for i := range resources.Len() {
		name, own := resources.At(i)
		params := defaults
		if ownHash, ok := own.(*value.Hash); ok && value.Truthy(own) {
			params = value.Merge(defaults, ownHash)
		}
		var p value.Value = value.EmptyHash
		if params != nil {
			p = params
		}
		if _, err := ensureResource(c, []value.Value{typ, name, p}); err != nil {
			return nil, err
		}
	}
	return value.Undef, nil
}

var packagesType = value.NewVariant(
	&value.StringType{Min: 1, Max: value.MaxInt},
	&value.ArrayType{Elem: &value.StringType{Min: 1, Max: value.MaxInt}, Min: 0, Max: value.MaxInt},
	&value.HashType{Key: &value.StringType{Min: 1, Max: value.MaxInt}, Value: value.AnyType, Min: 0, Max: value.MaxInt},
)

// ensurePackages is the 4.x ensure_packages(packages, default_attributes).
func ensurePackages(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return ensurePackagesAs(c, args, "installed", "present")
}

// ensurePackagesPre8 is ensure_packages before stdlib 8.0, which flipped
// the two names of one state (puppetlabs-stdlib #1196): the default ensure
// is present, and an ensure of installed is declared as present.
func ensurePackagesPre8(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return ensurePackagesAs(c, args, "present", "installed")
}

// ensurePackagesAs declares the packages with ensure, by default and in
// place of its synonym alias.
func ensurePackagesAs(c *functions.Ctx, args []value.Value, ensure, alias string) (value.Value, error) {
	if !value.IsInstance(packagesType, args[0]) {
		return nil, parameterError("ensure_packages", "packages", describeArg(packagesType, args[0]))
	}
	defaults := value.NewHashBuilder(1)
	defaults.Set(value.String("ensure"), value.String(ensure))
	if len(args) == 2 && !value.IsUndef(args[1]) {
		attrs, ok := args[1].(*value.Hash)
		if !ok {
			return nil, parameterError("ensure_packages", "default_attributes", "expects a Hash value, got "+describeType(args[1]))
		}
		for i := range attrs.Len() {
			k, v := attrs.At(i)
			defaults.Set(k, v)
		}
	}
	d := defaults.Build()
	if e, _ := d.GetString("ensure"); e == value.String(alias) {
		d = value.Merge(d, value.NewHash(value.String("ensure"), value.String(ensure)))
	}
	if h, ok := args[0].(*value.Hash); ok {
		_, err := ensureResources(c, []value.Value{value.String("package"), h, d})
		return value.Undef, err
	}
	for _, name := range rubyArray(args[0]) {
		if _, err := ensureResource(c, []value.Value{value.String("package"), name, d}); err != nil {
			return nil, err
		}
	}
	return value.Undef, nil
}

func getparam(c *functions.Ctx, args []value.Value) (value.Value, error) {
	ref, param := arg(args, 0), arg(args, 1)
	if !value.Truthy(ref) {
		return nil, errorf("Must specify a reference")
	}
	name, ok := param.(value.String)
	if !ok {
		return nil, errorf("Must specify name of a parameter")
	}
	if name == "" {
		return value.String(""), nil
	}
	cat, err := catalogOf(c, "getparam")
	if err != nil {
		return nil, err
	}
	typ, title, err := splitReference(ref)
	if err != nil {
		return nil, err
	}
	if res, found := cat.Resource(typ, title); found {
		if v, ok := res.Get(name); ok && !value.IsUndef(v) {
			return v, nil
		}
	}
	return value.String(""), nil
}

// assertPrivate fails unless the calling class or define was declared
// from its own module: $module_name must equal $caller_module_name, which
// the compiler sets in class and define scopes (an unset variable is
// Ruby's nil, which differs from "").
func assertPrivate(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 0, 1, "assert_private(): Wrong number of arguments given (%d}) for 0 or 1)"); err != nil {
		return nil, err
	}
	if c.Scope == nil {
		return value.Undef, nil
	}
	kind, name := "", ""
	for sc := c.Scope; sc != nil; sc = sc.Parent() {
		if sc.Kind == eval.ClassScope || sc.Kind == eval.DefineScope {
			kind, name = "Definition", sc.Name
			if sc.Kind == eval.ClassScope {
				kind = "Class"
			}
			break
		}
	}
	if kind != "" {
		// Puppet's top scope has $module_name = "", so a class or define
		// of the main manifest (caller "") passes.
		module, found := c.Scope.Lookup("module_name")
		if !found {
			module = value.String("")
		}
		caller, found := c.Scope.Lookup("caller_module_name")
		if found && value.RubyString(module) == value.RubyString(caller) {
			return value.Undef, nil
		}
	} else {
		// Outside any class Puppet sees the main class, which never passes.
		kind = "Class"
	}
	if msg, ok := arg(args, 0).(value.String); ok {
		return nil, errorf("%s", msg)
	}
	return nil, errorf("%s %s is private", kind, name)
}

// topFact returns the fact name of the compile ($facts[name]), recorded
// as a read of that fact alone when the compile records its reads.
func topFact(c *functions.Ctx, name string) (value.Value, bool) {
	if c.Scope == nil {
		return nil, false
	}
	if h, rec := c.Scope.Top().FactsAt(); h != nil {
		rec.Fact(name)
		return h.GetString(name)
	}
	return topFacts(c).GetString(name)
}

// topFacts returns the $facts hash of the compile.
func topFacts(c *functions.Ctx) *value.Hash {
	if c.Scope == nil {
		return value.EmptyHash
	}
	v, _ := c.Scope.Top().Lookup("facts")
	h, _ := v.(*value.Hash)
	return h
}

var factPathSegment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([^."]+)|"([^"]+)"`) })

// fact is stdlib's fact('a.b.0'): a dotted walk into $facts that gives
// undef (with a warning when it cannot walk on) instead of failing.
func fact(c *functions.Ctx, args []value.Value) (value.Value, error) {
	var name string
	if err := functions.UnpackArgs("fact", args, "fact_name", &name); err != nil {
		return nil, err
	}
	segments := factPathSegment().FindAllStringSubmatch(string(name), -1)
	var cur value.Value
	var walked []string
	if len(segments) == 0 {
		cur = topFacts(c)
	} else {
		// The first segment is one fact: a read of it alone.
		key := segments[0][1]
		if key == "" {
			key = segments[0][2]
		}
		v, found := topFact(c, key)
		if !found {
			v = value.Undef
		}
		cur, segments, walked = v, segments[1:], []string{key}
	}
	for _, m := range segments {
		key := m[1]
		if key == "" {
			key = m[2]
		}
		if value.IsUndef(cur) || cur == nil {
			return value.Undef, nil
		}
		switch coll := cur.(type) {
		case value.Array:
			i, err := strconv.ParseInt(strings.ReplaceAll(key, "_", ""), 0, 64)
			if err != nil {
				warn(c, "fact request for %s returning nil: '%s' is an array; cannot index to '%s'", name, dotted(walked), key)
				cur = value.Undef
				break
			}
			if i < 0 {
				i += int64(len(coll))
			}
			cur = value.Undef
			if i >= 0 && i < int64(len(coll)) {
				cur = coll[i]
			}
		case *value.Hash:
			v, found := coll.GetString(key)
			if !found {
				v = value.Undef
			}
			cur = v
		default:
			warn(c, "fact request for %s returning nil: '%s' is not a collection; cannot walk to '%s'", name, dotted(walked), key)
			cur = value.Undef
		}
		walked = append(walked, key)
	}
	return cur, nil
}

// dotted joins path segments, quoting those containing dots.
func dotted(path []string) string {
	out := make([]string, len(path))
	for i, p := range path {
		if strings.Contains(p, ".") {
			p = `"` + p + `"`
		}
		out[i] = p
	}
	return strings.Join(out, ".")
}

func warn(c *functions.Ctx, format string, args ...any) {
	if c.Log != nil {
		c.Log(functions.Warning, errorf(format, args...).Error())
	}
}

// osVersionGTE is os_version_gte(os, version): the node runs os at
// version or newer, per the legacy operatingsystem facts.
func osVersionGTE(c *functions.Ctx, args []value.Value) (value.Value, error) {
	for i, name := range []string{"os", "version"} {
		if s, ok := args[i].(value.String); !ok || s == "" {
			return nil, parameterError("os_version_gte", name, "expects a String[1] value, got "+describeType(args[i]))
		}
	}
	os, _ := topFact(c, "operatingsystem")
	if !value.RubyEqual(os, args[0]) {
		return value.False, nil
	}
	release, _ := topFact(c, "operatingsystemmajrelease")
	return value.Boolean(versionCompare(value.RubyString(release), string(args[1].(value.String))) >= 0), nil
}

// osVersionGTE9 is stdlib 9's stdlib::os_version_gte, which reads the
// structured os fact (os.name, os.release.major) instead of the legacy
// operatingsystem facts, which Facter 4 may no longer send.
func osVersionGTE9(c *functions.Ctx, args []value.Value) (value.Value, error) {
	for i, name := range []string{"os", "version"} {
		if s, ok := args[i].(value.String); !ok || s == "" {
			return nil, errorf("'stdlib::os_version_gte' parameter '%s' expects a String[1] value, got %s", name, describeType(args[i]))
		}
	}
	os, _ := topFact(c, "os")
	osHash, _ := os.(*value.Hash)
	if osHash == nil {
		return value.False, nil
	}
	name, _ := osHash.GetString("name")
	if !value.RubyEqual(name, args[0]) {
		return value.False, nil
	}
	var major value.Value = value.Undef
	if release, ok := osHash.GetString("release"); ok {
		if rh, ok := release.(*value.Hash); ok {
			major, _ = rh.GetString("major")
		}
	}
	return value.Boolean(versionCompare(value.RubyString(major), string(args[1].(value.String))) >= 0), nil
}

var versionToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-.]|\d+|[a-zA-Z]+)`) })

// versionCompare is Puppet::Util::Package.versioncmp.
func versionCompare(a, b string) int {
	if a == b {
		return 0
	}
	for a != "" && b != "" {
		ta, tb := versionToken().FindString(a), versionToken().FindString(b)
		if ta == "" || tb == "" {
			break
		}
		a, b = a[len(ta):], b[len(tb):]
		if ta == tb {
			continue
		}
		switch {
		case ta == "-" && tb != "-":
			return -1
		case tb == "-" && ta != "-":
			return 1
		case ta == "." && tb != ".":
			return -1
		case tb == "." && ta != ".":
			return 1
		}
		na, errA := strconv.ParseInt(ta, 10, 64)
		nb, errB := strconv.ParseInt(tb, 10, 64)
		if errA == nil && errB == nil {
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			continue
		}
		la, lb := strings.ToUpper(ta), strings.ToUpper(tb)
		if la != lb {
			if la < lb {
				return -1
			}
			return 1
		}
		if ta < tb {
			return -1
		}
		return 1
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return strings.Compare(a, b)
}

func modulePath(c *functions.Ctx, name value.Value) (string, error) {
	if c.Services == nil {
		return "", errorf("get_module_path(): not available: the compile does not provide modules")
	}
	dir, found := c.Services.ModulePath(value.RubyString(name))
	if !found {
		return "", errorf("Could not find module %s in environment production", value.RubyString(name))
	}
	return dir, nil
}

func getModulePath(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 1, "get_module_path(): Wrong number of arguments, expects one"); err != nil {
		return nil, err
	}
	dir, err := modulePath(c, args[0])
	if err != nil {
		return nil, err
	}
	return value.String(dir), nil
}

func loadModuleMetadata(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, 2, "load_module_metadata(): Wrong number of arguments, expects one or two"); err != nil {
		return nil, err
	}
	dir, err := modulePath(c, args[0])
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		if value.Truthy(arg(args, 1)) {
			return value.EmptyHash, nil
		}
		return nil, errorf("load_module_metadata(): No metadata.json file for module %s", value.RubyString(args[0]))
	}
	return parseJSON(data)
}

// ensurePackages9 is stdlib 9's ensure_packages. Unlike 8's, it resolves
// the ensure of each package on its own: the attributes are
// {ensure => installed}, then default_attributes, then (for a hash) the
// package's own, and an ensure of present or installed becomes present
// only when the package is already declared with ensure => present (so
// that ensure_resource finds it identical), else installed.
func ensurePackages9(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if !value.IsInstance(packagesType, args[0]) {
		return nil, parameterError("ensure_packages", "packages", describeArg(packagesType, args[0]))
	}
	defaults := value.EmptyHash
	if len(args) == 2 && !value.IsUndef(args[1]) {
		attrs, ok := args[1].(*value.Hash)
		if !ok {
			return nil, parameterError("ensure_packages", "default_attributes", "expects a Hash value, got "+describeType(args[1]))
		}
		defaults = attrs
	}
	ensureOne := func(name value.Value, attrs *value.Hash) error {
		attrs = value.Merge(value.NewHash(value.String("ensure"), value.String("installed")), attrs)
		if e, _ := attrs.GetString("ensure"); e == value.String("present") || e == value.String("installed") {
			ensure := value.String("installed")
			if cat, err := catalogOf(c, "defined_with_params"); err == nil &&
				isDefinedWithParams(c, cat, "Package", value.RubyString(name), value.NewHash(value.String("ensure"), value.String("present"))) {
				ensure = value.String("present")
			}
			attrs = value.Merge(attrs, value.NewHash(value.String("ensure"), ensure))
		}
		_, err := ensureResource(c, []value.Value{value.String("package"), name, attrs})
		return err
	}
	if h, ok := args[0].(*value.Hash); ok {
		for i := range h.Len() {
			name, own := h.At(i)
			ownHash, ok := own.(*value.Hash)
			if !ok {
				return nil, errorf("no implicit conversion of %s into Hash", value.RubyClass(own))
			}
			if err := ensureOne(name, value.Merge(defaults, ownHash)); err != nil {
				return nil, err
			}
		}
		return value.Undef, nil
	}
	for _, name := range rubyArray(args[0]) {
		if err := ensureOne(name, defaults); err != nil {
			return nil, err
		}
	}
	return value.Undef, nil
}
