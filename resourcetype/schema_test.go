package resourcetype

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

func mustBuiltin(t *testing.T, name string) *Schema {
	t.Helper()
	s := Builtin(name)
	if s == nil {
		t.Fatalf("Builtin(%q) = nil", name)
	}
	return s
}

// TestBuiltinTable checks the generated table against facts confirmed on
// Puppet 7.23 (see testdata/oracle-findings.md).
func TestBuiltinTable(t *testing.T) {
	want := []string{"component", "exec", "file", "filebucket", "group", "notify", "package",
		"resources", "schedule", "service", "stage", "tidy", "user", "whit"}
	if got := BuiltinNames(); !reflect.DeepEqual(got, want) {
		t.Errorf("BuiltinNames() = %v, want %v", got, want)
	}
	wantMeta := []string{"noop", "schedule", "audit", "loglevel", "alias", "tag", "require", "subscribe", "before", "notify", "stage"}
	if got := Metaparameters(); !reflect.DeepEqual(got, wantMeta) {
		t.Errorf("Metaparameters() = %v, want %v", got, wantMeta)
	}
	tests := []struct {
		typ        string
		namevars   []string
		namevar    string
		isomorphic bool
		has        []string // attributes that must exist
		hasNot     []string
	}{
		{"file", []string{"path"}, "path", true, []string{"path", "ensure", "content", "source", "mode", "owner", "provider", "source_permissions", "selinux_ignore_defaults", "name"}, []string{"bogus", "command"}},
		{"exec", []string{"command"}, "command", false, []string{"command", "unless", "onlyif", "creates", "refreshonly", "returns", "provider"}, []string{"ensure"}},
		{"package", []string{"name", "provider", "command"}, "name", true, []string{"ensure", "install_options", "mark"}, nil},
		{"notify", []string{"name"}, "name", true, []string{"message", "withpath"}, []string{"provider", "ensure"}},
		{"user", []string{"name"}, "name", true, []string{"uid", "groups", "purge_ssh_keys", "provider", "ensure"}, nil},
		{"group", []string{"name"}, "name", true, []string{"gid", "members", "provider"}, nil},
		{"service", []string{"name"}, "name", true, []string{"ensure", "enable", "hasstatus", "provider"}, nil},
		{"tidy", []string{"path"}, "path", false, []string{"age", "matches", "rmdirs"}, []string{"provider"}},
		{"stage", []string{"name"}, "name", true, []string{"name"}, nil},
		{"whit", []string{"name"}, "name", true, []string{"name"}, nil},
		{"resources", []string{"name"}, "name", true, []string{"purge", "unless_system_user"}, nil},
		{"schedule", []string{"name"}, "name", true, []string{"range", "period", "repeat", "weekday"}, nil},
		{"filebucket", []string{"name"}, "name", true, []string{"server", "port", "path"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			s := mustBuiltin(t, tt.typ)
			if got := s.NameVars(); !reflect.DeepEqual(got, tt.namevars) {
				t.Errorf("NameVars() = %v, want %v", got, tt.namevars)
			}
			if got := s.Namevar(); got != tt.namevar {
				t.Errorf("Namevar() = %q, want %q", got, tt.namevar)
			}
			if s.Isomorphic() != tt.isomorphic {
				t.Errorf("Isomorphic() = %v", s.Isomorphic())
			}
			for _, a := range append(slices.Clone(tt.has), wantMeta...) {
				if err := s.CheckAttribute(a); err != nil {
					t.Errorf("CheckAttribute(%q) = %v", a, err)
				}
			}
			for _, a := range tt.hasNot {
				if _, ok := s.Attribute(a); ok {
					t.Errorf("Attribute(%q) found", a)
				}
			}
		})
	}
}

func TestAttributeLookup(t *testing.T) {
	file := mustBuiltin(t, "File") // type names are case-insensitive
	if file.Name() != "file" {
		t.Errorf("Name() = %q", file.Name())
	}
	a, ok := file.Attribute("name")
	if !ok || a.Name != "path" || !a.Namevar {
		t.Errorf(`Attribute("name") = %+v, %v; want the path namevar`, a, ok)
	}
	if a, _ := file.Attribute("mode"); a.Kind != Property {
		t.Errorf("mode kind = %v", a.Kind)
	}
	if a, _ := file.Attribute("backup"); a.Kind != Parameter {
		t.Errorf("backup kind = %v", a.Kind)
	}
	if !file.IsMetaparam("before") || file.IsMetaparam("mode") || file.IsMetaparam("bogus") {
		t.Error("IsMetaparam is wrong")
	}
	err := mustBuiltin(t, "notify").CheckAttribute("bogus")
	var unknown *UnknownAttributeError
	if !errors.As(err, &unknown) || err.Error() != "no parameter named 'bogus'" {
		t.Errorf("CheckAttribute(bogus) = %v", err)
	}
	if err := mustBuiltin(t, "notify").CheckAttribute("provider"); err == nil {
		t.Error("notify has no providers, so no provider parameter")
	}
	if Builtin("nosuchtype") != nil || Builtin("host") != nil || Builtin("mymod::thing") != nil {
		t.Error("unexpected built-in type")
	}
	if got := (&UnknownTypeError{Type: "nosuchtype"}).Error(); got != "Unknown resource type: 'nosuchtype'" {
		t.Errorf("UnknownTypeError = %q", got)
	}
}

func p(name string, v any) Param { return Param{Name: name, Value: v} }

// TestUniquenessKey mirrors what the oracle showed; see
// testdata/oracle-findings.md.
func TestUniquenessKey(t *testing.T) {
	tests := []struct {
		name      string
		typ       string
		title     string
		params    []Param
		wantKey   Key
		wantAlias bool
	}{
		{"file title is its path", "file", "/tmp/a", nil, Key{"/tmp/a"}, false},
		{"file trailing slash aliases the bare path", "file", "/tmp/a/", nil, Key{"/tmp/a"}, true},
		{"file many slashes", "file", "/tmp/b///", nil, Key{"/tmp/b"}, true},
		{"file root stays root", "file", "/", nil, Key{"/"}, false},
		{"file double slash is root", "file", "//", nil, Key{"/"}, true},
		{"file windows path", "file", "C:/x/", nil, Key{"C:/x"}, true},
		{"file path parameter wins", "file", "foo", []Param{p("path", "/tmp/a")}, Key{"/tmp/a"}, true},
		{"file path parameter is not normalised", "file", "foo", []Param{p("path", "/tmp/a/")}, Key{"/tmp/a/"}, true},
		{"file name parameter does not count", "file", "foo", []Param{p("name", "/tmp/a")}, Key{"foo"}, false},
		{"package keys sort command, name, provider", "package", "vim", nil, Key{nil, "vim", nil}, true},
		{"package with provider", "package", "a", []Param{p("name", "vim"), p("provider", "apt")}, Key{nil, "vim", "apt"}, true},
		{"package with command", "package", "a", []Param{p("name", "vim"), p("command", "/usr/bin/x")}, Key{"/usr/bin/x", "vim", nil}, true},
		{"package array name", "package", "a", []Param{p("name", []any{"x", "y"})}, Key{nil, []any{"x", "y"}, nil}, true},
		{"user name aliases", "user", "b", []Param{p("name", "a")}, Key{"a"}, true},
		{"user name keeps its type", "user", "a", []Param{p("name", int64(5))}, Key{int64(5)}, true},
		{"undef name is ignored", "notify", "a", []Param{p("name", nil)}, Key{"a"}, false},
		{"false name falls back to the title", "user", "a", []Param{p("name", false)}, Key{"a"}, false},
		{"undef provider is unset", "package", "vim", []Param{p("provider", nil)}, Key{nil, "vim", nil}, true},
		{"array name aliases its flattened elements", "user", "x", []Param{p("name", []any{"b"})}, Key{[]any{"b"}}, true},
		{"exec is not isomorphic", "exec", "a", []Param{p("command", "/bin/true")}, Key{"/bin/true"}, false},
		{"tidy is not isomorphic", "tidy", "a", []Param{p("path", "/tmp/x")}, Key{"/tmp/x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustBuiltin(t, tt.typ)
			key, err := s.UniquenessKey(tt.title, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(key, tt.wantKey) {
				t.Errorf("UniquenessKey = %v, want %v", key, tt.wantKey)
			}
			alias, ok, err := s.AliasKey(tt.title, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantAlias || (ok && !reflect.DeepEqual(alias, tt.wantKey)) {
				t.Errorf("AliasKey = %v, %v; want %v, %v", alias, ok, tt.wantKey, tt.wantAlias)
			}
		})
	}
}

func TestKeyFormatting(t *testing.T) {
	tests := []struct {
		key       Key
		str       string
		flattened Key
	}{
		{Key{nil, "vim", "apt"}, `[nil, "vim", "apt"]`, Key{nil, "vim", "apt"}},
		{Key{nil, []any{"x", "y"}, nil}, `[nil, ["x", "y"], nil]`, Key{nil, "x", "y", nil}},
		{Key{"a"}, `["a"]`, Key{"a"}},
		{Key{int64(5), true, 1.0, 1e20}, `[5, true, 1.0, 1.0e+20]`, Key{int64(5), true, 1.0, 1e20}},
	}
	for _, tt := range tests {
		if got := tt.key.String(); got != tt.str {
			t.Errorf("String() = %s, want %s", got, tt.str)
		}
		if got := tt.key.Flatten(); !reflect.DeepEqual(got, tt.flattened) {
			t.Errorf("Flatten() = %v, want %v", got, tt.flattened)
		}
	}
	if got := Inspect("a\"b\\c\n\x01#{x}"); got != `"a\"b\\c\n\u0001\#{x}"` {
		t.Errorf("Inspect = %s", got)
	}
	if got := Inspect(map[string]any{"b": 1, "a": nil}); got != `{"a"=>nil, "b"=>1}` {
		t.Errorf("Inspect(map) = %s", got)
	}
}

func TestCatalogParameters(t *testing.T) {
	tests := []struct {
		name   string
		typ    string
		title  string
		params []Param
		want   []Param
	}{
		{"file trailing slash adds path", "file", "/tmp/a/", nil, []Param{p("path", "/tmp/a")}},
		{"file path then ensure", "file", "/tmp/b///", []Param{p("ensure", "directory")}, []Param{p("path", "/tmp/b"), p("ensure", "directory")}},
		{"plain file title adds nothing", "file", "/tmp/a", nil, nil},
		{"file name becomes path", "file", "foo", []Param{p("name", "/tmp/a")}, []Param{p("path", "/tmp/a")}},
		{"file name wins over path", "file", "u", []Param{p("name", "/c"), p("path", "/d")}, []Param{p("path", "/c")}},
		{"exec name becomes command", "exec", "a", []Param{p("name", "/bin/x")}, []Param{p("command", "/bin/x")}},
		{"exec command equal to title is dropped", "exec", "/bin/x", []Param{p("command", "/bin/x")}, nil},
		{"notify name equal to title is dropped", "notify", "c", []Param{p("message", "m"), p("name", "c")}, []Param{p("message", "m")}},
		{"notify other name comes first", "notify", "b", []Param{p("message", "m"), p("name", "a")}, []Param{p("name", "a"), p("message", "m")}},
		{"package name equal to title is dropped", "package", "vim", []Param{p("ensure", "present"), p("provider", "apt"), p("name", "vim")}, []Param{p("ensure", "present"), p("provider", "apt")}},
		{"undef is dropped", "notify", "x", []Param{p("message", nil)}, nil},
		{"file title with a trailing newline is its own path", "file", "/tmp/a/\n", nil, nil},
		{"false name is written", "user", "a", []Param{p("name", false)}, []Param{p("name", false)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mustBuiltin(t, tt.typ).CatalogParameters(tt.title, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSet(t *testing.T) {
	root := t.TempDir()
	modA := filepath.Join(root, "a")
	modB := filepath.Join(root, "b")
	writeFile(t, filepath.Join(modA, "lib/puppet/type/sshkey.rb"), `Puppet::Type.newtype(:sshkey) do
  ensurable
  newparam(:type) do
    isnamevar
  end
  newparam(:name) do
    isnamevar
  end
  newproperty(:key)
  def self.title_patterns
    [
      [ %r{^(.*?)@(.*)$}, [ [:name], [:type] ] ],
      [ %r{^([^@]+)$}, [ [:name] ] ],
    ]
  end
end
`)
	writeFile(t, filepath.Join(modA, "lib/puppet/provider/sshkey/parsed.rb"), "# provider\n")
	writeFile(t, filepath.Join(modA, "lib/puppet/type/broken.rb"), "Puppet::Type.newtype(:broken) do\n")
	writeFile(t, filepath.Join(modB, "lib/puppet/type/sshkey.rb"), "Puppet::Type.newtype(:sshkey) do\n newparam(:other)\nend\n")
	writeFile(t, filepath.Join(modB, "lib/puppet/type/file.rb"), "Puppet::Type.newtype(:file) do\n newparam(:hijack)\nend\n")
	// A provider in one module gives another module's type its provider
	// parameter.
	writeFile(t, filepath.Join(modB, "lib/puppet/type/thing.rb"), "Puppet::Type.newtype(:thing) do\n newparam(:name)\nend\n")
	writeFile(t, filepath.Join(modA, "lib/puppet/provider/thing/x.rb"), "# provider\n")

	set, problems := NewSet([]string{modA, modB, filepath.Join(root, "missing")})
	if len(problems) != 1 {
		t.Errorf("problems = %v, want one for broken.rb", problems)
	}
	if _, ok := set.Lookup("broken"); ok {
		t.Error("broken type should be skipped")
	}
	ssh, ok := set.Lookup("Sshkey")
	if !ok {
		t.Fatal("sshkey not found")
	}
	if err := ssh.CheckAttribute("other"); err == nil {
		t.Error("the first module on the path should win")
	}
	for _, a := range []string{"key", "ensure", "provider", "require"} {
		if err := ssh.CheckAttribute(a); err != nil {
			t.Error(err)
		}
	}
	if got := ssh.NameVars(); !reflect.DeepEqual(got, []string{"type", "name"}) {
		t.Errorf("NameVars = %v", got)
	}
	if f, _ := set.Lookup("file"); f.CheckAttribute("hijack") == nil {
		t.Error("built-in file must win over a module's file type")
	}
	if th, _ := set.Lookup("thing"); th == nil || th.CheckAttribute("provider") != nil {
		t.Error("thing should have a provider parameter")
	}
	if _, ok := set.Lookup("mymod::thing"); ok {
		t.Error("namespaced names are defined types")
	}
	if _, ok := set.Lookup("nosuchtype"); ok {
		t.Error("unknown type found")
	}

	// Oracle: sshkey 'foo@ssh-rsa' gets name and type from its title;
	// 'a@b@c' splits at the first @; a declaration with the same name and
	// type under another title collides.
	got, err := ssh.CatalogParameters("foo@ssh-rsa", []Param{p("key", "AAA")})
	if err != nil || !reflect.DeepEqual(got, []Param{p("name", "foo"), p("type", "ssh-rsa"), p("key", "AAA")}) {
		t.Errorf("CatalogParameters = %v, %v", got, err)
	}
	got, _ = ssh.CatalogParameters("a@b@c", nil)
	if !reflect.DeepEqual(got, []Param{p("name", "a"), p("type", "b@c")}) {
		t.Errorf("CatalogParameters(a@b@c) = %v", got)
	}
	k1, _ := ssh.UniquenessKey("foo@ssh-rsa", nil)
	k2, _ := ssh.UniquenessKey("x", []Param{p("name", "foo"), p("type", "ssh-rsa")})
	if !reflect.DeepEqual(k1, Key{"foo", "ssh-rsa"}) || !reflect.DeepEqual(k1, k2) {
		t.Errorf("keys %v and %v should be equal", k1, k2)
	}

	// Concurrent use of one Set.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _ := set.Lookup("file")
			_, _ = s.UniquenessKey("/tmp/a/", nil)
		}()
	}
	wg.Wait()
}

func TestTitlePatternFailures(t *testing.T) {
	unknown, err := NewSchema(&Definition{Name: "k", Parameters: []string{"name", "domain"}, Namevars: []string{"domain"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unknown.UniquenessKey("a::b", nil); !errors.Is(err, ErrTitlePatternsUnknown) {
		t.Errorf("two key attributes without patterns: err = %v", err)
	}
	strict, err := NewSchema(&Definition{Name: "s", Parameters: []string{"name"},
		TitlePatterns: []TitlePattern{{Regexp: `(?m)^([^:]+)$`, Attributes: []string{"name"}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = strict.ParseTitle("a:b")
	var nomatch *NoTitleMatchError
	if !errors.As(err, &nomatch) || err.Error() != `No set of title patterns matched the title "a:b".` {
		t.Errorf("ParseTitle = %v", err)
	}
	if _, err := NewSchema(&Definition{Name: "bad", TitlePatterns: []TitlePattern{{Regexp: "("}}}, nil); err == nil {
		t.Error("bad regexp accepted")
	}
	if _, err := NewSchema(nil, nil); err == nil {
		t.Error("nil definition accepted")
	}
}

// TestInstalledModules builds a Set from the installed Debian modules.
func TestInstalledModules(t *testing.T) {
	dirs, _ := filepath.Glob("/usr/share/puppet/modules/*")
	if len(dirs) == 0 {
		t.Skip("no Puppet modules installed")
	}
	set, problems := NewSet(dirs)
	for _, p := range problems {
		t.Error(p)
	}
	for typ, attrs := range map[string][]string{
		"host":               {"ip", "host_aliases", "provider", "ensure"},
		"cron":               {"command", "minute", "user", "provider"},
		"mount":              {"device", "fstype", "options", "provider"},
		"file_line":          {"path", "line", "match"},
		"ini_setting":        {"section", "setting", "value", "path"},
		"anchor":             {"name"},
		"concat_file":        {"path", "order"},
		"augeas":             {"changes", "context", "provider"},
		"ssh_authorized_key": {"user", "key", "type"},
	} {
		s, ok := set.Lookup(typ)
		if !ok {
			t.Errorf("%s not found", typ)
			continue
		}
		for _, a := range attrs {
			if err := s.CheckAttribute(a); err != nil {
				t.Errorf("%s: %v", typ, err)
			}
		}
	}
	// Oracle: host { 'a': bogus => 1 } fails with "no parameter named 'bogus'".
	if h, ok := set.Lookup("host"); ok && h.CheckAttribute("bogus") == nil {
		t.Error("host accepts bogus")
	}
}

// TestParseTitleMatchesRuby compares ParseTitle with Puppet's own
// Resource#parse_title, recorded in testdata/ruby-parse-title.json by
// running Puppet 7.23 on sample titles.
func TestParseTitleMatchesRuby(t *testing.T) {
	raw, err := os.ReadFile("testdata/ruby-parse-title.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob("/usr/share/puppet/modules/*")
	set, _ := NewSet(dirs)
	for typ, titles := range want {
		s, ok := set.Lookup(typ)
		if !ok {
			t.Logf("%s: not installed, skipped", typ)
			continue
		}
		for title, rb := range titles {
			parsed, err := s.ParseTitle(title)
			var got any
			if err != nil {
				got = "ERR " + err.Error()
			} else {
				pairs := []any{}
				for _, p := range parsed {
					pairs = append(pairs, []any{p.Name, p.Value})
				}
				got = pairs
			}
			if !reflect.DeepEqual(got, rb) {
				t.Errorf("%s %q: got %v, Puppet %v", typ, title, got, rb)
			}
		}
	}
}

func TestProblemsSurface(t *testing.T) {
	s, err := NewSchema(&Definition{Name: "k", Parameters: []string{"provider"}, Problems: []string{"line 5: extends X"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Problems(); len(got) != 1 {
		t.Errorf("Problems() = %v", got)
	}
	if got := mustBuiltin(t, "file").Problems(); len(got) != 0 {
		t.Errorf("file problems = %v", got)
	}
}

// TestTitleIsKey checks the shortcut against UniquenessKey: whenever
// TitleIsKey says so, the key is the title alone.
func TestTitleIsKey(t *testing.T) {
	titles := []string{"x", "", "/tmp/a", "/tmp/a/", "/", "a\nb", "C:/x", "vim"}
	paramSets := [][]Param{
		nil,
		{{Name: "name", Value: "other"}},
		{{Name: "path", Value: "/other"}},
		{{Name: "path", Value: nil}},
		{{Name: "command", Value: "/bin/true"}},
		{{Name: "provider", Value: "apt"}},
	}
	hits := 0
	for _, typ := range BuiltinNames() {
		s := mustBuiltin(t, typ)
		for _, title := range titles {
			for _, params := range paramSets {
				if !s.TitleIsKey(title, params) {
					continue
				}
				hits++
				key, err := s.UniquenessKey(title, params)
				if err != nil || !reflect.DeepEqual(key, Key{title}) {
					t.Errorf("%s[%q] %v: TitleIsKey, but UniquenessKey = %v, %v", typ, title, params, key, err)
				}
			}
		}
	}
	if hits == 0 {
		t.Error("TitleIsKey never held")
	}
}

// TestLazySetAgreesWithNewSet: a lazy Set finds the same module types, with
// the same attributes, as reading every type file up front, and unknown
// names (or names that are no file name) stay unknown.
func TestLazySetAgreesWithNewSet(t *testing.T) {
	dirs, _ := filepath.Glob("/usr/share/puppet/modules/*")
	if len(dirs) == 0 {
		t.Skip("no Puppet modules installed")
	}
	eager, _ := NewSet(dirs)
	lazy := NewLazySet(dirs)
	for _, name := range eager.Names() {
		want, _ := eager.Lookup(name)
		got, ok := lazy.Lookup(strings.ToUpper(name[:1]) + name[1:])
		if !ok {
			t.Errorf("%s: not found lazily", name)
			continue
		}
		if !reflect.DeepEqual(got.Attributes(), want.Attributes()) || !reflect.DeepEqual(got.NameVars(), want.NameVars()) {
			t.Errorf("%s: lazily %v %v, eagerly %v %v", name, got.Attributes(), got.NameVars(), want.Attributes(), want.NameVars())
		}
	}
	for _, name := range []string{"nosuchtype", "../type/file", "a/b"} {
		if _, ok := lazy.Lookup(name); ok {
			t.Errorf("%s found", name)
		}
	}
}

// TestLazySetConcurrentLookups: goroutines looking up module types at
// once, the same ones and others, all get each type as a lone lookup
// does (for go test -race: types are read with no lock held).
func TestLazySetConcurrentLookups(t *testing.T) {
	dirs, _ := filepath.Glob("/usr/share/puppet/modules/*")
	if len(dirs) == 0 {
		t.Skip("no Puppet modules installed")
	}
	eager, _ := NewSet(dirs)
	names := append(eager.Names(), "nosuchtype")
	lazy := NewLazySet(dirs)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range names {
				name := names[(i+w)%len(names)]
				want, wantOK := eager.Lookup(name)
				got, ok := lazy.Lookup(name)
				if ok != wantOK || ok && !reflect.DeepEqual(got.Attributes(), want.Attributes()) {
					t.Errorf("%s: found %v, want %v", name, ok, wantOK)
				}
			}
		})
	}
	wg.Wait()
}

// TestLazySetLookupAgainAllocatesNothing: a module type read once, or
// found missing once, is answered again without an allocation (a compile
// looks its types up at every resource).
func TestLazySetLookupAgainAllocatesNothing(t *testing.T) {
	mod := filepath.Join(t.TempDir(), "mymod")
	typeDir := filepath.Join(mod, "lib", "puppet", "type")
	if err := os.MkdirAll(typeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "Puppet::Type.newtype(:mything) do\n  newparam(:name, :namevar => true)\n  newproperty(:size)\nend\n"
	if err := os.WriteFile(filepath.Join(typeDir, "mything.rb"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	lazy := NewLazySet([]string{mod})
	if _, ok := lazy.Lookup("Mything"); !ok {
		t.Fatal("Mything not found")
	}
	if _, ok := lazy.Lookup("Nosuchthing"); ok {
		t.Fatal("Nosuchthing found")
	}
	for _, name := range []string{"Mything", "Nosuchthing"} {
		if n := testing.AllocsPerRun(100, func() { lazy.Lookup(name) }); n != 0 {
			t.Errorf("Lookup(%s) again: %v allocations, want 0", name, n)
		}
	}
}
