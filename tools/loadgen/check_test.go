package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"strings"
	"testing"
)

// splice is a gzip member as marionette sends a reused catalog: head in
// a stored block, then tail deflated alone, then the trailer.
func splice(head, tail string) []byte {
	out := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	n := len(head)
	out = append(out, 0, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
	out = append(out, head...)
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	_, _ = zw.Write([]byte(tail))
	_ = zw.Close()
	out = append(out, buf.Bytes()...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE([]byte(head+tail)))
	return binary.LittleEndian.AppendUint32(out, uint32(len(head)+len(tail)))
}

func gzipOf(s string, name string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Name = name
	_, _ = zw.Write([]byte(s))
	_ = zw.Close()
	return buf.Bytes()
}

const (
	testUUID1 = "6c1d5a8e-6f3e-4b8a-9d2c-0a1b2c3d4e5f"
	testUUID2 = "7c1d5a8e-6f3e-4b8a-9d2c-0a1b2c3d4e5f"
)

func catalogHead(name, uuid string) string {
	return `{"tags":["a","b"],"name":"` + name + `","version":1700000000,"code_id":null,"catalog_uuid":"` + uuid + `"`
}

const catalogTail = `,"catalog_format":1,"environment":"production","resources":[{"type":"Class","title":"main","tags":["x"]},{"type":"File","title":"/tmp/x"}],"edges":[],"classes":["main"]}`

// TestCheckerCatalog: a catalog answer is checked whole (the gzip
// stream, its CRC and length) at every request, its node and uuid too;
// a sample is parsed in full.
func TestCheckerCatalog(t *testing.T) {
	const node = "a.example.com"
	good := splice(catalogHead(node, testUUID1), catalogTail)
	flip := func(b []byte, i int) []byte {
		c := bytes.Clone(b)
		c[i] ^= 0x40
		return c
	}
	for _, tt := range []struct {
		name     string
		enc, ct  string
		bodies   [][]byte
		fullAll  bool
		wantErr  string // of the last body
		firstErr bool   // the first body fails
	}{
		{name: "reused catalogs", enc: "gzip", bodies: [][]byte{good, splice(catalogHead(node, testUUID2), catalogTail), good}},
		{name: "plain gzip with a name", enc: "gzip", bodies: [][]byte{gzipOf(catalogHead(node, testUUID1)+catalogTail, "x"), gzipOf(catalogHead(node, testUUID2)+catalogTail, "")}},
		{name: "identity", bodies: [][]byte{[]byte(catalogHead(node, testUUID1) + catalogTail), []byte(catalogHead(node, testUUID2) + catalogTail)}},
		{name: "the same uuid again", enc: "gzip", bodies: [][]byte{good, good}, wantErr: "catalog_uuid"},
		{name: "another node", enc: "gzip", bodies: [][]byte{splice(catalogHead("b.example.com", testUUID1), catalogTail)}, wantErr: "a catalog for", firstErr: true},
		{name: "not a uuid", enc: "gzip", bodies: [][]byte{splice(catalogHead(node, "x"), catalogTail)}, wantErr: "catalog_uuid", firstErr: true},
		{name: "a bad CRC in a reused catalog", enc: "gzip", bodies: [][]byte{good, flip(splice(catalogHead(node, testUUID2), catalogTail), len(good)-6)}, wantErr: "CRC"},
		{name: "a bad length", enc: "gzip", bodies: [][]byte{good, flip(splice(catalogHead(node, testUUID2), catalogTail), len(good)-2)}, wantErr: "length"},
		{name: "a byte of the head changed", enc: "gzip", bodies: [][]byte{good, flip(splice(catalogHead(node, testUUID2), catalogTail), 30)}, wantErr: "CRC"},
		{name: "a byte of the tail changed", enc: "gzip", bodies: [][]byte{good, flip(splice(catalogHead(node, testUUID2), catalogTail), len(good)-20)}, wantErr: "gzip"},
		{name: "truncated", enc: "gzip", bodies: [][]byte{good, splice(catalogHead(node, testUUID2), catalogTail)[:len(good)-9]}, wantErr: "gzip"},
		{name: "data after the member", enc: "gzip", bodies: [][]byte{good, append(splice(catalogHead(node, testUUID2), catalogTail), 0)}, wantErr: "gzip"},
		{name: "a stored block's length", enc: "gzip", bodies: [][]byte{good, flip(splice(catalogHead(node, testUUID2), catalogTail), 13)}, wantErr: "stored block"},
		{name: "not JSON", enc: "gzip", ct: "text/plain", bodies: [][]byte{good}, wantErr: "content type", firstErr: true},
		{name: "no resources, parsed in full", enc: "gzip", bodies: [][]byte{splice(catalogHead(node, testUUID1), `,"environment":"production","resources":[]}`)}, wantErr: "without resources", firstErr: true},
		{name: "a resource without a title, every answer parsed", enc: "gzip", fullAll: true, bodies: [][]byte{good, splice(catalogHead(node, testUUID2), `,"environment":"production","resources":[{"type":"File"}]}`)}, wantErr: "title"},
		{name: "invalid JSON after the head, every answer parsed", enc: "gzip", fullAll: true, bodies: [][]byte{good, splice(catalogHead(node, testUUID2), `,"environment":"production","resources":[{]}`)}, wantErr: "invalid"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newChecker(node, "production", 50, tt.fullAll)
			for i, body := range tt.bodies {
				resp := &http.Response{Header: http.Header{}}
				ct := tt.ct
				if ct == "" {
					ct = "application/json"
				}
				resp.Header.Set("Content-Type", ct)
				if tt.enc != "" {
					resp.Header.Set("Content-Encoding", tt.enc)
				}
				err := c.catalog(resp, body)
				last := i == len(tt.bodies)-1
				if tt.wantErr != "" && (last || i == 0 && tt.firstErr) {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("answer %d: %v, want %q", i, err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
			}
		})
	}
}

// TestCheckerNode: a node answer names the node (and, parsed in full, the
// environment).
func TestCheckerNode(t *testing.T) {
	c := newChecker("a.example.com", "production", 2, false)
	resp := &http.Response{Header: http.Header{"Content-Type": {"application/json"}}}
	for i, tt := range []struct {
		body string
		ok   bool
	}{
		{`{"name":"a.example.com","environment":"other"}`, false}, // the first, parsed in full
		{`{"name":"a.example.com","environment":"production"}`, true},
		{`{"name":"b.example.com","environment":"production"}`, false},
		{`{"name":"a.example.com","environment":"production"`, true},  // not parsed: the node is named
		{`{"name":"a.example.com","environment":"production"`, false}, // parsed
	} {
		if err := c.node(resp, []byte(tt.body)); (err == nil) != tt.ok {
			t.Errorf("answer %d %s: %v", i, tt.body, err)
		}
	}
}

// TestCheckerCountsFrom: a checker made for the i-th of many one-shot
// requests (the herd) parses its answer in full only when i is one of
// the sample, so that a herd does not parse every answer.
func TestCheckerCountsFrom(t *testing.T) {
	const node = "a.example.com"
	bad := splice(catalogHead(node, testUUID1), `,"environment":"production","resources":[{]}`)
	resp := &http.Response{Header: http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}}
	for i, wantErr := range map[int]bool{0: true, 3: false, 199: false, 200: true} {
		c := newChecker(node, "production", 200, false)
		c.catalogs = i
		if err := c.catalog(resp, bad); (err != nil) != wantErr {
			t.Errorf("request %d: %v, want an error %v", i, err, wantErr)
		}
	}
}
