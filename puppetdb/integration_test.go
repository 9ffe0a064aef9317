package puppetdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// livePuppetDB returns a client for the PuppetDB scripts/puppetdb started
// (MARIONETTE_PUPPETDB_URL). Without one the test is skipped, unless CI
// requires it (CI=true and MARIONETTE_REQUIRE_PUPPETDB=1).
func livePuppetDB(t *testing.T) *Client {
	t.Helper()
	u := os.Getenv("MARIONETTE_PUPPETDB_URL")
	if u == "" {
		if os.Getenv("CI") == "true" && os.Getenv("MARIONETTE_REQUIRE_PUPPETDB") == "1" {
			t.Fatal("MARIONETTE_PUPPETDB_URL is not set but CI requires PuppetDB (run scripts/puppetdb up)")
		}
		t.Skip("no PuppetDB: export MARIONETTE_PUPPETDB_URL=$(scripts/puppetdb up)")
	}
	c, err := NewURL(u, Options{Logf: func(level, msg string) { t.Logf("%s: %s", level, msg) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if st, err := c.Status(ctx); err != nil || st != "running" {
		t.Fatalf("PuppetDB at %s: state %q, %v", u, st, err)
	}
	return c
}

// uniqueCertname keeps runs against one database apart.
func uniqueCertname(prefix string) string {
	return fmt.Sprintf("%s-%d.example.com", prefix, time.Now().UnixNano())
}

// waitFor polls PuppetDB until check accepts an endpoint's answer:
// commands are processed asynchronously.
func waitFor(t *testing.T, c *Client, endpoint string, query any, check func([]any) bool) []any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		body, err := c.QueryEndpoint(context.Background(), endpoint, query)
		if err == nil {
			v, err := decodeAny(body)
			if rows, ok := v.([]any); err == nil && ok && check(rows) {
				return rows
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered as expected (last error %v)", endpoint, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestLiveFactsCatalogAndCollection(t *testing.T) {
	c := livePuppetDB(t)
	ctx := context.Background()
	web, mon := uniqueCertname("web"), uniqueCertname("mon")
	now := time.Now()

	facts := value.NewHash(value.String("os"), value.NewHash(value.String("family"), value.String("Debian")),
		value.String("processors"), value.NewHash(value.String("count"), value.Integer(2)))
	trusted := value.NewHash(value.String("authenticated"), value.String("remote"), value.String("certname"), value.String(web))
	fp, err := Facts(web, "production", "marionette.test", now, facts, trusted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(ctx, ReplaceFacts, ReplaceFactsVersion, web, fp); err != nil {
		t.Fatal(err)
	}
	cat := testCatalog()
	cat.Name = web
	cp, err := Catalog(cat, CatalogInfo{TransactionUUID: "5e0b5a5e-0000-4000-8000-000000000001", JobID: "", Producer: "marionette.test", At: now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCommand(ctx, ReplaceCatalog, ReplaceCatalogVersion, web, cp); err != nil {
		t.Fatal(err)
	}

	// The facts as stored.
	rows := waitFor(t, c, "factsets", []any{"=", "certname", web}, func(r []any) bool { return len(r) == 1 })
	fs := rows[0].(map[string]any)
	if fs["environment"] != "production" || fs["producer"] != "marionette.test" {
		t.Errorf("factset %v", fs)
	}
	stored := map[string]string{}
	for _, f := range fs["facts"].(map[string]any)["data"].([]any) {
		m := f.(map[string]any)
		b, _ := marshal(m["value"])
		stored[m["name"].(string)] = string(b)
	}
	wantFacts := map[string]string{"os": `{"family":"Debian"}`, "processors": `{"count":2}`,
		"trusted": `{"authenticated":"remote","certname":"` + web + `"}`}
	if fmt.Sprint(stored) != fmt.Sprint(wantFacts) {
		t.Errorf("stored facts %v, want %v", stored, wantFacts)
	}

	// The catalog as stored: resources, edges, identifiers.
	rows = waitFor(t, c, "catalogs", []any{"=", "certname", web}, func(r []any) bool { return len(r) == 1 })
	cr := rows[0].(map[string]any)
	for k, want := range map[string]any{"version": "1700000000", "transaction_uuid": "5e0b5a5e-0000-4000-8000-000000000001",
		"catalog_uuid": cat.UUID, "code_id": nil, "job_id": nil, "producer": "marionette.test", "environment": "production"} {
		if cr[k] != want {
			t.Errorf("catalog %s = %v, want %v", k, cr[k], want)
		}
	}
	var titles []string
	for _, r := range cr["resources"].(map[string]any)["data"].([]any) {
		m := r.(map[string]any)
		titles = append(titles, fmt.Sprintf("%s[%s] exported=%v", m["type"], m["title"], m["exported"]))
	}
	sort.Strings(titles)
	want := []string{"Class[main] exported=false", "File[/etc/motd] exported=false", "File[/etc] exported=false",
		"Host[web01] exported=true", "Package[ntp] exported=false", "Service[ntp] exported=false"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Errorf("stored resources\n%s", strings.Join(titles, "\n"))
	}
	var edges []string
	for _, e := range cr["edges"].(map[string]any)["data"].([]any) {
		m := e.(map[string]any)
		edges = append(edges, fmt.Sprintf("%s[%s] %s %s[%s]", m["source_type"], m["source_title"], m["relationship"], m["target_type"], m["target_title"]))
	}
	sort.Strings(edges)
	wantEdges := []string{"Class[main] contains File[/etc/motd]", "Class[main] contains Host[web01]",
		"File[/etc] required-by File[/etc/motd]", "Package[ntp] notifies Service[ntp]", "Package[ntp] required-by File[/etc/motd]"}
	if strings.Join(edges, "\n") != strings.Join(wantEdges, "\n") {
		t.Errorf("stored edges\n%s", strings.Join(edges, "\n"))
	}
	// Sensitive parameters never reach PuppetDB.
	if strings.Contains(fmt.Sprint(cr["resources"]), "s3cret") {
		t.Errorf("sensitive value stored")
	}

	// Another node collects the export; the exporter itself does not.
	filter := &Filter{Op: "and", Left: &Filter{Op: "==", Attr: "tag", Value: "Monitoring"}, Right: &Filter{Op: "==", Attr: "ip", Value: "10.0.0.1"}}
	got, err := c.CollectExported(ctx, "Host", filter, mon)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range got {
		if r.Certname == web {
			found = true
			if r.CollectorID() != web+"|Host|web01" || r.File != "/site.pp" || r.Line != 6 {
				t.Errorf("collected %+v", r)
			}
			if v, _ := (&catalog.Resource{Params: r.Params}).Param("ip"); value.ToString(v) != "10.0.0.1" {
				t.Errorf("collected params %v", r.Params)
			}
		}
	}
	if !found {
		t.Errorf("mon did not collect web's Host[web01]: %v", got)
	}
	own, err := c.CollectExported(ctx, "Host", filter, web)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range own {
		if r.Certname == web {
			t.Errorf("web collected its own export from PuppetDB")
		}
	}

	// puppetdb_query with PQL and with an AST.
	for _, q := range []any{
		fmt.Sprintf(`resources[certname, title] { type = "Host" and exported = true and certname = "%s" }`, web),
		[]any{"from", "resources", []any{"extract", []any{"certname", "title"}, []any{"and", []any{"=", "type", "Host"}, []any{"=", "certname", web}}}},
	} {
		v, err := c.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		if string(b) != `[{"certname":"`+web+`","title":"web01"}]` {
			t.Errorf("query %v: %s", q, b)
		}
	}
	if _, err := c.Query(ctx, "resources { nonsense"); err == nil || !strings.HasPrefix(err.Error(), "[400 Bad Request] ") {
		t.Errorf("bad PQL: %v", err)
	}

	// A deactivated node's exports are collected no more.
	dp, _ := Deactivate(web, time.Now())
	if _, err := c.SubmitCommand(ctx, DeactivateNode, DeactivateNodeVersion, web, dp); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, "nodes", []any{"=", "certname", web}, func(r []any) bool { return len(r) == 0 })
	got, err = c.CollectExported(ctx, "Host", nil, mon)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if r.Certname == web {
			t.Errorf("deactivated node's export still collected")
		}
	}
}

func TestLiveUnreachableServerFailsOver(t *testing.T) {
	live := livePuppetDB(t)
	dead, _ := url.Parse("http://127.0.0.1:1")
	cfg := DefaultConfig()
	cfg.ServerURLs = []*url.URL{dead, live.Config().ServerURLs[0]}
	var warned []string
	c, _ := New(cfg, Options{Logf: func(level, msg string) { warned = append(warned, level+": "+msg) }})
	if _, err := c.Query(context.Background(), []any{"from", "nodes", []any{"limit", 1}}); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "warning: Error connecting to 127.0.0.1 on 1 at route http://127.0.0.1:1/pdb/query/v4") {
		t.Errorf("warnings %q", warned)
	}
}
