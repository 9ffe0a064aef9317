package compiler

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/value"
)

// TestFactReads: a compile records the facts it reads by each way code
// reads them (readset's Fact and AllFacts), and no others.
func TestFactReads(t *testing.T) {
	facts := value.NewHash(
		value.String("fqdn"), value.String("web01.example.com"),
		value.String("hostname"), value.String("web01"),
		value.String("osfamily"), value.String("Debian"),
		value.String("uptime"), value.String("3 days"),
		value.String("os"), value.NewHash(value.String("family"), value.String("Debian")),
		value.String("networking"), value.NewHash(value.String("fqdn"), value.String("web01.example.com")),
		value.String("clientcert"), value.String("web01.example.com"),
	)
	for _, tt := range []struct {
		name string
		code string
		// want are facts the record must name; all whether it says every
		// fact was read.
		want []string
		all  bool
	}{
		{"legacy variable", `notify { $osfamily: }`, []string{"osfamily"}, false},
		{"top-scope variable", `class x { notify { $::hostname: } } include x`, []string{"hostname"}, false},
		{"missing variable", `notify { "${nosuchfact}x": }`, []string{"nosuchfact"}, false},
		{"top-scope assignment", `$mine = 1 notify { 'x': }`, []string{"mine"}, false},
		{"facts literal key", `notify { $facts['os']['family']: }`, []string{"os"}, false},
		{"facts computed key", `$k = 'host' notify { $facts["${k}name"]: }`, []string{"hostname"}, false},
		{"facts absent key", `notify { "${facts['nosuch']}x": }`, []string{"nosuch"}, false},
		{"facts as a whole", `notify { "${facts}": }`, nil, true},
		{"a key in facts", `if 'Hostname' in $facts { notify { 'x': } }`, []string{"\x00fold:hostname"}, false},
		{"a regexp in facts", `if /host/ in $facts { notify { 'x': } }`, nil, true},
		{"facts iterated", `$facts.each |$k, $v| { }`, nil, true},
		{"facts passed on", `notify { String(size($facts)): }`, nil, true},
		{"template variable", `notify { inline_template('<%= @fqdn %>'): }`, []string{"fqdn"}, false},
		{"template scope lookupvar", `notify { inline_template('<%= scope.lookupvar("::osfamily") %>'): }`, []string{"osfamily"}, false},
		{"template facts key", `notify { inline_template('<%= @facts["os"]["family"] %><%= @facts["os"]["family"] %>'): }`, []string{"os"}, false},
		{"template facts whole", `notify { inline_template('<%= @facts.size %>'): }`, nil, true},
		{"template facts key after whole", `notify { inline_template('<%= @facts.size %><%= @facts["os"] %>'): }`, nil, true},
		{"template scope facts key", `notify { inline_template("<%= scope['facts']['os']['family'] %><%= scope.lookupvar('facts')['hostname'] %>"): }`, []string{"os", "hostname"}, false},
		{"template scope facts whole", `notify { inline_template("<%= scope['facts'].size %>"): }`, nil, true},
		{"template instance_variables", `notify { inline_template('<%= instance_variables.size > 3 %>'): }`, []string{"\x00names"}, false},
		{"template to_hash", `notify { inline_template('<%= scope.to_hash.size %>'): }`, nil, true},
		{"epp variable", `notify { inline_epp('<%= $facts["hostname"] %>'): }`, []string{"hostname"}, false},
		{"getvar", `notify { "${getvar('hostname')}": }`, []string{"hostname"}, false},
		{"clientcert for trusted", `notify { 'x': }`, []string{"clientcert"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"site.pp": tt.code + "\n"})
			env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp")})
			if err != nil {
				t.Fatal(err)
			}
			reads := readset.New()
			if _, err := compileCatalog(env, &Request{Node: "web01.example.com", Facts: facts, Reads: reads}); err != nil {
				t.Fatal(err)
			}
			names, all := reads.FactReads()
			if all != tt.all {
				t.Fatalf("all facts read = %v, want %v (names %v)", all, tt.all, names)
			}
			for _, w := range tt.want {
				if !slices.Contains(names, w) {
					t.Errorf("the record %v lacks %s", names, w)
				}
			}
			if !all && slices.Contains(names, "uptime") {
				t.Errorf("the record %v names uptime, which nothing read", names)
			}
		})
	}
}

// TestFactReadsOfHiera: Hiera's interpolation of facts.os.family in the
// hierarchy and in data reads the fact os, ::fqdn the fact fqdn.
func TestFactReadsOfHiera(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp": "notify { lookup('k'): }\n",
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n" +
			"  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "k: \"%{::fqdn}-%{facts.networking.fqdn}\"\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		Hiera: environment.HieraOptions{EnvironmentDir: dir}})
	if err != nil {
		t.Fatal(err)
	}
	facts := value.NewHash(
		value.String("fqdn"), value.String("web01.example.com"),
		value.String("uptime"), value.String("3 days"),
		value.String("os"), value.NewHash(value.String("family"), value.String("Debian")),
		value.String("networking"), value.NewHash(value.String("fqdn"), value.String("web01.example.com")),
	)
	reads := readset.New()
	cat, err := compileCatalog(env, &Request{Node: "web01.example.com", Facts: facts, Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	if cat.Lookup(refOf("Notify", "web01.example.com-web01.example.com")) == nil {
		t.Fatalf("resources: %v", titlesIn(cat.Resources))
	}
	names, all := reads.FactReads()
	if all {
		t.Fatal("every fact read")
	}
	for _, w := range []string{"os", "fqdn", "networking"} {
		if !slices.Contains(names, w) {
			t.Errorf("the record %v lacks %s", names, w)
		}
	}
	if slices.Contains(names, "uptime") {
		t.Errorf("the record %v names uptime", names)
	}
}
