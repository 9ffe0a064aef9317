package semver

import (
	"strings"
	"testing"
)

// The expected answers are those of Puppet's semantic_puppet 1.0.4 (Debian
// 12's ruby-semantic-puppet), run on the same inputs.

func TestRangeIncludes(t *testing.T) {
	tests := []struct {
		rng  string
		want string // version:included ..., or "error ..."
	}{
		{">=1.2.0 <2.0.0", "1.2.0:true 1.9.9:true 2.0.0:false 1.10.0-rc.1:false 1.1.9:false"},
		{"1.x", "1.0.0:true 1.99.0:true 2.0.0:false 1.2.3-alpha:false"},
		{"~1.2", "1.2.0:true 1.2.9:true 1.3.0:false"},
		{"~1.2.3-beta.2", "1.2.3-beta.3:true 1.2.3-beta.1:false 1.2.4:true 1.3.0:false 1.2.4-alpha:false"},
		{"^1.2.3", "1.2.3:true 1.9.0:true 2.0.0:false 1.2.2:false"},
		{"^0.2.3", "0.2.3:true 0.2.9:true 0.3.0:false"},
		{"^0", "0.0.1:true 0.9.9:true 1.0.0:false"},
		{"1.2.3 - 1.4.0", "1.2.3:true 1.4.0:true 1.4.1:false 1.4.0-rc.1:false"},
		{">=1.0.0 || <0.5.0", "0.4.0:true 0.6.0:false 1.0.0:true"},
		{"*", "0.0.0:true 1.2.3-alpha:true"},
		{">1.2", "1.2.9:false 1.3.0:true"},
		{">1", "1.9.9:false 2.0.0:true"},
		{"<=1.2", "1.2.9:true 1.3.0:false"},
		{"<=1.2.3", "1.2.3:true 1.2.4:false"},
		{"> 1.0.0", "1.0.0:false 1.0.1:true"},
		{">= v1.0.0", `error Unparsable version range: ">= v1.0.0"`},
		{"=1.2.3", "1.2.3:true 1.2.4:false"},
		{"1.2.3-rc.1", "1.2.3-rc.1:true 1.2.3:false"},
		{">=1.2.3-rc.1 <1.3.0", "1.2.3-rc.2:true 1.2.4-rc.1:false 1.2.3:true"},
		{"1.0.0 || || 1.2.3", "1.2.3:true 1.1.0:false"},
		{"bogus", `error Unparsable version range: "bogus"`},
		{"1.2.3.4", `error Unparsable version range: "1.2.3.4"`},
		{" 1.0", `error Unparsable version range: " 1.0"`},
		{">=01.0", `error Unparsable version range: ">=01.0"`},
	}
	for _, tt := range tests {
		r, err := ParseRange(tt.rng)
		if err != nil {
			if got := "error " + err.Error(); got != tt.want {
				t.Errorf("ParseRange(%q): %s, want %s", tt.rng, got, tt.want)
			}
			continue
		}
		if strings.HasPrefix(tt.want, "error") {
			t.Errorf("ParseRange(%q) = %v, want %s", tt.rng, r, tt.want)
			continue
		}
		if r.String() != tt.rng {
			t.Errorf("ParseRange(%q).String() = %q", tt.rng, r.String())
		}
		for _, pair := range strings.Fields(tt.want) {
			vs, want, _ := strings.Cut(pair, ":")
			v, err := Parse(vs)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Includes(v); (got && want != "true") || (!got && want != "false") {
				t.Errorf("%q includes %s = %v, want %s", tt.rng, vs, got, want)
			}
		}
	}
}

func TestCompareAndParse(t *testing.T) {
	cmps := []struct {
		a, b  string
		cmp   int
		equal bool
	}{
		{"1.2.3", "1.10.0", -1, false},
		{"1.0.0-alpha", "1.0.0-alpha.1", -1, false},
		{"1.0.0-alpha.1", "1.0.0-alpha.beta", -1, false},
		{"1.0.0-beta.2", "1.0.0-beta.11", -1, false},
		{"1.0.0-rc.1", "1.0.0", -1, false},
		{"1.0.0+b1", "1.0.0+b2", 0, false},
		{"1.0.0-1", "1.0.0-a", -1, false},
	}
	for _, tt := range cmps {
		a, _ := Parse(tt.a)
		b, _ := Parse(tt.b)
		if got := Compare(a, b); got != tt.cmp {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.cmp)
		}
		if got := Compare(b, a); got != -tt.cmp {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.cmp)
		}
		if got := Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
	parses := []struct{ in, want string }{
		{"1.2", "error Unable to parse '1.2' as a semantic version identifier"},
		{"01.2.3", "error Unable to parse '01.2.3' as a semantic version identifier"},
		{"1.2.3-01", "error Numeric pre-release identifiers MUST NOT contain leading zeroes"},
		{"1.2.3-rc.1+b.2", "1.2.3-rc.1+b.2"},
		{"99999999999999999999.0.0", "error Unable to parse '99999999999999999999.0.0' as a semantic version identifier"},
	}
	for _, tt := range parses {
		v, err := Parse(tt.in)
		got := v.String()
		if err != nil {
			got = "error " + strings.TrimSuffix(err.Error(), ": "+ErrSyntax.Error())
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// Puppet writes a range built from two versions with the bounds reversed.
func TestBetweenString(t *testing.T) {
	v1, _ := Parse("1.0.0")
	v2, _ := Parse("1.5.0")
	for _, tt := range []struct {
		r    *Range
		want string
	}{
		{Between(&v1, &v2, false), "1.5.0 - 1.0.0"},
		{Between(nil, &v2, false), "1.5.0 - 0.0.0-"},
		{Between(&v1, nil, false), "Infinity.0.0 - 1.0.0"},
		{Between(&v1, &v2, true), ">=1.5.0 <1.0.0"},
	} {
		if tt.r.String() != tt.want {
			t.Errorf("String() = %q, want %q", tt.r.String(), tt.want)
		}
	}
	if r := Between(&v1, &v2, true); r.Includes(v2) || !r.Includes(v1) {
		t.Error("Between(1.0.0, 1.5.0, exclusive) is not [1.0.0, 1.5.0)")
	}
}

// FuzzParseRange checks that no input panics and that a parsed range's
// string is its input.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{">=1.2.0 <2.0.0", "1.x", "~1.2.3-beta.2", "^0", "1.0.0 - 2.0.0", "a || b", "", "*", ">9223372036854775806", "<=1.9223372036854775807"} {
		f.Add(s, "1.2.3-rc.1")
	}
	f.Fuzz(func(t *testing.T, rng, ver string) {
		r, err := ParseRange(rng)
		if err != nil {
			return
		}
		if r.String() != rng {
			t.Fatalf("String() = %q, want %q", r.String(), rng)
		}
		if v, err := Parse(ver); err == nil {
			r.Includes(v)
		}
	})
}
