package catalogdiff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// build makes a catalog JSON document with the catalog package, so the tests
// read exactly what `marionette compile` writes.
func build(t *testing.T, version int64, edit func(c *catalog.Catalog)) []byte {
	t.Helper()
	c := catalog.New("n1.example.com", "production")
	c.Version = version
	c.UUID = "uuid-" + string(rune('a'+version%26))
	c.AddClass("settings")
	c.Add(&catalog.Resource{Type: "Class", Title: "Settings", Tags: []string{"class", "settings"}, Kind: catalog.KindClass})
	c.Add(&catalog.Resource{Type: "Service", Title: "nginx", Tags: []string{"service", "nginx"}, File: "/m/site.pp", Line: 3, Kind: catalog.KindNative,
		Params: []catalog.Param{{Name: "ensure", Value: value.String("stopped")}}})
	c.Add(&catalog.Resource{Type: "Package", Title: "old", Tags: []string{"package", "old"}, File: "/m/site.pp", Line: 7, Kind: catalog.KindNative,
		Params: []catalog.Param{{Name: "ensure", Value: value.String("installed")}}})
	c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "Service", Title: "nginx"})
	if edit != nil {
		edit(c)
	}
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func remove(c *catalog.Catalog, typ, title string) {
	for i, r := range c.Resources {
		if r.Type == typ && r.Title == title {
			c.Resources = append(c.Resources[:i], c.Resources[i+1:]...)
			return
		}
	}
}

func diffText(t *testing.T, a, b []byte, opts Options) (string, *Result) {
	t.Helper()
	ca, err := Parse(a)
	if err != nil {
		t.Fatalf("parse old: %v", err)
	}
	cb, err := Parse(b)
	if err != nil {
		t.Fatalf("parse new: %v", err)
	}
	res := Compare(ca, cb, opts)
	var buf bytes.Buffer
	if err := res.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String(), res
}

func TestCompareBuiltCatalogs(t *testing.T) {
	defaults := Options{IgnoreFileLine: true}
	tests := []struct {
		name string
		edit func(c *catalog.Catalog)
		opts Options
		want string
	}{
		{
			name: "identical but for volatile keys",
			edit: func(c *catalog.Catalog) { c.CodeID = "abc"; c.UUID = "other" },
			opts: defaults,
			want: "0 added, 0 removed, 0 changed\n",
		},
		{
			name: "the example of the brief",
			edit: func(c *catalog.Catalog) {
				c.Add(&catalog.Resource{Type: "File", Title: "/etc/new.conf", Tags: []string{"file"}, Kind: catalog.KindNative})
				remove(c, "Package", "old")
				s := c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"})
				s.SetParam("ensure", value.String("running"))
				s.SetParam("enable", value.Boolean(true))
			},
			opts: defaults,
			want: `+ File[/etc/new.conf]
- Package[old]
    - ensure: "installed"
~ Service[nginx]
    + enable: true
    ensure: "stopped" → "running"

1 added, 1 removed, 1 changed
`,
		},
		{
			name: "parameter removed and nested values",
			edit: func(c *catalog.Catalog) {
				p := c.Lookup(catalog.Ref{Type: "Package", Title: "old"})
				p.SetParam("ensure", value.Undef)
				p.SetParam("install_options", value.Array{value.String("<a>"), value.NewHash(value.String("z"), value.Integer(1), value.String("a"), value.Float(2))})
			},
			opts: defaults,
			want: `~ Package[old]
    - ensure: "installed"
    + install_options: ["<a>",{"a":2.0,"z":1}]

0 added, 0 removed, 1 changed
`,
		},
		{
			name: "integer and float differ",
			edit: func(c *catalog.Catalog) {
				c.Lookup(catalog.Ref{Type: "Package", Title: "old"}).SetParam("ensure", value.Float(1))
			},
			opts: defaults,
			want: `~ Package[old]
    ensure: "installed" → 1.0

0 added, 0 removed, 1 changed
`,
		},
		{
			name: "file and line ignored by default",
			edit: func(c *catalog.Catalog) {
				r := c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"})
				r.File, r.Line = "/m/other.pp", 30
			},
			opts: defaults,
			want: "0 added, 0 removed, 0 changed\n",
		},
		{
			name: "file and line compared on request",
			edit: func(c *catalog.Catalog) {
				r := c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"})
				r.File, r.Line = "/m/other.pp", 30
			},
			opts: Options{},
			want: `~ Service[nginx]
    file: "/m/site.pp" → "/m/other.pp"
    line: 3 → 30

0 added, 0 removed, 1 changed
`,
		},
		{
			name: "tags, exported and sensitive",
			edit: func(c *catalog.Catalog) {
				r := c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"})
				r.Tags = []string{"nginx", "web", "service"}
				r.Exported = true
				r.Sensitive = []string{"ensure"}
			},
			opts: defaults,
			want: `~ Service[nginx]
    tags: + web
    exported: false → true
    sensitive_parameters: [] → ["ensure"]

0 added, 0 removed, 1 changed
`,
		},
		{
			name: "tags ignored on request",
			edit: func(c *catalog.Catalog) {
				c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"}).Tags = []string{"other"}
			},
			opts: Options{IgnoreTags: true, IgnoreFileLine: true},
			want: "0 added, 0 removed, 0 changed\n",
		},
		{
			name: "edges and classes",
			edit: func(c *catalog.Catalog) {
				c.Edges = nil
				c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "Package", Title: "old"})
				c.Classes = []string{"web", "app"}
			},
			opts: defaults,
			want: `
Edges:
+ Class[Settings] → Package[old]
- Class[Settings] → Service[nginx]

Classes:
+ app
+ web
- settings

0 added, 0 removed, 0 changed; edges: 1 added, 1 removed; classes: 2 added, 1 removed
`,
		},
	}
	old := build(t, 1, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, res := diffText(t, old, build(t, 2, tt.edit), tt.opts)
			if got != tt.want {
				t.Errorf("report:\n%s\nwant:\n%s", got, tt.want)
			}
			if res.Empty() != strings.HasPrefix(tt.want, "0 added, 0 removed, 0 changed\n") {
				t.Errorf("Empty() = %v", res.Empty())
			}
		})
	}
}

func TestMultiLineContent(t *testing.T) {
	motd := func(content string) func(c *catalog.Catalog) {
		return func(c *catalog.Catalog) {
			c.Add(&catalog.Resource{Type: "File", Title: "/etc/motd", Kind: catalog.KindNative,
				Params: []catalog.Param{{Name: "content", Value: value.String(content)}}})
		}
	}
	a := build(t, 1, motd("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"))
	b := build(t, 1, motd("1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\ntwelve\n"))
	got, _ := diffText(t, a, b, Options{IgnoreFileLine: true})
	want := `~ File[/etc/motd]
    content:
        @@ -3,5 +3,5 @@
          3
          4
        - 5
        + five
          6
          7
        @@ -10,2 +10,3 @@
          10
          11
        + twelve

0 added, 0 removed, 1 changed
`
	if got != want {
		t.Errorf("report:\n%q\nwant:\n%q", got, want)
	}
}

func TestLineDiff(t *testing.T) {
	tests := []struct {
		a, b string
		want []string
	}{
		{"x\ny", "x\nz", []string{"@@ -1,2 +1,2 @@", "  x", "- y", "+ z"}},
		{"a\nb\nc", "b\nc\nd", []string{"@@ -1,3 +1,3 @@", "- a", "  b", "  c", "+ d"}},
		{"", "a\nb", []string{"@@ -1,1 +1,2 @@", "- ", "+ a", "+ b"}},
		{"1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\n6\n7\n", []string{"@@ -6,3 +6,2 @@", "  6", "  7", "- 8"}},
		{"1\n2\n3\n4\n", "0\n1\n2\n3\n4\n", []string{"@@ -1,2 +1,3 @@", "+ 0", "  1", "  2"}},
	}
	for _, tt := range tests {
		got := lineDiff(tt.a, tt.b)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("lineDiff(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCompareJSONText(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     Summary
	}{
		{
			name: "notice line before Puppet's JSON; hash key order and number forms",
			old:  "Notice: Compiled catalog for n1 in environment production in 0.01 seconds\n" + `{"name":"n1","version":1,"resources":[{"type":"Notify","title":"x","parameters":{"h":{"a":1,"b":1.0e+20}}}]}`,
			new:  `{"name":"n1","version":2,"catalog_uuid":"z","resources":[{"type":"Notify","title":"x","parameters":{"h":{"b":1e20,"a":1}}}]}`,
		},
		{
			name: "catalog wrapped in document_type/data",
			old:  `{"document_type":"Catalog","data":{"resources":[{"type":"Notify","title":"x"}],"classes":["a"]}}`,
			new:  `{"resources":[{"type":"Notify","title":"x"}],"classes":["a","b"]}`,
			want: Summary{ClassesAdded: 1},
		},
		{
			name: "kind missing on one side does not count, integer vs float does",
			old:  `{"resources":[{"type":"Notify","title":"x","kind":"compilable_type","parameters":{"n":1}}]}`,
			new:  `{"resources":[{"type":"Notify","title":"x","parameters":{"n":1.0}}]}`,
			want: Summary{Changed: 1},
		},
		{
			name: "array order matters, tag order does not",
			old:  `{"resources":[{"type":"Notify","title":"x","tags":["a","b"],"parameters":{"l":[1,2]}}]}`,
			new:  `{"resources":[{"type":"Notify","title":"x","tags":["b","a"],"parameters":{"l":[2,1]}}]}`,
			want: Summary{Changed: 1},
		},
		{
			name: "same title, different type",
			old:  `{"resources":[{"type":"Notify","title":"x"}]}`,
			new:  `{"resources":[{"type":"File","title":"x"}],"edges":[{"source":"Class[main]","target":"File[x]"}]}`,
			want: Summary{Added: 1, Removed: 1, EdgesAdded: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse([]byte(tt.old))
			if err != nil {
				t.Fatal(err)
			}
			b, err := Parse([]byte(tt.new))
			if err != nil {
				t.Fatal(err)
			}
			if got := Compare(a, b, Options{IgnoreFileLine: true}).Summary(); got != tt.want {
				t.Errorf("summary %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestWriteJSON(t *testing.T) {
	old := build(t, 1, nil)
	b := build(t, 2, func(c *catalog.Catalog) {
		c.Lookup(catalog.Ref{Type: "Service", Title: "nginx"}).SetParam("ensure", value.String("running"))
		c.Add(&catalog.Resource{Type: "File", Title: "/x", Kind: catalog.KindNative,
			Params: []catalog.Param{{Name: "mode", Value: value.String("0644")}}})
	})
	_, res := diffText(t, old, b, Options{IgnoreFileLine: true})
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary Summary `json:"summary"`
		Added   []struct {
			Type, Title string
			Parameters  map[string]any
		} `json:"added"`
		Removed []any `json:"removed"`
		Changed []struct {
			Type, Title string
			Parameters  []Change
		} `json:"changed"`
		EdgesAdded []Edge `json:"edges_added"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if doc.Summary != (Summary{Added: 1, Changed: 1}) {
		t.Errorf("summary %+v", doc.Summary)
	}
	if len(doc.Added) != 1 || doc.Added[0].Title != "/x" || doc.Added[0].Parameters["mode"] != "0644" {
		t.Errorf("added %+v", doc.Added)
	}
	if doc.Removed == nil || doc.EdgesAdded == nil {
		t.Errorf("empty lists must be [], not null:\n%s", buf.String())
	}
	want := Change{Name: "ensure", Op: OpChanged, Old: json.RawMessage(`"stopped"`), New: json.RawMessage(`"running"`)}
	if len(doc.Changed) != 1 || len(doc.Changed[0].Parameters) != 1 {
		t.Fatalf("changed %+v", doc.Changed)
	}
	got := doc.Changed[0].Parameters[0]
	if got.Name != want.Name || got.Op != want.Op || string(got.Old) != string(want.Old) || string(got.New) != string(want.New) {
		t.Errorf("change %+v, want %+v", got, want)
	}
}

// TestPuppetCatalog reads a catalog that real Puppet wrote and compares it
// with itself.
func TestPuppetCatalog(t *testing.T) {
	c, err := ReadFile(filepath.Join("..", "catalog", "testdata", "puppet-raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Resources) == 0 || len(c.Edges) == 0 || len(c.Classes) == 0 {
		t.Fatalf("parsed %d resources, %d edges, %d classes", len(c.Resources), len(c.Edges), len(c.Classes))
	}
	if res := Compare(c, c, Options{}); !res.Empty() {
		t.Errorf("a catalog differs from itself: %+v", res.Summary())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty", "  \n", "empty file"},
		{"no JSON", "Notice: nothing\n", "no JSON object"},
		{"broken JSON", `{"resources":[`, "invalid JSON"},
		{"trailing data", `{"resources":[]} {"resources":[]}`, "unexpected data after"},
		{"not a catalog", `{"fqdn":"x"}`, `no "resources" list`},
		{"resources not a list", `{"resources":{}}`, `"resources" is an object, want a list`},
		{"resource not an object", `{"resources":[3]}`, "resources[0] is a number, want an object"},
		{"missing type", `{"resources":[{"title":"x"}]}`, `resources[0]: no "type"`},
		{"title not a string", `{"resources":[{"type":"File","title":1}]}`, `resources[0]: "title" is a number, want a string`},
		{"bad tags", `{"resources":[{"type":"File","title":"x","tags":[1]}]}`, "tags[0] is a number"},
		{"bad line", `{"resources":[{"type":"File","title":"x","line":"3"}]}`, `"line" is a string`},
		{"fractional line", `{"resources":[{"type":"File","title":"x","line":3.5}]}`, `want an integer`},
		{"bad exported", `{"resources":[{"type":"File","title":"x","exported":"no"}]}`, `"exported" is a string`},
		{"bad parameters", `{"resources":[{"type":"File","title":"x","parameters":[]}]}`, `"parameters" is a list`},
		{"duplicate", `{"resources":[{"type":"File","title":"x"},{"type":"File","title":"x"}]}`, "duplicate resource File[x]"},
		{"bad edges", `{"resources":[],"edges":[["a","b"]]}`, "edges[0] is a list"},
		{"edge without target", `{"resources":[],"edges":[{"source":"a"}]}`, `edges[0]: no "target"`},
		{"bad classes", `{"resources":[],"classes":"a"}`, `"classes" is a string, want a list`},
		{"top-level list", "[1, 2]\n", "no JSON object"},
		{"name not a string", `{"name":1,"resources":[]}`, `"name" is a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"resources":[1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("ReadFile(%s) error %v does not name the file", path, err)
		}
	}
}
