package server

import (
	"net/http"
	"net/http/pprof"
	"strings"
)

// pprofPrefix is where Go's profiles are served (net/http/pprof's paths,
// which `go tool pprof https://server:8140/debug/pprof/profile` expects).
const pprofPrefix = "/debug/pprof/"

// servePprof serves Go's runtime profiles (CPU, heap, allocations,
// goroutines, execution trace) when Config.Pprof turned them on. Only
// admins reach it (the marionette pprof rule: pp_cli_auth or
// --admin-certnames): a profile shows what the server is doing, and a CPU
// profile or trace costs the server while it runs.
func (s *Server) servePprof(w http.ResponseWriter, r *http.Request) error {
	if !s.cfg.Pprof {
		return notFound(issueHandlerNotFound, "profiling is off: start marionette serve with --pprof to serve %s", pprofPrefix)
	}
	switch name := strings.TrimPrefix(r.URL.Path, pprofPrefix); name {
	case "cmdline":
		pprof.Cmdline(w, r)
	case "profile":
		pprof.Profile(w, r)
	case "symbol":
		pprof.Symbol(w, r)
	case "trace":
		pprof.Trace(w, r)
	default: // the index, and the named profiles (heap, allocs, goroutine, ...)
		pprof.Index(w, r)
	}
	return nil
}
