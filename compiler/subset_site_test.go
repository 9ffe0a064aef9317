package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
)

// TestSubsetRoleAndPathBackend: the Ruby a site's role() function and
// its Hiera lookup_key backend carry (miraheze's vmlib) runs in the Ruby
// subset, with no helper: closure_scope['x'] = v sets a top-scope variable
// that Hiera interpolates and Puppet code reads (once: a second set fails
// as Puppet's reassignment does), and the backend looks at and reads YAML
// files beside its location with File.exist? and YAML.safe_load; what a
// backend's context caches stays one Ruby object across its calls.
func TestSubsetRoleAndPathBackend(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"modules/vm/lib/puppet/functions/role.rb": `Puppet::Functions.create_function(:role) do
  dispatch :main do
    param 'String', :name
  end
  def main(name)
    scope = closure_scope
    raise(Puppet::ParseError, "role() can only be called once per node") if scope.include?('_role')
    scope['_roles'] = { name => true }
    scope['_role'] = name.gsub(/::/, '/')
    call_function('include', 'role::' + name)
  end
end
`,
		"modules/vm/lib/puppet/functions/vm/expand_path.rb": `require 'yaml'
Puppet::Functions.create_function(:'vm::expand_path') do
  dispatch :expand_path do
    param 'String[1]', :key
    param 'Struct[{path=>String[1]}]', :options
    param 'Puppet::LookupContext', :context
  end
  def expand_path(key, options, context)
    ns = key.split('::')
    ns.pop
    file = ns.empty? ? "#{options['path']}.yaml" : File.join(options['path'], ns) + '.yaml'
    context.not_found unless File.exist?(file)
    data = YAML.safe_load(File.read(file), filename: file, aliases: true)
    context.not_found unless data.include?(key)
    context.interpolate(data[key])
  end
end
`,
		"modules/vm/lib/puppet/functions/vm/counter.rb": `Puppet::Functions.create_function(:'vm::counter') do
  dispatch :counter do
    param 'String[1]', :key
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end
  def counter(key, options, context)
    context.not_found unless key.start_with?('count::')
    if context.cached_value(nil).nil?
      context.cache(nil, { 'n' => 0 })
    end
    data = context.cached_value(nil)
    data['n'] += 1
    data['n']
  end
end
`,
		"modules/vm/lib/puppet/functions/vm/set_twice.rb": `Puppet::Functions.create_function(:'vm::set_twice') do
  def set_twice
    closure_scope['twice'] = 1
    closure_scope['twice'] = 2
  end
end
`,
		"modules/vm/lib/puppet/functions/vm/load_symbol.rb": `require 'yaml'
Puppet::Functions.create_function(:'vm::load_symbol') do
  def load_symbol
    YAML.safe_load(":sym")
  end
end
`,
		"modules/role/manifests/web/front.pp": "class role::web::front { notify { \"role ${::_role} ${::_roles}\": } }\n",
		"modules/role/manifests/twice.pp":     "class role::twice { }\n",
		"site.pp": "node 'web1' { role('web::front') notify { \"port ${lookup('port')} ${lookup('app::name')} ${lookup('app::shared')}\": } notify { \"counts ${lookup('count::a')} ${lookup('count::b')}\": } }\n" +
			"node 'twice' { role('twice') role('twice') }\n" +
			"node 'settwice' { vm::set_twice() }\n" +
			"node 'symbol' { notify { String(vm::load_symbol()): } }\n",
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: role\n    path: \"role/%{::_role}.yaml\"\n" +
			"  - name: counter\n    lookup_key: vm::counter\n" +
			"  - name: common\n    lookup_key: vm::expand_path\n    path: common\n",
		"data/role/web/front.yaml": "port: 8080\n",
		"data/common.yaml":         "port: 80\n",
		"data/common/app.yaml":     "base: &b shared-%{::_role}\napp::name: front-app\napp::shared: *b\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		ModulePath: []string{filepath.Join(dir, "modules")},
		Hiera:      environment.HieraOptions{GlobalConfig: filepath.Join(dir, "hiera.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "web1", Facts: testFacts()})
	if err != nil {
		t.Fatalf("web1 (no Ruby helper): %v", err)
	}
	var titles []string
	for _, r := range cat.Resources {
		if r.Type == "Notify" {
			titles = append(titles, r.Title)
		}
	}
	got := strings.Join(titles, "\n")
	// The counter's cached hash is one Ruby object across lookups, as
	// under Puppet: its second lookup sees the first one's increment.
	for _, want := range []string{"role web/front {web::front => true}", "port 8080 front-app shared-web/front", "counts 1 2"} {
		if !strings.Contains(got, want) {
			t.Errorf("notify %q missing; got:\n%s", want, got)
		}
	}
	for _, tt := range []struct{ node, want string }{
		{"twice", "role() can only be called once per node"},
		// A top-scope variable is set once, as any Puppet variable.
		{"settwice", "Cannot reassign variable '$twice'"},
		// What Ruby would type otherwise (a Symbol) is not plain data:
		// without the helper, the subset's error names it.
		{"symbol", "YAML.safe_load of a Symbol"},
	} {
		_, err = compileCatalog(env, &Request{Node: tt.node, Facts: testFacts()})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.node, err, tt.want)

		}
	}
}

// TestSubsetRequireRelativeLibrary: a function that loads its module's
// Ruby library with require_relative of a path ending in .rb (icinga2's
// icinga2_attributes requires ../../../puppet_x/icinga2/utils.rb) runs in
// the Ruby subset: the file is found as require finds 'x/y', and the
// module functions it defines (def self.f) answer.
func TestSubsetRequireRelativeLibrary(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"modules/m/lib/puppet/functions/m/quoted.rb": `require_relative '../../../puppet_x/m/utils.rb'
Puppet::Functions.create_function(:'m::quoted') do
  def quoted(s)
    Puppet::M::Utils.quote(s)
  end
end
`,
		"modules/m/lib/puppet_x/m/utils.rb": `module Puppet::M
  module Utils
    def self.quote(s)
      s.dump
    end
  end
end
`,
		"site.pp": "node default { notify { m::quoted(\"a\\\"b\"): } }\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "web1", Facts: testFacts()})
	if err != nil {
		t.Fatalf("no Ruby helper: %v", err)
	}
	found := false
	for _, r := range cat.Resources {
		found = found || r.Type == "Notify" && r.Title == `"a\"b"`
	}
	if !found {
		t.Errorf("notify %q missing", `"a\"b"`)
	}
}

// TestSubsetBlockAndCatalog: without the Ruby helper, a 4.x function gets
// the lambda of its call as its block (a &block parameter passed on with
// group_by(&block), as ronin_puppet's facts::group_by does; yield and
// block_given?), and scope.catalog.resources lists the resources declared
// so far with type and to_hash (the namevar from the title, then the
// parameters), as puppet_agent's any_resources_of_type reads them.
func TestSubsetBlockAndCatalog(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"modules/m/lib/puppet/functions/m/group_by.rb": `Puppet::Functions.create_function(:'m::group_by') do
  dispatch :group do
    param 'Iterable', :collection
    block_param
  end
  def group(collection, &block)
    collection.group_by(&block)
  end
end
`,
		"modules/m/lib/puppet/functions/m/twice.rb": `Puppet::Functions.create_function(:'m::twice') do
  dispatch :twice do
    param 'Integer', :n
    optional_block_param
  end
  def twice(n)
    return 'no block' unless block_given?
    [yield(n), yield(n + 1)]
  end
end
`,
		"modules/m/lib/puppet/functions/m/any_of.rb": `Puppet::Functions.create_function(:'m::any_of', Puppet::Functions::InternalFunction) do
  dispatch :any_of do
    scope_param
    param 'String', :type
    optional_param 'Hash', :params
  end
  def any_of(scope, type, params = nil)
    scope.catalog.resources.select { |r| r.type.to_s.casecmp(type).zero? && (params.nil? || params.all? { |k, v| r.to_hash[k.to_sym] == v }) }.map { |r| r.to_s }
  end
end
`,
		"modules/m/lib/puppet/functions/m/keys.rb": `Puppet::Functions.create_function(:'m::keys', Puppet::Functions::InternalFunction) do
  dispatch :keys do
    scope_param
  end
  def keys(scope)
    scope.catalog.resource('File', '/tmp/a/').to_hash.keys.map(&:to_s)
  end
end
`,
		"site.pp": `node default {
  file { '/tmp/a/': ensure => file, mode => undef }
  notify { "k ${m::keys()}": }
  notify { "g ${m::group_by([1, 2, 3]) |$x| { $x % 2 }}": }
  notify { "t ${m::twice(3) |$x| { $x * 10 }} ${m::twice(1)}": }
  notify { "f ${m::any_of('file', { 'path' => '/tmp/a', 'ensure' => 'file' })} ${m::any_of('file', { 'ensure' => 'absent' })}": }
}
`,
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "web1", Facts: testFacts()})
	if err != nil {
		t.Fatalf("no Ruby helper: %v", err)
	}
	var titles []string
	for _, r := range cat.Resources {
		if r.Type == "Notify" {
			titles = append(titles, r.Title)
		}
	}
	got := strings.Join(titles, "\n")
	// to_hash has the namevar from the title and no undef parameter.
	for _, want := range []string{"g {1 => [1, 3], 0 => [2]}", "t [30, 40] no block", "f [File[/tmp/a/]] []", "k [path, ensure]"} {
		if !strings.Contains(got, want) {
			t.Errorf("notify %q missing; got:\n%s", want, got)
		}
	}
}

// TestSubsetEnvironment: without the Ruby helper, a 3.x function reads
// the environment through self.compiler.environment (name, modulepath,
// module(name).path) and finds module files and templates with
// Puppet::Parser::Files.find_file and find_template (nil when missing).
func TestSubsetEnvironment(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"modules/m/lib/puppet/parser/functions/env_info.rb": `module Puppet::Parser::Functions
  newfunction(:env_info, :type => :rvalue) do |args|
    env = self.compiler.environment
    [env.name.to_s, env.modulepath.size, env.module('m').path.end_with?('/modules/m'), env.module('nope').nil?,
     Puppet::Parser::Files.find_file('m/x.txt', env).end_with?('/m/files/x.txt'),
     Puppet::Parser::Files.find_template('m/nope.erb', env).nil?, Puppet::Parser::Files.find_template('/abs', env)].join(' ')
  end
end
`,
		"modules/m/files/x.txt": "x\n",
		"site.pp":               "node default { notify { env_info(): } }\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		ModulePath: []string{filepath.Join(dir, "modules"), filepath.Join(dir, "missing")}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := compileCatalog(env, &Request{Node: "web1", Facts: testFacts()})
	if err != nil {
		t.Fatalf("no Ruby helper: %v", err)
	}
	const want = "production 1 true true true true /abs"
	found := false
	for _, r := range cat.Resources {
		found = found || r.Type == "Notify" && r.Title == want
	}
	if !found {
		t.Errorf("notify %q missing", want)
	}
}
