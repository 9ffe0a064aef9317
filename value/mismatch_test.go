package value

import (
	"reflect"
	"testing"
)

// TestDescribeMismatches checks the descriptions of a value that fails a
// Variant in different ways, one per alternative, against Puppet 7.23's
// own describer (TypeMismatchDescriber#describe_mismatch of
// postgresql::server::grant's object_name type): Puppet's resource error
// lists them on lines of their own, which the conformance oracle's error
// file does not keep.
func TestDescribeMismatches(t *testing.T) {
	pair := &ArrayType{Elem: StringAny, Min: 2, Max: 2}
	nonEmpty := &StringType{1, MaxInt}
	variant := &VariantType{Types: []Type{pair, nonEmpty}}
	tests := []struct {
		typ  Type
		v    Value
		want []string
	}{
		{&OptionalType{Type: variant}, Array{String("a")}, []string{
			"variant 0 expects an Undef value, got Tuple",
			"variant 1 expects size to be 2, got 1",
			"variant 2 expects a String value, got Tuple",
		}},
		{variant, Array{String("a")}, []string{
			"variant 0 expects size to be 2, got 1",
			"variant 1 expects a String value, got Tuple",
		}},
		// Every alternative rejects the kind: one description.
		{&OptionalType{Type: variant}, Integer(5), []string{"expects a value of type Undef, Array, or String, got Integer"}},
	}
	for _, tt := range tests {
		if got := DescribeMismatches(tt.typ, tt.v); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s given %s:\n got %q\nwant %q", TypeString(tt.typ), Literal(tt.v), got, tt.want)
		}
	}
}
