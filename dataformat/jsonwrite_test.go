package dataformat

import (
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// The layouts are the json gem's (2.6.1, `ruby -rjson`), options and all.
func TestWriteJSON(t *testing.T) {
	h := value.NewHashBuilder(2)
	h.Set(value.String("a"), value.Array{value.Integer(1), value.Array{}})
	h.Set(value.String("b"), value.EmptyHash)
	doc := h.Build()
	x := value.NewHashBuilder(1)
	x.Set(value.String("x"), value.Integer(1))
	x1 := x.Build()
	tests := []struct {
		name  string
		v     value.Value
		style JSONStyle
		want  string
	}{
		{"compact", doc, JSONStyle{}, `{"a":[1,[]],"b":{}}`},
		{"pretty", doc, PrettyJSON(), "{\n  \"a\": [\n    1,\n    [\n\n    ]\n  ],\n  \"b\": {\n  }\n}"},
		{"indent alone", doc, JSONStyle{Indent: "  "}, `{  "a":[    1,    []],  "b":{}}`},
		{"object_nl without array_nl", value.Array{value.Integer(1), x1}, JSONStyle{Indent: "XX", ObjectNL: "\n"}, "[XX1,XX{\nXXXX\"x\":1\nXX}]"},
		{"escapes", value.String("q\"b\\n\n\x01é"), JSONStyle{}, `"q\"b\\n\n\u0001é"`},
		{"not UTF-8", value.String("a\xffb"), JSONStyle{}, "\"a\uFFFDb\""},
		{"undef and floats", value.Array{value.Undef, value.Float(1), value.Float(2.5)}, JSONStyle{}, `[null,1.0,2.5]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WriteJSON(tt.v, tt.style)
			if err != nil || got != tt.want {
				t.Errorf("WriteJSON = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
