package site_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/marionette-dev/marionette/conformance"
)

// BenchmarkColdCompileForge is one `marionette compile` process of a forge
// conformance case without the process: settings, facts, a fresh
// environment over the 69 Forge modules (module index, autoloaded
// manifests, module types, Ruby functions and templates, Hiera), the
// compile and the JSON. Nothing is reused between iterations. The cases
// are those of scripts/bench-forge that take longest.
func BenchmarkColdCompileForge(b *testing.B) {
	for _, id := range []string{"forge/zabbix-server-pgsql", "forge/zabbix-server-mysql-rhel9", "forge/apache-vhost-ssl"} {
		dir := filepath.Join("..", "testdata", "conformance", filepath.FromSlash(id))
		c, err := conformance.ReadCase(dir, id)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, conformance.ModulesDir, "apache")); err != nil {
			b.Skipf("no Forge modules: %v", err)
		}
		b.Run(filepath.Base(id), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o, err := c.CompileOptions()
				if err != nil {
					b.Fatal(err)
				}
				if code := o.Run(context.Background(), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
