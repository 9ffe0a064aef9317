package ruby

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestMethodTablesNameRubyMethods checks that every method in the core
// classes' tables is one Ruby 3.1 has (rubymethods.go), so that a typo in a
// table cannot make a misspelt method work.
func TestMethodTablesNameRubyMethods(t *testing.T) {
	m := builtinMethods()
	tables := map[string][]string{
		"NilClass":   keys(m.nilClass),
		"TrueClass":  keys(m.boolean),
		"FalseClass": keys(m.boolean),
		"Symbol":     keys(m.symbol),
		"Integer":    keys(m.integer),
		"Float":      keys(m.float),
		"String":     keys(m.str),
		"Regexp":     keys(m.regexp),
		"MatchData":  keys(m.matchData),
		"Array":      keys(m.array),
		"Hash":       keys(m.hash),
		"Range":      keys(m.rng),
		"Object":     keys(m.object),
	}
	for class, names := range tables {
		if len(names) == 0 {
			t.Errorf("%s: empty method table", class)
		}
		for _, n := range names {
			if !rubyHasMethod(class, n) {
				t.Errorf("%s#%s is in the table but not a Ruby method", class, n)
			}
		}
	}
}

func keys[T any](t methodTable[T]) []string {
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestClassTableNamesRubyMethods asks real Ruby whether every class method
// in the class table exists, and checks its class is a constant code can
// name, so that the table holds no misspelt or unreachable entry.
func TestClassTableNamesRubyMethods(t *testing.T) {
	table := builtinMethods().class
	var script strings.Builder
	script.WriteString("%w[json digest base64 openssl shellwords zlib ipaddr cgi yaml uri].each { |l| require l }\n")
	names := make([]string, 0, len(table))
	for k := range table {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		class, name, _ := strings.Cut(k, ".")
		if !knownConstants[class] {
			t.Errorf("%s: %s is not a known constant", k, class)
		}
		if class == "Puppet" || strings.HasPrefix(class, "Puppet::") {
			continue // Puppet's, not Ruby's: the conformance cases check them
		}
		fmt.Fprintf(&script, "puts %q unless %s.respond_to?(%q)\n", k, class, name)
	}
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("ruby not found")
	}
	out, err := exec.Command(ruby, "-e", script.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("ruby: %v\n%s", err, out)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("not Ruby class methods: %s", strings.ReplaceAll(s, "\n", ", "))
	}
}
