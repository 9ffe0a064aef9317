package hiera

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestTopLevelLookupsKeepNoReads checks that a class parameter's lookup,
// whose answer is never cached (its scope sets $module_name), collects
// none of the scope reads below it: every layer's hierarchy reads were
// appended to a list nobody kept, an allocation per layer and lookup. A
// cached answer still keeps its reads: a changed variable misses it.
func TestTopLevelLookupsKeepNoReads(t *testing.T) {
	hierarchy := "version: 5\nhierarchy:\n" +
		"  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
		"  - name: os\n    path: \"os/%{facts.os.family}/%{facts.os.release.major}.yaml\"\n" +
		"  - name: role\n    path: \"roles/%{role}.yaml\"\n" +
		"  - name: dc\n    path: \"dc/%{dc}.yaml\"\n" +
		"  - name: many\n    paths: [\"%{v1}\", \"%{v2}\", \"%{v3}\", \"%{v4}\", \"%{v5}\", \"%{v6}\", \"%{v7}\", \"%{v8}\"]\n" +
		"  - name: common\n    path: common.yaml\n"
	dir := writeTree(t, map[string]string{
		"global/hiera.yaml":       hierarchy,
		"global/data/common.yaml": "g: 1\n",
		"env/hiera.yaml":          hierarchy,
		"env/data/common.yaml":    "cls::p: 2\nk: '%{role}'\n",
	})
	os := value.NewHash(value.String("family"), value.String("Debian"),
		value.String("release"), value.NewHash(value.String("major"), value.String("12")))
	sc := mapScope{
		"trusted": value.NewHash(value.String("certname"), value.String("n1")),
		"facts":   value.NewHash(value.String("os"), os),
		"role":    value.String("web"),
		"dc":      value.String("x"),
	}
	for _, v := range []string{"v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"} {
		sc[v] = value.String(v)
	}
	s := NewSession(Options{GlobalConfig: filepath.Join(dir, "global", "hiera.yaml"), EnvironmentDir: filepath.Join(dir, "env")}, sc)
	if v, found, err := s.LookupParam("cls", "p"); err != nil || !found || v != value.Integer(2) {
		t.Fatalf("LookupParam = %v, %v, %v", v, found, err)
	}
	// Bytes, not objects: the reads lists grow by whole layers.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 50
	for range n {
		s.LookupParam("cls", "p")
	}
	runtime.ReadMemStats(&after)
	perLookup := (after.TotalAlloc - before.TotalAlloc) / n
	if perLookup > 1000 {
		t.Errorf("a repeated class parameter lookup allocates %d bytes, want at most 1000 (no scope reads collected)", perLookup)
	}

	// A cached answer (lookup()) is checked against what it read.
	if v, err := s.Lookup(Request{Keys: []string{"k"}}); err != nil || v != value.String("web") {
		t.Fatalf("lookup k = %v, %v", v, err)
	}
	sc["role"] = value.String("db")
	if v, err := s.Lookup(Request{Keys: []string{"k"}}); err != nil || v != value.String("db") {
		t.Errorf("lookup k after $role changed = %v, %v; want db", v, err)
	}
}
