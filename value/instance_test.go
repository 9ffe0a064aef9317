package value

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckInstanceRegexpTimeout: a Pattern whose regexp times out, at the
// top or inside an Array, Struct or Variant, makes CheckInstance fail with
// the timeout; IsInstance still says false, as before.
func TestCheckInstanceRegexpTimeout(t *testing.T) {
	re, err := NewRegexp(`(a+)+\1$|!`)
	if err != nil {
		t.Fatal(err)
	}
	pat := &PatternType{Regexps: []*Regexp{re}}
	hostile := String(strings.Repeat("a", 24) + "!")
	for _, tc := range []struct {
		t Type
		v Value
	}{
		{pat, hostile},
		{&ArrayType{Elem: pat, Min: 0, Max: MaxInt}, Array{String("!"), hostile}},
		{&VariantType{Types: []Type{IntegerAny, pat}}, hostile},
	} {
		ok, err := CheckInstance(tc.t, tc.v)
		var rt *RegexpTimeout
		if ok || !errors.As(err, &rt) || !strings.Contains(err.Error(), `/(a+)+\1$|!/`) || !strings.Contains(err.Error(), "2s") {
			t.Errorf("%s: %v %v", TypeString(tc.t), ok, err)
		}
		if IsInstance(tc.t, tc.v) {
			t.Errorf("%s: IsInstance true", TypeString(tc.t))
		}
	}
	if ok, err := CheckInstance(pat, String("!")); !ok || err != nil {
		t.Errorf("a quick match: %v %v", ok, err)
	}
}
