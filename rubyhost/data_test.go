package rubyhost

import (
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/value"
)

func mustRegexp(t testing.TB, s string) *value.Regexp {
	re, err := value.NewRegexp(s)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

func TestEncode(t *testing.T) {
	ts := &value.Timestamp{T: time.Date(2024, 2, 3, 4, 5, 6, 7, time.UTC)}
	for _, tc := range []struct {
		v    value.Value
		want string
	}{
		{value.Undef, `null`},
		{value.String("a\"b"), `"a\"b"`},
		{value.Integer(-3), `-3`},
		{value.Float(1), `1.0`},
		{value.Float(1.5e300), `1.5e+300`},
		{value.True, `true`},
		{value.Default, `{"__ptype":"Default"}`},
		{value.Array{value.Undef, value.Integer(1)}, `[null,1]`},
		{value.NewHash(value.String("b"), value.Integer(1), value.String("a"), value.Integer(2)), `{"b":1,"a":2}`},
		{value.NewHash(value.Integer(1), value.String("x")), `{"__ptype":"Hash","__pvalue":[1,"x"]}`},
		{value.NewHash(value.String("__ptype"), value.String("x")), `{"__ptype":"Hash","__pvalue":["__ptype","x"]}`},
		{&value.Sensitive{Value: value.String("pw")}, `{"__ptype":"Sensitive","__pvalue":"pw"}`},
		{ts, `{"__ptype":"Timestamp","__pvalue":"2024-02-03T04:05:06.000000007 UTC"}`},
		{&value.Timespan{D: 5006007}, `{"__ptype":"Timespan","__pvalue":5006007}`},
		{&value.Binary{Data: []byte("hello")}, `{"__ptype":"Binary","__pvalue":"aGVsbG8="}`},
		{mustRegexp(t, "ab+"), `{"__ptype":"Regexp","__pvalue":"ab+"}`},
		{&value.Deferred{Name: "f", Args: value.Array{value.Integer(1)}}, `{"__ptype":"Deferred","name":"f","arguments":[1]}`},
		{&value.Deferred{Name: "f"}, `{"__ptype":"Deferred","name":"f","arguments":null}`},
		{value.AnyType, `{"__ptype":"Type","__pvalue":"Any"}`},
		{&value.IntegerType{Min: 1, Max: 2}, `{"__ptype":"Type","__pvalue":"Integer[1, 2]"}`},
	} {
		got, err := Encode(tc.v)
		if err != nil {
			t.Errorf("Encode(%v): %v", tc.v, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("Encode(%v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	deep := value.Value(value.Integer(1))
	for range maxDepth + 2 {
		deep = value.Array{deep}
	}
	for _, v := range []value.Value{deep, value.Float(posInf())} {
		if _, err := Encode(v); err == nil {
			t.Errorf("Encode accepted %T", v)
		}
	}
}

func posInf() float64 { z := 0.0; return 1 / z }

// parseTypeStub reads the few types the tests use.
func parseTypeStub(s string) (value.Value, error) {
	if s == "Any" {
		return value.AnyType, nil
	}
	return &value.TypeReference{Name: s}, nil
}

func TestDecodeRoundTrip(t *testing.T) {
	vals := []value.Value{
		value.Undef, value.String("é\n"), value.Integer(-9223372036854775808), value.Float(0.25), value.Float(2), value.False, value.Default,
		value.Array{value.Array{}, value.NewHash()},
		value.NewHash(value.String("z"), value.Integer(1), value.String("a"), value.Array{value.Undef}),
		value.NewHash(value.Integer(1), value.Default, value.String("k"), value.Float(1)),
		&value.Sensitive{Value: value.NewHash(value.String("p"), value.String("w"))},
		&value.Timestamp{T: time.Date(1999, 12, 31, 23, 59, 59, 123456789, time.UTC)},
		&value.Timespan{D: -90061 * time.Second}, &value.Timespan{D: 5006007},
		&value.Binary{Data: []byte{0, 255, 1}},
		mustRegexp(t, `^a\d+$`),
		&value.Deferred{Name: "f", Args: value.Array{value.String("x")}}, &value.Deferred{Name: "g"},
		value.AnyType,
	}
	for _, v := range vals {
		enc, err := Encode(v)
		if err != nil {
			t.Fatalf("Encode(%v): %v", v, err)
		}
		back, err := Decode(enc, parseTypeStub)
		if err != nil {
			t.Errorf("Decode(%s): %v", enc, err)
			continue
		}
		if !sameValue(v, back) {
			t.Errorf("%s came back as %#v", enc, back)
		}
	}
}

// sameValue is Equal made strict about what Equal forgives: string case,
// Integer against Float, and Sensitive's content.
func sameValue(a, b value.Value) bool {
	switch a := a.(type) {
	case value.String:
		return a == b
	case value.Float, value.Integer:
		return a == b
	case value.Array:
		bb, ok := b.(value.Array)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], bb[i]) {
				return false
			}
		}
		return true
	case *value.Hash:
		bh, ok := b.(*value.Hash)
		if !ok || a.Len() != bh.Len() {
			return false
		}
		for i := range a.Keys() {
			ka, va := a.At(i)
			kb, vb := bh.At(i)
			if !sameValue(ka, kb) || !sameValue(va, vb) {
				return false
			}
		}
		return true
	case *value.Sensitive:
		bs, ok := b.(*value.Sensitive)
		return ok && sameValue(a.Value, bs.Value)
	case *value.Regexp:
		br, ok := b.(*value.Regexp)
		return ok && a.Source == br.Source
	}
	return value.Equal(a, b) && value.TypeString(value.TypeOf(a)) == value.TypeString(value.TypeOf(b))
}

func TestDecodePuppetForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"__ptype":"Timespan","__pvalue":"1-02:03:04.0"}`, "1-02:03:04.0"},
		{`{"__ptype":"Timespan","__pvalue":"-0-00:00:01.5"}`, "-0-00:00:01.5"},
		{`{"__ptype":"Timestamp","__pvalue":"2026-11-25T00:30:25.002705688 UTC"}`, "2026-11-25T00:30:25.002705688 UTC"},
	} {
		v, err := Decode([]byte(tc.in), nil)
		if err != nil {
			t.Errorf("Decode(%s): %v", tc.in, err)
			continue
		}
		if got := value.ToString(v); got != tc.want {
			t.Errorf("Decode(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{
		``, `[`, `{"a":}`, `1 2`, `99999999999999999999`, `1e999`,
		`{"__ptype":"Nope"}`, `{"__ptype":"Hash","__pvalue":[1]}`, `{"__ptype":"Binary","__pvalue":"!!"}`,
		`{"__ptype":"Timestamp","__pvalue":3}`, `{"__ptype":"Timespan","__pvalue":"x"}`,
		`{"__ptype":"Deferred","name":1}`, `{"__ptype":"Type","__pvalue":"Any"}`,
		`{"__ptype":"Regexp","__pvalue":"("}`,
		strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2),
	} {
		if v, err := Decode([]byte(in), nil); err == nil {
			t.Errorf("Decode(%.40s) = %v, want an error", in, v)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"__ptype":"Hash","__pvalue":[1,{"__ptype":"Sensitive","__pvalue":[null]}]}`))
	f.Add([]byte(`{"__ptype":"Timespan","__pvalue":"-1-00:00:00.1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, parseTypeStub)
		if err != nil {
			return
		}
		if _, err := Encode(v); err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", data, err)
		}
	})
}
