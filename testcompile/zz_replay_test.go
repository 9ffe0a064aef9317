package testcompile

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"
)

func BenchmarkZZReplay(b *testing.B) {
	data, err := os.ReadFile(os.Getenv("REPLAY"))
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	s := New(dir)
	s.Serve(context.Background(), bytes.NewReader(data), io.Discard)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Serve(context.Background(), bytes.NewReader(data), io.Discard)
	}
}
