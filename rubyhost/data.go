package rubyhost

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// maxDepth bounds the nesting of values crossing the pipe either way, so
// that neither side recurses without end on a hostile value.
const maxDepth = 512

// Encode writes v as Puppet's rich data JSON: plain JSON for strings,
// numbers, booleans, arrays and hashes with string keys, undef as null, and
// {"__ptype": T, "__pvalue": ...} for Default, Sensitive, Timestamp,
// Timespan, Binary, Regexp, hashes with other keys and data types (their
// Puppet string form, under the __ptype "Type"). A Timespan's __pvalue is
// its nanoseconds (Decode reads Puppet's string form too). Deferred is
// {"__ptype": "Deferred", "name": ..., "arguments": [...]}, as in catalogs.
//
// A Context is {"__ptype": "LookupContext"} (the session answers its
// methods); a Runtime value goes back as the object it stands for, within
// the session that made it.
func Encode(v value.Value) ([]byte, error) {
	return (&encoder{}).encode(v)
}

// encoder writes values for one session (nil: none, so no Runtime value
// can be written).
type encoder struct {
	session *Session
}

// runtimeRef is a Runtime value's Ref: the session whose Ruby holds the
// object, and its number there.
type runtimeRef struct {
	session *Session
	id      int64
}

func (e *encoder) encode(v value.Value) ([]byte, error) {
	var b bytes.Buffer
	if err := e.value(&b, v, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, x any) {
	enc, _ := json.Marshal(x) // strings and numbers only: cannot fail
	b.Write(enc)
}

func writeTyped(b *bytes.Buffer, ptype string, pvalue string) {
	b.WriteString(`{"__ptype":`)
	writeJSON(b, ptype)
	b.WriteString(`,"__pvalue":`)
	writeJSON(b, pvalue)
	b.WriteByte('}')
}

func (e *encoder) value(b *bytes.Buffer, v value.Value, depth int) error {
	if depth > maxDepth {
		return errors.New("value nested too deeply to pass to Ruby")
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case value.String:
		writeJSON(b, string(v))
	case value.Integer:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case value.Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("cannot pass the Float %v to Ruby", f)
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		// A float must stay a Float on the Ruby side: 1.0, not 1.
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		b.WriteString(s)
	case value.Boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case value.Array:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := e.value(b, x, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *value.Hash:
		plain := true
		for _, k := range v.Keys() {
			if s, ok := k.(value.String); !ok || s == "__ptype" {
				plain = false
				break
			}
		}
		if plain {
			b.WriteByte('{')
		} else {
			b.WriteString(`{"__ptype":"Hash","__pvalue":[`)
		}
		for i, k := range v.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := e.value(b, k, depth+1); err != nil {
				return err
			}
			if plain {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			if err := e.value(b, v.Values()[i], depth+1); err != nil {
				return err
			}
		}
		if plain {
			b.WriteByte('}')
		} else {
			b.WriteString("]}")
		}
	case *value.Sensitive:
		b.WriteString(`{"__ptype":"Sensitive","__pvalue":`)
		if err := e.value(b, v.Value, depth+1); err != nil {
			return err
		}
		b.WriteByte('}')
	case *value.Timestamp:
		writeTyped(b, "Timestamp", v.String())
	case *value.Timespan:
		// In nanoseconds: Puppet's string form drops the fraction's
		// leading zeros and cannot be read back exactly.
		fmt.Fprintf(b, `{"__ptype":"Timespan","__pvalue":%d}`, int64(v.D))
	case *value.Binary:
		writeTyped(b, "Binary", v.String())
	case *value.Regexp:
		writeTyped(b, "Regexp", v.Source)
	case *value.Deferred:
		b.WriteString(`{"__ptype":"Deferred","name":`)
		writeJSON(b, v.Name)
		b.WriteString(`,"arguments":`)
		if v.Args == nil {
			b.WriteString("null")
		} else if err := e.value(b, v.Args, depth+1); err != nil {
			return err
		}
		b.WriteByte('}')
	case value.Type:
		writeTyped(b, "Type", value.TypeString(v))
	case Context:
		b.WriteString(`{"__ptype":"LookupContext"}`)
	case *value.Runtime:
		ref, ok := v.Ref.(runtimeRef)
		if !ok || e.session == nil || ref.session != e.session {
			return fmt.Errorf("cannot pass the Ruby %s %q to another Ruby helper session", v.Class, v.Text)
		}
		fmt.Fprintf(b, `{"__ptype":"Runtime","__pvalue":{"id":%d}}`, ref.id)
	default:
		switch {
		case value.IsUndef(v):
			b.WriteString("null")
		case value.IsDefault(v):
			b.WriteString(`{"__ptype":"Default"}`)
		default:
			return fmt.Errorf("cannot pass a %s to Ruby", value.TypeString(value.TypeOf(v)))
		}
	}
	return nil
}

// TypeParser turns a Puppet type's string form into the type, for data
// types coming back from Ruby ("Type" rich data).
type TypeParser func(string) (value.Value, error)

// Decode reads rich data JSON (as Encode writes it) into a value, keeping
// hash order. parseType reads data types; nil rejects them.
func Decode(data []byte, parseType TypeParser) (value.Value, error) {
	return decode(data, parseType, nil)
}

// decode reads rich data from session s, where Runtime values come from.
func (s *Session) decode(data []byte, parseType TypeParser) (value.Value, error) {
	return decode(data, parseType, s)
}

func decode(data []byte, parseType TypeParser, s *Session) (value.Value, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	dec := &decoder{d: d, parseType: parseType, session: s}
	v, err := dec.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("rich data: trailing data after the value")
	}
	return v, nil
}

type decoder struct {
	d         *json.Decoder
	parseType TypeParser
	session   *Session
}

func (dec *decoder) value(depth int) (value.Value, error) {
	if depth > maxDepth {
		return nil, errors.New("rich data: value nested too deeply")
	}
	tok, err := dec.d.Token()
	if err != nil {
		return nil, fmt.Errorf("rich data: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return value.Undef, nil
	case bool:
		return value.Boolean(t), nil
	case string:
		return value.String(t), nil
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("rich data: integer %s is out of Puppet's range", s)
			}
			return value.Integer(n), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("rich data: float %s is out of range", s)
		}
		return value.Float(f), nil
	case json.Delim:
		if t == '[' {
			arr := value.Array{}
			for dec.d.More() {
				x, err := dec.value(depth + 1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, x)
			}
			_, err := dec.d.Token()
			return arr, err
		}
		return dec.object(depth)
	}
	return nil, fmt.Errorf("rich data: unexpected %v", tok)
}

// object reads a JSON object after its '{': a plain hash, or a rich value
// when its first key is __ptype.
func (dec *decoder) object(depth int) (value.Value, error) {
	var keys []string
	var vals []value.Value
	for dec.d.More() {
		kt, err := dec.d.Token()
		if err != nil {
			return nil, fmt.Errorf("rich data: %w", err)
		}
		k, _ := kt.(string)
		v, err := dec.value(depth + 1)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	if _, err := dec.d.Token(); err != nil {
		return nil, fmt.Errorf("rich data: %w", err)
	}
	field := func(name string) (value.Value, bool) {
		for i, k := range keys {
			if k == name {
				return vals[i], true
			}
		}
		return nil, false
	}
	ptype, typed := field("__ptype")
	if !typed {
		b := value.NewHashBuilder(len(keys))
		for i, k := range keys {
			b.Set(value.String(k), vals[i])
		}
		return b.Build(), nil
	}
	pv, _ := field("__pvalue")
	str := func() (string, error) {
		s, ok := pv.(value.String)
		if !ok {
			return "", fmt.Errorf("rich data: %v needs a String __pvalue", ptype)
		}
		return string(s), nil
	}
	name, _ := ptype.(value.String)
	switch name {
	case "Default":
		return value.Default, nil
	case "Sensitive":
		return &value.Sensitive{Value: pv}, nil
	case "Hash":
		arr, ok := pv.(value.Array)
		if !ok || len(arr)%2 != 0 {
			return nil, errors.New("rich data: Hash needs an even Array __pvalue")
		}
		b := value.NewHashBuilder(len(arr) / 2)
		for i := 0; i < len(arr); i += 2 {
			b.Set(arr[i], arr[i+1])
		}
		return b.Build(), nil
	case "Binary":
		s, err := str()
		if err != nil {
			return nil, err
		}
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("rich data: Binary: %v", err)
		}
		return &value.Binary{Data: data}, nil
	case "Timestamp":
		s, err := str()
		if err != nil {
			return nil, err
		}
		t, err := time.Parse("2006-01-02T15:04:05.999999999 UTC", s)
		if err != nil {
			return nil, fmt.Errorf("rich data: Timestamp %q: %v", s, err)
		}
		return &value.Timestamp{T: t}, nil
	case "Timespan":
		if n, ok := pv.(value.Integer); ok {
			return &value.Timespan{D: time.Duration(n)}, nil
		}
		s, err := str()
		if err != nil {
			return nil, err
		}
		d, err := parseTimespan(s)
		if err != nil {
			return nil, err
		}
		return &value.Timespan{D: d}, nil
	case "Regexp":
		s, err := str()
		if err != nil {
			return nil, err
		}
		re, err := value.NewRegexp(s)
		if err != nil {
			return nil, fmt.Errorf("rich data: Regexp: %v", err)
		}
		return re, nil
	case "Deferred":
		fn, _ := field("name")
		fname, ok := fn.(value.String)
		if !ok {
			return nil, errors.New("rich data: Deferred needs a String name")
		}
		d := &value.Deferred{Name: string(fname)}
		if a, ok := field("arguments"); ok && !value.IsUndef(a) {
			arr, ok := a.(value.Array)
			if !ok {
				return nil, errors.New("rich data: Deferred arguments must be an Array")
			}
			d.Args = arr
		}
		return d, nil
	case "Runtime":
		obj, ok := pv.(*value.Hash)
		if !ok || dec.session == nil {
			return nil, errors.New("rich data: a Runtime value needs a Hash __pvalue, from a session")
		}
		id, _ := obj.Get(value.String("id"))
		class, _ := obj.Get(value.String("class"))
		text, _ := obj.Get(value.String("text"))
		n, ok := id.(value.Integer)
		if !ok {
			return nil, errors.New("rich data: a Runtime value needs an Integer id")
		}
		return &value.Runtime{Class: value.ToString(class), Text: value.ToString(text), Ref: runtimeRef{dec.session, int64(n)}}, nil
	case "Type":
		s, err := str()
		if err != nil {
			return nil, err
		}
		if dec.parseType == nil {
			return nil, fmt.Errorf("rich data: cannot read the type %s here", s)
		}
		return dec.parseType(s)
	}
	return nil, fmt.Errorf("rich data: unknown __ptype %v", ptype)
}

// parseTimespan reads a Timespan's default string form, "D-HH:MM:SS.F"
// with an optional leading '-', where F is the fraction of a second as
// Puppet prints it (the nanoseconds without trailing zeros).
func parseTimespan(s string) (time.Duration, error) {
	bad := fmt.Errorf("rich data: Timespan %q is not D-HH:MM:SS.F", s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	days, rest, ok := strings.Cut(s, "-")
	if !ok {
		return 0, bad
	}
	hms, frac, _ := strings.Cut(rest, ".")
	parts := strings.Split(hms, ":")
	if len(parts) != 3 {
		return 0, bad
	}
	var total int64
	for i, p := range append([]string{days}, parts...) {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return 0, bad
		}
		total = total*[]int64{1, 24, 60, 60}[i] + n
	}
	ns := total * int64(time.Second)
	if frac != "" {
		n, err := strconv.ParseInt(frac, 10, 64)
		if err != nil || n < 0 || len(frac) > 9 {
			return 0, bad
		}
		// Puppet prints the nanoseconds as a number without trailing
		// zeros: the digits are the leading ones of the nine.
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		ns += n
	}
	if neg {
		ns = -ns
	}
	return time.Duration(ns), nil
}
