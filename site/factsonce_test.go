package site

import (
	"bytes"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestDecodeFactsOnceAsThorough: where the one-pass facts decoder answers,
// it gives the facts and the stored bytes the thorough decoder gives; it
// leaves the rest (errors, the wrong node, keys differing in case) to it.
func TestDecodeFactsOnceAsThorough(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		once bool // the one-pass decoder answers
	}{
		{`{"name":"n1","values":{"a":1,"b":[true,null,"x"],"c":{"d":2.5}},"timestamp":"t"}`, true},
		{"{ \"name\": \"n1\",\n  \"values\": {\"a\": \"é\\n\"} }", true},
		{`{"name":"n1","values":null}`, true},
		{`{"name":"n1"}`, true},
		{`{"name":"n1","values":{},"name":"n1"}`, true},
		{`{"name":"n2","values":{}}`, false},
		{`{"Name":"n1","values":{}}`, false},
		{`{"name":"n1","VALUES":{"a":1},"values":{}}`, false},
		{`{"name":"n1","values":[1]}`, false},
		{`{"name":1,"values":{}}`, false},
		{`{"name":"n1","values":{"a":1e400}}`, false},
		{`{"name":"n1","values":{}`, false},
		{`[1]`, false},
	} {
		facts, raw, ok := decodeFactsOnce([]byte(tt.doc), "n1")
		if ok != tt.once {
			t.Errorf("%s: one pass answered %v, want %v", tt.doc, ok, tt.once)
		}
		if !ok {
			continue
		}
		want, wantRaw, err := decodeFactsThorough([]byte(tt.doc), "n1")
		if err != nil {
			t.Errorf("%s: thorough: %v", tt.doc, err)
			continue
		}
		if !value.Equal(facts, want) || facts.Len() != want.Len() || !bytes.Equal(raw, wantRaw) {
			t.Errorf("%s: one pass %v %s, thorough %v %s", tt.doc, facts, raw, want, wantRaw)
		}
	}
}
