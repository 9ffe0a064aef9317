package compiler

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// TestSizeHintsKeepCatalogs: a compile records its table sizes on the
// environment (environment.CompileSizes) and the next compile starts with
// tables that big, and with the string literals boxed before
// (Environment.Literals). Nodes whose catalogs differ in size, compiled one after
// the other on one environment, get exactly the catalogs a fresh
// environment gives them.
func TestSizeHintsKeepCatalogs(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"manifests/site.pp": `
File { mode => '0644' }
$n = Integer($facts['count'])
$n.each |$i| {
  file { "/tmp/f${i}": ensure => file, content => "${i} of ${n}" }
  wrap { "w${i}": i => $i }
}
define wrap(Integer $i) { notify { "${title}-${i}": } }
class extra { notify { 'extra': } }
if $n > 50 { include extra }
`})
	load := func() *Environment {
		env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "manifests")})
		if err != nil {
			t.Fatal(err)
		}
		return env
	}
	compile := func(env *Environment, count int) []byte {
		facts := value.NewHash(value.String("count"), value.String(itoa(count)))
		cat, err := compileCatalog(env, &Request{Node: "n.example.com", Facts: facts, Now: time.Unix(1700000000, 0)})
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
	shared := load()
	for _, count := range []int{200, 3, 120, 0, 200} {
		got := compile(shared, count)
		if want := compile(load(), count); !bytes.Equal(got, want) {
			t.Errorf("count %d: the catalog after other compiles differs from a fresh environment's:\n%s\nwant\n%s", count, got, want)
		}
		// 2 resources and a scope per i, besides Class[main] and the like.
		if r, s := int(shared.Sizes.Resources.Load()), int(shared.Sizes.Scopes.Load()); r < 2*count || s < count {
			t.Errorf("count %d: sizes recorded: %d resources, %d scopes", count, r, s)
		}
		// The literals boxed are kept for the next compile, which boxes
		// none of them again.
		if n := len(shared.Literals()); n == 0 {
			t.Errorf("count %d: %d boxed literals kept", count, n)
		}
	}
}
