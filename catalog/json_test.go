package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestWriteJSONMatchesPuppet rebuilds by hand the catalog Puppet 7.23 compiled
// from testdata/puppet-raw.pp and checks that our encoder writes the very same
// bytes as testdata/puppet-raw.json (Puppet's output), volatile fields aside.
func TestWriteJSONMatchesPuppet(t *testing.T) {
	want, err := os.ReadFile("testdata/puppet-raw.json")
	if err != nil {
		t.Fatal(err)
	}
	const file = "/tmp/c2.pp"
	tags := func(ts ...string) []string { return ts }
	re, _ := value.NewRegexp("re")
	c := New("probe.example.com", "production")
	c.Version = 1795362479
	c.UUID = "885a0766-635a-4990-9240-992438333690"
	c.Tags = tags("settings", "default", "node")
	c.Classes = []string{"settings", "default"}
	add := func(r *Resource) {
		if !c.Add(r) {
			t.Fatalf("duplicate %s", r.Ref())
		}
	}
	add(&Resource{Type: "Stage", Title: "main", Tags: tags("stage"), Kind: KindNative, Params: []Param{{"name", value.String("main")}}})
	add(&Resource{Type: "Class", Title: "Settings", Tags: tags("class", "settings"), Kind: KindClass})
	add(&Resource{Type: "Class", Title: "main", Tags: tags("class"), Kind: KindClass, Params: []Param{{"name", value.String("main")}}})
	add(&Resource{Type: "Node", Title: "default", Tags: tags("node", "default", "class"), Kind: KindClass})
	add(&Resource{Type: "Notify", Title: "types", Tags: tags("notify", "types", "node", "default", "class"), File: file, Line: 3, Kind: KindNative,
		Params: []Param{{"message", value.Array{value.IntegerAny, re, value.Default, &value.ResourceType{Type: "File", Title: "/x"}, value.Float(1e20), value.String("a<b>&\u00e9\t\"/")}}}})
	add(&Resource{Type: "Mydef", Title: "d1", Tags: tags("mydef", "d1", "node", "default", "class"), File: file, Line: 4, Kind: KindDefined,
		Params: []Param{{"p", value.Integer(2)}}})
	add(&Resource{Type: "Notify", Title: "rel", Tags: tags("x", "y", "notify", "rel", "node", "default", "class"), File: file, Line: 7, Kind: KindNative,
		Params: []Param{
			{"before", value.Array{&value.ResourceType{Type: "File", Title: "/a"}, &value.ResourceType{Type: "Notify", Title: "types"}}},
			{"subscribe", &value.ResourceType{Type: "Notify", Title: "types"}},
			{"tag", value.Array{value.String("x"), value.String("Y")}},
		}})
	add(&Resource{Type: "File", Title: "/a", Tags: tags("file", "node", "default", "class"), File: file, Line: 8, Kind: KindNative})
	add(&Resource{Type: "Notify", Title: "in-d1", Tags: tags("notify", "in-d1", "mydef", "d1", "node", "default", "class"), File: file, Line: 1, Kind: KindNative})
	for _, e := range [][2]Ref{
		{{"Stage", "main"}, {"Class", "Settings"}},
		{{"Stage", "main"}, {"Class", "main"}},
		{{"Class", "main"}, {"Node", "default"}},
		{{"Node", "default"}, {"Notify", "types"}},
		{{"Node", "default"}, {"Mydef", "d1"}},
		{{"Node", "default"}, {"Notify", "rel"}},
		{{"Node", "default"}, {"File", "/a"}},
		{{"Mydef", "d1"}, {"Notify", "in-d1"}},
	} {
		c.AddEdge(e[0], e[1])
	}
	var got bytes.Buffer
	if err := c.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if g, w := strings.TrimSpace(got.String()), strings.TrimSpace(string(want)); g != w {
		t.Errorf("JSON differs from Puppet's\n got: %s\nwant: %s", g, w)
	}
}

func TestStringEscaping(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"q\"b\\", `"q\"b\\"`},
		{"\x01\x1f", `"\u0001\u001f"`},
		{"é/<>&", `"é/<>&"`},
		{"bad\xffbyte", "\"bad\ufffdbyte\""},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		c := &Catalog{Classes: []string{tt.in}}
		if err := c.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		i := strings.Index(s, `"classes":[`) + len(`"classes":[`)
		if got := s[i : len(s)-3]; got != tt.want {
			t.Errorf("escape(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSetParamKeepsOrderAndDropsUndef(t *testing.T) {
	r := &Resource{}
	r.SetParam("a", value.Integer(1))
	r.SetParam("b", value.Integer(2))
	r.SetParam("a", value.Integer(3))
	r.SetParam("c", value.Undef)
	if len(r.Params) != 2 || r.Params[0].Name != "a" || r.Params[0].Value != value.Integer(3) {
		t.Errorf("params = %+v", r.Params)
	}
	r.SetParam("a", value.Undef)
	if len(r.Params) != 1 || r.Params[0].Name != "b" {
		t.Errorf("after unset: %+v", r.Params)
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	return len(p), nil
}

// TestWriteJSONReportsWriteErrors: a failed write, on the last flush or an
// earlier one, is WriteJSON's error.
func TestWriteJSONReportsWriteErrors(t *testing.T) {
	c := &Catalog{Name: "n"}
	for i := 0; i < 10000; i++ {
		c.Resources = append(c.Resources, &Resource{Type: "Notify", Title: strings.Repeat("x", 40) + strconv.Itoa(i), Kind: "resource"})
	}
	for _, okWrites := range []int{0, 1} {
		if err := c.WriteJSON(&failingWriter{n: okWrites}); err == nil || err.Error() != "disk full" {
			t.Errorf("after %d good writes: err = %v", okWrites, err)
		}
	}
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil || !json.Valid(buf.Bytes()) || buf.Len() < 2*flushSize {
		t.Errorf("err %v, %d bytes, valid %v", err, buf.Len(), json.Valid(buf.Bytes()))
	}
}
