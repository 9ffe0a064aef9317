package rubytype

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Definition
	}{
		{
			name: "newparam forms and namevar options",
			src: `Puppet::Type.newtype(:thing) do
  @doc = "a thing"
  newparam(:name, :namevar => true) do
    desc 'x'
  end
  newparam(:other, namevar: true)
  newparam :third do
    isnamevar
  end
  newparam(:plain)
  newparam (:spaced)
  newproperty(:value, :array_matching => :all) do
    validate do |v|
      raise ArgumentError, "bad" unless v =~ /^\d+$/
    end
  end
end`,
			want: []Definition{{Name: "thing", Parameters: []string{"name", "other", "third", "plain", "spaced"},
				Properties: []string{"value"}, Namevars: []string{"name", "other", "third"}}},
		},
		{
			name: "ensurable goes first among properties",
			src: `Puppet::Type.newtype(:e) do
  newproperty(:a)
  ensurable do
    defaultvalues
    newvalue(:x) do; end
  end
  newparam(:name)
end`,
			want: []Definition{{Name: "e", Parameters: []string{"name"}, Properties: []string{"ensure", "a"}}},
		},
		{
			name: "module wrapper, Type.newtype and not isomorphic",
			src: `module Puppet
  Type.newtype(:runner) do
    newparam(:command) do
      isnamevar
    end
    # Not isomorphic.
    @isomorphic = false
  end
end`,
			want: []Definition{{Name: "runner", Parameters: []string{"command"}, Namevars: []string{"command"}, NotIsomorphic: true}},
		},
		{
			name: "providify and paramclass isnamevar",
			src: `Puppet::Type.newtype(:pkg) do
  newparam(:name) { isnamevar }
  providify
  paramclass(:provider).isnamevar
  def self.title_patterns
    [ [ /(.*)/m, [ [:name] ] ] ]
  end
end`,
			want: []Definition{{Name: "pkg", Parameters: []string{"name", "provider"}, Namevars: []string{"name", "provider"},
				TitlePatterns: []TitlePattern{{Regexp: `(?ms)(.*)`, Attributes: []string{"name"}}}}},
		},
		{
			name: "wrapper method and each loop",
			src: `Puppet::Type.newtype(:w) do
  def self.newcheck(name, options = {}, &block)
    newparam(name, options, &block)
  end
  newcheck(:unless) do
  end
  [:a, :b].each do |p|
    newparam(p) do
      isnamevar
    end
  end
  %i[c d].each do |q|
    newproperty(q)
  end
end`,
			want: []Definition{{Name: "w", Parameters: []string{"unless", "a", "b"}, Properties: []string{"c", "d"},
				Namevars: []string{"a", "b"}}},
		},
		{
			name: "extension of another type",
			src: `module Puppet
  Puppet::Type.type(:file).newproperty(:mode) do
    desc <<-'EOT'
      newparam(:not_real) inside a heredoc
    EOT
  end
  Puppet::Type.type(:file).newparam(:checksum)
  Puppet::Type.type(:file).ensurable do
  end
end`,
			want: []Definition{{Name: "file", Extension: true, Parameters: []string{"checksum"}, Properties: []string{"ensure", "mode"}}},
		},
		{
			name: "strings, comments, heredocs and =begin hide calls",
			src: `Puppet::Type.newtype(:quiet) do
  desc "newparam(:a) #{newparam(:b)}"
  # newparam(:c)
=begin
  newparam(:d)
=end
  x = %q{newparam(:e)}
  y = <<~EOS
    newparam(:f)
  EOS
  newparam(:name)
  z = 4 / 2 / 1
  return if x
end`,
			want: []Definition{{Name: "quiet", Parameters: []string{"name"}}},
		},
		{
			name: "title patterns with several attributes and flags",
			src: `Puppet::Type.newtype(:key) do
  newparam(:name) { isnamevar }
  newparam(:type) { isnamevar }
  def self.title_patterns
    [
      [
        %r{^(.*?)@(.*)$},
        [
          [:name],
          [:type],
        ],
      ],
      [ %r{^([^@]+)$}i, [ [:name, lambda { |x| x }] ] ],
    ]
  end
end`,
			want: []Definition{{Name: "key", Parameters: []string{"name", "type"}, Namevars: []string{"name", "type"},
				TitlePatterns: []TitlePattern{
					{Regexp: `(?m)^(.*?)@(.*)$`, Attributes: []string{"name", "type"}},
					{Regexp: `(?mi)^([^@]+)$`, Attributes: []string{"name"}},
				}}},
		},
		{
			name: "title patterns that call code are unknown",
			src: `Puppet::Type.newtype(:k) do
  newparam(:name)
  newparam(:domain) { isnamevar }
  def self.title_patterns
    PuppetX::Helper.split(:name, :domain)
  end
end`,
			want: []Definition{{Name: "k", Parameters: []string{"name", "domain"}, Namevars: []string{"domain"},
				TitlePatternsUnknown: "title_patterns is not a literal array"}},
		},
		{
			name: "interpolated title pattern is unknown",
			src: `Puppet::Type.newtype(:k) do
  def self.title_patterns
    r = /x/
    [ [ /^(#{r})$/, [ [:name] ] ] ]
  end
end`,
			want: []Definition{{Name: "k", TitlePatternsUnknown: "title_patterns is not a literal array"}},
		},
		{
			name: "dynamic names and mixins are reported",
			src: `Puppet::Type.newtype(:dyn) do
  extend PuppetX::Helpers
  newparam(compute_name)
end`,
			want: []Definition{{Name: "dyn", Problems: []string{
				"line 2: extends PuppetX::Helpers; attributes it adds are not read",
				"line 3: newparam with a name that is not a literal"}}},
		},
		{
			name: "no type at all",
			src:  "class Foo\n  def bar; 1; end\nend\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Read([]byte(tt.src))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			var got []Definition
			for _, d := range res.Types {
				got = append(got, *d)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestReadMetaparams(t *testing.T) {
	src := `class Puppet::Type
  newmetaparam(:noop) do
  end
  newmetaparam(:require, :parent => RelationshipMetaparam) do
  end
end`
	res, err := Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"noop", "require"}; !reflect.DeepEqual(res.Metaparameters, want) {
		t.Errorf("metaparameters = %v, want %v", res.Metaparameters, want)
	}
}

func TestReadGarbage(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"unterminated string", `Puppet::Type.newtype(:x) do "abc`},
		{"unclosed block", "Puppet::Type.newtype(:x) do\n newparam(:a) do\nend"},
		{"stray end", "end"},
		{"unbalanced paren", "newparam(:a"},
		{"heredoc without terminator", "x = <<-EOT\nabc\n"},
		{"=begin without =end", "=begin\nabc\n"},
		{"mismatched brackets", "foo(1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Read([]byte(tt.src)); err == nil {
				t.Errorf("Read(%q) succeeded, want an error", tt.src)
			}
		})
	}
}

// TestReadNeverPanics feeds truncated prefixes of a real-looking file.
func TestReadNeverPanics(t *testing.T) {
	src := `Puppet::Type.newtype(:x) do
  ensurable
  newparam(:name, :namevar => true) { desc %q{a} }
  def self.title_patterns
    [ [ %r{^(.*)$}m, [ [:name] ] ] ]
  end
  x = y ? :a : :b
  w = ?c
  v = $stdout
end`
	for i := range len(src) {
		_, _ = Read([]byte(src[:i]))
	}
}

func TestRubyRegexpToGo(t *testing.T) {
	tests := []struct {
		src, flags, want string
		wantErr          bool
	}{
		{`^(/|.+:/|.*[^/])/*\Z`, "m", `(?ms)^(/|.+:/|.*[^/])/*(?:\n?\z)`, false},
		{`^a\/b$`, "", `(?m)^a/b$`, false},
		{`\h+`, "i", `(?mi)[0-9a-fA-F]+`, false},
		{"a b # comment\n c", "x", `(?m)abc`, false},
		{`(?=x)`, "", "", true},
	}
	for _, tt := range tests {
		got, err := rubyRegexpToGo(tt.src, tt.flags)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("rubyRegexpToGo(%q, %q) = %q, %v; want %q (error %v)", tt.src, tt.flags, got, err, tt.want, tt.wantErr)
		}
	}
}

// installedTypeFiles lists lib/puppet/type/*.rb of the installed Debian
// puppet-module-* packages and of Puppet itself.
func installedTypeFiles(t *testing.T) []string {
	var files []string
	if out, err := exec.Command("sh", "-c", `dpkg-query -W -f '${Package}\n' 'puppet-module-*' 2>/dev/null | xargs -r dpkg -L 2>/dev/null`).Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "/lib/puppet/type/") && strings.HasSuffix(line, ".rb") &&
				filepath.Base(filepath.Dir(line)) == "type" {
				files = append(files, line)
			}
		}
	}
	builtin, _ := filepath.Glob("/usr/lib/ruby/vendor_ruby/puppet/type/*.rb")
	return append(files, builtin...)
}

func TestReadInstalledTypeFiles(t *testing.T) {
	files := installedTypeFiles(t)
	if len(files) == 0 {
		t.Skip("no Puppet type files installed")
	}
	for _, f := range files {
		d, err := ReadTypeFile(f, filepath.Dir(f))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if d == nil {
			t.Errorf("%s: no type found", f)
			continue
		}
		if want := strings.TrimSuffix(filepath.Base(f), ".rb"); d.Name != want {
			t.Errorf("%s: type %q, want %q", f, d.Name, want)
		}
		for _, p := range d.Problems {
			t.Logf("%s: %s", f, p)
		}
		if d.TitlePatternsUnknown != "" {
			t.Logf("%s: title patterns unknown: %s", f, d.TitlePatternsUnknown)
		}
	}
	if _, err := os.Stat("/usr/lib/ruby/vendor_ruby/puppet/type.rb"); err == nil {
		src, _ := os.ReadFile("/usr/lib/ruby/vendor_ruby/puppet/type.rb")
		res, err := Read(src)
		if err != nil {
			t.Errorf("type.rb: %v", err)
		} else if len(res.Metaparameters) == 0 {
			t.Errorf("type.rb: no metaparameters")
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("Puppet::Type.newtype(:x) do\n  newparam(:name) { isnamevar }\nend\n"))
	f.Add([]byte("x = <<-EOT\n  a\n  EOT\n%r{a}m /b/i ?c :d 'e' \"#{f}\" =begin\n=end\n"))
	f.Add([]byte("def self.title_patterns\n [ [ /(.*)/m, [ [:name] ] ] ]\nend\n[:a].each do |p| newparam(p) end"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = Read(src)
		runtime.ReadMemStats(&after)
		// The reader is linear in its input.
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20+4096*uint64(len(src)) {
			t.Fatalf("reading %d bytes allocated %d MiB", len(src), n>>20)
		}
	})
}

// TestResourceAPIType reads a type declared with the Resource API: its
// attributes' behaviours decide parameters, namevars and properties, and
// named captures of title patterns name the attributes they set.
func TestResourceAPIType(t *testing.T) {
	src := `require 'puppet/resource_api'

Puppet::ResourceApi.register_type(
  name: 'widget',
  docs: <<-EOS,
    A widget, with a } and a #{interpolation} in its docs.
  EOS
  title_patterns: [
    { pattern: %r{^(?<name>.*[^-])-(?<owner>.*)$}, desc: 'name-owner' },
    { pattern: %r{^(?<name>.*)$}, desc: 'name only' },
  ],
  features: ['simple_get_filter'],
  attributes: {
    ensure:  { type: 'Enum[present, absent]', default: 'present' },
    name:    { type: 'String', behaviour: :namevar },
    owner:   { type: 'String', behaviour: :namevar, default: 'root' },
    size:    { type: 'Integer', desc: 'a property' },
    :force => { type: 'Boolean', behaviour: :parameter },
    created: { type: 'String', behaviour: :read_only },
  },
)
`
	res, err := Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Types) != 1 {
		t.Fatalf("types = %d, want 1", len(res.Types))
	}
	d := res.Types[0]
	check := func(what string, got, want []string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	if d.Name != "widget" || d.Extension {
		t.Errorf("name %q extension %v", d.Name, d.Extension)
	}
	check("parameters", d.Parameters, []string{"name", "owner", "force"})
	check("namevars", d.Namevars, []string{"name", "owner"})
	check("properties", d.Properties, []string{"ensure", "size", "created"})
	if len(d.TitlePatterns) != 2 || d.TitlePatternsUnknown != "" {
		t.Fatalf("title patterns %v (%s)", d.TitlePatterns, d.TitlePatternsUnknown)
	}
	check("first pattern's attributes", d.TitlePatterns[0].Attributes, []string{"name", "owner"})
	check("second pattern's attributes", d.TitlePatterns[1].Attributes, []string{"name"})
}
