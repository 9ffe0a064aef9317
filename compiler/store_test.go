package compiler

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// fakeStore answers from fixed rows and records what it was asked.
type fakeStore struct {
	rows    []*catalog.ExportedResource
	err     error
	asked   []string // "Type filter exclude"
	queries []value.Value
}

func (s *fakeStore) CollectExported(_ context.Context, typ string, f *catalog.ExportFilter, exclude string) ([]*catalog.ExportedResource, error) {
	s.asked = append(s.asked, typ+" "+filterString(f)+" "+exclude)
	if s.err != nil {
		return nil, s.err
	}
	var out []*catalog.ExportedResource
	for _, r := range s.rows {
		if r.Type == typ && r.Certname != exclude {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *fakeStore) QueryData(_ context.Context, q value.Value) (value.Value, error) {
	s.queries = append(s.queries, q)
	return value.Array{value.NewHash(value.String("certname"), value.String("web01"))}, nil
}

func filterString(f *catalog.ExportFilter) string {
	if f == nil {
		return "nil"
	}
	if f.Op == "and" || f.Op == "or" {
		return "(" + filterString(f.Left) + " " + f.Op + " " + filterString(f.Right) + ")"
	}
	return f.Attr + f.Op + value.ToString(dataOf(f.Value))
}

func dataOf(v any) value.Value {
	switch v := v.(type) {
	case string:
		return value.String(v)
	case int64:
		return value.Integer(v)
	case bool:
		return value.Boolean(v)
	}
	return value.Undef
}

func storeCompile(t *testing.T, src string, store Store) (*Result, error) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.pp": src})
	env, err := environment.Load(environment.Config{Manifest: filepath.Join(dir, "site.pp")})
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Node: "mon.example.com", Facts: testFacts()}
	if store != nil {
		req.Store = store
	}
	return Compile(context.Background(), env, req)
}

func webRow(cert, title string, params ...catalog.Param) *catalog.ExportedResource {
	return &catalog.ExportedResource{Certname: cert, Type: "File", Title: title, Exported: true, Params: params}
}

func TestExportedCollectionFromStore(t *testing.T) {
	store := &fakeStore{rows: []*catalog.ExportedResource{
		webRow("web01", "/tmp/web01", catalog.Param{Name: "tag", Value: value.Array{value.String("Mon")}}, catalog.Param{Name: "content", Value: value.String("hi")}),
		webRow("web02", "/tmp/web02", catalog.Param{Name: "content", Value: value.String("yo")}),
	}}
	src := `class monitor {
  File { mode => '0644' }
  File <<| tag == 'Mon' and title != 'x' |>> { owner => 'root' }
  @@file { '/tmp/own': content => 'mine' }
  @@file { '/tmp/kept': content => 'not collected' }
  File <<| title == '/tmp/own' |>>
}
include monitor
`
	res, err := storeCompile(t, src, store)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"File (tag==Mon and title!=x) mon.example.com", "File title==/tmp/own mon.example.com"}
	if strings.Join(store.asked, "|") != strings.Join(want, "|") {
		t.Errorf("asked %q, want %q", store.asked, want)
	}
	r := res.Catalog.Lookup(catalog.Ref{Type: "File", Title: "/tmp/web01"})
	if r == nil {
		t.Fatal("File[/tmp/web01] not collected")
	}
	if r.File != "" || r.Line != 0 || r.Exported {
		t.Errorf("collected resource has file %q line %d exported %v", r.File, r.Line, r.Exported)
	}
	if got := strings.Join(r.Tags, ","); got != "mon,file,class,monitor" {
		t.Errorf("tags = %s", got)
	}
	var names []string
	for _, p := range r.Params {
		names = append(names, p.Name+"="+value.ToString(p.Value))
	}
	if got := strings.Join(names, " "); got != "tag=[Mon] content=hi mode=0644 owner=root" {
		t.Errorf("params = %s", got)
	}
	if own := res.Catalog.Lookup(catalog.Ref{Type: "File", Title: "/tmp/own"}); own == nil || !own.Exported {
		t.Errorf("own export not collected as exported: %+v", own)
	}
	if res.Catalog.Lookup(catalog.Ref{Type: "File", Title: "/tmp/kept"}) != nil {
		t.Error("uncollected export in the catalog")
	}
	kept := res.StoreCatalog.Lookup(catalog.Ref{Type: "File", Title: "/tmp/kept"})
	if kept == nil || !kept.Exported {
		t.Errorf("store catalog lacks the uncollected export: %+v", kept)
	}
}

func TestExportedCollectionErrors(t *testing.T) {
	dup := &fakeStore{rows: []*catalog.ExportedResource{webRow("web01", "/tmp/a")}}
	_, err := storeCompile(t, "file { '/tmp/a': }\nFile <<| |>>\n", dup)
	if err == nil || !strings.Contains(err.Error(), "A duplicate resource was found while collecting exported resources, with the type and title File[/tmp/a]") {
		t.Errorf("duplicate: %v", err)
	}
	twice := &fakeStore{rows: []*catalog.ExportedResource{webRow("web01", "/tmp/a"), webRow("web02", "/tmp/a")}}
	if _, err := storeCompile(t, "File <<| |>>\n", twice); err == nil || !strings.Contains(err.Error(), "duplicate resource") {
		t.Errorf("same title from two nodes: %v", err)
	}
	down := &fakeStore{err: errors.New("Could not retrieve resources from the PuppetDB at http://127.0.0.1:1: boom")}
	if _, err := storeCompile(t, "File <<| |>>\n", down); err == nil || !strings.Contains(err.Error(), "Could not retrieve resources from the PuppetDB at http://127.0.0.1:1: boom") {
		t.Errorf("store error: %v", err)
	}
	// Without a store, <<| |>> collects nothing, not even own exports.
	res, err := storeCompile(t, "@@file { '/tmp/own': }\nFile <<| |>>\n", nil)
	if err != nil || res.Catalog.Lookup(catalog.Ref{Type: "File", Title: "/tmp/own"}) != nil || res.StoreCatalog != nil {
		t.Errorf("no store: %v", err)
	}
}

func TestPuppetDBQueryOnlyWithStore(t *testing.T) {
	store := &fakeStore{}
	res, err := storeCompile(t, "$r = puppetdb_query(['from', 'nodes'])\nnotify { \"${r[0]['certname']}\": }\n", store)
	if err != nil {
		t.Fatal(err)
	}
	if res.Catalog.Lookup(catalog.Ref{Type: "Notify", Title: "web01"}) == nil || len(store.queries) != 1 {
		t.Errorf("puppetdb_query: queries %v", store.queries)
	}
	if _, err := storeCompile(t, "puppetdb_query('nodes {}')\n", nil); err == nil || !strings.Contains(err.Error(), "Unknown function: 'puppetdb_query'") {
		t.Errorf("without a store: %v", err)
	}
	if _, err := storeCompile(t, "puppetdb_query([])\n", store); err == nil || !strings.Contains(err.Error(), "'puppetdb_query' parameter 'query' expects") {
		t.Errorf("empty AST: %v", err)
	}
}

// TestCollectorNotEqualsComparesWhole: Puppet's != in a collector query
// compares the attribute's whole value (tag is the tag parameter, an array
// never matches a string); the expected titles come from Puppet 7.23.
func TestCollectorNotEqualsComparesWhole(t *testing.T) {
	src := `@notify { 'a': tag => 'x' }
@notify { 'b': tag => ['x', 'y'] }
@notify { 'c': }
@notify { 'd': message => ['m', 'n'] }
@notify { 'e': message => 'm' }
Notify <| tag != 'x' and message != 'm' |>
`
	res, err := storeCompile(t, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Catalog.Resources {
		if r.Type == "Notify" {
			got = append(got, r.Title)
		}
	}
	if strings.Join(got, ",") != "b,c,d" {
		t.Errorf("collected %v, Puppet collects b, c, d", got)
	}
}

// TestCollectorBlockTagAddsTags: tag in a collector block adds to the
// collected resource's tags (Puppet 7.23: first, notify, a, extra, class).
func TestCollectorBlockTagAddsTags(t *testing.T) {
	res, err := storeCompile(t, "@notify { 'a': tag => 'first' }\nNotify <| |> { tag +> 'extra' }\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Catalog.Lookup(catalog.Ref{Type: "Notify", Title: "a"})
	if r == nil {
		t.Fatal("Notify[a] not collected")
	}
	tags := append([]string(nil), r.Tags...)
	sort.Strings(tags)
	if strings.Join(tags, ",") != "a,class,extra,first,notify" {
		t.Errorf("tags = %v", r.Tags)
	}
}
