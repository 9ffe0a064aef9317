package enc

import (
	"runtime"
	"testing"
)

// FuzzParse checks that no classifier output makes Parse panic, hang or
// allocate more than a bound linear in its size.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"classes:\n  - common\n", "classes:\n  ntp:\n    servers: [a, b]\n  common:\n",
		"parameters:\n  role: web\nenvironment: staging\n", "- common\n", "42\n", "classes: &a [*a]\n",
		"classes: []\na: &a [x,x,x]\nb: &b [*a,*a,*a]\nc: [*b,*b,*b]\n", "--- !ruby/object:Puppet::Node\nclasses: []\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := Parse([]byte(s), "web01.example.com", "enc.sh")
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20+4096*uint64(len(s)) {
			t.Fatalf("parsing %d bytes allocated %d MiB", len(s), n>>20)
		}
		if (r == nil) == (err == nil) {
			t.Fatalf("Parse(%q) = %v, %v: want a result or an error", s, r, err)
		}
	})
}
