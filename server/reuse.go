package server

import (
	"bytes"
	"compress/flate"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
)

// DefaultReuseBytes bounds the catalogs kept for reuse when
// Config.ReuseBytes is 0.
const DefaultReuseBytes = 64 << 20

// Catalog reuse: a node that asks again for its catalog gets the one its
// last compile made, encoded as it was sent, with what Puppet makes anew
// for every compile made anew (catalog_uuid, and the version: the time,
// or config_version's output), when nothing that compile depended on has
// changed (reuseEntry says what). The compile records what it reads
// (readset): the facts, the files and module trees, and the inputs it
// cannot follow (a command's output, the Ruby helper, PuppetDB, the time
// of day, a random draw), after one of which the catalog is not kept.
type reuseCache struct {
	max int64

	mu      sync.Mutex
	size    int64
	lru     *list.List // of *reuseEntry, most recently used first
	entries map[string]*list.Element

	hits, misses, untracked atomic.Int64

	// trees answers the module trees' stamps from inotify while their
	// directories are unchanged (a tree walk at every hit cost ~1 ms per
	// module); made at the first hit that needs it.
	treesOnce sync.Once
	trees     *readset.TreeWatcher
}

// treeWatcher returns the cache's TreeWatcher (nil: every stamp walks).
func (c *reuseCache) treeWatcher() *readset.TreeWatcher {
	c.treesOnce.Do(func() { c.trees = readset.NewTreeWatcher() })
	return c.trees
}

// close releases the tree watches.
func (c *reuseCache) close() {
	c.treesOnce.Do(func() {}) // none made after this
	c.trees.Close()
}

func newReuseCache(max int64) *reuseCache {
	if max <= 0 {
		max = DefaultReuseBytes
	}
	return &reuseCache{max: max, lru: list.New(), entries: make(map[string]*list.Element)}
}

// reuseEntry is one node's last catalog and what its compile depended on.
type reuseEntry struct {
	certname string
	// env is the environment as loaded: the loader gives the same one
	// while its manifests and modules are unchanged. A weak pointer: an
	// entry does not keep an environment the loader replaced alive.
	env weak.Pointer[compiler.Environment]
	// request digests the request but for the facts (compileKey).
	request string
	// factNames are the facts the compile read (allFacts: any), facts
	// their digest (catalogFacts.digest).
	factNames []string
	allFacts  bool
	facts     string
	// files are the files read or looked for, with their stamps; trees
	// the module trees used, with theirs (readset.TreeStamp).
	files []fileStamp
	trees []treeStamp
	// configVersion is the environment's config_version output ("" for
	// none); the version it made is sent again only when it is the same.
	configVersion string
	// rich and gz say how the body is encoded (rich data JSON; gzip);
	// acceptGzip whether the request accepted gzip (a small catalog is
	// not compressed: compressCatalog).
	rich, gz, acceptGzip bool
	body                 reuseBody
	size                 int64
}

type fileStamp struct {
	path  string
	stamp filecache.Stamp
}

type treeStamp struct{ path, stamp string }

// reuseBody is a catalog's JSON without its version and catalog_uuid
// values: prefix (up to "version":), mid (from "code_id" to
// "catalog_uuid":) and tail (the rest); tail is a raw deflate stream when
// gz, with the CRC-32 and length of what it inflates to.
type reuseBody struct {
	prefix, mid, tail []byte
	tailCRC           uint32
	tailLen           int
}

// racyWindow: a file whose modification time is this recent when its
// stamp is taken may change again without its stamp changing (file
// systems keep times at a granularity, some of a second or two).
const racyWindow = 2 * time.Second

// compileKey digests what a compile starts from besides the facts and
// the files: the node, its classification, $trusted, the server's facts
// and the compile's settings.
func compileKey(req *compiler.Request, envName string) string {
	h := sha256.New()
	fmt.Fprintf(h, "environment=%s\x00", envName)
	req.WriteKey(h)
	return hex.EncodeToString(h.Sum(nil))
}

// lookup returns certname's entry when it may stand for a compile of req
// in env now (encoded as the request asks, rich and gz), else nil and
// why not.
func (c *reuseCache) lookup(certname string, env *compiler.Environment, req *compiler.Request, facts *catalogFacts, rich, acceptGzip bool) (*reuseEntry, string) {
	c.mu.Lock()
	el, ok := c.entries[certname]
	var e *reuseEntry
	if ok {
		e = el.Value.(*reuseEntry)
		c.lru.MoveToFront(el)
	}
	c.mu.Unlock()
	switch {
	case e == nil:
		return nil, "no catalog kept"
	case e.env.Value() != env:
		return nil, "the environment changed"
	case e.rich != rich || e.acceptGzip != acceptGzip:
		return nil, "another encoding"
	case e.request != compileKey(req, env.Name):
		return nil, "the classification, trusted data or settings changed"
	}
	if d, err := facts.digest(e.factNames, e.allFacts); err != nil || d != e.facts {
		return nil, "a fact it read changed"
	}
	for _, f := range e.files {
		if st, err := filecache.Stat(f.path); err != nil || st != f.stamp {
			return nil, "a file it read changed"
		}
	}
	for _, t := range e.trees {
		if st, err := c.treeWatcher().Stamp(t.path); err != nil || st != t.stamp {
			return nil, "a module it used changed"
		}
	}
	return e, ""
}

// remember keeps the catalog of a compile that started at start, with
// what it read (reads), unless it read what cannot be followed or a file
// changed too recently to trust its stamp. data is the catalog's JSON as
// encoded (rich or not).
func (c *reuseCache) remember(certname string, env *compiler.Environment, req *compiler.Request, facts *catalogFacts, start time.Time, reads *readset.Recorder, configVersion string, data []byte, rich, gz, acceptGzip bool) (*reuseEntry, string) {
	files, trees, why := reads.Reads()
	if why != "" {
		c.drop(certname)
		return nil, why
	}
	e := &reuseEntry{certname: certname, env: weak.Make(env), request: compileKey(req, env.Name), configVersion: configVersion, rich: rich, gz: gz, acceptGzip: acceptGzip}
	e.factNames, e.allFacts = reads.FactReads()
	var err error
	if e.facts, err = facts.digest(e.factNames, e.allFacts); err != nil {
		c.drop(certname)
		return nil, err.Error()
	}
	racy := start.Add(-racyWindow)
	size := int64(512)
	for _, p := range withinNoTree(files, trees) {
		st, err := filecache.Stat(p)
		if err != nil || st.ModTime.After(racy) {
			c.drop(certname)
			return nil, "a file changed while it was read"
		}
		e.files = append(e.files, fileStamp{p, st})
		size += int64(len(p)) + 48
	}
	for _, p := range trees {
		st, newest, err := readset.TreeStamp(p)
		if err != nil || newest.After(racy) {
			c.drop(certname)
			return nil, "a module changed while it was read"
		}
		e.trees = append(e.trees, treeStamp{p, st})
		size += int64(len(p)) + 80
	}
	body, err := splitCatalog(data, gz)
	if err != nil {
		c.drop(certname)
		return nil, err.Error()
	}
	e.body = body
	e.size = size + int64(len(body.prefix)+len(body.mid)+len(body.tail))
	for _, n := range e.factNames {
		e.size += int64(len(n)) + 16
	}
	if e.size > c.max {
		c.drop(certname)
		return nil, "larger than the reuse cache"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[certname]; ok {
		c.size -= el.Value.(*reuseEntry).size
		c.lru.Remove(el)
	}
	c.entries[certname] = c.lru.PushFront(e)
	c.size += e.size
	for c.size > c.max {
		last := c.lru.Back()
		old := last.Value.(*reuseEntry)
		c.lru.Remove(last)
		delete(c.entries, old.certname)
		c.size -= old.size
	}
	return e, ""
}

// withinNoTree is files (sorted) less those below one of trees (sorted):
// a tree's stamp covers them, their appearing and disappearing included.
func withinNoTree(files, trees []string) []string {
	out := files[:0:0]
	for _, f := range files {
		i := sort.SearchStrings(trees, f)
		// The tree holding f, if any, sorts just before f.
		if i > 0 && strings.HasPrefix(f, trees[i-1]+string(filepath.Separator)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// drop forgets certname's entry.
func (c *reuseCache) drop(certname string) {
	c.mu.Lock()
	if el, ok := c.entries[certname]; ok {
		c.size -= el.Value.(*reuseEntry).size
		c.lru.Remove(el)
		delete(c.entries, certname)
	}
	c.mu.Unlock()
}

// bytes is the size of what the cache keeps.
func (c *reuseCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// The markers splitCatalog cuts a catalog's JSON at (catalog.WriteJSON's
// order: tags and name, which cannot hold them, come first).
var (
	versionKey = []byte(`,"version":`)
	codeIDKey  = []byte(`,"code_id":`)
	uuidKey    = []byte(`,"catalog_uuid":`)
	formatKey  = []byte(`,"catalog_format":`)
)

// splitCatalog cuts a catalog's JSON around its version and catalog_uuid
// values (reuseBody), deflating the tail when gz.
func splitCatalog(data []byte, gz bool) (reuseBody, error) {
	v := bytes.Index(data, versionKey)
	cid := bytes.Index(data, codeIDKey)
	u := bytes.Index(data, uuidKey)
	f := bytes.Index(data, formatKey)
	if v < 0 || cid < v || u < cid || f < u {
		return reuseBody{}, fmt.Errorf("the catalog's JSON is not as expected")
	}
	b := reuseBody{
		prefix: bytes.Clone(data[:v+len(versionKey)]),
		mid:    bytes.Clone(data[cid : u+len(uuidKey)]),
	}
	tail := data[f:]
	if !gz {
		b.tail = bytes.Clone(tail)
		return b, nil
	}
	var buf bytes.Buffer
	zw := flateWriters.Get().(*flate.Writer)
	zw.Reset(&buf)
	_, _ = zw.Write(tail)
	_ = zw.Close()
	flateWriters.Put(zw)
	b.tail = bytes.Clone(buf.Bytes())
	b.tailCRC = crc32.ChecksumIEEE(tail)
	b.tailLen = len(tail)
	return b, nil
}

// flateWriters compress the tails of the catalogs kept (a compressor is
// about a megabyte of tables).
var flateWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return zw
}}

// write answers e's catalog with version (a JSON value) and uuid.
func (e *reuseEntry) write(w http.ResponseWriter, version, uuid string) {
	head := make([]byte, 0, len(e.body.prefix)+len(version)+len(e.body.mid)+len(uuid)+2)
	head = append(head, e.body.prefix...)
	head = append(head, version...)
	head = append(head, e.body.mid...)
	head = strconv.AppendQuote(head, uuid)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if e.rich {
		h.Set("Content-Type", richDataType)
	}
	h.Add("Vary", "Accept-Encoding")
	if !e.gz {
		h.Set("Content-Length", strconv.Itoa(len(head)+len(e.body.tail)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(head)
		_, _ = w.Write(e.body.tail)
		return
	}
	h.Set("Content-Encoding", "gzip")
	out := gzipSplice(head, e.body.tail, e.body.tailCRC, e.body.tailLen)
	h.Set("Content-Length", strconv.Itoa(len(out)+len(e.body.tail)+8))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
	_, _ = w.Write(e.body.tail)
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32Combine(crc32.ChecksumIEEE(head), e.body.tailCRC, int64(e.body.tailLen)))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(head)+e.body.tailLen))
	_, _ = w.Write(trailer[:])
}

// gzipSplice is the start of a gzip member whose data is head, stored
// (uncompressed deflate blocks, byte-aligned and not final), then the
// deflate stream tail: what follows it is tail and the trailer.
func gzipSplice(head, tail []byte, tailCRC uint32, tailLen int) []byte {
	out := make([]byte, 0, 10+len(head)+5*(len(head)/65535+1))
	// ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown.
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	for len(head) > 0 {
		n := min(len(head), 65535)
		// BFINAL 0, BTYPE 00 (stored), padded to the byte; LEN, NLEN.
		out = append(out, 0, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		out = append(out, head[:n]...)
		head = head[n:]
	}
	return out
}

// crc32Combine is the CRC-32 (IEEE) of a||b from those of a and b and
// b's length: a's CRC multiplied by x^(8·lenB) modulo the polynomial,
// added to b's (the pre- and post-conditioning of the two cancel).
func crc32Combine(crcA, crcB uint32, lenB int64) uint32 {
	return gfMul(xPow8n(lenB), crcA) ^ crcB
}

// crcPoly is the IEEE polynomial, bit-reflected: bit 31 is x^0.
const crcPoly = 0xedb88320

// gfMul multiplies a and b, polynomials over GF(2) in the reflected
// order, modulo crcPoly.
func gfMul(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8n is x^(8n) modulo crcPoly, by squaring.
func xPow8n(n int64) uint32 {
	result := uint32(1) << 31 // x^0
	sq := uint32(1) << 23     // x^8
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			result = gfMul(sq, result)
		}
		sq = gfMul(sq, sq)
	}
	return result
}

// reuseStats are the counters /metrics shows.
func (c *reuseCache) stats() (hits, misses, untracked int64) {
	return c.hits.Load(), c.misses.Load(), c.untracked.Load()
}

// catalogReusing answers a catalog request from the node's kept catalog
// when nothing its compile depended on changed, and otherwise compiles,
// answers and keeps the new catalog. handled is false when the request is
// to be answered as without reuse (config_version failed: the compile
// path reports it, after the compile's own error).
func (s *Server) catalogReusing(ctx context.Context, w http.ResponseWriter, r *http.Request, st *site.Site, envName string, env *compiler.Environment, req *compiler.Request, facts *catalogFacts) (handled bool, err error) {
	cv, err := s.configVersionOf(ctx, st, envName)
	if err != nil {
		return false, nil
	}
	rich, acceptGzip := acceptsRichData(r), acceptsGzip(r)
	e, why := s.reuse.lookup(req.Node, env, req, facts, rich, acceptGzip)
	if e != nil && e.configVersion != cv {
		e, why = nil, "config_version's output changed"
	}
	if e != nil {
		s.reuse.hits.Add(1)
		if s.log.Enabled(ctx, slog.LevelInfo) {
			s.log.LogAttrs(ctx, slog.LevelInfo, "Reused catalog for "+req.Node+" in environment "+env.Name+": nothing its compile read changed",
				slog.String("node", req.Node), slog.String("reuse", "hit"))
		}
		e.write(w, versionJSON(cv, time.Now().Unix()), newUUID())
		return true, nil
	}
	s.reuse.misses.Add(1)
	s.log.LogAttrs(ctx, slog.LevelDebug, "catalog reuse miss for "+req.Node+": "+why, slog.String("node", req.Node), slog.String("reuse", "miss"))
	if req.Facts, err = facts.values(); err != nil {
		return true, err
	}
	reads := readset.New()
	req.Reads = reads
	start := time.Now()
	result, err := s.compile(ctx, env, req)
	if err != nil {
		return true, err
	}
	cat := result.Catalog
	if cv != "" {
		cat.ConfigVersion = cv
	}
	var buf bytes.Buffer
	write := cat.WriteJSON
	if rich {
		write = cat.WriteRichJSON
	}
	if err := write(&buf); err != nil {
		return true, serverError(err.Error())
	}
	gz := compressCatalog(r, cat)
	kept, notKept := s.reuse.remember(req.Node, env, req, facts, start, reads, cv, buf.Bytes(), rich, gz, acceptGzip)
	if kept == nil {
		s.reuse.untracked.Add(1)
		s.log.LogAttrs(ctx, slog.LevelDebug, "catalog of "+req.Node+" not kept for reuse: "+notKept, slog.String("node", req.Node))
		contentType := "application/json"
		if rich {
			contentType = richDataType
		}
		w.Header().Set("Content-Type", contentType)
		writeCompressed(w, r, gz, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		return true, nil
	}
	kept.write(w, versionJSON(cv, cat.Version), cat.UUID)
	return true, nil
}

// versionJSON is a catalog's version as its JSON writes it:
// config_version's output when there is one, else the compile's time.
func versionJSON(configVersion string, unix int64) string {
	if configVersion == "" {
		return strconv.FormatInt(unix, 10)
	}
	data, _ := json.Marshal(configVersion)
	return string(data)
}
