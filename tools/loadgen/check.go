package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"mime"
	"net/http"
	"regexp"
)

// agentAcceptEncoding is the Accept-Encoding of a Puppet 7 agent's
// requests. Naming it keeps Go's transport from inflating the answer: the
// checker reads the bytes as sent.
const agentAcceptEncoding = "gzip;q=1.0,deflate;q=0.6,identity;q=0.3"

// checker checks one client's answers. Every answer: the status (200),
// the content type (JSON), the body whole (Go's transport checks its
// length against Content-Length); a node answer names the node; a catalog
// answer, gzip or not, is one whole gzip member whose CRC-32 and length
// hold for what it inflates to (gzipCheck), and names the node and a
// catalog_uuid (a version 4 UUID, another than the client's previous
// catalog's). A sample of answers (each client's first of each kind, then
// one in fullEvery, or all with fullAll) is inflated whole and parsed as
// JSON: a node answer names the node and the environment; a catalog names
// the node, the environment and the uuid read before, and holds
// resources, each with a type and a title.
type checker struct {
	certname, env string
	fullEvery     int
	fullAll       bool

	nodes, catalogs int
	lastUUID        string
	gz              gzipCheck
	full            bytes.Buffer
}

func newChecker(certname, env string, fullEvery int, fullAll bool) *checker {
	return &checker{certname: certname, env: env, fullEvery: fullEvery, fullAll: fullAll}
}

// sample reports whether the n-th answer (from 0) of a kind is checked in
// full.
func (c *checker) sample(n int) bool {
	return c.fullAll || n == 0 || c.fullEvery > 0 && n%c.fullEvery == 0
}

// jsonType checks that an answer is JSON.
func jsonType(resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" && mt != "application/vnd.puppet.rich+json" {
		return fmt.Errorf("content type %q, want JSON", ct)
	}
	return nil
}

// node checks a node answer.
func (c *checker) node(resp *http.Response, body []byte) error {
	if err := jsonType(resp); err != nil {
		return err
	}
	if enc := resp.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		plain, err := inflate(enc, body)
		if err != nil {
			return fmt.Errorf("node answer: %v", err)
		}
		body = plain
	}
	n := c.nodes
	c.nodes++
	if !c.sample(n) {
		if !bytes.Contains(body, []byte(`"name":"`+c.certname+`"`)) {
			return fmt.Errorf("the node answer does not name %s", c.certname)
		}
		return nil
	}
	var doc struct {
		Name        string `json:"name"`
		Environment string `json:"environment"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("node answer: %v", err)
	}
	if doc.Name != c.certname || doc.Environment != c.env {
		return fmt.Errorf("node answer for %q in %q, want %q in %q", doc.Name, doc.Environment, c.certname, c.env)
	}
	return nil
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// catalog checks a catalog answer.
func (c *checker) catalog(resp *http.Response, body []byte) error {
	if err := jsonType(resp); err != nil {
		return err
	}
	n := c.catalogs
	c.catalogs++
	full := c.sample(n)
	var head, plain []byte
	switch enc := resp.Header.Get("Content-Encoding"); enc {
	case "", "identity":
		head, plain = body, body
	case "gzip":
		var err error
		if head, plain, err = c.gz.check(body, full); err != nil {
			return fmt.Errorf("catalog answer: %v", err)
		}
	default:
		var err error
		if plain, err = inflate(enc, body); err != nil {
			return fmt.Errorf("catalog answer: %v", err)
		}
		head = plain
	}
	name, uuid := topString(head, "name"), topString(head, "catalog_uuid")
	if (name == "" || uuid == "") && plain == nil {
		// Not in the stored head: inflate it all.
		var err error
		if _, plain, err = c.gz.check(body, true); err != nil {
			return fmt.Errorf("catalog answer: %v", err)
		}
	}
	if plain != nil && (name == "" || uuid == "") {
		name, uuid = topString(plain, "name"), topString(plain, "catalog_uuid")
	}
	if name != c.certname {
		return fmt.Errorf("a catalog for %q, want %q", name, c.certname)
	}
	if !uuidRE.MatchString(uuid) || uuid == c.lastUUID {
		return fmt.Errorf("catalog_uuid %q (the previous one %q): want a new version 4 UUID", uuid, c.lastUUID)
	}
	c.lastUUID = uuid
	if !full {
		return nil
	}
	var doc struct {
		Name        string `json:"name"`
		Environment string `json:"environment"`
		UUID        string `json:"catalog_uuid"`
		Resources   []struct {
			Type  string `json:"type"`
			Title any    `json:"title"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(plain, &doc); err != nil {
		return fmt.Errorf("catalog answer: %v", err)
	}
	if doc.Name != c.certname || doc.Environment != c.env || doc.UUID != uuid {
		return fmt.Errorf("catalog of %q in %q, uuid %q; want %q in %q, uuid %q", doc.Name, doc.Environment, doc.UUID, c.certname, c.env, uuid)
	}
	if len(doc.Resources) == 0 {
		return errors.New("a catalog without resources")
	}
	for _, r := range doc.Resources {
		if r.Type == "" || r.Title == nil || r.Title == "" {
			return fmt.Errorf("a resource without a type or a title: %q %v", r.Type, r.Title)
		}
	}
	return nil
}

// inflate decodes a gzip or deflate (zlib) body whole.
func inflate(enc string, body []byte) ([]byte, error) {
	var r io.Reader
	switch enc {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		r = zr
	case "deflate":
		r = flate.NewReader(bytes.NewReader(body))
	default:
		return nil, fmt.Errorf("content encoding %q", enc)
	}
	return io.ReadAll(r)
}

// gzipCheck checks gzip answers, remembering the last deflate stream it
// inflated whole: a server sending the same catalog again sends the same
// compressed bytes after a new head (marionette: the head, which holds
// the version and the uuid, in stored blocks before the tail deflated
// once), and bytes equal to a stream that inflated alone, from an empty
// window, inflate to the same data wherever they follow. So the check is
// as whole as inflating: the header, each stored block's length and its
// complement, the deflate stream (inflated, or equal to one inflated),
// nothing after it, and the trailer's CRC-32 and length of all the data.
type gzipCheck struct {
	tail     []byte // a raw deflate stream that inflated alone (when known)
	known    bool
	tailCRC  uint32
	tailSize int
	out      bytes.Buffer
	zr       io.ReadCloser // a flate reader, reset for each stream
}

// check checks one gzip member; head is the data of its leading stored
// blocks, plain (when full, or when its deflate stream was not the one
// remembered: inflated anyway) all its data.
func (g *gzipCheck) check(data []byte, full bool) (head, plain []byte, err error) {
	if len(data) < 18 || data[0] != 0x1f || data[1] != 0x8b || data[2] != 8 || data[3] != 0 {
		return g.inflateAll(data)
	}
	pos := 10
	end := len(data) - 8
	var headBuf []byte
	for pos+5 <= end && data[pos] == 0 { // BFINAL 0, BTYPE 00: stored
		n := int(binary.LittleEndian.Uint16(data[pos+1:]))
		if binary.LittleEndian.Uint16(data[pos+3:]) != ^uint16(n) || pos+5+n > end {
			return nil, nil, errors.New("a malformed stored block")
		}
		headBuf = append(headBuf, data[pos+5:pos+5+n]...)
		pos += 5 + n
	}
	tail := data[pos:end]
	if full || !g.known || !bytes.Equal(tail, g.tail) {
		crc, size, ok := g.inflateAlone(tail)
		if !ok {
			return g.inflateAll(data)
		}
		g.tail = append(g.tail[:0], tail...)
		g.tailCRC, g.tailSize, g.known = crc, size, true
		plain = g.out.Bytes()
		if len(headBuf) > 0 {
			plain = append(headBuf[:len(headBuf):len(headBuf)], plain...)
		}
	}
	crc := crc32Combine(crc32.ChecksumIEEE(headBuf), g.tailCRC, int64(g.tailSize))
	if binary.LittleEndian.Uint32(data[end:]) != crc {
		return nil, nil, errors.New("gzip: the CRC-32 does not match")
	}
	if binary.LittleEndian.Uint32(data[end+4:]) != uint32(len(headBuf)+g.tailSize) {
		return nil, nil, errors.New("gzip: the length does not match")
	}
	return headBuf, plain, nil
}

// inflateAlone inflates a raw deflate stream from an empty window into
// g.out; ok when it ends exactly at its last byte.
func (g *gzipCheck) inflateAlone(tail []byte) (crc uint32, size int, ok bool) {
	g.out.Reset()
	r := bytes.NewReader(tail)
	if g.zr == nil {
		g.zr = flate.NewReader(r)
	} else {
		_ = g.zr.(flate.Resetter).Reset(r, nil)
	}
	if _, err := g.out.ReadFrom(g.zr); err != nil || r.Len() != 0 {
		return 0, 0, false
	}
	return crc32.ChecksumIEEE(g.out.Bytes()), g.out.Len(), true
}

// inflateAll inflates a gzip member whole (gzip.Reader checks its CRC and
// length), and refuses anything after it.
func (g *gzipCheck) inflateAll(data []byte) (head, plain []byte, err error) {
	r := bytes.NewReader(data)
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, fmt.Errorf("gzip: %v", err)
	}
	zr.Multistream(false)
	g.out.Reset()
	if _, err := g.out.ReadFrom(zr); err != nil {
		return nil, nil, fmt.Errorf("gzip: %v", err)
	}
	if r.Len() != 0 {
		return nil, nil, errors.New("gzip: data after the member")
	}
	g.known = false
	return nil, g.out.Bytes(), nil
}

// crc32Combine is the CRC-32 (IEEE) of a||b from those of a and b and b's
// length: a's CRC times x^(8·lenB) modulo the polynomial, plus b's.
func crc32Combine(crcA, crcB uint32, lenB int64) uint32 {
	// x^(8·lenB) by squaring, polynomials over GF(2) in the reflected
	// order (bit 31 is x^0).
	mul := func(a, b uint32) uint32 {
		var p uint32
		for m := uint32(1) << 31; m != 0; m >>= 1 {
			if a&m != 0 {
				p ^= b
			}
			if b&1 != 0 {
				b = b>>1 ^ 0xedb88320
			} else {
				b >>= 1
			}
		}
		return p
	}
	x, sq := uint32(1)<<31, uint32(1)<<23 // x^0, x^8
	for n := lenB; n > 0; n >>= 1 {
		if n&1 != 0 {
			x = mul(sq, x)
		}
		sq = mul(sq, sq)
	}
	return mul(x, crcA) ^ crcB
}

// topString is the value of key in the JSON object text data when it is a
// string without escapes among the object's top-level fields; "" when
// there is none, or data ends before it.
func topString(data []byte, key string) string {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return ""
	}
	i++
	for {
		i = skipSpace(data, i)
		ks, ke, next, ok := scanString(data, i)
		if !ok {
			return ""
		}
		i = skipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return ""
		}
		i = skipSpace(data, i+1)
		if string(data[ks:ke]) == key {
			vs, ve, _, ok := scanString(data, i)
			if !ok || bytes.IndexByte(data[vs:ve], '\\') >= 0 {
				return ""
			}
			return string(data[vs:ve])
		}
		if i = skipValue(data, i); i < 0 {
			return ""
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ',' {
			return ""
		}
		i++
	}
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// scanString scans the string at i: its inside is d[start:end], next
// follows it.
func scanString(d []byte, i int) (start, end, next int, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return 0, 0, 0, false
	}
	for j := i + 1; j < len(d); j++ {
		switch d[j] {
		case '\\':
			j++
		case '"':
			return i + 1, j, j + 1, true
		}
	}
	return 0, 0, 0, false
}

// skipValue skips the value at i (-1: none, or data ends in it).
func skipValue(d []byte, i int) int {
	depth := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			_, _, next, ok := scanString(d, i)
			if !ok {
				return -1
			}
			i = next
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case ',':
			if depth == 0 {
				return i
			}
			i++
		default:
			i++
		}
		if depth == 0 && i < len(d) && (d[i] == ',' || d[i] == '}') {
			return i
		}
		if depth < 0 {
			return -1
		}
	}
	return -1
}
