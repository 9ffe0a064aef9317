package server

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// formType is the media type of an agent's catalog request body.
const formType = "application/x-www-form-urlencoded"

// parsePostForm is r.ParseForm for a POST whose body is exactly of
// formType (an agent's catalog request): the same Form and PostForm, the
// same errors, with the body unescaped in runs instead of a byte at a
// time (the facts are a form value escaped twice, ~30 KB for 10 KB of
// facts). Anything else, and any body the fast unescape does not take,
// goes through net/url as before. handled is false when r is not such a
// request (nothing was read).
func parsePostForm(r *http.Request) (handled bool, err error) {
	if r.Method != http.MethodPost || r.PostForm != nil || r.Header.Get("Content-Type") != formType || len(r.Header.Values("Content-Type")) != 1 {
		return false, nil
	}
	bb := formBuffers.Get().(*bytes.Buffer)
	defer putFormBuffer(bb)
	bb.Reset()
	if _, err := bb.ReadFrom(r.Body); err != nil {
		return true, err
	}
	body := bb.Bytes()
	values, ok := parseQueryFast(body)
	if !ok {
		values, err = url.ParseQuery(string(body))
	}
	r.PostForm = values
	// With PostForm set, ParseForm only adds the URL's query to Form.
	if qerr := r.ParseForm(); err == nil {
		err = qerr
	}
	return true, err
}

// parseQueryFast is url.ParseQuery of a body without a semicolon or a
// malformed escape (ok false: ParseQuery words the error).
func parseQueryFast(body []byte) (url.Values, bool) {
	values := make(url.Values, 8)
	bb := formBuffers.Get().(*bytes.Buffer)
	defer putFormBuffer(bb)
	bb.Reset()
	buf := bb.AvailableBuffer()
	defer func() { *bb = *bytes.NewBuffer(buf[:0]) }()
	for len(body) > 0 {
		var part []byte
		if i := bytes.IndexByte(body, '&'); i >= 0 {
			part, body = body[:i], body[i+1:]
		} else {
			part, body = body, nil
		}
		if len(part) == 0 {
			continue
		}
		if bytes.IndexByte(part, ';') >= 0 {
			return nil, false
		}
		key, val := part, []byte(nil)
		if i := bytes.IndexByte(part, '='); i >= 0 {
			key, val = part[:i], part[i+1:]
		}
		var ok bool
		buf, ok = appendUnescape(buf[:0], key)
		if !ok {
			return nil, false
		}
		k := string(buf)
		buf, ok = appendUnescape(buf[:0], val)
		if !ok {
			return nil, false
		}
		values[k] = append(values[k], string(buf))
	}
	return values, true
}

// formBuffers hold form bodies while they are parsed (the values are
// copies).
var formBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putFormBuffer pools a buffer that is not too large to keep.
func putFormBuffer(b *bytes.Buffer) {
	if b.Cap() <= 1<<20 {
		formBuffers.Put(b)
	}
}

// appendUnescape appends s unescaped as a query component ('+' is a
// space, %XX a byte) to dst; ok is false for a malformed escape.
func appendUnescape[T string | []byte](dst []byte, s T) ([]byte, bool) {
	if cap(dst)-len(dst) < len(s) {
		dst = append(make([]byte, 0, len(dst)+len(s)), dst...)
	}
	start := 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '+':
			dst = append(dst, s[start:i]...)
			dst = append(dst, ' ')
			i++
			start = i
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return dst, false
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 3
			start = i
		default:
			i++
		}
	}
	return append(dst, s[start:]...), true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// wireFacts are the facts of a catalog request as the agent sent them,
// checked without building values: the facts object is compact JSON
// (stored as it is) that site.DecodeFacts decodes, and names the node.
// Their values are decoded only when a compile needs them.
type wireFacts struct {
	certname string
	data     []byte // the facts object
	values   []byte // the text of its values ("{}" when null or absent)
	fields   []readset.JSONFact
	decoded  *value.Hash
	// canonical: the values' text is what catalog.ValueJSON writes for
	// the values decoded, but perhaps for a name repeated at the top
	// (nested ones are checked): plain ASCII strings and names, numbers
	// written as Puppet writes them.
	canonical bool
}

// scanWireFacts checks data as wireFacts; ok is false when it is not
// compact, does not decode, or holds what the scan leaves to the decoder
// (an escaped key at the top, "name" or "values" twice or in another
// case, more values than site.MaxFacts): site.DecodeFacts then decodes
// it, or words its error.
func scanWireFacts(data []byte, certname string) (*wireFacts, bool) {
	sc := factsScanners.Get().(*factsScanner)
	defer factsScanners.Put(sc)
	*sc = factsScanner{d: data, fields: sc.fields[:0], canon: true}
	f := &wireFacts{certname: certname, data: data}
	if !sc.top(f) || sc.pos != len(data) || sc.count-1 > site.MaxFacts {
		return nil, false
	}
	f.fields = append([]readset.JSONFact(nil), sc.fields...)
	f.canonical = sc.canon
	return f, true
}

// factsScanners keep their fields' slice from one request to the next.
var factsScanners = sync.Pool{New: func() any { return new(factsScanner) }}

// uniqueNames reports whether no name is repeated at the top of the
// values.
func (f *wireFacts) uniqueNames() bool {
	seen := make(map[string]struct{}, len(f.fields))
	for _, x := range f.fields {
		if _, dup := seen[string(x.Name)]; dup {
			return false
		}
		seen[string(x.Name)] = struct{}{}
	}
	return true
}

// hash decodes the facts' values (once).
func (f *wireFacts) hash() (*value.Hash, error) {
	if f.decoded == nil {
		h, _, err := parseFacts(f.data, f.certname)
		if err != nil {
			return nil, err
		}
		f.decoded = h
	}
	return f.decoded, nil
}

// factsScanner walks compact JSON as dataformat's decoder does, checking
// what it would accept, building nothing.
type factsScanner struct {
	d      []byte
	pos    int
	count  int // values in the facts' values, that hash included
	counts bool
	canon  bool // (counts) all scanned is canonical (wireFacts)
	fields []readset.JSONFact
}

// top scans the facts object: name must be certname, values a hash or
// null.
func (s *factsScanner) top(f *wireFacts) bool {
	if !s.at('{') {
		return false
	}
	s.pos++
	sawName, sawValues := false, false
	if s.at('}') {
		return false // no name
	}
	for {
		ks, ke, plain, ok := s.str()
		if !ok || !plain {
			return false
		}
		key := s.d[ks:ke]
		if !s.at(':') {
			return false
		}
		s.pos++
		switch {
		case string(key) == "name":
			if sawName {
				return false
			}
			ns, ne, plain, ok := s.str()
			if !ok || !plain || string(s.d[ns:ne]) != f.certname {
				return false
			}
			sawName = true
		case string(key) == "values":
			if sawValues {
				return false
			}
			sawValues = true
			vs := s.pos
			switch {
			case s.at('{'):
				s.counts = true
				if !s.object(1, true) {
					return false
				}
				s.counts = false
				f.values = s.d[vs:s.pos]
			case s.literal("null"):
				f.values = []byte("{}")
			default:
				return false
			}
		case strings.EqualFold(string(key), "name") || strings.EqualFold(string(key), "values"):
			return false
		default:
			if !s.value(1) {
				return false
			}
		}
		switch {
		case s.at(','):
			s.pos++
		case s.at('}'):
			s.pos++
			if !sawValues {
				f.values = []byte("{}")
			}
			return sawName
		default:
			return false
		}
	}
}

func (s *factsScanner) at(c byte) bool { return s.pos < len(s.d) && s.d[s.pos] == c }

// value scans one value at depth (that of its container).
func (s *factsScanner) value(depth int) bool {
	if s.pos >= len(s.d) {
		return false
	}
	if s.counts {
		s.count++
	}
	switch c := s.d[s.pos]; {
	case c == '{':
		return s.object(depth, false)
	case c == '[':
		if depth++; depth > dataformat.MaxJSONDepth {
			return false
		}
		s.pos++
		if s.at(']') {
			s.pos++
			return true
		}
		for {
			if !s.value(depth) {
				return false
			}
			switch {
			case s.at(','):
				s.pos++
			case s.at(']'):
				s.pos++
				return true
			default:
				return false
			}
		}
	case c == '"':
		_, _, plain, ok := s.str()
		if !plain {
			s.canon = false
		}
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

// object scans an object at s.pos; facts records its fields (the facts'
// values, counted as one value themselves).
func (s *factsScanner) object(depth int, facts bool) bool {
	if depth++; depth > dataformat.MaxJSONDepth {
		return false
	}
	if facts {
		s.count++
	}
	s.pos++
	if s.at('}') {
		s.pos++
		return true
	}
	// The names of a nested object, to tell a repeated one (a hash has
	// it once): a large object is not canonical, as far as the scan
	// knows.
	var names [16][2]int
	n := 0
	for {
		ks, ke, plain, ok := s.str()
		if !ok || !s.at(':') {
			return false
		}
		if s.counts && s.canon {
			switch {
			case !plain:
				s.canon = false
			case !facts && n == len(names):
				s.canon = false
			case !facts:
				for _, o := range names[:n] {
					if string(s.d[o[0]:o[1]]) == string(s.d[ks:ke]) {
						s.canon = false
					}
				}
				names[n] = [2]int{ks, ke}
				n++
			}
		}
		s.pos++
		vs := s.pos
		if !s.value(depth) {
			return false
		}
		if facts {
			s.fields = append(s.fields, readset.JSONFact{Name: s.d[ks:ke], Value: s.d[vs:s.pos]})
		}
		switch {
		case s.at(','):
			s.pos++
		case s.at('}'):
			s.pos++
			return true
		default:
			return false
		}
	}
}

func (s *factsScanner) literal(word string) bool {
	if len(s.d)-s.pos < len(word) || string(s.d[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// str scans the string at s.pos: its inside is d[start:end]; plain when
// it is ASCII without escapes. Escapes must be JSON's.
func (s *factsScanner) str() (start, end int, plain, ok bool) {
	if !s.at('"') {
		return 0, 0, false, false
	}
	start = s.pos + 1
	plain = true
	d := s.d
	for i := start; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return start, i, plain, true
		case c == '\\':
			plain = false
			if i+1 >= len(d) {
				return 0, 0, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(d) || !isHex(d[i+2]) || !isHex(d[i+3]) || !isHex(d[i+4]) || !isHex(d[i+5]) {
					return 0, 0, false, false
				}
				i += 5
			default:
				return 0, 0, false, false
			}
		case c < 0x20:
			return 0, 0, false, false
		case c >= 0x80:
			plain = false
		}
	}
	return 0, 0, false, false
}

// number scans a JSON number that decodes: an integer of 64 bits, or a
// float in range.
func (s *factsScanner) number() bool {
	d := s.d
	start, i := s.pos, s.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intDigits := 0
	if i < len(d) && d[i] == '0' {
		i++
		intDigits = 1
	} else if intDigits = digits(); intDigits == 0 {
		return false
	}
	integral := true
	if i < len(d) && d[i] == '.' {
		i++
		integral = false
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		integral = false
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	s.pos = i
	lit := d[start:i]
	if integral && intDigits <= 18 {
		if string(lit) == "-0" {
			s.canon = false // the Integer 0
		}
		return true
	}
	if integral {
		if _, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			return true
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err == nil && s.counts && s.canon && value.FormatFloat(f) != string(lit) {
		s.canon = false
	}
	return err == nil
}

// catalogFacts are a catalog request's facts: as sent (wire), decoded
// only when a compile needs them, or decoded (the node's stored facts,
// or facts the scan left to the decoder).
type catalogFacts struct {
	wire *wireFacts
	hash *value.Hash
}

// values are the facts decoded.
func (f *catalogFacts) values() (*value.Hash, error) {
	if f.wire != nil {
		return f.wire.hash()
	}
	return f.hash, nil
}

// digest digests the facts a compile read (readset.FactReads' names and
// all): from their text when they came as text with plain names, else
// from their values; the two kinds never compare equal.
func (f *catalogFacts) digest(names []string, all bool) (string, error) {
	if f.wire != nil {
		if d, ok := readset.FactsDigestJSON(f.wire.values, f.wire.fields, names, all); ok {
			return "json:" + d, nil
		}
	}
	h, err := f.values()
	if err != nil {
		return "", err
	}
	return "values:" + readset.FactsDigest(h, names, all), nil
}
