package server

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Compile outcomes, the result label of marionette_compiles_total.
const (
	compileOK      = "success"
	compileFailed  = "error"   // the catalog did not compile (Puppet's error)
	compileTimeout = "timeout" // past CompileTimeout, or the client left
	compileBusy    = "busy"    // turned away with 503: queue full
	compilePanic   = "panic"   // an internal error, answered 500
)

// durationBuckets are the upper bounds (seconds) of the compile time
// histogram: from a small catalog's milliseconds to a pathological minute.
func durationBuckets() []float64 {
	return []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
}

// metrics are the server's counters, served at /metrics in Prometheus'
// text format. Labels come from fixed sets (methods, status codes, compile
// outcomes), so their number stays bounded whatever clients send.
type metrics struct {
	inFlight atomic.Int64 // requests being served
	flushes  atomic.Int64 // environment cache flushes

	mu       sync.Mutex
	requests map[requestKey]int64
	compiles map[string]int64
	// buckets[i] counts compiles of at most bounds[i] seconds, the last
	// the rest (not cumulative; made cumulative when written).
	bounds  []float64
	buckets []int64
	sum     float64
	count   int64
}

type requestKey struct {
	method string
	code   int
}

func newMetrics() *metrics {
	b := durationBuckets()
	return &metrics{requests: make(map[requestKey]int64), compiles: make(map[string]int64), bounds: b, buckets: make([]int64, len(b)+1)}
}

// request counts one answered request.
func (m *metrics) request(method string, code int) {
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead:
	default:
		method = "OTHER"
	}
	if code < 100 || code > 599 {
		code = 0
	}
	m.mu.Lock()
	m.requests[requestKey{method, code}]++
	m.mu.Unlock()
}

// compile counts one compile's outcome; d is its time in a compile slot,
// observed for compiles that ran (not those turned away).
func (m *metrics) compile(result string, d time.Duration, ran bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.compiles[result]++
	if !ran {
		return
	}
	sec := d.Seconds()
	i := sort.SearchFloat64s(m.bounds, sec)
	m.buckets[i]++
	m.sum += sec
	m.count++
}

// serveMetrics writes every metric in Prometheus' text exposition format
// (version 0.0.4).
func (s *Server) serveMetrics(w http.ResponseWriter) error {
	m := s.metrics
	var b strings.Builder
	family := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	gauge := func(name, help string, v float64) {
		family(name, "gauge", help)
		fmt.Fprintf(&b, "%s %s\n", name, formatFloat(v))
	}

	m.mu.Lock()
	reqKeys := make([]requestKey, 0, len(m.requests))
	for k := range m.requests {
		reqKeys = append(reqKeys, k)
	}
	sort.Slice(reqKeys, func(i, j int) bool {
		if reqKeys[i].method != reqKeys[j].method {
			return reqKeys[i].method < reqKeys[j].method
		}
		return reqKeys[i].code < reqKeys[j].code
	})
	family("marionette_http_requests_total", "counter", "HTTP requests answered, by method and status code.")
	for _, k := range reqKeys {
		fmt.Fprintf(&b, "marionette_http_requests_total{method=%q,code=\"%d\"} %d\n", k.method, k.code, m.requests[k])
	}
	family("marionette_compiles_total", "counter", "Catalog compiles by result: success, error (the catalog failed to compile), timeout, busy (503, queue full), panic.")
	for _, r := range []string{compileOK, compileFailed, compileTimeout, compileBusy, compilePanic} {
		fmt.Fprintf(&b, "marionette_compiles_total{result=%q} %d\n", r, m.compiles[r])
	}
	family("marionette_compile_duration_seconds", "histogram", "Time of a catalog compile in its compile slot, queueing excluded.")
	var cum int64
	for i, le := range m.bounds {
		cum += m.buckets[i]
		fmt.Fprintf(&b, "marionette_compile_duration_seconds_bucket{le=%q} %d\n", formatFloat(le), cum)
	}
	cum += m.buckets[len(m.bounds)]
	fmt.Fprintf(&b, "marionette_compile_duration_seconds_bucket{le=\"+Inf\"} %d\n", cum)
	fmt.Fprintf(&b, "marionette_compile_duration_seconds_sum %s\n", formatFloat(m.sum))
	fmt.Fprintf(&b, "marionette_compile_duration_seconds_count %d\n", m.count)
	m.mu.Unlock()

	if c := s.reuse; c != nil {
		hits, misses, notKept := c.stats()
		family("marionette_catalog_reuse_total", "counter", "Catalog requests by reuse: hit (the node's kept catalog answered), miss (compiled), not_kept (compiled, and the catalog not kept: it read what cannot be followed).")
		fmt.Fprintf(&b, "marionette_catalog_reuse_total{result=\"hit\"} %d\n", hits)
		fmt.Fprintf(&b, "marionette_catalog_reuse_total{result=\"miss\"} %d\n", misses)
		fmt.Fprintf(&b, "marionette_catalog_reuse_total{result=\"not_kept\"} %d\n", notKept)
		gauge("marionette_catalog_reuse_bytes", "Bytes of the catalogs kept for reuse (--reuse-bytes bounds them).", float64(c.bytes()))
	}
	gauge("marionette_compiles_in_flight", "Catalog compiles running now.", float64(len(s.limit.slots)))
	gauge("marionette_compile_queue_depth", "Catalog compiles waiting for a compile slot.", float64(s.limit.waiting.Load()))
	gauge("marionette_compile_slots", "Catalog compiles that may run at once (--max-compiles).", float64(cap(s.limit.slots)))
	gauge("marionette_compile_queue_limit", "Compiles that may wait before the server answers 503 (--max-queued).", float64(s.limit.maxQueue))
	gauge("marionette_puppetdb_queue_depth", "PuppetDB commands queued for submission (soft_write_failure, store report).", float64(s.pdb.depth()))
	gauge("marionette_http_requests_in_flight", "HTTP requests being served now.", float64(m.inFlight.Load()))
	family("marionette_environment_cache_flushes_total", "counter", "Environment cache flushes (admin API, SIGHUP).")
	fmt.Fprintf(&b, "marionette_environment_cache_flushes_total %d\n", m.flushes.Load())
	gauge("process_start_time_seconds", "Start time of the server since the Unix epoch.", float64(s.start.UnixNano())/1e9)
	if rss, ok := residentBytes(); ok {
		gauge("process_resident_memory_bytes", "Resident memory size.", float64(rss))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gauge("go_goroutines", "Goroutines that currently exist.", float64(runtime.NumGoroutine()))
	gauge("go_memstats_heap_alloc_bytes", "Heap bytes allocated and in use.", float64(ms.HeapAlloc))
	gauge("go_memstats_sys_bytes", "Bytes obtained from the system.", float64(ms.Sys))
	family("go_gc_cycles_total", "counter", "Completed GC cycles.")
	fmt.Fprintf(&b, "go_gc_cycles_total %d\n", ms.NumGC)

	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
	return nil
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// residentBytes is the process's resident set size from /proc (Linux);
// ok is false elsewhere.
func residentBytes() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}
