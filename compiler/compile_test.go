package compiler

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// writeTree writes files (path → content) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// syntheticEnv writes an environment whose catalog has about n resources:
// modules with parameterized classes, a defined type used many times,
// resource defaults, relationships and a collector.
func syntheticEnv(t testing.TB, n int) string {
	dir := t.TempDir()
	files := map[string]string{}
	const perModule = 50 // resources per module: 10 files, 10 packages, 10 define instances (2 each), 10 notifies
	modules := n / perModule
	if modules < 1 {
		modules = 1
	}
	var site strings.Builder
	site.WriteString("File { owner => 'root', group => 'root' }\nnode default {\n")
	for m := 0; m < modules; m++ {
		name := fmt.Sprintf("mod%03d", m)
		fmt.Fprintf(&site, "  include %s\n", name)
		var b strings.Builder
		fmt.Fprintf(&b, "class %s (\n  Integer $port = %d,\n  String $ensure = 'present',\n) {\n", name, 8000+m)
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&b, "  file { '/etc/%s/f%02d.conf': ensure => file, content => \"port=${port} i=%d\", mode => '0644' }\n", name, i, i)
			fmt.Fprintf(&b, "  package { '%s-pkg%02d': ensure => $ensure }\n", name, i)
			fmt.Fprintf(&b, "  %s::vhost { 'site%02d': port => $port + %d }\n", name, i, i)
			fmt.Fprintf(&b, "  notify { '%s-n%02d': message => \"${name} ${i}\" }\n", name, i)
		}
		fmt.Fprintf(&b, "  Package['%s-pkg00'] -> File['/etc/%s/f00.conf']\n", name, name)
		b.WriteString("}\n")
		files[filepath.Join("modules", name, "manifests", "init.pp")] = b.String()
		files[filepath.Join("modules", name, "manifests", "vhost.pp")] = fmt.Sprintf(
			"define %s::vhost (Integer $port, String $root = \"/srv/${title}\") {\n"+
				"  file { \"/etc/%s/vhost-${title}\": ensure => file, content => \"${root}:${port}\" }\n"+
				"  notify { \"%s-vhost-${title}\": message => $port }\n}\n", name, name, name)
	}
	site.WriteString("}\n")
	files["manifests/site.pp"] = site.String()
	writeTree(t, dir, files)
	return dir
}

func loadSynthetic(t testing.TB, n int) *Environment {
	dir := syntheticEnv(t, n)
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "manifests"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func testFacts() *value.Hash {
	return value.NewHash(value.String("fqdn"), value.String("web01.example.com"),
		value.String("hostname"), value.String("web01"), value.String("osfamily"), value.String("Debian"))
}

func compileJSON(t testing.TB, env *Environment, node string) []byte {
	cat, err := compileCatalog(env, &Request{Node: node, Facts: testFacts(), Now: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	cat.UUID = "fixed"
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestConcurrentCompilesShareEnvironment compiles one parsed environment
// from many goroutines at once (run it with -race): every catalog must be
// identical to a sequential compile's.
func TestConcurrentCompilesShareEnvironment(t *testing.T) {
	env := loadSynthetic(t, 400)
	want := compileJSON(t, env, "web01.example.com")
	if n := bytes.Count(want, []byte(`"type":"File"`)); n < 100 {
		t.Fatalf("synthetic catalog has only %d files; the generator is broken", n)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				if got := compileJSON(t, env, "web01.example.com"); !bytes.Equal(got, want) {
					errs <- "a concurrent compile produced a different catalog"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestFactsFromYAMLReachTopScope(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.pp": "notify { \"os=${facts['os']['family']} legacy=${osfamily}\": }\n"})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: nil})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := dataformat.FromYAML([]byte("osfamily: Debian\nos:\n  family: Debian\n"), "facts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "n1.example.com", Facts: facts.(*value.Hash)})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Lookup(refOf("Notify", "os=Debian legacy=Debian")) == nil {
		t.Errorf("facts not visible as $facts and as legacy variables; resources: %v", titlesIn(cat.Resources))
	}
}

// BenchmarkCompile1000 compiles a generated ~1,000-resource catalog from a
// parsed environment (parsing excluded), and encodes it.
func BenchmarkCompile1000(b *testing.B) {
	env := loadSynthetic(b, 1000)
	compileJSON(b, env, "web01.example.com") // load module files once
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		compileJSON(b, env, "web01.example.com")
	}
}

func refOf(typ, title string) catalog.Ref { return catalog.Ref{Type: typ, Title: title} }

func titlesIn(rs []*catalog.Resource) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Ref().String()
	}
	return out
}

// TestLegacyImportAndNodeInheritance checks the two Puppet 3 forms the seed
// documents describe and Puppet 7 rejects: marionette accepts them with a
// deprecation (import loads the globbed files; a node's parent node is
// evaluated first and is its parent scope).
func TestLegacyImportAndNodeInheritance(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":         "import 'nodes/*.pp'\n$top = 'T'\n",
		"nodes/base.pp":   "node 'base' { $ntp = 'time.example.com' notify { 'from base': } }\n",
		"nodes/web01.pp":  "node 'web01.example.com' inherits 'base' { notify { \"ntp=${ntp} top=${top}\": } }\n",
		"nodes/ignored.x": "this is not a manifest",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: nil})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(context.Background(), env, &Request{Node: "web01.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 2 {
		t.Errorf("want one deprecation for import and one for inherits, got %v", res.Diagnostics)
	}
	cat := res.Catalog
	for _, title := range []string{"from base", "ntp=time.example.com top=T"} {
		if cat.Lookup(refOf("Notify", title)) == nil {
			t.Errorf("missing Notify[%s]; have %v", title, titlesIn(cat.Resources))
		}
	}
}

// TestTemplatesCachedAndReloadedWhenChanged renders a module EPP template in
// two compiles of one environment, changing the file in between: the second
// compile must see the new text (the cache checks size and mtime).
func TestTemplatesCachedAndReloadedWhenChanged(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                       "notify { 'n': message => epp('m/t.epp', { 'x' => 'X' }) }\n",
		"modules/m/templates/t.epp":     "<%- | $x | -%>\nold <%= $x %>",
		"modules/m/manifests/.keep.txt": "",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	message := func() value.Value {
		cat, err := compileCatalog(env, &Request{Node: "n1.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := cat.Lookup(refOf("Notify", "n")).Param("message")
		return v
	}
	if got := message(); got != value.String("old X") {
		t.Fatalf("message = %v", got)
	}
	p := filepath.Join(dir, "modules/m/templates/t.epp")
	if err := os.WriteFile(p, []byte("<%- | $x | -%>\nnew and longer <%= $x %>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := message(); got != value.String("new and longer X") {
		t.Errorf("after the template changed, message = %v", got)
	}
}

// TestTemplateExceptionWording checks the whole of Puppet 7.23's message
// for an exception a template raises (the conformance oracle keeps only its
// first line): the template's name, its file, the line the exception was
// raised at and the exception's message, each on a line of its own.
func TestTemplateExceptionWording(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                        "$zero = 0\nnotify { 'x': message => template('m/divide.erb') }\n",
		"modules/m/templates/divide.erb": "first line\n<% if true -%>\n<%= 10 / @zero %>\n<% end -%>\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1.example.com"})
	if err == nil {
		t.Fatal("the compile succeeded; want the template's ZeroDivisionError")
	}
	// What Puppet 7.23 printed for this manifest and template.
	want := "Failed to parse template m/divide.erb:\n" +
		"  Filepath: " + filepath.Join(dir, "modules/m/templates/divide.erb") + "\n" +
		"  Line: 3\n" +
		"  Detail: divided by 0\n" +
		" (file: " + filepath.Join(dir, "site.pp") + ", line: 2, column: 26)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error:\n%s\nwant it to contain:\n%s", err, want)
	}
}

// TestModuleRubyFunctions runs functions modules ship in Ruby (both APIs)
// with the erb package's interpreter; Ruby it cannot run fails naming the file.
func TestModuleRubyFunctions(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp": "notify { 'x': message => \"${mymod::shout('a')} ${legacy_twice('b')} ${mymod::kind(1)} ${mymod::kind('s')}\" }\n",
		"modules/mymod/lib/puppet/functions/mymod/shout.rb": "Puppet::Functions.create_function(:'mymod::shout') do\n" +
			"  def shout(s)\n    s.upcase + '!'\n  end\nend\n",
		"modules/mymod/lib/puppet/parser/functions/legacy_twice.rb": "module Puppet::Parser::Functions\n" +
			"  newfunction(:legacy_twice, :type => :rvalue) do |args|\n    args[0] * 2\n  end\nend\n",
		"modules/mymod/lib/puppet/functions/mymod/kind.rb": "Puppet::Functions.create_function(:'mymod::kind') do\n" +
			"  dispatch :from_int do\n    param 'Integer', :x\n  end\n" +
			"  dispatch :from_str do\n    param 'String', :x\n  end\n" +
			"  def from_int(x)\n    'int'\n  end\n  def from_str(x)\n    'str'\n  end\nend\n",
		"modules/mymod/lib/puppet/functions/needs_socket.rb": "Puppet::Functions.create_function(:needs_socket) do\n" +
			"  def needs_socket(s)\n    Socket.gethostname\n  end\nend\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "n1.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	// The 4.x function with two dispatches is called through the one whose
	// parameter type accepts the argument.
	if v, _ := cat.Lookup(refOf("Notify", "x")).Param("message"); v != value.String("A! bb int str") {
		t.Errorf("message = %v, want 'A! bb int str'", v)
	}
	writeTree(t, dir, map[string]string{"site.pp": "notify { 'y': message => needs_socket('x') }\n"})
	env, err = environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1.example.com"})
	if err == nil || !strings.Contains(err.Error(), "needs_socket.rb") {
		t.Errorf("error = %v; want one naming the Ruby file", err)
	}
	// A function with several dispatches fails with the error its chosen
	// dispatch raises (it once returned undef instead).
	writeTree(t, dir, map[string]string{
		"site.pp": "notify { 'z': message => mymod::picky('s') }\n",
		"modules/mymod/lib/puppet/functions/mymod/picky.rb": "Puppet::Functions.create_function(:'mymod::picky') do\n" +
			"  dispatch :from_int do\n    param 'Integer', :x\n  end\n" +
			"  dispatch :from_str do\n    param 'String', :x\n  end\n" +
			"  def from_int(x)\n    'int'\n  end\n  def from_str(x)\n    raise ArgumentError, 'no strings here'\n  end\nend\n",
	})
	env, err = environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1.example.com"})
	if err == nil || !strings.Contains(err.Error(), "no strings here") {
		t.Errorf("error = %v; want the dispatch's own error", err)
	}
	// Arguments no dispatch accepts get the message of Puppet's
	// dispatcher (checked against Puppet 7.23).
	writeTree(t, dir, map[string]string{"site.pp": "notify { 'z': message => mymod::kind(true) }\n"})
	env, err = environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1.example.com"})
	if want := "'mymod::kind' parameter 'x' expects a value of type Integer or String, got Boolean"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v; want %q", err, want)
	}
}

// TestDefinedTypeRecursionIsBounded: a defined type that declares itself
// without end fails with a clear error instead of hanging the compile.
func TestDefinedTypeRecursionIsBounded(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.pp": "define d($x) { d { \"${x}x\": x => \"${x}x\" } }\nd { 'a': x => 'a' }\n"})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: nil})
	if err != nil {
		t.Fatal(err)
	}
	_, err = compileCatalog(env, &Request{Node: "n1.example.com"})
	if err == nil || !strings.Contains(err.Error(), "Defined types nest more than 1000 deep") {
		t.Errorf("error = %v", err)
	}
}

// compileCatalog compiles req in env and returns the catalog.
func compileCatalog(env *Environment, req *Request) (*catalog.Catalog, error) {
	res, err := Compile(context.Background(), env, req)
	if err != nil {
		return nil, err
	}
	return res.Catalog, nil
}

// TestZeroConfigChecksResourceTypes: an environment loaded with nothing but
// a manifest still knows Puppet's resource types, so an unknown type or
// attribute is an error, as in `marionette compile` (a zero configuration
// used to switch type checking off).
func TestZeroConfigChecksResourceTypes(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"nosuchtype { 'x': }\n", "Unknown resource type: 'nosuchtype'"},
		{"file { '/tmp/x': nosuchattr => 1 }\n", "no parameter named 'nosuchattr'"},
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"site.pp": tt.src})
		env, err := environment.Load(environment.Config{Manifest: filepath.Join(dir, "site.pp")})
		if err != nil {
			t.Fatal(err)
		}
		_, err = compileCatalog(env, &Request{Node: "n1"})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error = %v, want one containing %q", tt.src, err, tt.want)
		}
	}
}

// TestPuppet8RegsubstEncodingWarning: Puppet 8's regsubst warns, once per
// compile, that its encoding argument is ignored (checked against Puppet
// 8.10); Puppet 7's says nothing.
func TestPuppet8RegsubstEncodingWarning(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.pp": "notify { regsubst('abc', 'b', 'x', 'G', 'U'): }\nnotify { regsubst('abc', 'b', 'y', 'G', 'U'): }\n"})
	const want = "The regsubst() function's encoding argument has been ignored since Ruby 1.9 and will be removed in a future release"
	for _, major := range []int{7, 8} {
		env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), PuppetMajor: major})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Compile(context.Background(), env, &Request{Node: "n1"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Message == want {
				n++
			}
		}
		if wantN := map[int]int{7: 0, 8: 1}[major]; n != wantN {
			t.Errorf("Puppet %d: %d encoding warnings, want %d (%v)", major, n, wantN, res.Diagnostics)
		}
	}
}
