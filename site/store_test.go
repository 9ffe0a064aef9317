package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/value"
)

// TestStoreFromSettings: which settings give a compile a PuppetDB store.
func TestStoreFromSettings(t *testing.T) {
	tests := []struct {
		name, puppetConf, puppetdbConf, flag string
		wantURL, wantErr                     string
	}{
		{name: "nothing", wantURL: ""},
		{name: "storeconfigs off", puppetConf: "storeconfigs = false\n", puppetdbConf: "[main]\nserver_urls = https://db.example.com:8081\n", wantURL: ""},
		{name: "storeconfigs with puppetdb.conf", puppetConf: "storeconfigs = true\nstoreconfigs_backend = puppetdb\n",
			puppetdbConf: "[main]\nserver_urls = https://db.example.com:8081,https://db2.example.com:8081\nsoft_write_failure = true\n",
			wantErr:      "cannot connect to PuppetDB over https"},
		{name: "storeconfigs without puppetdb.conf", puppetConf: "storeconfigs = true\n", wantErr: "cannot connect to PuppetDB over https"},
		{name: "other backend", puppetConf: "storeconfigs = true\nstoreconfigs_backend = active_record\n", wantErr: "storeconfigs_backend 'active_record' is not supported"},
		{name: "bad puppetdb.conf", puppetConf: "storeconfigs = true\n", puppetdbConf: "server_urls = x\n", wantErr: "is illegal outside of section in PuppetDB config"},
		{name: "flag", flag: "http://127.0.0.1:8080", wantURL: "http://127.0.0.1:8080"},
		{name: "flag wins", puppetConf: "storeconfigs = true\n", flag: "http://127.0.0.1:8080/", wantURL: "http://127.0.0.1:8080"},
		{name: "bad flag", flag: "db:8081", wantErr: "invalid PuppetDB URL 'db:8081'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			conf := filepath.Join(dir, "puppet.conf")
			if err := os.WriteFile(conf, []byte("[main]\nconfdir = "+dir+"\n"+tt.puppetConf), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.puppetdbConf != "" {
				if err := os.WriteFile(filepath.Join(dir, "puppetdb.conf"), []byte(tt.puppetdbConf), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := Open(Options{Overrides: Overrides{Config: conf, PuppetDB: tt.flag}})
			if err != nil {
				t.Fatal(err)
			}
			c, err := st.PuppetDB()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if c != nil {
				got = c.Config().ServerURLs[0].String()
			}
			if got != tt.wantURL {
				t.Errorf("store = %q, want %q", got, tt.wantURL)
			}
		})
	}
}

// TestCompileCollectsThroughFlag: --puppetdb reaches the compile, and a
// PuppetDB that fails the query fails the compile in the terminus's words.
func TestCompileCollectsThroughFlag(t *testing.T) {
	rows := `[{"certname":"web01","type":"File","title":"/tmp/web01","exported":true,"tags":["file"],"file":"/site.pp","line":3,"environment":"production","parameters":{"content":"hi"}}]`
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Query().Get("query")
		if strings.Contains(asked, "broken") {
			http.Error(w, "no", http.StatusBadRequest)
			return
		}
		w.Write([]byte(rows))
	}))
	defer srv.Close()
	dir := t.TempDir()
	site := filepath.Join(dir, "site.pp")
	os.WriteFile(site, []byte("File <<| title != 'kept' |>>\n"), 0o644)
	st, err := Open(Options{Overrides: Overrides{Manifest: site, PuppetDB: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	_, req, err := st.Prepare(context.Background(), "mon.example.com", value.EmptyHash)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := req.Store.(*puppetdb.Client); !ok {
		t.Fatalf("store = %T", req.Store)
	}
	res, err := st.Compile(context.Background(), "mon.example.com", value.EmptyHash)
	if err != nil {
		t.Fatal(err)
	}
	if want := `["and",["=","type","File"],["=","exported",true],["not",["=","certname","mon.example.com"]],["not",["=","title","kept"]]]`; asked != want {
		t.Errorf("query = %s, want %s", asked, want)
	}
	if len(res.Catalog.Resources) == 0 || res.Catalog.Resources[len(res.Catalog.Resources)-1].Title != "/tmp/web01" {
		t.Errorf("File[/tmp/web01] not collected")
	}
	os.WriteFile(site, []byte("File <<| title == 'broken' |>>\n"), 0o644)
	_, err = st.Compile(context.Background(), "mon.example.com", value.EmptyHash)
	if err == nil || !strings.Contains(err.Error(), "Could not retrieve resources from the PuppetDB at "+srv.URL+": [400 Bad Request] no") {
		t.Errorf("error = %v", err)
	}
}

// TestUnreachablePuppetDBError: a PuppetDB that cannot be reached fails
// the compile in Puppet's words (Puppet 7.23 with the termini, server_urls
// http://127.0.0.1:1).
func TestUnreachablePuppetDBError(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site.pp")
	os.WriteFile(site, []byte("node default {\n  File <<| |>>\n}\n"), 0o644)
	o := Options{Overrides: Overrides{Manifest: site, PuppetDB: "http://127.0.0.1:1"}}
	var stdout, stderr strings.Builder
	if code := Run(context.Background(), o, "col.example.com", FactsFlag(FactsFlagNone), &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := "Error: Could not retrieve resources from the PuppetDB at http://127.0.0.1:1: Failed to execute '/pdb/query/v4/resources?query=%5B%22and%22%2C%5B%22%3D%22%2C%22type%22%2C%22File%22%5D%2C%5B%22%3D%22%2C%22exported%22%2Ctrue%5D%2C%5B%22not%22%2C%5B%22%3D%22%2C%22certname%22%2C%22col.example.com%22%5D%5D%5D' on at least 1 of the following 'server_urls': http://127.0.0.1:1 on node col.example.com\n"
	if !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to end with:\n%s", stderr.String(), want)
	}
	if !strings.Contains(stderr.String(), "Warning: Error connecting to 127.0.0.1 on 1 at route http://127.0.0.1:1/pdb/query/v4/resources?query=") {
		t.Errorf("no failover warning:\n%s", stderr.String())
	}
}
