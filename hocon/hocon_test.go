package hocon

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestAgainstTheGem reads the documents of testdata/inputs.txt and compares
// with what the hocon gem (1.3.1, Debian's ruby-hocon) gave for each,
// recorded in testdata/gem.jsonl by testdata/gem.rb:
//
//	ruby testdata/gem.rb testdata/inputs.txt > testdata/gem.jsonl
func TestAgainstTheGem(t *testing.T) {
	f, err := os.Open("testdata/gem.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var pair [2]string
		if err := json.Unmarshal(sc.Bytes(), &pair); err != nil {
			t.Fatal(err)
		}
		n++
		in, want := pair[0], pair[1]
		v, err := Parse(in)
		var got string
		if err != nil {
			got = "ERROR " + err.Error()
		} else {
			b, err := json.Marshal(plain(v))
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", in, got, want)
		}
	}
	if n < 60 {
		t.Fatalf("only %d documents in testdata/gem.jsonl", n)
	}
}

// plain turns Puppet data into what encoding/json writes as Ruby's JSON
// does, hash order kept.
func plain(v value.Value) any {
	switch v := v.(type) {
	case *value.Hash:
		return orderedHash{v}
	case value.Array:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	case value.String:
		return string(v)
	case value.Integer:
		return int64(v)
	case value.Float:
		return float64(v)
	case value.Boolean:
		return bool(v)
	}
	return nil
}

type orderedHash struct{ h *value.Hash }

func (o orderedHash) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.h.Keys() {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(string(k.(value.String)))
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(plain(o.h.Values()[i]))
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Bad input never panics or hangs.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a = 1", "a { b = ${a} }", `x = """y"""`, "a = [1, [2, {b = ${?c}}]]", "a += 1\na += 2", "${", "a = ${a}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s)
	})
}
