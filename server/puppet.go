package server

import (
	"bytes"
	"compress/gzip"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/atomicfile"
	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/node"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// parseFacts decodes a facts object of a request (site.DecodeFacts); raw
// is it compacted, as stored. Facts that do not decode are a bad request.
func parseFacts(data []byte, certname string) (facts *value.Hash, raw []byte, err error) {
	facts, raw, err = site.DecodeFacts(data, certname)
	if err != nil {
		return nil, nil, badRequest("%s", err.Error())
	}
	return facts, raw, nil
}

// saveFacts stores a node's facts as puppetserver does, in
// $vardir/yaml/facts/<certname>.yaml, from the facts writer's goroutine:
// the request does not wait for the file system.
func (s *Server) saveFacts(certname string, raw []byte) error {
	data := make([]byte, 0, len(site.CachedFactsTag)+len(raw)+1)
	data = append(append(append(data, site.CachedFactsTag...), raw...), '\n')
	return s.factsOut.save(certname, data)
}

// writeFactsFile writes a node's facts cache file.
func (s *Server) writeFactsFile(certname string, data []byte) error {
	return writeFileAtomic(s.factsDir, certname+".yaml", data)
}

// cachedFacts reads the facts last stored for a node (those still queued
// written first); none is an empty hash.
func (s *Server) cachedFacts(certname string) *value.Hash {
	s.factsOut.sync(certname)
	facts, _ := s.site.Load().Facts(context.Background(), site.FactsSource{Kind: site.FactsCache}, certname)
	return facts
}

// writeFileAtomic writes dir/name through a temporary file, so that a
// reader never sees half a file; name is a validated certname.
func writeFileAtomic(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, name), 0o640, atomicfile.Bytes(data))
}

// requestFacts returns the facts a catalog request carries (form fields
// facts_format and facts, URL-encoded once more), and saves them; without
// facts, the node's stored facts. Facts sent as agents send them (compact
// JSON naming the node) are checked and saved without being decoded
// (wireFacts): a compile decodes them, a reused catalog never does.
func (s *Server) requestFacts(r *http.Request, certname string) (*catalogFacts, error) {
	text := r.Form.Get("facts")
	if text == "" {
		if facts, ok, err := s.lookupFacts(r.Context(), certname); ok {
			return &catalogFacts{hash: facts}, err
		}
		return &catalogFacts{hash: s.cachedFacts(certname)}, nil
	}
	switch format := r.Form.Get("facts_format"); format {
	case "application/json", "pson":
	case "":
		return nil, badRequest("Facts but no fact format provided for %s", certname)
	default:
		return nil, badRequest("Unsupported facts format")
	}
	// Unescaped after the facts cache's tag, so that the file's bytes
	// need no copy of their own.
	file := make([]byte, 0, len(site.CachedFactsTag)+len(text)+1)
	file, ok := appendUnescape(append(file, site.CachedFactsTag...), text)
	if !ok {
		_, err := url.QueryUnescape(text)
		return nil, badRequest("Could not intern from json: %v", err)
	}
	data := file[len(site.CachedFactsTag):]
	if wf, ok := scanWireFacts(data, certname); ok {
		if err := s.factsOut.save(certname, append(file, '\n')); err != nil {
			return nil, err
		}
		return &catalogFacts{wire: wf}, nil
	}
	facts, raw, err := parseFacts(data, certname)
	if err != nil {
		return nil, err
	}
	if err := s.saveFacts(certname, raw); err != nil {
		return nil, err
	}
	return &catalogFacts{hash: facts}, nil
}

// trustedInfo is $trusted for a request from id.
func trustedInfo(id *identity) *compiler.TrustedInfo {
	if !id.authenticated {
		return &compiler.TrustedInfo{}
	}
	return &compiler.TrustedInfo{Authenticated: "remote", Certname: id.certname, Extensions: id.trustedExtensions()}
}

// classify classifies a node whose agent asked for environment env.
func classify(ctx context.Context, st *site.Site, certname, env string) (*node.Node, error) {
	n, err := st.ClassifyIn(ctx, certname, env)
	if err != nil {
		return nil, serverError(fmt.Sprintf("Failed when searching for node %s: %v", certname, err))
	}
	return n, nil
}

// loadEnvironment loads the classified node's environment.
func loadEnvironment(ctx context.Context, st *site.Site, n *node.Node) (*compiler.Environment, error) {
	env, err := st.Loader().Get(ctx, n.Environment)
	if err != nil {
		var nf *environment.NotFoundError
		if errors.As(err, &nf) {
			return nil, serverError(fmt.Sprintf("Failed when searching for node %s: %v", n.Name, err))
		}
		return nil, serverError(err.Error())
	}
	return env, nil
}

// catalog compiles a node's catalog (GET query or POST form), as Puppet's
// compiler terminus does.
func (s *Server) catalog(w http.ResponseWriter, r *http.Request, id *identity, certname, envName string) error {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CompileTimeout)
	defer cancel()
	if err := s.refuseWhenFull(); err != nil {
		return err
	}
	facts, err := s.requestFacts(r, certname)
	if err != nil {
		return err
	}
	st := s.site.Load()
	n, err := classify(ctx, st, certname, envName)
	if err != nil {
		return err
	}
	if truthy(r.Form.Get("check_environment")) && n.Environment != envName {
		// The classifier put the node elsewhere: an empty catalog in that
		// environment makes the agent switch and ask again.
		s.log.Info("node classified into another environment", "node", certname, "requested", envName, "environment", n.Environment)
		cat := catalog.New(certname, n.Environment)
		cat.UUID = newUUID()
		return writeCatalog(w, r, cat)
	}
	env, err := loadEnvironment(ctx, st, n)
	if err != nil {
		return err
	}
	// The facts' values are decoded when a compile needs them.
	req, err := st.Request(n, nil)
	if err != nil {
		return serverError(err.Error())
	}
	req.Trusted = trustedInfo(id)
	req.ServerFacts = s.serverFacts
	if err := s.addTrustedExternal(ctx, req.Trusted); err != nil {
		return err
	}
	if s.reuse != nil && s.pdb == nil {
		// (With PuppetDB every compile submits its catalog, and may
		// collect from it: no reuse.)
		if handled, err := s.catalogReusing(ctx, w, r, st, n.Environment, env, req, facts); handled {
			return err
		}
	}
	if req.Facts, err = facts.values(); err != nil {
		return err
	}
	factsStored := func() error { return nil }
	if s.pdb != nil {
		if r.Form.Get("facts") != "" {
			factsStored = s.storeFactsDuring(ctx, certname, n.Environment, req.Facts, req.Trusted)
		}
	}
	result, err := s.compile(ctx, env, req)
	// The facts' failure comes first, as when they are stored before the
	// compile.
	if ferr := factsStored(); ferr != nil {
		return ferr
	}
	if err != nil {
		return err
	}
	if err := s.setConfigVersion(ctx, st, n.Environment, result); err != nil {
		return err
	}
	if err := s.storeCatalog(ctx, env, result, r.Form.Get("transaction_uuid"), r.Form.Get("job_id")); err != nil {
		return err
	}
	return writeCatalog(w, r, result.Catalog)
}

// addTrustedExternal fills $trusted['external'] of an authenticated
// request from trusted_external_command, when it is set.
func (s *Server) addTrustedExternal(ctx context.Context, t *compiler.TrustedInfo) error {
	command := s.settings.Load().Get("trusted_external_command")
	if command == "" || t == nil || t.Authenticated == "" {
		return nil
	}
	ext, err := trustedExternal(ctx, command, t.Certname, s.commandTimeout())
	if err != nil {
		return serverError(err.Error())
	}
	t.External = ext
	return nil
}

// setConfigVersion makes the environment's config_version command's
// output the catalog's version, as Puppet does; a failing command fails
// the compile.
func (s *Server) setConfigVersion(ctx context.Context, st *site.Site, envName string, result *compiler.Result) error {
	v, err := s.configVersionOf(ctx, st, envName)
	if err != nil {
		return err
	}
	if v != "" {
		result.Catalog.ConfigVersion = v
	}
	return nil
}

// configVersionOf runs the environment's config_version command, when it
// has one, and returns its output ("" for none).
func (s *Server) configVersionOf(ctx context.Context, st *site.Site, envName string) (string, error) {
	l := st.Loader()
	if !l.Directories() {
		return "", nil
	}
	dir, err := l.Dir(envName)
	if err != nil {
		return "", nil
	}
	conf, err := l.Settings().ReadEnvironmentConf(dir, envName)
	if err != nil || conf.ConfigVersion == "" {
		return "", nil
	}
	v, err := configVersion(ctx, conf.ConfigVersion, dir, s.commandTimeout())
	if err != nil {
		return "", serverError(err.Error())
	}
	return v, nil
}

// writeCatalog answers a catalog, encoded straight to the connection
// (the encoder hands it over 32 KB at a time) and gzipped when that pays
// (compressCatalog). Ruby's Net::HTTP, which agents use, asks for gzip and
// inflates transparently, as it does for puppetserver's answers.
//
// Agents ask for rich data first (application/vnd.puppet.rich+json), and
// get it, as puppetserver answers them: Deferred values must reach the
// agent as Deferred, not as their string form.
func writeCatalog(w http.ResponseWriter, r *http.Request, cat *catalog.Catalog) error {
	contentType, write := "application/json", cat.WriteJSON
	if acceptsRichData(r) {
		contentType, write = richDataType, cat.WriteRichJSON
	}
	w.Header().Set("Content-Type", contentType)
	writeCompressed(w, r, compressCatalog(r, cat), write)
	return nil
}

// writeCompressed answers 200 with what write writes, through a pooled
// gzip compressor when gz. A write error is the client gone: nothing is
// left to answer.
func writeCompressed(w http.ResponseWriter, r *http.Request, gz bool, write func(io.Writer) error) {
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if !gz {
		_ = write(w)
		return
	}
	h.Set("Content-Encoding", "gzip")
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(w)
	_ = write(zw)
	_ = zw.Close()
	zw.Reset(io.Discard) // drop the reference to the connection while pooled
	gzipWriters.Put(zw)
}

// gzipWriters are the compressors of catalog answers: a compressor holds
// about a megabyte of tables, which allocating for every answer would cost
// more than the compression itself.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

// compressCatalog decides whether a catalog answer is gzipped: when the
// client accepts gzip and the catalog holds more than its main stage and
// classes (JSON under a kilobyte gains nothing). Measured on loopback
// (BenchmarkServeCatalogV3), gzip at its fastest level costs the server
// about as much CPU as the TLS records of the uncompressed answer would,
// and saves the client as much: it pays on any network.
func compressCatalog(r *http.Request, cat *catalog.Catalog) bool {
	return len(cat.Resources) >= 4 && acceptsGzip(r)
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip
// (listed without q=0).
func acceptsGzip(r *http.Request) bool {
	for _, h := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(h, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				q := strings.ReplaceAll(params, " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

// errCompilesFull is the answer when every compile slot and queue place
// is taken.
func errCompilesFull() error {
	return &httpError{status: http.StatusServiceUnavailable, message: "Service Unavailable: too many catalog compiles are waiting; retry later", kind: issueRuntime}
}

// refuseWhenFull answers 503 before a catalog request's facts are decoded
// and stored when its compile would be refused anyway: in a thundering
// herd most requests are turned away, and decoding their facts (a
// hundred kilobytes of values each) only grew the server's memory.
// compile still decides for the requests that pass.
func (s *Server) refuseWhenFull() error {
	l := s.limit
	if len(l.slots) < cap(l.slots) || l.waiting.Load() < l.maxQueue {
		return nil
	}
	s.metrics.compile(compileBusy, 0, false)
	return errCompilesFull()
}

// compile runs one compile in a slot of the limiter, within ctx's
// deadline; a panic in it fails this compile alone.
func (s *Server) compile(ctx context.Context, env *compiler.Environment, req *compiler.Request) (res *compiler.Result, err error) {
	if err := s.limit.acquire(ctx); err != nil {
		if errors.Is(err, errBusy) {
			s.metrics.compile(compileBusy, 0, false)
			return nil, errCompilesFull()
		}
		s.metrics.compile(compileTimeout, 0, false)
		return nil, s.timeoutError(ctx, req.Node)
	}
	defer s.limit.release()
	start := time.Now()
	defer func() {
		if v := recover(); v != nil {
			s.metrics.compile(compilePanic, time.Since(start), true)
			s.log.Error("compile panicked", "node", req.Node, "panic", fmt.Sprint(v))
			res, err = nil, serverError(fmt.Sprintf("internal error compiling the catalog of %s: %v", req.Node, v))
		}
	}()
	res, err = s.compileFn(ctx, env, req)
	if res != nil {
		for _, d := range res.Diagnostics {
			s.log.Log(ctx, slogLevel(d.Severity), d.Error(), "node", req.Node)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			s.metrics.compile(compileTimeout, time.Since(start), true)
			return nil, s.timeoutError(ctx, req.Node)
		}
		s.metrics.compile(compileFailed, time.Since(start), true)
		s.log.Error(err.Error()+" on node "+req.Node, "node", req.Node)
		return nil, serverError(err.Error() + " on node " + req.Node)
	}
	s.metrics.compile(compileOK, time.Since(start), true)
	if s.log.Enabled(ctx, slog.LevelInfo) {
		// Puppet's notice, its text built in one allocation.
		var secs [24]byte
		s.log.LogAttrs(ctx, slog.LevelInfo, "Compiled catalog for "+req.Node+" in environment "+env.Name+" in "+
			string(strconv.AppendFloat(secs[:0], time.Since(start).Seconds(), 'f', 2, 64))+" seconds", slog.String("node", req.Node))
	}
	return res, nil
}

func (s *Server) timeoutError(ctx context.Context, node string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return serverError(fmt.Sprintf("the catalog of %s did not compile within %v", node, s.cfg.CompileTimeout))
	}
	return serverError("the request was cancelled")
}

func slogLevel(sev diag.Severity) slog.Level {
	switch sev {
	case diag.Error:
		return slog.LevelError
	case diag.Warning:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func truthy(s string) bool { return s == "true" || s == "1" || s == "yes" }

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// node answers Puppet's node indirection: the classified node.
func (s *Server) node(w http.ResponseWriter, r *http.Request, id *identity, certname, envName string) error {
	st := s.site.Load()
	if !st.HasEnvironment(envName) {
		return notFound(issueRuntime, "Could not find environment '%s'", envName)
	}
	n, err := classify(r.Context(), st, certname, envName)
	if err != nil {
		return err
	}
	// Parameters: the node's stored facts, the classifier's parameters
	// and the environment, as Puppet's node carries them.
	stored := s.storedFacts(certname)
	if n.Parameters.Len() == 0 {
		if params, ok := stored.nodeParameters(n.Environment); ok {
			writeNode(w, certname, n.Environment, nodeClasses(n), params...)
			return nil
		}
	}
	facts := stored.hash()
	b := value.NewHashBuilder(facts.Len() + 1)
	for i := 0; i < facts.Len(); i++ {
		b.Set(facts.At(i))
	}
	if n.Parameters != nil {
		for i := 0; i < n.Parameters.Len(); i++ {
			b.Set(n.Parameters.At(i))
		}
	}
	b.Set(value.String("environment"), value.String(n.Environment))
	writeNode(w, certname, n.Environment, nodeClasses(n), catalog.ValueJSON(b.Build()))
	return nil
}

// nodeClasses are a classified node's classes as its node answer has
// them: names, or a hash of names to parameters when a class has any.
func nodeClasses(n *node.Node) []byte {
	if len(n.Classes) == 0 {
		return []byte("[]")
	}
	plain := true
	for _, c := range n.Classes {
		plain = plain && c.Params == nil
	}
	if plain {
		names := make([]string, len(n.Classes))
		for i, c := range n.Classes {
			names[i] = c.Name
		}
		classes, _ := json.Marshal(names)
		return classes
	}
	cb := value.NewHashBuilder(len(n.Classes))
	for _, c := range n.Classes {
		p := c.Params
		if p == nil {
			p = value.EmptyHash
		}
		cb.Set(value.String(c.Name), p)
	}
	return catalog.ValueJSON(cb.Build())
}

// writeNode answers a node: the parameters (in parts) and classes are
// compact JSON, as writeJSON would write them in the object.
func writeNode(w http.ResponseWriter, certname, env string, classes []byte, params ...[]byte) {
	var head []byte
	head = append(append(append(head, `{"name":`...), jsonString(certname)...), `,"environment":`...)
	head = append(append(head, jsonString(env)...), `,"parameters":`...)
	tail := append(append([]byte(`,"classes":`), classes...), '}')
	n := len(head) + len(tail)
	for _, p := range params {
		n += len(p)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(head)
	for _, p := range params {
		_, _ = w.Write(p)
	}
	_, _ = w.Write(tail)
}

// jsonString is s as encoding/json writes it without HTML escaping.
func jsonString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// storedFacts are a node's facts as the facts cache holds them, or will
// once those queued are written.
type storedFacts struct {
	certname string
	data     []byte // the facts object ("" none)
	wire     *wireFacts
}

func (s *Server) storedFacts(certname string) *storedFacts {
	sf := &storedFacts{certname: certname}
	// Facts still queued are what the file will hold: no need to wait
	// for the file system, nor to read them back.
	data, queued := s.factsOut.latest(certname)
	if !queued {
		var err error
		if data, err = os.ReadFile(filepath.Join(s.factsDir, certname+".yaml")); err != nil {
			return sf
		}
	}
	sf.data = bytes.TrimPrefix(data, []byte(site.CachedFactsTag))
	sf.data = bytes.TrimSuffix(sf.data, []byte("\n"))
	if wf, ok := scanWireFacts(sf.data, certname); ok {
		sf.wire = wf
	}
	return sf
}

// hash is the stored facts decoded; none, or a file that does not
// decode, is no facts (as site's facts cache reads them).
func (sf *storedFacts) hash() *value.Hash {
	if sf.wire != nil {
		if h, err := sf.wire.hash(); err == nil {
			return h
		}
	}
	if len(sf.data) == 0 {
		return value.EmptyHash
	}
	h, _, err := site.DecodeFacts(sf.data, sf.certname)
	if err != nil {
		return value.EmptyHash
	}
	return h
}

// nodeParameters is the node answer's parameters, the stored facts with
// the environment set, in parts, written from the facts' text when it is
// what decoding and writing them would give (ok false: decode them).
func (sf *storedFacts) nodeParameters(env string) ([][]byte, bool) {
	envJSON := catalog.ValueJSON(value.String(env))
	if len(sf.data) == 0 {
		return [][]byte{[]byte(`{"environment":`), envJSON, []byte("}")}, true
	}
	wf := sf.wire
	if wf == nil || !wf.canonical || !wf.uniqueNames() {
		return nil, false
	}
	v := wf.values
	for _, f := range wf.fields {
		if string(f.Name) == "environment" {
			// Set where it is, as a hash's Set does (f.Value is a
			// slice of v).
			at := cap(v) - cap(f.Value)
			return [][]byte{v[:at], envJSON, v[at+len(f.Value):]}, true
		}
	}
	sep := `,"environment":`
	if len(wf.fields) == 0 {
		sep = `"environment":`
	}
	return [][]byte{v[:len(v)-1], []byte(sep), envJSON, []byte("}")}, true
}

// report stores an agent's report as Puppet's store report processor
// does: $reportdir/<certname>/<YYYYMMDDHHMM>.yaml. The report is kept as
// sent (JSON, which YAML readers read too).
func (s *Server) report(w http.ResponseWriter, r *http.Request, id *identity, certname, envName string) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	var report map[string]json.RawMessage
	if err := json.Unmarshal(data, &report); err != nil {
		return badRequest("Could not intern from json: %v", err)
	}
	if err := s.processReport(r.Context(), certname, data); err != nil {
		return err
	}
	s.storeReport(r.Context(), certname, data)
	// Puppet answers the names of the processors that ran.
	writeJSON(w, http.StatusOK, s.reports.names)
	return nil
}

// facts stores a node's facts (puppet facts upload).
func (s *Server) facts(w http.ResponseWriter, r *http.Request, id *identity, certname, envName string) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	_, raw, err := parseFacts(data, certname)
	if err != nil {
		return err
	}
	if err := s.saveFacts(certname, raw); err != nil {
		return serverError(err.Error())
	}
	writeJSON(w, http.StatusOK, nil)
	return nil
}

// environments lists the directory environments and their settings.
func (s *Server) environments(w http.ResponseWriter) error {
	l := s.site.Load().Loader()
	st := l.Settings()
	type settings struct {
		ModulePath         []string `json:"modulepath"`
		Manifest           string   `json:"manifest"`
		EnvironmentTimeout any      `json:"environment_timeout"`
		ConfigVersion      string   `json:"config_version"`
	}
	type env struct {
		Settings settings `json:"settings"`
	}
	out := struct {
		SearchPaths  []string       `json:"search_paths"`
		Environments map[string]env `json:"environments"`
	}{SearchPaths: []string{}, Environments: map[string]env{}}
	timeout := func(d time.Duration) any {
		if d == puppetconf.Unlimited {
			return "unlimited"
		}
		return int64(d / time.Second)
	}
	if l.Directories() {
		for _, p := range st.Path(puppetconf.EnvironmentPath) {
			abs, err := filepath.Abs(p)
			if err != nil {
				continue
			}
			out.SearchPaths = append(out.SearchPaths, "file://"+abs)
			entries, err := os.ReadDir(abs)
			if err != nil {
				continue
			}
			for _, e := range entries {
				name := e.Name()
				if _, seen := out.Environments[name]; seen || !names.ValidEnvironment(name) {
					continue
				}
				dir, err := l.Dir(name)
				if err != nil || dir != filepath.Join(abs, name) {
					continue
				}
				conf, err := st.ReadEnvironmentConf(dir, name)
				if err != nil {
					continue
				}
				mp := conf.ModulePath
				if mp == nil {
					mp = []string{}
				}
				out.Environments[name] = env{settings{mp, conf.Manifest, timeout(conf.Timeout), conf.ConfigVersion}}
			}
		}
	} else {
		t, _ := st.EnvironmentTimeout()
		mp := s.cfg.Environment.ModulePath
		if mp == nil {
			mp = []string{}
		}
		out.Environments[st.Get(puppetconf.Environment)] = env{settings{mp, s.cfg.Environment.Manifest, timeout(t), ""}}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// statusServices is the status API's service list.
func (s *Server) statusServices(w http.ResponseWriter) error {
	type status struct {
		ServiceVersion       string `json:"service_version"`
		ServiceStatusVersion int    `json:"service_status_version"`
		DetailLevel          string `json:"detail_level"`
		State                string `json:"state"`
		Status               any    `json:"status"`
		ActiveAlerts         []any  `json:"active_alerts"`
	}
	writeJSON(w, http.StatusOK, map[string]status{
		"server": {PuppetVersion, 1, "info", "running", map[string]any{
			"uptime_seconds":   int64(time.Since(s.start) / time.Second),
			"compiles_running": len(s.limit.slots),
			"compiles_waiting": s.limit.waiting.Load(),
			"max_compiles":     cap(s.limit.slots),
		}, []any{}},
		"status-service": {PuppetVersion, 1, "info", "running", map[string]any{}, []any{}},
	})
	return nil
}

// flushEnvironments is DELETE /puppet-admin-api/v1/environment-cache: every
// environment is reloaded on its next use (also when only one was named:
// reloading more than asked is harmless).
func (s *Server) flushEnvironments(w http.ResponseWriter, r *http.Request) error {
	if env := r.URL.Query().Get("environment"); env != "" && !names.ValidEnvironment(env) {
		return badRequest("The environment must be purely alphanumeric, not '%s'", env)
	}
	if err := s.FlushEnvironments(); err != nil {
		return serverError(err.Error())
	}
	s.log.Info("environment cache flushed", "environment", r.URL.Query().Get("environment"))
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// retryAfter is a random delay for a 503, spreading a herd of agents.
func (s *Server) retryAfter() string {
	max := int64(s.cfg.MaxRetryDelay / time.Second)
	if max < 1 {
		max = 1
	}
	return strconv.FormatInt(1+rand.Int64N(max), 10)
}

// richDataType is the media type of Puppet's rich data JSON.
const richDataType = "application/vnd.puppet.rich+json"

// acceptsRichData reports whether the request's Accept header lists rich
// data JSON.
func acceptsRichData(r *http.Request) bool {
	for _, h := range r.Header.Values("Accept") {
		for _, part := range strings.Split(h, ",") {
			mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(mt), richDataType) {
				return true
			}
		}
	}
	return false
}
