package ruby

import (
	"sort"
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
