package catalog

import (
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// WriteJSON writes the catalog as compact JSON with Puppet's key order, the way
// `puppet catalog compile --render-as json` does, with rich data when the
// catalog's RichData says so (Puppet 8). It streams: no intermediate maps,
// no reflection.
func (c *Catalog) WriteJSON(w io.Writer) error {
	return c.writeJSON(w, c.RichData)
}

// WriteRichJSON writes the catalog as WriteJSON does, but with rich data
// (Puppet's rich_data format, application/vnd.puppet.rich+json): Deferred,
// Timestamp, Timespan, Binary, Regexp and default values, and hashes with
// keys other than strings, are written as __ptype objects that the agent
// turns back into those values. Agents ask for it; Puppet 8 writes it by
// default.
func (c *Catalog) WriteRichJSON(w io.Writer) error {
	return c.writeJSON(w, true)
}

func (c *Catalog) writeJSON(w io.Writer, rich bool) error {
	bp := bufPool.Get().(*[]byte)
	e := encoder{w: w, buf: (*bp)[:0], rich: rich}
	defer func() {
		// A buffer a huge value grew is left to the collector.
		if cap(e.buf) <= 4*flushSize {
			*bp = e.buf
			bufPool.Put(bp)
		}
	}()
	e.raw(`{"tags":`)
	e.strings(c.Tags)
	e.raw(`,"name":`)
	e.str(c.Name)
	e.raw(`,"version":`)
	if c.ConfigVersion != "" {
		e.str(c.ConfigVersion)
	} else {
		e.int(c.Version)
	}
	e.raw(`,"code_id":`)
	if c.CodeID == "" {
		e.raw("null")
	} else {
		e.str(c.CodeID)
	}
	e.raw(`,"catalog_uuid":`)
	e.str(c.UUID)
	e.raw(`,"catalog_format":2,"environment":`)
	e.str(c.Environment)
	e.raw(`,"resources":[`)
	for i, r := range c.Resources {
		if i > 0 {
			e.raw(",")
		}
		e.resource(r)
		e.flushIfFull()
	}
	e.raw(`],"edges":[`)
	for i, ed := range c.Edges {
		if i > 0 {
			e.raw(",")
		}
		e.raw(`{"source":`)
		e.ref(ed.Source.Type, ed.Source.Title)
		e.raw(`,"target":`)
		e.ref(ed.Target.Type, ed.Target.Title)
		e.raw("}")
		e.flushIfFull()
	}
	e.raw(`],"classes":`)
	e.strings(c.Classes)
	e.raw("}\n")
	e.flush()
	return e.err
}

// flushSize is how much JSON the encoder gathers before writing it out.
// Measured on fleet runs (perf, 1,000 medium catalogs of 575 KB into
// files): the kernel's share of write() was 6.0% of the run with 16 KB
// pieces, 4.6% with 32 KB, 3.3-3.4% with 64 and 128 KB, and 7.9-11% with
// 256 KB, whose copy into the page cache no longer finds the piece in the
// cache.
const flushSize = 64 << 10

// bufPool holds the encoders' buffers: a fleet or a compile server writes
// one catalog after another, each needing as much room.
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 2*flushSize)
	return &b
}}

// encoder appends JSON to buf, which is handed to w after each resource or
// edge once it holds flushSize bytes: appends to a slice are much cheaper
// than the many small writes a bufio.Writer would take. With a nil w,
// everything stays in buf.
type encoder struct {
	buf []byte
	w   io.Writer
	err error // the first write error
	// rich writes values Puppet's rich data way (see WriteRichJSON).
	rich bool
}

func (e *encoder) flushIfFull() {
	if len(e.buf) >= flushSize {
		e.flush()
	}
}

func (e *encoder) flush() {
	if e.w == nil {
		return
	}
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) raw(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) byte(c byte) { e.buf = append(e.buf, c) }

// int writes an integer without building a string.
func (e *encoder) int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

// ref writes the JSON string of the reference Type[Title], without building
// the reference string (edges and relationship parameters have thousands).
func (e *encoder) ref(typ, title string) {
	e.byte('"')
	e.escaped(typ)
	e.byte('[')
	e.escaped(title)
	e.raw(`]"`)
}

func (e *encoder) resource(r *Resource) {
	e.raw(`{"type":`)
	e.str(r.Type)
	e.raw(`,"title":`)
	e.str(r.Title)
	e.raw(`,"tags":`)
	e.strings(r.Tags)
	if r.File != "" {
		e.raw(`,"file":`)
		e.str(r.File)
		e.raw(`,"line":`)
		e.int(int64(r.Line))
	}
	e.raw(`,"exported":`)
	e.buf = strconv.AppendBool(e.buf, r.Exported)
	e.raw(`,"kind":`)
	e.str(string(r.Kind))
	if len(r.Params) > 0 {
		e.raw(`,"parameters":{`)
		for i, p := range r.Params {
			if i > 0 {
				e.raw(",")
			}
			e.str(p.Name)
			e.raw(":")
			pv := p.Value
			if s, ok := pv.(*value.Sensitive); ok {
				pv = s.Value
			}
			e.value(pv)
		}
		e.raw("}")
	}
	if len(r.Sensitive) > 0 {
		e.raw(`,"sensitive_parameters":`)
		e.strings(r.Sensitive)
	}
	e.raw("}")
}

func (e *encoder) strings(ss []string) {
	e.raw("[")
	for i, s := range ss {
		if i > 0 {
			e.raw(",")
		}
		e.str(s)
	}
	e.raw("]")
}

// value writes a parameter value the way Puppet's catalog serialization does:
// undef nested in a collection is null, references and other types are their
// string forms, a parameter's own Sensitive value arrives unwrapped (listed in
// sensitive_parameters by the compiler), a nested one is a __ptype object.
func (e *encoder) value(v value.Value) {
	switch v := v.(type) {
	case nil:
		e.raw("null")
	case value.String:
		e.str(string(v))
	case value.Integer:
		e.int(int64(v))
	case value.Float:
		e.raw(value.FormatFloat(float64(v)))
	case value.Boolean:
		e.buf = strconv.AppendBool(e.buf, bool(v))
	case value.Array:
		e.raw("[")
		for i, x := range v {
			if i > 0 {
				e.raw(",")
			}
			e.value(x)
		}
		e.raw("]")
	case *value.Hash:
		if e.rich && !plainHash(v) {
			e.raw(`{"__ptype":"Hash","__pvalue":[`)
			for i, k := range v.Keys() {
				if i > 0 {
					e.raw(",")
				}
				e.value(k)
				e.raw(",")
				e.value(v.Values()[i])
			}
			e.raw("]}")
			return
		}
		e.raw("{")
		for i, k := range v.Keys() {
			if i > 0 {
				e.raw(",")
			}
			e.str(value.ToString(k))
			e.raw(":")
			e.value(v.Values()[i])
		}
		e.raw("}")
	case *value.Sensitive:
		// A parameter's own Sensitive value is unwrapped by the compiler;
		// one nested in a collection is written as Puppet 7 writes it, as
		// rich data even in a catalog without it.
		e.raw(`{"__ptype":"Sensitive","__pvalue":`)
		e.value(v.Value)
		e.raw("}")
	case *value.Deferred:
		if !e.rich {
			e.str(v.String())
			return
		}
		e.raw(`{"__ptype":"Deferred","name":`)
		e.str(v.Name)
		if v.Args != nil {
			e.raw(`,"arguments":`)
			e.value(v.Args)
		}
		e.raw("}")
	case *value.Timestamp, *value.Timespan, *value.Binary, *value.Regexp, *value.SemVer, *value.SemVerRange:
		if !e.rich {
			e.str(value.ToString(v))
			return
		}
		e.raw(`{"__ptype":`)
		switch v := v.(type) {
		case *value.Timestamp:
			e.raw(`"Timestamp","__pvalue":`)
			e.str(v.String())
		case *value.Timespan:
			e.raw(`"Timespan","__pvalue":`)
			e.str(v.String())
		case *value.Binary:
			e.raw(`"Binary","__pvalue":`)
			e.str(v.String())
		case *value.Regexp:
			e.raw(`"Regexp","__pvalue":`)
			e.str(v.Source)
		case *value.SemVer:
			e.raw(`"SemVer","__pvalue":`)
			e.str(v.String())
		case *value.SemVerRange:
			e.raw(`"SemVerRange","__pvalue":`)
			e.str(v.String())
		}
		e.raw("}")
	case *value.ResourceType:
		if v.Title != "" {
			e.ref(v.Type, v.Title)
		} else {
			e.str(value.TypeString(v))
		}
	case *value.ClassType:
		if v.Name != "" {
			e.ref("Class", value.CapitalizeName(v.Name))
		} else {
			e.str("Class")
		}
	default:
		if value.IsUndef(v) {
			e.raw("null")
			return
		}
		if e.rich && v == value.Default {
			e.raw(`{"__ptype":"Default"}`)
			return
		}
		e.str(value.ToString(v))
	}
}

// plainHash reports whether rich data writes h as a JSON object: every key
// a string, none of them __ptype (which would read back as a rich value).
func plainHash(h *value.Hash) bool {
	for _, k := range h.Keys() {
		s, ok := k.(value.String)
		if !ok || s == "__ptype" {
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// str writes a JSON string as Ruby's JSON generator does: only ", \ and control
// characters are escaped; '/', '<', '>', '&' and non-ASCII are written as is.
func (e *encoder) str(s string) {
	e.byte('"')
	e.escaped(s)
	e.byte('"')
}

// escaped writes the inside of str's JSON string. Escaping goes character by
// character, so writing a string in parts escapes it as a whole would be.
func (e *encoder) escaped(s string) {
	b := e.buf
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: most of a
		// catalog's strings are plain ASCII. One test finds, in all eight
		// lanes of a word at once, a non-ASCII byte (its high bit) or,
		// when all are ASCII, a byte below 0x20, a '"' or a '\\' (the
		// subtraction borrows in that lane and sets its high bit; a lane
		// borrows from the one below only when that one was found).
		for i+8 <= len(s) {
			t := s[i : i+8]
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			const ones, highs = 0x0101010101010101, 0x8080808080808080
			if (w|(w-0x20*ones)|((w^'"'*ones)-ones)|((w^'\\'*ones)-ones))&highs != 0 {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		// Fewer than eight bytes left, or a word that needs a look: the
		// last eight (or, in a shorter string, the first and last four)
		// bytes, overlapping what was looked at, end the string when
		// they are plain.
		if n := len(s); n-i < 8 && n >= 4 {
			var w uint64
			if n >= 8 {
				t := s[n-8:]
				w = uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
					uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			} else {
				h, t := s[:4], s[n-4:]
				w = uint64(h[0]) | uint64(h[1])<<8 | uint64(h[2])<<16 | uint64(h[3])<<24 |
					uint64(t[0])<<32 | uint64(t[1])<<40 | uint64(t[2])<<48 | uint64(t[3])<<56
			}
			const ones, highs = 0x0101010101010101, 0x8080808080808080
			if (w|(w-0x20*ones)|((w^'"'*ones)-ones)|((w^'\\'*ones)-ones))&highs == 0 {
				break
			}
		}
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				// Invalid UTF-8: write the replacement character, as a
				// valid JSON document must not carry raw invalid bytes.
				b = append(b, s[start:i]...)
				b = append(b, "\ufffd"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	e.buf = append(b, s[start:]...)
}

// plainByte marks the bytes JSON writes as they are: printable ASCII
// other than '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// ValueJSON encodes one value as Puppet's JSON rendering does (the same
// rules as catalog parameters).
func ValueJSON(v value.Value) []byte {
	var e encoder
	e.value(v)
	return e.buf
}
