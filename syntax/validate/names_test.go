package validate

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestNameRules checks each hand-written name rule against the regular
// expression it implements, on chosen names and on random ones.
func TestNameRules(t *testing.T) {
	rules := []struct {
		name string
		re   *regexp.Regexp
		fn   func(string) bool
	}{
		{"class", regexp.MustCompile(`^[a-z]\w*(?:::[a-z]\w*)*$`), isClassName},
		{"type", regexp.MustCompile(`^[A-Z]\w*(?:::[A-Z]\w*)*$`), isTypeName},
		{"variable", regexp.MustCompile(`^(?:::)?(?:[a-z]\w*::)*[a-z_]\w*$`), isVarName},
		{"numeric variable", regexp.MustCompile(`^(?:0|[1-9][0-9]*)$`), isNumericVarName},
		{"parameter", regexp.MustCompile(`^[a-z_]\w*$`), isParamName},
		{"numeric parameter", regexp.MustCompile(`^(?:0x)?[0-9]+$`), isNumericParam},
		{"illegal hostname char", regexp.MustCompile(`[^-\w.]`), hasIllegalHostnameChar},
	}
	names := []string{
		"", "a", "A", "_", "0", "00", "10", "0x", "0x1", "0x1f", "::", "::a", "::_a", "a::", "a::b", "a::B",
		"A::B", "A::b", "a::_b", "_a::b", "a:::b", "a::::b", "::::a", "a-b", "a.b", "web01.example.com",
		"é", "aé", "a b", "a\n", "Foo_Bar9::X1", "a::b::c", "a::b::_c", "a::0b", "x\x00", "1a", "$a",
	}
	alphabet := "aAz_0-9.:x é\n"
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.Intn(8))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		names = append(names, string(b))
	}
	for _, r := range rules {
		for _, n := range names {
			if got, want := r.fn(n), r.re.MatchString(n); got != want {
				t.Errorf("%s rule on %q: %v, the expression says %v", r.name, n, got, want)
			}
		}
	}
}
