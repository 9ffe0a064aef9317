package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/marionette-dev/marionette/diag"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// The environment information endpoints puppetserver serves for
// classifiers (Foreman, the PE console): environment_classes, the classes
// of an environment's manifests with their parameters, and
// environment_modules, its modules and their versions.

type classParam struct {
	Name           string `json:"name"`
	Type           string `json:"type,omitempty"`
	DefaultLiteral any    `json:"default_literal,omitempty"`
	DefaultSource  string `json:"default_source,omitempty"`
}

type classInfo struct {
	Name   string       `json:"name"`
	Params []classParam `json:"params"`
}

// manifestClasses is one file's classes, or the error that it does not
// parse (then without classes).
type manifestClasses struct {
	Path    string       `json:"path"`
	Classes *[]classInfo `json:"classes,omitempty"`
	Error   string       `json:"error,omitempty"`
}

// environmentManifests are the environment's manifest files: the main
// manifest (a file or every .pp under a directory), then each module's
// manifests, sorted within each.
func (s *Server) environmentManifests(env string) ([]manifestFile, error) {
	st := s.site.Load()
	var files []manifestFile
	walk := func(root, module string) {
		var found []manifestFile
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".pp") {
				mf := manifestFile{path: p}
				if module != "" {
					rel, _ := filepath.Rel(root, strings.TrimSuffix(p, ".pp"))
					mf.namespace = module
					if rel != "init" {
						mf.namespace += "::" + strings.ReplaceAll(filepath.ToSlash(rel), "/", "::")
					}
				}
				found = append(found, mf)
			}
			return nil
		})
		sort.Slice(found, func(i, j int) bool { return found[i].path < found[j].path })
		files = append(files, found...)
	}
	if st.Loader().Directories() {
		dir, err := st.Loader().Dir(env)
		if err != nil {
			return nil, err
		}
		conf, err := st.Loader().Settings().ReadEnvironmentConf(dir, env)
		if err != nil {
			return nil, err
		}
		walk(conf.Manifest, "")
	}
	mods, _, err := s.environmentModules(st, env)
	if err != nil {
		return nil, err
	}
	for _, m := range mods {
		walk(filepath.Join(m.dir, "manifests"), m.name)
	}
	return files, nil
}

// manifestFile is one manifest of an environment; namespace, for a
// module's manifest, is the name its path gives it (mod for init.pp,
// mod::a::b for a/b.pp), which Puppet requires of its definitions.
type manifestFile struct {
	path, namespace string
}

// classesOf parses one manifest and lists its classes.
func classesOf(mf manifestFile) manifestClasses {
	path := mf.path
	out := manifestClasses{Path: path}
	src, err := os.ReadFile(path)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	prog, err := syntax.ParseFile(path, src)
	if err != nil {
		out.Error = puppetSyntaxError(err)
		return out
	}
	text := func(n syntax.Node) string {
		from, to := n.Pos().Offset(), n.End().Offset()
		if from < 0 || to > len(src) || from > to {
			return ""
		}
		return string(src[from:to])
	}
	if mf.namespace != "" {
		for _, d := range prog.Definitions {
			name := definitionName(d)
			if name == "" || name == mf.namespace || strings.HasPrefix(name, mf.namespace+"::") {
				continue
			}
			pos := prog.File.Position(d.Pos())
			out.Error = fmt.Sprintf("Unacceptable location. The name '%s' is unacceptable in file '%s' (file: %s, line: %d, column: %d)", name, path, path, pos.Line, pos.Column)
			return out
		}
	}
	classes := []classInfo{}
	// Puppet lists a class after the classes nested in it.
	defs := append([]syntax.Definition(nil), prog.Definitions...)
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].End() < defs[j].End() })
	for _, d := range defs {
		c, ok := d.(*syntax.ClassDef)
		if !ok {
			continue
		}
		ci := classInfo{Name: strings.TrimPrefix(c.Name, "::"), Params: []classParam{}}
		for _, p := range c.Params {
			cp := classParam{Name: p.Name}
			if p.Type != nil {
				if t, ok := typeOf(p.Type); ok {
					cp.Type = value.TypeString(t)
				} else {
					cp.Type = typeString(text(p.Type))
				}
			}
			if p.Default != nil {
				cp.DefaultSource = text(p.Default)
				if v, ok := literal(p.Default); ok && v != nil {
					cp.DefaultLiteral = v
				}
			}
			ci.Params = append(ci.Params, cp)
		}
		classes = append(classes, ci)
	}
	out.Classes = &classes
	return out
}

// definitionName is the name of a class, define, function or type
// alias, lower-cased as Puppet compares it; "" for a node.
func definitionName(d syntax.Definition) string {
	var name string
	switch d := d.(type) {
	case *syntax.ClassDef:
		name = d.Name
	case *syntax.DefineDef:
		name = d.Name
	case *syntax.FunctionDef:
		name = d.Name
	case *syntax.TypeAlias:
		name = d.Name
	default:
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(name, "::"))
}

// puppetSyntaxError words a parse error as Puppet does: "MSG (file: F,
// line: L, column: C)".
func puppetSyntaxError(err error) string {
	var one *diag.Diagnostic
	var list diag.List
	switch {
	case errors.As(err, &list) && len(list) > 0:
		one = list[0]
	case errors.As(err, &one):
	default:
		return err.Error()
	}
	msg := one.Message
	if strings.HasPrefix(msg, "Syntax error at ") {
		// Puppet's message has no hint of what was expected.
		msg, _, _ = strings.Cut(msg, "; expected")
	}
	at := one.Range.Start
	return fmt.Sprintf("%s (file: %s, line: %d, column: %d)", msg, at.Filename, at.Line, at.Column)
}

// typeOf is the type a parameter's type expression denotes, as Puppet
// prints it without loading the environment's type aliases: those stay
// references, TypeReference['Name']. ok is false for an expression
// that is not a plain type.
func typeOf(e syntax.Expr) (value.Type, bool) {
	switch e := e.(type) {
	case *syntax.TypeReference:
		if t, ok := value.BaseType(e.Name); ok {
			return t, true
		}
		return &value.TypeReference{Name: "TypeReference['" + e.Name + "']"}, true
	case *syntax.AccessExpr:
		ref, ok := e.Operand.(*syntax.TypeReference)
		if !ok {
			return nil, false
		}
		base, ok := value.BaseType(ref.Name)
		if !ok {
			return nil, false
		}
		if ref.Name == "Variant" && len(e.Keys) == 1 {
			return typeOf(e.Keys[0]) // Puppet prints the one type
		}
		args := make([]value.Value, 0, len(e.Keys))
		for _, k := range e.Keys {
			a, ok := typeArg(k)
			if !ok {
				return nil, false
			}
			args = append(args, a)
		}
		t, err := value.Parameterize(base, args)
		return t, err == nil
	}
	return nil, false
}

// typeArg is one parameter of a type: a type or a literal.
func typeArg(e syntax.Expr) (value.Value, bool) {
	switch e := e.(type) {
	case *syntax.TypeReference, *syntax.AccessExpr:
		t, ok := typeOf(e)
		return t, ok
	case *syntax.StringLit:
		return value.String(e.Value), true
	case *syntax.QualifiedName: // a bare word
		return value.String(e.Name), true
	case *syntax.IntegerLit:
		return value.Integer(e.Value), true
	case *syntax.FloatLit:
		return value.Float(e.Value), true
	case *syntax.BoolLit:
		return value.Boolean(e.Value), true
	case *syntax.DefaultLit:
		return value.Default, true
	case *syntax.UndefLit:
		return value.Undef, true
	case *syntax.RegexLit:
		re, err := value.NewRegexp(e.Pattern)
		return re, err == nil
	case *syntax.UnaryExpr:
		if e.Op == syntax.SUB {
			if n, ok := e.Operand.(*syntax.IntegerLit); ok {
				return value.Integer(-n.Value), true
			}
		}
	case *syntax.ArrayLit:
		out := make(value.Array, 0, len(e.Elements))
		for _, el := range e.Elements {
			v, ok := typeArg(el)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case *syntax.HashLit:
		kv := make([]value.Value, 0, 2*len(e.Entries))
		for _, en := range e.Entries {
			k, ok := typeArg(en.Key)
			if !ok {
				return nil, false
			}
			v, ok := typeArg(en.Value)
			if !ok {
				return nil, false
			}
			kv = append(kv, k, v)
		}
		return value.NewHash(kv...), true
	}
	return nil, false
}

// typeString writes a parameter's type expression as Puppet prints the
// type: no blanks but one after each comma, single-quoted strings.
func typeString(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return src
			}
			body := src[i+1 : j]
			if c == '"' && !strings.ContainsAny(body, "\\'$") {
				c = '\''
			}
			b.WriteByte(c)
			b.WriteString(body)
			b.WriteByte(c)
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == ',':
			b.WriteString(", ")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// literal is the JSON value of a default that is a literal (strings
// without interpolation, numbers, booleans, and arrays and hashes of
// them); ok is false for anything computed.
func literal(e syntax.Expr) (any, bool) {
	switch e := e.(type) {
	case *syntax.StringLit:
		return e.Value, true
	case *syntax.QualifiedName: // a bare word
		return e.Name, true
	case *syntax.IntegerLit:
		return e.Value, true
	case *syntax.FloatLit:
		return e.Value, true
	case *syntax.BoolLit:
		return e.Value, true
	case *syntax.UndefLit:
		return nil, true
	case *syntax.ArrayLit:
		out := make([]any, 0, len(e.Elements))
		for _, el := range e.Elements {
			v, ok := literal(el)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case *syntax.HashLit:
		out := make(map[string]any, len(e.Entries))
		for _, en := range e.Entries {
			k, ok := en.Key.(*syntax.StringLit)
			if !ok {
				return nil, false
			}
			v, ok := literal(en.Value)
			if !ok {
				return nil, false
			}
			out[k.Value] = v
		}
		return out, true
	}
	return nil, false
}

// environmentClasses serves GET /puppet/v3/environment_classes: the
// answer carries an ETag of its content, and a request whose
// If-None-Match names it is answered 304 without a body.
func (s *Server) environmentClasses(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet {
		return methodNotAllowed(r)
	}
	env := r.URL.Query().Get("environment")
	if env == "" {
		return plainError(w, http.StatusBadRequest, "An environment parameter must be specified")
	}
	if !names.ValidEnvironment(env) || !s.site.Load().HasEnvironment(env) {
		return plainError(w, http.StatusNotFound, "Could not find environment '"+env+"'")
	}
	files, err := s.environmentManifests(env)
	if err != nil {
		return serverError(err.Error())
	}
	out := struct {
		Name  string            `json:"name"`
		Files []manifestClasses `json:"files"`
	}{Name: env, Files: []manifestClasses{}}
	for _, f := range files {
		out.Files = append(out.Files, classesOf(f))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "=>" as puppetserver writes it
	if err := enc.Encode(out); err != nil {
		return serverError(err.Error())
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	sum := sha256.Sum256(body)
	etag := hex.EncodeToString(sum[:])
	w.Header().Set("Etag", etag)
	if inm := r.Header.Get("If-None-Match"); inm != "" && strings.Trim(strings.TrimSuffix(inm, "--gzip"), `"`) == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
	return nil
}

// environmentModulesInfo serves GET /puppet/v3/environment_modules: one
// environment's modules with their metadata.json versions, or every
// environment's without the environment parameter.
func (s *Server) environmentModulesInfo(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet {
		return methodNotAllowed(r)
	}
	st := s.site.Load()
	type moduleInfo struct {
		Name    string  `json:"name"`
		Version *string `json:"version"`
	}
	type envModules struct {
		Name    string       `json:"name"`
		Modules []moduleInfo `json:"modules"`
	}
	describe := func(env string) (envModules, error) {
		mods, _, err := s.environmentModules(st, env)
		if err != nil {
			return envModules{}, err
		}
		em := envModules{Name: env, Modules: []moduleInfo{}}
		for _, m := range mods {
			mi := moduleInfo{Name: m.name}
			var meta struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			}
			if data, err := os.ReadFile(filepath.Join(m.dir, "metadata.json")); err == nil && json.Unmarshal(data, &meta) == nil {
				if meta.Version != "" {
					mi.Version = &meta.Version
				}
				if meta.Name != "" {
					// The Forge name, owner/module.
					mi.Name = strings.Replace(meta.Name, "-", "/", 1)
				}
			}
			em.Modules = append(em.Modules, mi)
		}
		return em, nil
	}
	if env := r.URL.Query().Get("environment"); env != "" {
		if !names.ValidEnvironment(env) || !st.HasEnvironment(env) {
			return plainError(w, http.StatusNotFound, "Could not find environment '"+env+"'")
		}
		em, err := describe(env)
		if err != nil {
			return serverError(err.Error())
		}
		writeJSON(w, http.StatusOK, em)
		return nil
	}
	all := []envModules{}
	for _, env := range s.environmentNames() {
		em, err := describe(env)
		if err != nil {
			continue
		}
		all = append(all, em)
	}
	writeJSON(w, http.StatusOK, all)
	return nil
}

// plainError answers as puppetserver's Clojure endpoints do: a text
// body.
func plainError(w http.ResponseWriter, status int, msg string) error {
	w.Header().Set("Content-Type", "text/plain;charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg))
	return nil
}

// environmentNames are the directory environments, sorted.
func (s *Server) environmentNames() []string {
	l := s.site.Load().Loader()
	seen := map[string]bool{}
	var out []string
	for _, p := range l.Settings().Path("environmentpath") {
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if n := e.Name(); !seen[n] && names.ValidEnvironment(n) && e.IsDir() {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}
