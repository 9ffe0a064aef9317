package dataformat

import (
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// The expected documents are what `puppet lookup --render-as yaml` (Puppet
// 7.23) printed for the same values.
func TestYAML(t *testing.T) {
	inner := value.NewHashBuilder(2)
	inner.Set(value.String("c"), value.String("x y"))
	inner.Set(value.String("d"), value.Undef)
	h := value.NewHashBuilder(3)
	h.Set(value.String("a"), value.Array{value.Integer(1), value.Integer(2)})
	h.Set(value.String("b"), inner.Build())
	h.Set(value.String("e"), value.String("multi\nline"))
	tests := []struct {
		v    value.Value
		want string
	}{
		{h.Build(), "---\na:\n- 1\n- 2\nb:\n  c: x y\n  d:\ne: |-\n  multi\n  line\n"},
		{value.Array{value.String("time1.example.com"), value.String("time2.example.com")}, "---\n- time1.example.com\n- time2.example.com\n"},
		{value.String("hello"), "--- hello\n"},
		{value.String("yes"), "--- 'yes'\n"},
		{value.Integer(5), "--- 5\n"},
		{value.Float(1.5), "--- 1.5\n"},
	}
	for _, tt := range tests {
		got, err := YAML(tt.v)
		if err != nil || got != tt.want {
			t.Errorf("YAML(%s) = %q, %v; want %q", value.Literal(tt.v), got, err, tt.want)
		}
	}
}
