package validate

import (
	"os"
	"testing"

	"github.com/marionette-dev/marionette/syntax"
)

// BenchmarkValidateCorpus validates every parsed corpus manifest Puppet
// accepts (parsing is outside the timed loop) and reports MB/s of source.
func BenchmarkValidateCorpus(b *testing.B) {
	t := &testing.T{}
	var progs []*syntax.Program
	size := 0
	for _, v := range readVerdicts(t) {
		if !v.ok {
			continue
		}
		src, err := os.ReadFile(v.path)
		if err != nil {
			b.Skipf("corpus not installed: %v", err)
		}
		prog, err := syntax.ParseFile(v.path, src)
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, prog)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range progs {
			Program(p)
		}
	}
}
