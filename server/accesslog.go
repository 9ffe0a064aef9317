package server

import (
	"log/slog"
	"net/http"
	"time"
)

// logRequest writes the access log line of a request at INFO: method,
// path, status, bytes, duration_ms, remote, certname, authenticated.
//
// It allocates nothing (a request's own allocations are a server's main
// cost besides the compile): the fields live in the request's recorder and
// reach the handler as one group without a key, which handlers write
// inline as if given one by one (more than five separate fields would be
// copied to a new slice by slog.Record), and the duration is a number of
// milliseconds (slog formats a time.Duration through its String method,
// which allocates).
func (s *Server) logRequest(r *http.Request, rec *recorder, id *identity, status int, d time.Duration) {
	ctx := r.Context()
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	a := &rec.attrs
	a[0] = slog.String("method", r.Method)
	a[1] = slog.String("path", r.URL.Path)
	a[2] = slog.Int("status", status)
	a[3] = slog.Int64("bytes", rec.bytes)
	a[4] = slog.Float64("duration_ms", float64(d.Microseconds())/1000)
	a[5] = slog.String("remote", r.RemoteAddr)
	a[6] = slog.String("certname", id.certname)
	a[7] = slog.Bool("authenticated", id.authenticated)
	s.log.LogAttrs(ctx, slog.LevelInfo, "request", slog.Attr{Value: slog.GroupValue(a[:]...)})
}
