package stdlib

import (
	"crypto/sha512"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestShuffle checks that shuffle returns a permutation (of the characters,
// for a string, multibyte ones whole) and Ruby's messages for bad input.
func TestShuffle(t *testing.T) {
	in := value.Array{value.Integer(1), value.Integer(2), value.Integer(3), value.String("a"), value.String("b")}
	got, err := shuffle(nil, []value.Value{in})
	if err != nil {
		t.Fatal(err)
	}
	keys := func(a value.Array) []string {
		var out []string
		for _, e := range a {
			out = append(out, value.RubyInspect(e))
		}
		slices.Sort(out)
		return out
	}
	if a, ok := got.(value.Array); !ok || !slices.Equal(keys(a), keys(in)) {
		t.Errorf("shuffle(%v) = %v, not a permutation", in, got)
	}
	s, err := shuffle(nil, []value.Value{value.String("héllo€")})
	if err != nil {
		t.Fatal(err)
	}
	r := []rune(string(s.(value.String)))
	slices.Sort(r)
	want := []rune("héllo€")
	slices.Sort(want)
	if !slices.Equal(r, want) {
		t.Errorf("shuffle('héllo€') = %q, not a permutation", s)
	}
	for _, tt := range []struct {
		args []value.Value
		want string
	}{
		{nil, "shuffle(): Wrong number of arguments given (0 for 1)"},
		{[]value.Value{value.Integer(1)}, "shuffle(): Requires either array or string to work with"},
	} {
		if _, err := shuffle(nil, tt.args); err == nil || err.Error() != tt.want {
			t.Errorf("shuffle(%v): got %v, want %q", tt.args, err, tt.want)
		}
	}
}

// TestStr2SaltedSHA512 checks the form: 4 bytes of salt, then SHA-512 of
// salt and password, in hex.
func TestStr2SaltedSHA512(t *testing.T) {
	for _, pw := range []string{"password", "", "héllo"} {
		v, err := str2SaltedSHA512(nil, []value.Value{value.String(pw)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := hex.DecodeString(string(v.(value.String)))
		if err != nil || len(b) != 68 {
			t.Fatalf("str2saltedsha512(%q) = %q: want 136 hex digits", pw, v)
		}
		if sum := sha512.Sum512(append(b[:4:4], pw...)); !slices.Equal(sum[:], b[4:]) {
			t.Errorf("str2saltedsha512(%q) = %q: the digest is not SHA-512(salt + password)", pw, v)
		}
		if b[3] >= 0x80 {
			t.Errorf("str2saltedsha512(%q): salt %x is not below 2**31 - 1", pw, b[:4])
		}
	}
	if _, err := str2SaltedSHA512(nil, []value.Value{value.Integer(1)}); err == nil || !strings.Contains(err.Error(), "Requires a String argument, you passed: Integer") {
		t.Errorf("str2saltedsha512(1): got %v", err)
	}
}
