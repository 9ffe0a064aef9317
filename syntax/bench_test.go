package syntax

import (
	"os"
	"testing"
)

// BenchmarkParseCorpus parses every corpus manifest once per iteration and
// reports the throughput in MB/s.
func BenchmarkParseCorpus(b *testing.B) {
	files := corpusFiles(b)
	srcs := make([][]byte, len(files))
	size := 0
	for i, cf := range files {
		src, err := os.ReadFile(cf.path)
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			ParseFile(files[j].path, src)
		}
	}
}
