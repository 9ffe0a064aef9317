package dataformat

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// aliasBomb builds the "billion laughs" document: each level is a list of
// fanout aliases to the previous one, so level n expands to fanout^n values.
func aliasBomb(levels, fanout int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [" + strings.Repeat("lol, ", fanout-1) + "lol]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s*l%d]\n", i, i, strings.Repeat("*l"+strconv.Itoa(i-1)+", ", fanout-1), i-1)
	}
	b.WriteString("other: 1\n")
	return b.String()
}

// mergeBomb nests `<<` merge keys fanout ways per level.
func mergeBomb(levels, fanout int) string {
	var b strings.Builder
	b.WriteString("m0: &m0 {k0: v}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {k%d: v, <<: [%s*m%d]}\n", i, i, i, strings.Repeat("*m"+strconv.Itoa(i-1)+", ", fanout-1), i-1)
	}
	return b.String()
}

// allocated reports the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestFromYAMLHostileAliases(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		wantErr string // "" means the document must load
		check   func(t *testing.T, v value.Value)
	}{
		{"alias bomb 9^9", aliasBomb(9, 9), "(bomb.yaml): document expands to more than MaxYAMLNodes (4194304) values, each alias counted in full (a limit of marionette; --max-yaml-nodes raises it) at line 7", nil},
		{"alias bomb 2^40", aliasBomb(40, 2), "document expands to more than MaxYAMLNodes (4194304) values", nil},
		// Merged mappings count each merge in full (an overestimate when
		// keys repeat) so that the count needs no walk of the values.
		{"merge key bomb", mergeBomb(40, 3), "document expands to more than MaxYAMLNodes (4194304) values", nil},
		{"merge keys below the limit", mergeBomb(8, 3), "", func(t *testing.T, v value.Value) {
			m, _ := v.(*value.Hash).GetString("m7")
			if h := m.(*value.Hash); h.Len() != 8 {
				t.Errorf("m7 has %d keys, want 8", h.Len())
			}
		}},
		{"aliases below the limit are shared", aliasBomb(5, 9), "", func(t *testing.T, v value.Value) {
			h := v.(*value.Hash)
			l3, _ := h.GetString("l3")
			l4, _ := h.GetString("l4")
			if got := l4.(value.Array); len(got) != 9 || len(got[0].(value.Array)) != 9 {
				t.Errorf("l4 = %v", value.Literal(got))
			} else if &got[0].(value.Array)[0] != &l3.(value.Array)[0] {
				t.Error("l4's entries are copies of l3, want the same value")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v value.Value
			var err error
			n := allocated(func() { v, err = FromYAML([]byte(tt.doc), "bomb.yaml") })
			t.Logf("allocated %d KiB", n>>10)
			if n > 32<<20 {
				t.Errorf("decoding allocated %d MiB, want at most 32", n>>20)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, v)
		})
	}
}

func TestFromJSONNesting(t *testing.T) {
	tests := []struct {
		name, doc, wantErr string
	}{
		{"100 levels, as Ruby's JSON.parse allows", strings.Repeat("[", 100) + strings.Repeat("]", 100), ""},
		{"101 levels", strings.Repeat("[", 101) + strings.Repeat("]", 101), "Unable to parse (deep.json): nesting of 101 is too deep"},
		{"a million unclosed", strings.Repeat(`{"a":[`, 1000000), "nesting of 101 is too deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = FromJSON([]byte(tt.doc), "deep.json") })
			if n > 32<<20 {
				t.Errorf("decoding allocated %d MiB, want at most 32", n>>20)
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// puppetFacts is a facts file as Puppet 7.23's yaml facts terminus writes it.
const puppetFacts = `--- !ruby/object:Puppet::Node::Facts
name: web01.example.com
values:
  os:
    family: Debian
  count: 2
  :sym: :val
  tagged: !ruby/sym other
  t: '2020-01-01'
timestamp: '2026-11-24T21:04:52.561747264+00:00'
expiration: '2026-11-24T21:04:52.561749427+00:00'
`

func TestFactsFromYAML(t *testing.T) {
	v, err := FactsFromYAML([]byte(puppetFacts), "web01.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := `{'name' => 'web01.example.com', 'values' => {'os' => {'family' => 'Debian'}, 'count' => 2, 'sym' => 'val', 'tagged' => 'other', 't' => '2020-01-01'}, 'timestamp' => '2026-11-24T21:04:52.561747264+00:00', 'expiration' => '2026-11-24T21:04:52.561749427+00:00'}`
	if got := value.Literal(v); got != want {
		t.Errorf("FactsFromYAML =\n%s\nwant\n%s", got, want)
	}
	// Plain facts files and the limits work as for FromYAML.
	if v, err := FactsFromYAML([]byte("a: 1\n"), "plain.yaml"); err != nil || value.Literal(v) != "{'a' => 1}" {
		t.Errorf("plain facts = %v, %v", v, err)
	}
	if _, err := FactsFromYAML([]byte(aliasBomb(9, 9)), "bomb.yaml"); err == nil || !strings.Contains(err.Error(), "MaxYAMLNodes") {
		t.Errorf("alias bomb in a facts file: err = %v", err)
	}
	// Other classes stay rejected, as the terminus permits only these.
	for _, doc := range []string{"--- !ruby/object:Puppet::Node\nname: x\n", "a: 2020-01-01 10:00:00\n"} {
		if _, err := FactsFromYAML([]byte(doc), "f.yaml"); err == nil || !strings.Contains(err.Error(), "Tried to load unspecified class") {
			t.Errorf("FactsFromYAML(%q) err = %v", doc, err)
		}
	}
	// Hiera data keeps Puppet's rejection of the Facts object and Symbols.
	for _, doc := range []string{puppetFacts, "a: !ruby/sym x\n", "a: :x\n"} {
		if _, err := FromYAML([]byte(doc), "data.yaml"); err == nil || !strings.Contains(err.Error(), "Tried to load unspecified class") {
			t.Errorf("FromYAML(%q) err = %v", doc, err)
		}
	}
}

// The node limit can be lowered or raised per call.
func TestYAMLNodeLimitOption(t *testing.T) {
	doc := aliasBomb(8, 8) // 8^8 = 16M values expanded
	tests := []struct {
		name     string
		maxNodes int
		wantErr  string
	}{
		{"default", 0, "more than MaxYAMLNodes (4194304) values, each alias counted in full (a limit of marionette; --max-yaml-nodes raises it)"},
		{"raised", 32 << 20, ""},
		{"lowered", 100, "more than MaxYAMLNodes (100) values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, decode := range []func([]byte, string, int) (value.Value, error){FromYAMLLimit, FactsFromYAMLLimit} {
				_, err := decode([]byte(doc), "bomb.yaml", tt.maxNodes)
				if tt.wantErr == "" && err != nil {
					t.Fatal(err)
				}
				if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			}
		})
	}
}
