package dataformat

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// same reports whether a and b are the same values of the same types,
// hashes in the same key order (Float NaN never occurs in JSON).
func same(a, b value.Value) bool {
	switch a := a.(type) {
	case *value.Hash:
		bh, ok := b.(*value.Hash)
		if !ok || a.Len() != bh.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			ak, av := a.At(i)
			bk, bv := bh.At(i)
			if !same(ak, bk) || !same(av, bv) {
				return false
			}
		}
		return true
	case value.Array:
		ba, ok := b.(value.Array)
		if !ok || len(a) != len(ba) {
			return false
		}
		for i := range a {
			if !same(a[i], ba[i]) {
				return false
			}
		}
		return true
	case value.Float:
		bf, ok := b.(value.Float)
		return ok && math.Float64bits(float64(a)) == math.Float64bits(float64(bf))
	}
	return fmt.Sprintf("%T %#v", a, a) == fmt.Sprintf("%T %#v", b, b)
}

// checkFastJSON: FromJSON (the one-pass decoder, or the token walk for
// what it does not take) gives what the token walk alone gives: the same
// values, or the same error.
func checkFastJSON(t *testing.T, doc string) {
	t.Helper()
	want, wantErr := fromJSONTokens([]byte(doc), "x.json")
	got, compact, err := FromJSONCompact([]byte(doc), "x.json")
	if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%.80q: error %v, the token walk's %v", doc, err, wantErr)
	}
	if err == nil && !same(got, want) {
		t.Fatalf("%.80q: %v, the token walk's %v", doc, got, want)
	}
	if compact && strings.ContainsAny(outsideStrings(doc), " \t\r\n") {
		t.Errorf("%.80q: called compact", doc)
	}
}

// outsideStrings is doc without the contents of its strings.
func outsideStrings(doc string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestFastJSONSameAsTokens(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2.5 , "x" , null , true , false ] } `,
		`0`, `-0`, `-1`, `1.0`, `1e3`, `1E+3`, `-2.5e-3`, `9223372036854775807`, `9223372036854775808`,
		`-9223372036854775809`, `1e400`, `01`, `1.`, `.5`, `-`, `+1`, `1e`, `--1`,
		`"plain"`, `"esc\"aped\\"`, `"\u00e9\n\t"`, `"\ud800"`, `"é"`, "\"\xff\"", "\"a\x01\"", `"unterminated`,
		`{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `tru`, `nul`, `true false`,
		`{"a":{"b":{"c":[{"d":null}]}}}`, `[[[[[[]]]]]]`, strings.Repeat("[", 200) + strings.Repeat("]", 200),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001), `{"Name":"x","name":"y"}`, "",
	} {
		checkFastJSON(t, doc)
	}
	// Every JSON file of the repository's test data.
	files, _ := filepath.Glob("../testdata/*/*/*.json")
	more, _ := filepath.Glob("../testdata/*/*.json")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err == nil {
			checkFastJSON(t, string(data))
		}
	}
}

func FuzzFastJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x", null, true]}`, `[[[[]]]]`, `{"a":`, `1e400`, `"\ud800"`, `-0.0e-0`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFastJSON(t, s) })
}
