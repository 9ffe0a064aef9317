package hiera

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/value"
)

// writeTree creates files (path → content) under a new temp dir.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type mapScope map[string]value.Value

func (m mapScope) Variable(name string) (value.Value, bool) {
	v, ok := m[strings.TrimPrefix(name, "::")]
	return v, ok
}

// The messages follow Puppet 7.23's hiera issues (pops/issues.rb); the
// "name" type error was checked with `puppet lookup` (which prints nothing for
// most configuration errors, so the others could not be captured that way).
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		config string
		layer  Layer
		want   string
	}{
		{"version 4 global", "version: 4\n", GlobalLayer, "hiera.yaml version 4 cannot be used in the global layer"},
		{"version 6", "version: 6\n", EnvironmentLayer, "This runtime does not support hiera.yaml version 6"},
		{"broken yaml", "version: 5\nhierarchy:\n  - name: [x\n", EnvironmentLayer, "hiera.yaml): did not find expected"},
		{"name type", "version: 5\nhierarchy:\n  - name: 3\n    path: x.yaml\n", EnvironmentLayer, "has wrong type, entry 'hierarchy' index 0 entry 'name' expects a String value, got Integer"},
		{"hierarchy type", "version: 5\nhierarchy: common\n", EnvironmentLayer, "entry 'hierarchy' expects an Array value, got String"},
		{"duplicate name", "version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n  - name: a\n    path: y.yaml\n", EnvironmentLayer, "Hierarchy name 'a' defined more than once"},
		{"two locations", "version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n    glob: '*.yaml'\n", EnvironmentLayer, "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy 'a'"},
		{"no function", "version: 5\ndefaults:\n  datadir: d\nhierarchy:\n  - name: a\n    path: x.yaml\n", EnvironmentLayer, "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy 'a'"},
		{"uri", "version: 5\nhierarchy:\n  - name: a\n    uri: http://x\n", EnvironmentLayer, "'uri' locations are only for custom backend functions"},
		{"reserved option", "version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n    options:\n      path: x\n", EnvironmentLayer, "Option key 'path' used in hierarchy 'a' is reserved by Puppet"},
		{"default_hierarchy outside module", "version: 5\ndefault_hierarchy:\n  - name: a\n    path: x.yaml\n", EnvironmentLayer, "'default_hierarchy' is only allowed in the module layer"},
		{"unknown key", "version: 5\nhierarchies: []\n", EnvironmentLayer, "has unrecognized key 'hierarchies'"},
		{"v3 yaml backend as hiera3_backend", "version: 5\nhierarchy:\n  - name: a\n    hiera3_backend: yaml\n    path: x\n", GlobalLayer, `Use "data_hash: yaml_data" instead of "hiera3_backend: yaml"`},
		{"eyaml without location", "version: 5\nhierarchy:\n  - name: a\n    lookup_key: eyaml_lookup_key\n", EnvironmentLayer, "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function"},
		{"v3 unknown backend", ":backends:\n  - vault\n", GlobalLayer, "hiera.yaml version 3 backend 'vault' is not supported by marionette"},
		{"mapped_paths size", "version: 5\nhierarchy:\n  - name: a\n    mapped_paths: [a, b]\n", EnvironmentLayer, "expects size to be 3, got 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("/x/hiera.yaml", []byte(tc.config), tc.layer)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "/x/hiera.yaml") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestConfigVersions(t *testing.T) {
	v3, err := ParseConfig("/etc/hiera.yaml", []byte(":backends:\n  - yaml\n:hierarchy:\n  - \"nodes/%{::trusted.certname}\"\n  - common\n:yaml:\n  :datadir: /var/hieradata\n:merge_behavior: deeper\n"), GlobalLayer)
	if err != nil {
		t.Fatal(err)
	}
	if v3.Version != 3 || len(v3.Levels) != 1 || v3.Levels[0].Datadir != "/var/hieradata" || v3.Levels[0].Extension != ".yaml" || len(v3.Levels[0].Locations) != 2 || v3.V3Merge != "deeper" {
		t.Errorf("v3 parsed as %+v", v3)
	}
	ignored, err := ParseConfig("/env/hiera.yaml", []byte(":backends: yaml\n"), EnvironmentLayer)
	if err != nil || !ignored.Ignored {
		t.Errorf("v3 in environment: %+v, %v; want ignored", ignored, err)
	}
	v4, err := ParseConfig("/env/hiera.yaml", []byte("version: 4\ndatadir: d\nhierarchy:\n  - name: common\n    backend: json\n"), EnvironmentLayer)
	if err != nil || len(v4.Levels) != 1 || v4.Levels[0].Function != "json_data" || v4.Levels[0].Locations[0] != "common" || v4.Levels[0].Datadir != "/env/d" {
		t.Errorf("v4: %+v, %v", v4, err)
	}
}

// Behaviour verified with `puppet lookup` on equivalent trees.
func TestLookupBehaviour(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"global/hiera.yaml":  "version: 5\nhierarchy:\n  - name: g\n    path: g.yaml\n",
		"global/data/g.yaml": "g: 1\n",
		"env/hiera.yaml": `version: 5
hierarchy:
  - name: n
    path: "nodes/%{trusted.certname}.yaml"
  - name: c
    path: common.yaml
`,
		"env/data/nodes/a.example.com.yaml": "k: node\nbroken_ref: \"%{lookup('k'\"\n",
		"env/data/common.yaml":              "k: common\nnum: 3\nmod::x: env\n",
		"env/data/bad.yaml":                 "k: [\n",
		"env/modules/mod/hiera.yaml":        "version: 5\n",
		"env/modules/mod/data/common.yaml":  "mod::x: module\nmod::y: 2\nother: no\n",
	})
	scope := mapScope{"trusted": value.NewHash(value.String("certname"), value.String("a.example.com"))}
	var warnings []string
	s := NewSession(Options{
		GlobalConfig:   filepath.Join(dir, "global", "hiera.yaml"),
		EnvironmentDir: filepath.Join(dir, "env"),
		ModuleDir: func(name string) (string, bool) {
			d := filepath.Join(dir, "env", "modules", name)
			_, err := os.Stat(d)
			return d, err == nil
		},
		Warn: func(d *diag.Diagnostic) {
			if d.Severity != diag.Warning {
				t.Errorf("warning %q has severity %v", d.Message, d.Severity)
			}
			warnings = append(warnings, d.Error())
		},
	}, scope)
	tests := []struct {
		req     Request
		want    value.Value
		wantErr string
	}{
		{Request{Keys: []string{"k"}}, value.String("node"), ""},
		{Request{Keys: []string{"g"}}, value.Integer(1), ""},
		{Request{Keys: []string{"mod::x"}}, value.String("env"), ""},
		{Request{Keys: []string{"mod::y"}}, value.Integer(2), ""},
		{Request{Keys: []string{"nope", "num"}}, value.Integer(3), ""},
		{Request{Keys: []string{"nope"}, Default: value.String("d"), HasDefault: true}, value.String("d"), ""},
		{Request{Keys: []string{"nope"}, DefaultFunc: func(k string) (value.Value, error) { return value.String("block " + k), nil }}, value.String("block nope"), ""},
		{Request{Keys: []string{"nope"}}, nil, "Function lookup() did not find a value for the name 'nope'"},
		{Request{Keys: []string{"a", "b"}}, nil, "Function lookup() did not find a value for any of the names ['a', 'b']"},
		{Request{Keys: []string{"num"}, Type: &value.StringType{Min: 0, Max: value.MaxInt}}, nil, "Found value has wrong type, expects a String value, got Integer"},
		{Request{Keys: []string{"nope"}, Type: &value.StringType{Min: 0, Max: value.MaxInt}, Default: value.Integer(5), HasDefault: true}, nil, "Default value has wrong type, expects a String value, got Integer"},
		{Request{Keys: []string{"k"}, Merge: value.String("bogus")}, nil, "Unknown merge strategy: 'bogus'"},
		{Request{Keys: []string{"a..b"}}, nil, "Syntax error in key: 'a..b'"},
		{Request{Keys: []string{"other"}}, nil, "did not find a value"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.req.Keys, ","), func(t *testing.T) {
			got, err := s.Lookup(tc.req)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, %v; want error %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !value.Identical(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "must use keys qualified with the name of the module") {
		t.Errorf("warnings %q", warnings)
	}
	// A scope change re-resolves the hierarchy.
	scope["trusted"] = value.NewHash(value.String("certname"), value.String("other"))
	if got, err := s.Lookup(Request{Keys: []string{"k"}}); err != nil || got != value.String("common") {
		t.Errorf("after scope change got %v, %v; want common", got, err)
	}
	// Broken data names the file and line.
	s2 := NewSession(Options{EnvironmentDir: writeTree(t, map[string]string{
		"hiera.yaml":      "version: 5\nhierarchy:\n  - name: b\n    path: bad.yaml\n",
		"data/bad.yaml":   "a: 1\nk: [\n",
		"data/other.yaml": "",
	})}, nil)
	_, err := s2.Lookup(Request{Keys: []string{"k"}})
	if err == nil || !strings.Contains(err.Error(), "bad.yaml): ") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("broken YAML error %v, want file and line", err)
	}
}

func TestExplain(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: one\n    path: one.yaml\n  - name: two\n    path: two.yaml\n",
		"data/two.yaml":    "k: [b]\n",
		"data/one.yaml":    "k: [a]\n",
		"data/nothing.txt": "",
	})
	s := NewSession(Options{EnvironmentDir: dir}, nil)
	v, ex, err := s.Explain(Request{Keys: []string{"k"}, Merge: value.String("unique")})
	if err != nil || !value.Identical(v, value.Array{value.String("a"), value.String("b")}) {
		t.Fatalf("got %v, %v", v, err)
	}
	text := ex.String()
	for _, want := range []string{
		`Searching for "k"`,
		`Environment Data Provider (hiera configuration version 5)`,
		`Using configuration "` + filepath.Join(dir, "hiera.yaml") + `"`,
		`Merge strategy unique`,
		`Hierarchy entry "one"`,
		`Path "` + filepath.Join(dir, "data", "one.yaml") + `"`,
		`Original path: "one.yaml"`,
		`Found key: "k" value: [`,
		`Merged result: [`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("explanation lacks %q:\n%s", want, text)
		}
	}
}

func TestHieraFunctions(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml":    "version: 5\nhierarchy:\n  - name: one\n    path: one.yaml\n  - name: two\n    path: two.yaml\n",
		"data/one.yaml": "a: [x]\nh: {p: 1}\ncls::p: [x]\nlookup_options:\n  a:\n    merge: unique\n  '^cls::.*':\n    merge: unique\n",
		"data/two.yaml": "a: [y, x]\nh: {q: 2}\ncls::p: [y]\n",
	})
	s := NewSession(Options{EnvironmentDir: dir}, nil)
	tests := []struct {
		fn   HieraFunction
		key  string
		want value.Value
	}{
		// hiera() ignores lookup_options' merge: first found.
		{Hiera, "a", value.Array{value.String("x")}},
		{HieraArray, "a", value.Array{value.String("x"), value.String("y")}},
		{HieraHash, "h", value.NewHash(value.String("q"), value.Integer(2), value.String("p"), value.Integer(1))},
	}
	for _, tc := range tests {
		got, err := s.Hiera(tc.fn, tc.key, nil, false, nil)
		if err != nil || !value.Identical(got, tc.want) {
			t.Errorf("%d %s: got %v, %v; want %v", tc.fn, tc.key, value.ToString(got), err, value.ToString(tc.want))
		}
	}
	// Automatic parameter lookup honours lookup_options (here a pattern).
	got, found, err := s.LookupParam("::cls", "p")
	if err != nil || !found || !value.Identical(got, value.Array{value.String("x"), value.String("y")}) {
		t.Errorf("LookupParam got %v, %v, %v", got, found, err)
	}
	if _, found, err := s.LookupParam("cls", "q"); found || err != nil {
		t.Errorf("LookupParam of a missing key: found=%v err=%v", found, err)
	}
}

func TestConcurrentSessionsShareCache(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml":  "version: 5\nhierarchy:\n  - name: n\n    path: \"%{n}.yaml\"\n",
		"data/a.yaml": "k: a\n",
		"data/b.yaml": "k: b\n",
	})
	cache := NewCache()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := []string{"a", "b"}[i%2]
			s := NewSession(Options{Cache: cache, EnvironmentDir: dir}, mapScope{"n": value.String(n)})
			v, err := s.Lookup(Request{Keys: []string{"k"}})
			if err != nil || v != value.String(n) {
				errs <- fmt.Errorf("session %s got %v, %v", n, v, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkLookup10Levels measures a lookup that misses in nine levels and
// is found in the tenth, in a fresh session each time (the shared cache
// already holds the parsed files, as it would across compiles).
func BenchmarkLookup10Levels(b *testing.B) {
	files := map[string]string{}
	var h strings.Builder
	h.WriteString("version: 5\nhierarchy:\n")
	for i := range 10 {
		fmt.Fprintf(&h, "  - name: l%d\n    path: \"l%d/%%{facts.os.family}.yaml\"\n", i, i)
		var d strings.Builder
		for j := range 50 {
			fmt.Fprintf(&d, "other%d_%d: value %d\n", i, j, j)
		}
		if i == 9 {
			d.WriteString("wanted: \"found in %{facts.os.family}\"\n")
		}
		files[fmt.Sprintf("data/l%d/Debian.yaml", i)] = d.String()
	}
	files["hiera.yaml"] = h.String()
	dir := writeTree(b, files)
	cache := NewCache()
	scope := mapScope{"facts": value.NewHash(value.String("os"), value.NewHash(value.String("family"), value.String("Debian")))}
	b.ResetTimer()
	for b.Loop() {
		s := NewSession(Options{Cache: cache, EnvironmentDir: dir}, scope)
		v, err := s.Lookup(Request{Keys: []string{"wanted"}})
		if err != nil || v != value.String("found in Debian") {
			b.Fatalf("got %v, %v", v, err)
		}
	}
}

// Checked with `puppet lookup`: a missing global hiera.yaml means Puppet's
// default (data/common.yaml next to where the file would be); an environment
// or module without hiera.yaml has no data layer at all, even with data/.
func TestDefaultConfigs(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"conf/data/common.yaml":           "gdef: from default global\n",
		"env/data/common.yaml":            "envk: unused\n",
		"env/modules/m/data/common.yaml":  "m::k: unused\n",
		"env/modules/m/manifests/init.pp": "class m {}\n",
	})
	s := NewSession(Options{
		GlobalConfig:   filepath.Join(dir, "conf", "hiera.yaml"),
		EnvironmentDir: filepath.Join(dir, "env"),
		ModuleDir: func(name string) (string, bool) {
			return filepath.Join(dir, "env", "modules", name), name == "m"
		},
	}, nil)
	if v, err := s.Lookup(Request{Keys: []string{"gdef"}}); err != nil || v != value.String("from default global") {
		t.Errorf("gdef: %v, %v", v, err)
	}
	for _, k := range []string{"envk", "m::k"} {
		if v, err := s.Lookup(Request{Keys: []string{k}}); err == nil {
			t.Errorf("%s: found %v; Puppet has no layer without hiera.yaml", k, v)
		}
	}
}

func TestInterpolationErrors(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: m\n    path: \"%{lookup('x')}.yaml\"\n",
	})
	s := NewSession(Options{EnvironmentDir: dir}, nil)
	_, err := s.Lookup(Request{Keys: []string{"k"}})
	if err == nil || !strings.Contains(err.Error(), "Interpolation using method syntax is not allowed in this context") || !strings.Contains(err.Error(), filepath.Join(dir, "hiera.yaml")) {
		t.Errorf("method in hiera.yaml path: %v", err)
	}
	dir2 := writeTree(t, map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n",
		"data/common.yaml": "bad_seg: \"%{facts.'os}\"\nundef_var: \"[%{nothing}]\"\n",
	})
	s2 := NewSession(Options{EnvironmentDir: dir2}, mapScope{})
	if _, err := s2.Lookup(Request{Keys: []string{"bad_seg"}}); err == nil || !strings.Contains(err.Error(), "Syntax error in string: %{facts.'os}") {
		t.Errorf("bad segment: %v", err)
	}
	if v, err := s2.Lookup(Request{Keys: []string{"undef_var"}}); err != nil || v != value.String("[]") {
		t.Errorf("undefined variable: %v, %v; want \"[]\"", v, err)
	}
}

// Checked with `puppet lookup`: options make yaml_data's signature mismatch.
func TestOptionsRejectedByYAMLData(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hiera.yaml":       "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    x: 1\nhierarchy:\n  - name: c\n    path: common.yaml\n",
		"data/common.yaml": "k: v\n",
	})
	_, err := NewSession(Options{EnvironmentDir: dir}, nil).Lookup(Request{Keys: []string{"k"}})
	want := "'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
