package hocon

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/marionette-dev/marionette/dataformat"
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
			// gem.rb writes the gem's answer with JSON.generate.
			if got, err = dataformat.WriteJSON(v, dataformat.JSONStyle{}); err != nil {
				t.Fatal(err)
			}
		}
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", in, got, want)
		}
	}
	if n < 60 {
		t.Fatalf("only %d documents in testdata/gem.jsonl", n)
	}
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
