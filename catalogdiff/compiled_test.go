package catalogdiff

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// TestFromCatalogMatchesParse checks that converting a compiled catalog
// gives what Parse reads from its JSON, for every kind of value.
func TestFromCatalogMatchesParse(t *testing.T) {
	re, err := value.NewRegexp("^a.*b$")
	if err != nil {
		t.Fatal(err)
	}
	params := []struct {
		name string
		v    value.Value
	}{
		{"string", value.String("plain")},
		{"escapes", value.String("quote \" backslash \\ tab \t newline \n bell \x07 é → /<&>")},
		{"invalid utf8", value.String("a\xffb\xfe\xfdc")},
		{"empty string", value.String("")},
		{"integer", value.Integer(-42)},
		{"big integer", value.Integer(1 << 62)},
		{"float", value.Float(1.5)},
		{"whole float", value.Float(2)},
		{"tiny float", value.Float(1e-300)},
		{"true", value.True},
		{"false", value.False},
		{"array", value.Array{value.String("x"), value.Integer(1), value.Undef, value.Array{}, value.Float(0.25)}},
		{"hash", value.NewHash(value.String("k"), value.Integer(1), value.Integer(2), value.Array{value.Undef}, value.String("bad\xff"), value.Default)},
		{"string keys", value.NewHash(value.String("quote\" \n"), value.Float(-0.5), value.String("bad\xff"), value.Undef, value.String(""), value.EmptyHash,
			value.String("ref"), &value.ResourceType{Type: "Exec", Title: "x\xff"})},
		{"empty hash", value.EmptyHash},
		{"nested", value.Array{value.NewHash(value.String("a"), value.NewHash(value.String("b"), value.Array{value.True}))}},
		{"sensitive", &value.Sensitive{Value: value.String("secret")}},
		{"sensitive in array", value.Array{&value.Sensitive{Value: value.Integer(3)}}},
		{"reference", &value.ResourceType{Type: "File", Title: "/etc/motd"}},
		{"references", value.Array{&value.ResourceType{Type: "Package", Title: "a"}, &value.ClassType{Name: "mod::x"}, &value.ClassType{}}},
		{"resource type", &value.ResourceType{Type: "File"}},
		{"default", value.Default},
		{"regexp", re},
		{"undef", value.Undef},
	}
	c := catalog.New("node\xff.example.com", "production")
	c.Version, c.UUID = 7, "uuid"
	c.AddClass("settings")
	c.AddClass("mod\xff")
	res := &catalog.Resource{Type: "Notify", Title: "all values", Tags: []string{"notify", "tag\xff"}, File: "/m/site.pp", Line: 3,
		Kind: catalog.KindNative, Sensitive: []string{"sensitive"}}
	for _, p := range params {
		res.Params = append(res.Params, catalog.Param{Name: p.name, Value: p.v})
	}
	c.Add(res)
	c.Add(&catalog.Resource{Type: "Class", Title: "Settings", Kind: catalog.KindClass})
	c.Add(&catalog.Resource{Type: "File", Title: "/tmp/t\xff", Exported: true, Kind: catalog.KindNative, File: "/m/x.pp",
		Params: []catalog.Param{{Name: "ensure", Value: value.String("file")}}})
	c.Add(&catalog.Resource{Type: "Mod::Thing", Title: "no tags or file", Kind: catalog.KindDefined})
	c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "File", Title: "/tmp/t\xff"})
	c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "Notify", Title: "all values"})

	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromCatalog(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Resources) != len(want.Resources) {
		t.Fatalf("%d resources, want %d", len(got.Resources), len(want.Resources))
	}
	for ref, w := range want.Resources {
		g, ok := got.Resources[ref]
		if !ok {
			t.Errorf("no resource %s", ref)
			continue
		}
		for name, wv := range w.Params {
			if gv := g.Params[name]; !reflect.DeepEqual(gv, wv) {
				t.Errorf("%s parameter %s: %#v, want %#v", ref, name, gv, wv)
			}
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n%#v\nwant\n%#v", ref, *g, *w)
		}
	}
	got.Resources, want.Resources = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("catalog:\n%#v\nwant\n%#v", got, want)
	}
	// Compare agrees that nothing differs.
	got, _ = FromCatalog(c)
	want, _ = Parse(buf.Bytes())
	if r := Compare(got, want, Options{}); !r.Empty() {
		var text bytes.Buffer
		r.WriteText(&text)
		t.Errorf("differences:\n%s", text.String())
	}
}

// TestFromCatalogInvalidJSON checks that a value the JSON encoder cannot
// write as JSON is an error, as reading the catalog's JSON would be.
func TestFromCatalogInvalidJSON(t *testing.T) {
	c := catalog.New("n", "production")
	c.Add(&catalog.Resource{Type: "Notify", Title: "inf", Kind: catalog.KindNative,
		Params: []catalog.Param{{Name: "message", Value: value.Array{value.Float(math.Inf(1))}}}})
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(buf.Bytes()); err == nil {
		t.Fatal("Parse accepted an infinite float; the test no longer covers a failure")
	}
	_, err := FromCatalog(c)
	if err == nil || !strings.Contains(err.Error(), "parameter message: invalid JSON") {
		t.Errorf("error %v", err)
	}
}
