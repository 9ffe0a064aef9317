package puppetdb

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSubmitKeepsConnections: 8 goroutines submitting 400 commands over
// TLS reuse their connections (Go's default transport keeps 2 idle per
// host and opened about one connection for every two commands).
func TestSubmitKeepsConnections(t *testing.T) {
	c, conns, stop := tlsStandIn(t)
	defer stop()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := c.SubmitCommand(context.Background(), ReplaceFacts, ReplaceFactsVersion, "n", []byte(`{"certname":"n"}`)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := conns.Load(); n > 16 {
		t.Errorf("%d connections for 400 commands from 8 goroutines", n)
	}
}

// tlsStandIn is a client of an HTTPS PuppetDB stand-in that accepts
// every command, and the count of connections the stand-in accepted.
func tlsStandIn(tb testing.TB) (*Client, *atomic.Int64, func()) {
	conns := &atomic.Int64{}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte(`{"uuid":"x"}`))
	}))
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.StartTLS()
	hc := ts.Client()
	hc.Transport.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	c, err := NewURL(ts.URL, Options{HTTPClient: hc})
	if err != nil {
		tb.Fatal(err)
	}
	return c, conns, ts.Close
}

// BenchmarkSubmitTLS submits commands from 8 goroutines at once to an
// HTTPS PuppetDB stand-in (as serve's requests and queue workers do) and
// reports the TLS connections opened per command: a client that keeps
// too few idle connections opens (and handshakes) one per command.
func BenchmarkSubmitTLS(b *testing.B) {
	c, conns, stop := tlsStandIn(b)
	defer stop()
	payload := []byte(`{"certname":"n","resources":[` + strings.Repeat(`{"type":"File","title":"/etc/x","parameters":{"content":"abcdefghijklmnopqrstuvwxyz"}},`, 400) + `{}]}`)
	b.SetParallelism(4) // 4 × GOMAXPROCS goroutines
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.SubmitCommand(context.Background(), ReplaceCatalog, ReplaceCatalogVersion, "n", payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(conns.Load())/float64(b.N), "conns/op")
}
