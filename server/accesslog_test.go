package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAccessLogLine: the access log line holds every field inline, as
// separate key=value pairs.
func TestAccessLogLine(t *testing.T) {
	var out bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&out, nil))}
	r := httptest.NewRequest("POST", "/puppet/v3/catalog/web01.example.com?environment=production", nil)
	rec := &recorder{bytes: 1234}
	s.logRequest(r, rec, &identity{certname: "web01.example.com", authenticated: true}, 200, 12345678*time.Nanosecond)
	line := out.String()
	for _, want := range []string{" level=INFO msg=request method=POST path=/puppet/v3/catalog/web01.example.com status=200 bytes=1234 duration_ms=12.345 remote=192.0.2.1:1234 certname=web01.example.com authenticated=true\n"} {
		if !strings.Contains(line, want) {
			t.Errorf("access log line %q, want it to hold %q", line, want)
		}
	}
}

// TestAccessLogAllocatesNothing: writing the access log line at INFO takes
// no allocation.
func TestAccessLogAllocatesNothing(t *testing.T) {
	if timeScale > 1 {
		// The race detector's sync.Pool drops a quarter of what is put
		// back: slog's buffers are then allocated anew now and then.
		t.Skip("allocations are not counted under the race detector")
	}
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	r := httptest.NewRequest("POST", "/puppet/v3/catalog/web01.example.com?environment=production", nil)
	rec := &recorder{bytes: 575349}
	id := &identity{certname: "web01.example.com", authenticated: true}
	if n := testing.AllocsPerRun(100, func() { s.logRequest(r, rec, id, 200, 3*time.Millisecond) }); n != 0 {
		t.Errorf("the access log line took %v allocations, want 0", n)
	}
}
