package puppetdb

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// compact re-encodes JSON without spaces, for comparing with expectations
// written readably.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return b.String()
}

func testCatalog() *catalog.Catalog {
	c := catalog.New("web01.example.com", "production")
	c.Version = 1700000000
	c.UUID = "0b6ea2f9-5e4b-4f5d-9d79-8a6e6a3f0c11"
	c.CodeID = ""
	c.Add(&catalog.Resource{Type: "Class", Title: "main", Tags: []string{"class"}, Kind: catalog.KindClass,
		Params: []catalog.Param{{Name: "name", Value: value.String("main")}}})
	c.Add(&catalog.Resource{Type: "File", Title: "/etc/motd", Tags: []string{"file", "class"}, File: "/site.pp", Line: 2,
		Kind: catalog.KindNative, Params: []catalog.Param{
			{Name: "content", Value: value.String("hi")},
			{Name: "require", Value: value.Array{&value.ResourceType{Type: "Package", Title: "ntp"}, &value.ResourceType{Type: "File", Title: "/etc/"}}},
			{Name: "tag", Value: value.Array{value.String("b"), value.String("a")}},
		}})
	c.Add(&catalog.Resource{Type: "File", Title: "/etc", Tags: []string{"file"}, File: "/site.pp", Line: 3,
		Kind: catalog.KindNative, Params: []catalog.Param{{Name: "ensure", Value: value.String("directory")}}})
	c.Add(&catalog.Resource{Type: "Package", Title: "ntp", Tags: []string{"package"}, File: "/site.pp", Line: 4,
		Kind: catalog.KindNative, Params: []catalog.Param{
			{Name: "name", Value: value.String("ntpsec")},
			{Name: "notify", Value: &value.ResourceType{Type: "Service", Title: "ntp"}},
		}})
	c.Add(&catalog.Resource{Type: "Service", Title: "ntp", Tags: []string{"service"}, File: "/site.pp", Line: 5,
		Kind: catalog.KindNative, Params: []catalog.Param{{Name: "password", Value: value.String("s3cret")}}, Sensitive: []string{"password"}})
	c.Add(&catalog.Resource{Type: "Host", Title: "web01", Tags: []string{"host", "monitoring"}, File: "/site.pp", Line: 6,
		Exported: true, Kind: catalog.KindNative, Params: []catalog.Param{
			{Name: "ip", Value: value.String("10.0.0.1")},
			{Name: "before", Value: &value.ResourceType{Type: "File", Title: "/etc/motd"}},
		}})
	c.AddEdge(catalog.Ref{Type: "Class", Title: "main"}, catalog.Ref{Type: "File", Title: "/etc/motd"})
	c.AddEdge(catalog.Ref{Type: "Class", Title: "main"}, catalog.Ref{Type: "Host", Title: "web01"})
	return c
}

func TestCatalogPayload(t *testing.T) {
	info := CatalogInfo{TransactionUUID: "t-uuid", Producer: "puppet.example.com", At: fixedNow,
		KeyAttributes: func(typ string) ([]string, bool, bool) {
			if typ == "File" {
				return []string{"path"}, true, true
			}
			return nil, false, false
		}}
	got, err := Catalog(testCatalog(), info)
	if err != nil {
		t.Fatal(err)
	}
	want := compact(t, `{"certname":"web01.example.com","version":"1700000000","environment":"production",
	"transaction_uuid":"t-uuid","catalog_uuid":"0b6ea2f9-5e4b-4f5d-9d79-8a6e6a3f0c11","code_id":null,"job_id":null,
	"producer_timestamp":"2026-11-24T21:00:00.123Z","producer":"puppet.example.com",
	"resources":[
	 {"type":"Class","title":"main","tags":["class"],"exported":false,"parameters":{"name":"main","alias":["main"]}},
	 {"type":"File","title":"/etc/motd","tags":["file","class"],"file":"/site.pp","line":2,"exported":false,
	  "parameters":{"content":"hi","require":["File[/etc/]","Package[ntp]"],"tag":["a","b"]}},
	 {"type":"File","title":"/etc","tags":["file"],"file":"/site.pp","line":3,"exported":false,"parameters":{"ensure":"directory"}},
	 {"type":"Package","title":"ntp","tags":["package"],"file":"/site.pp","line":4,"exported":false,
	  "parameters":{"name":"ntpsec","notify":"Service[ntp]","alias":["ntpsec"]}},
	 {"type":"Service","title":"ntp","tags":["service"],"file":"/site.pp","line":5,"exported":false,"parameters":{}},
	 {"type":"Host","title":"web01","tags":["host","monitoring"],"file":"/site.pp","line":6,"exported":true,
	  "parameters":{"ip":"10.0.0.1","before":"File[/etc/motd]"}}],
	"edges":[
	 {"source":{"type":"Class","title":"main"},"target":{"type":"File","title":"/etc/motd"},"relationship":"contains"},
	 {"source":{"type":"Class","title":"main"},"target":{"type":"Host","title":"web01"},"relationship":"contains"},
	 {"source":{"type":"File","title":"/etc"},"target":{"type":"File","title":"/etc/motd"},"relationship":"required-by"},
	 {"source":{"type":"Package","title":"ntp"},"target":{"type":"File","title":"/etc/motd"},"relationship":"required-by"},
	 {"source":{"type":"Package","title":"ntp"},"target":{"type":"Service","title":"ntp"},"relationship":"notifies"}]}`)
	if string(got) != want {
		t.Errorf("payload\n got %s\nwant %s", got, want)
	}
}

func TestCatalogPayloadRelationshipErrors(t *testing.T) {
	tests := []struct {
		name string
		ref  value.Value
		want string
	}{
		{"missing target", &value.ResourceType{Type: "File", Title: "/nope"},
			"Invalid relationship: Service[ntp] { before => File[/nope] }, because File[/nope] doesn't seem to be in the catalog"},
		{"exported target", &value.ResourceType{Type: "Host", Title: "web01"},
			"Invalid relationship: Service[ntp] { before => Host[web01] }, because Host[web01] is exported but not collected"},
		{"not a reference", value.String("file[x]"),
			"Invalid relationship: Service[ntp] { before => file[x] }, because file[x] doesn't seem to be in the correct format."},
		{"alias target", &value.ResourceType{Type: "Package", Title: "ntpsec"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testCatalog()
			c.Lookup(catalog.Ref{Type: "Service", Title: "ntp"}).SetParam("before", tt.ref)
			got, err := Catalog(c, CatalogInfo{At: fixedNow})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				edge := `{"source":{"type":"Service","title":"ntp"},"target":{"type":"Package","title":"ntp"},"relationship":"before"}`
				if !strings.Contains(string(got), edge) {
					t.Errorf("no edge to the aliased resource in %s", got)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestFactsPayload(t *testing.T) {
	facts := value.NewHash(
		value.String("os"), value.NewHash(value.String("family"), value.String("Debian")),
		value.String("trusted"), value.String("forged"),
		value.String("uptime_seconds"), value.Integer(42),
		value.String("_puppet_inventory_1"), value.NewHash(value.String("packages"),
			value.Array{value.Array{value.String("bash"), value.String("5.2"), value.String("apt")}}),
		value.String("load"), value.Float(0.5),
	)
	trusted := value.NewHash(value.String("authenticated"), value.String("remote"), value.String("certname"), value.String("web01"))
	got, err := Facts("web01", "production", "puppet.example.com", fixedNow, facts, trusted)
	if err != nil {
		t.Fatal(err)
	}
	want := compact(t, `{"certname":"web01","environment":"production","producer_timestamp":"2026-11-24T21:00:00.123Z",
	"producer":"puppet.example.com","values":{"os":{"family":"Debian"},"uptime_seconds":42,"load":0.5,
	"trusted":{"authenticated":"remote","certname":"web01"}},"package_inventory":[["bash","5.2","apt"]]}`)
	if string(got) != want {
		t.Errorf("payload\n got %s\nwant %s", got, want)
	}
}

func TestExportedQuery(t *testing.T) {
	tests := []struct {
		name   string
		filter *Filter
		want   string
		err    string
	}{
		{"no filter", nil, `["and",["=","type","Host"],["=","exported",true],["not",["=","certname","web01"]]]`, ""},
		{"tag lowercased", &Filter{Op: "==", Attr: "tag", Value: "Monitoring"},
			`["and",["=","type","Host"],["=","exported",true],["not",["=","certname","web01"]],["=","tag","monitoring"]]`, ""},
		{"title", &Filter{Op: "!=", Attr: "title", Value: "db01"},
			`["and",["=","type","Host"],["=","exported",true],["not",["=","certname","web01"]],["not",["=","title","db01"]]]`, ""},
		{"parameter and or", &Filter{Op: "or",
			Left:  &Filter{Op: "==", Attr: "ip", Value: "10.0.0.1"},
			Right: &Filter{Op: "and", Left: &Filter{Op: "==", Attr: "port", Value: 80}, Right: &Filter{Op: "!=", Attr: "ensure", Value: "absent"}}},
			`["and",["=","type","Host"],["=","exported",true],["not",["=","certname","web01"]],` +
				`["or",["=",["parameter","ip"],"10.0.0.1"],["and",["=",["parameter","port"],80],["not",["=",["parameter","ensure"],"absent"]]]]]`, ""},
		{"unsupported operator", &Filter{Op: "=~", Attr: "ip", Value: "10"}, "", `Operator =~ in ["ip", "=~", "10"] not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ExportedQuery("Host", tt.filter, "web01")
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			b, _ := marshal(q)
			if string(b) != tt.want {
				t.Errorf("query\n got %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestCollectExported(t *testing.T) {
	var rawQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "GET" || r.URL.Path != "/pdb/query/v4/resources" || r.Header.Get("Accept") != "application/json" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		rawQuery = r.URL.RawQuery
		io.WriteString(w, `[{"certname":"db01","resource":"abc","type":"Host","title":"db01","exported":true,
		 "tags":["host","monitoring"],"file":"/site.pp","line":7,"environment":"production",
		 "parameters":{"zeta":1,"alpha":[true,null,2.5],"ip":"10.0.0.2","opts":{"b":1,"a":2}}}]`)
	}))
	defer srv.Close()
	c, _ := New(testConfig(t, srv.URL), Options{})
	res, err := c.CollectExported(context.Background(), "Host", &Filter{Op: "==", Attr: "tag", Value: "monitoring"}, "web01")
	if err != nil {
		t.Fatal(err)
	}
	wantQuery := "query=" + url.QueryEscape(`["and",["=","type","Host"],["=","exported",true],["not",["=","certname","web01"]],["=","tag","monitoring"]]`)
	if rawQuery != wantQuery {
		t.Errorf("query string %s, want %s", rawQuery, wantQuery)
	}
	if len(res) != 1 {
		t.Fatalf("%d resources", len(res))
	}
	r := res[0]
	if r.CollectorID() != "db01|Host|db01" || r.File != "/site.pp" || r.Line != 7 || !r.Exported {
		t.Errorf("resource %+v", r)
	}
	var names []string
	for _, p := range r.Params {
		names = append(names, p.Name+"="+string(catalog.ValueJSON(p.Value)))
	}
	if got := strings.Join(names, " "); got != `zeta=1 alpha=[true,null,2.5] ip="10.0.0.2" opts={"b":1,"a":2}` {
		t.Errorf("params %s", got)
	}
}

func TestCollectExportedError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, "'foo' is not a queryable object for resources")
	}))
	defer srv.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	// The message names the server that answered, not the last listed.
	for _, servers := range [][]string{{srv.URL}, {srv.URL, down.URL}} {
		c, _ := New(testConfig(t, servers...), Options{})
		_, err := c.CollectExported(context.Background(), "Host", nil, "web01")
		want := "Could not retrieve resources from the PuppetDB at http://127.0.0.1:" + port(srv.URL) +
			": [400 Bad Request] 'foo' is not a queryable object for resources"
		if err == nil || err.Error() != want {
			t.Errorf("servers %v: error %v\nwant %s", servers, err, want)
		}
	}
}

func TestJSONValueHostile(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, in := range []string{deep, `{"a":`, `[1,]`, `{"a":1e999}`, `"\ud800"`} {
		if _, err := JSONValue([]byte(in)); err == nil && in != `"\ud800"` {
			t.Errorf("JSONValue(%.20q) accepted", in)
		}
	}
}
