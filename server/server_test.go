package server

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
)

// resourceTitles are the titles of a catalog's resources of type typ.
func resourceTitles(t *testing.T, body, typ string) []string {
	t.Helper()
	var cat struct {
		Name        string `json:"name"`
		Environment string `json:"environment"`
		Resources   []struct {
			Type, Title string
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(body), &cat); err != nil {
		t.Fatalf("catalog is no JSON: %v: %q", err, body)
	}
	var out []string
	for _, r := range cat.Resources {
		if r.Type == typ {
			out = append(out, r.Title)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCatalogPost(t *testing.T) {
	f := newFixture(t)
	// The facts claim another certname in clientcert: $trusted must come
	// from the certificate all the same.
	facts := factsJSON("web01.example.com", map[string]any{"os": "Debian", "clientcert": "forged.example.com"})
	resp := f.postCatalog("web01.example.com", "web01.example.com", "production", facts)
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	if ct := resp.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if v := resp.header.Get("X-Puppet-Version"); v != PuppetVersion {
		t.Errorf("X-Puppet-Version = %q", v)
	}
	notifies := resourceTitles(t, resp.body, "Notify")
	for _, want := range []string{
		"trusted remote web01.example.com web01 role=webserver",
		"fact os=Debian clientcert=forged.example.com",
		"env production",
	} {
		if !contains(notifies, want) {
			t.Errorf("missing Notify[%s]; have %q", want, notifies)
		}
	}
	// The facts are stored as puppetserver's yaml facts terminus does
	// (written off the request path: wait for the writer).
	f.srv.factsOut.flush()
	data, err := os.ReadFile(filepath.Join(f.vardir, "yaml", "facts", "web01.example.com.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "--- !ruby/object:Puppet::Node::Facts {") || !strings.Contains(string(data), `"os":"Debian"`) {
		t.Errorf("stored facts: %q", data)
	}
	// A GET without facts compiles with the stored ones.
	resp = f.do("web01.example.com", "GET", "/puppet/v3/catalog/web01.example.com?environment=production", nil, "")
	if resp.status != 200 {
		t.Fatalf("GET status %d: %s", resp.status, resp.body)
	}
	if !contains(resourceTitles(t, resp.body, "Notify"), "fact os=Debian clientcert=forged.example.com") {
		t.Errorf("GET did not use the stored facts: %q", resourceTitles(t, resp.body, "Notify"))
	}
	if !strings.Contains(f.logs.String(), "Compiled catalog for web01.example.com in environment production") {
		t.Errorf("no compile log line in %s", f.logs.String())
	}
}

// TestCatalogEnvironmentSwitch: a node the classifier puts in another
// environment gets an empty catalog of that environment, which makes the
// agent switch; asked in the right one, it gets its catalog.
func TestCatalogEnvironmentSwitch(t *testing.T) {
	f := newFixture(t)
	facts := factsJSON("mover.example.com", map[string]any{})
	resp := f.postCatalog("mover.example.com", "mover.example.com", "production", facts)
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	m := resp.json(t)
	if m["environment"] != "other" || len(m["resources"].([]any)) != 0 {
		t.Errorf("want an empty catalog in environment other, got %s", resp.body)
	}
	resp = f.postCatalog("mover.example.com", "mover.example.com", "other", facts)
	if resp.status != 200 || !contains(resourceTitles(t, resp.body, "Notify"), "in other") {
		t.Errorf("status %d, body %s", resp.status, resp.body)
	}
}

// TestCatalogRichData: an agent asks for rich data first and gets it, so a
// Deferred value reaches it as a Deferred; a client that asks for plain
// JSON gets the value's string form.
func TestCatalogRichData(t *testing.T) {
	f := newFixture(t)
	form := catalogForm("db01.example.com", "deferred", factsJSON("db01.example.com", nil))
	for _, tc := range []struct {
		accept, contentType, message string
	}{
		{"application/vnd.puppet.rich+json, application/json, text/pson", "application/vnd.puppet.rich+json",
			`"message":{"__ptype":"Deferred","name":"x::y","arguments":["a"]}`},
		{"application/json, text/pson", "application/json", `"message":"Deferred({'name' => 'x::y', 'arguments' => ['a']})"`},
	} {
		resp := f.do("db01.example.com", "POST", "/puppet/v3/catalog/db01.example.com?environment=deferred",
			strings.NewReader(form), "application/x-www-form-urlencoded", "Accept", tc.accept)
		if resp.status != 200 {
			t.Fatalf("status %d: %s", resp.status, resp.body)
		}
		if ct := resp.header.Get("Content-Type"); ct != tc.contentType {
			t.Errorf("Accept %q: Content-Type = %q, want %q", tc.accept, ct, tc.contentType)
		}
		if !strings.Contains(resp.body, tc.message) {
			t.Errorf("Accept %q: body lacks %s:\n%s", tc.accept, tc.message, resp.body)
		}
	}
}

// TestSettingsEnvironmentIsTheServers: $settings::environment is the
// server's environment setting whatever environment a node is compiled
// in, as puppetserver shows it.
func TestSettingsEnvironmentIsTheServers(t *testing.T) {
	f := newFixture(t)
	resp := f.postCatalog("db01.example.com", "db01.example.com", "settings", factsJSON("db01.example.com", nil))
	if resp.status != 200 || !contains(resourceTitles(t, resp.body, "Notify"), "env=production settings") {
		t.Errorf("status %d, body %s", resp.status, resp.body)
	}
}

func TestCatalogCompileError(t *testing.T) {
	f := newFixture(t)
	resp := f.postCatalog("db01.example.com", "db01.example.com", "broken", factsJSON("db01.example.com", nil))
	if resp.status != 500 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	m := resp.json(t)
	msg, _ := m["message"].(string)
	if !strings.HasPrefix(msg, "Server Error: Evaluation Error: Error while evaluating a Function Call, boom") ||
		!strings.HasSuffix(msg, " on node db01.example.com") || m["issue_kind"] != "RUNTIME_ERROR" {
		t.Errorf("error body %s", resp.body)
	}
	if ct := resp.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
}

func TestNode(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		as, env string
		status  int
		wantEnv string
	}{
		{"web01.example.com", "production", 200, "production"},
		{"mover.example.com", "production", 200, "other"},
		{"web01.example.com", "nosuch", 404, ""},
	} {
		resp := f.do(tt.as, "GET", "/puppet/v3/node/"+tt.as+"?environment="+tt.env+"&transaction_uuid=x&configured_environment="+tt.env, nil, "")
		if resp.status != tt.status {
			t.Errorf("%s in %s: status %d: %s", tt.as, tt.env, resp.status, resp.body)
			continue
		}
		m := resp.json(t)
		if tt.status != 200 {
			if m["message"] != "Not Found: Could not find environment '"+tt.env+"'" {
				t.Errorf("error body %s", resp.body)
			}
			continue
		}
		if m["name"] != tt.as || m["environment"] != tt.wantEnv {
			t.Errorf("node %s", resp.body)
		}
	}
}

func TestReport(t *testing.T) {
	f := newFixture(t)
	report := `{"host":"web01.example.com","status":"changed","report_format":12}`
	resp := f.do("web01.example.com", "PUT", "/puppet/v3/report/web01.example.com?environment=production", strings.NewReader(report), "application/json")
	// Puppet answers the processors' names (reports defaults to store).
	if resp.status != 200 || resp.body != `["store"]` {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	entries, err := os.ReadDir(filepath.Join(f.vardir, "reports", "web01.example.com"))
	if err != nil || len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".yaml") || len(entries[0].Name()) != len("200601021504.yaml") {
		t.Fatalf("report files: %v %v", entries, err)
	}
	data, _ := os.ReadFile(filepath.Join(f.vardir, "reports", "web01.example.com", entries[0].Name()))
	// As Puppet's store processor writes it: YAML, not the JSON received.
	if want := "--- !ruby/object:Puppet::Transaction::Report\nhost: web01.example.com\nstatus: changed\nreport_format: 12\n"; string(data) != want {
		t.Errorf("stored report %q, want %q", data, want)
	}
}

func TestFactsPut(t *testing.T) {
	f := newFixture(t)
	resp := f.do("db01.example.com", "PUT", "/puppet/v3/facts/db01.example.com?environment=production", strings.NewReader(factsJSON("db01.example.com", map[string]any{"os": "Alpine"})), "application/json")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	if got := f.srv.cachedFacts("db01.example.com"); got.Len() != 1 {
		t.Errorf("stored facts %v", got)
	}
}

func TestEnvironmentsAndStatus(t *testing.T) {
	f := newFixture(t)
	resp := f.do("db01.example.com", "GET", "/puppet/v3/environments", nil, "")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	m := resp.json(t)
	envs, _ := m["environments"].(map[string]any)
	for _, name := range []string{"production", "other", "broken", "slow"} {
		if _, ok := envs[name]; !ok {
			t.Errorf("environment %s missing: %s", name, resp.body)
		}
	}
	prod, _ := envs["production"].(map[string]any)
	settings, _ := prod["settings"].(map[string]any)
	if settings["environment_timeout"] != float64(0) || !strings.HasSuffix(settings["manifest"].(string), "production/manifests") {
		t.Errorf("production settings %v", settings)
	}
	sp, _ := m["search_paths"].([]any)
	if len(sp) != 1 || sp[0] != "file://"+filepath.Join(f.dir, "code", "environments") {
		t.Errorf("search_paths %v", sp)
	}

	resp = f.do("", "GET", "/status/v1/simple", nil, "")
	if resp.status != 200 || resp.body != "running" {
		t.Errorf("simple status %d %q", resp.status, resp.body)
	}
	resp = f.do("", "GET", "/status/v1/services", nil, "")
	if resp.status != 200 || resp.json(t)["server"].(map[string]any)["state"] != "running" {
		t.Errorf("services status %d %q", resp.status, resp.body)
	}
}

// TestEnvironmentCacheFlush: with environment_timeout unlimited an edit is
// not seen until the admin endpoint flushes the cache.
func TestEnvironmentCacheFlush(t *testing.T) {
	f := newFixture(t)
	site := filepath.Join(f.dir, "code", "environments", "other", "manifests", "site.pp")
	if err := os.WriteFile(filepath.Join(f.dir, "code", "environments", "other", "environment.conf"), []byte("environment_timeout = unlimited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	facts := factsJSON("mover.example.com", nil)
	get := func() []string {
		resp := f.postCatalog("mover.example.com", "mover.example.com", "other", facts)
		if resp.status != 200 {
			t.Fatalf("status %d: %s", resp.status, resp.body)
		}
		return resourceTitles(t, resp.body, "Notify")
	}
	if got := get(); !contains(got, "in other") {
		t.Fatalf("first compile %q", got)
	}
	if err := os.WriteFile(site, []byte("notify { 'edited': }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := get(); !contains(got, "in other") {
		t.Fatalf("cached environment not served: %q", got)
	}
	for _, tt := range []struct {
		as     string
		status int
	}{{"mover.example.com", 403}, {"", 403}, {"admin.example.com", 204}} {
		resp := f.do(tt.as, "DELETE", "/puppet-admin-api/v1/environment-cache?environment=other", nil, "")
		if resp.status != tt.status {
			t.Errorf("flush as %q: status %d: %s", tt.as, resp.status, resp.body)
		}
	}
	if got := get(); !contains(got, "edited") {
		t.Errorf("after the flush: %q", got)
	}
}

func TestV4Catalog(t *testing.T) {
	f := newFixture(t)
	body := `{"certname":"db01.example.com","environment":"production","facts":{"values":{"os":"Arch"}},
"trusted_facts":{"values":{"extensions":{"pp_role":"db"}}},"options":{"capture_logs":true,"log_level":"warning"}}`
	resp := f.do("admin.example.com", "POST", "/puppet/v4/catalog", strings.NewReader(body), "application/json")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	var out struct {
		Catalog json.RawMessage
		Logs    []any
	}
	if err := json.Unmarshal([]byte(resp.body), &out); err != nil {
		t.Fatal(err)
	}
	// $trusted is trusted_facts as given, as puppetserver 7.9.5 compiles
	// it (measured): nothing added from the certname.
	notifies := resourceTitles(t, string(out.Catalog), "Notify")
	if !contains(notifies, "trusted    role=db") || !contains(notifies, "fact os=Arch clientcert=") {
		t.Errorf("v4 catalog notifies %q", notifies)
	}
	for tf, want := range map[string]string{
		// $trusted is {}: its ['extensions'] is undef, which cannot be
		// indexed (an error under Puppet too).
		``: "500 Operator '[]' is not applicable to an Undef Value",
		`,"trusted_facts":{"values":{"certname":"db01.example.com","authenticated":"remote","extensions":{"pp_role":"x"}}}`: "trusted remote db01.example.com  role=x",
		`,"trusted_facts":{"values":[1]}`: "400",
	} {
		body := `{"certname":"db01.example.com","environment":"production","facts":{"values":{}}` + tf + `}`
		resp := f.do("admin.example.com", "POST", "/puppet/v4/catalog", strings.NewReader(body), "application/json")
		if code, msg, _ := strings.Cut(want, " "); code == "400" || code == "500" {
			if strconv.Itoa(resp.status) != code || !strings.Contains(resp.body, msg) {
				t.Errorf("%s: %d %s, want %s", tf, resp.status, resp.body, want)
			}
			continue
		}
		var out struct{ Catalog json.RawMessage }
		if err := json.Unmarshal([]byte(resp.body), &out); err != nil {
			t.Fatalf("%s: %v %d %s", tf, err, resp.status, resp.body)
		}
		if resp.status != 200 {
			t.Fatalf("%s: %d %s", tf, resp.status, resp.body)
		}
		if got := resourceTitles(t, string(out.Catalog), "Notify"); !contains(got, want) {
			t.Errorf("trusted_facts %s: notifies %q, want %q", tf, got, want)
		}
	}
	// Agents may not use it (puppetserver's default denies everyone).
	if resp := f.do("db01.example.com", "POST", "/puppet/v4/catalog", strings.NewReader(body), "application/json"); resp.status != 403 {
		t.Errorf("agent on v4: status %d", resp.status)
	}
}

// TestAuthorization is puppetserver's default auth.conf: node, catalog,
// report and facts for the certificate's own name only.
func TestAuthorization(t *testing.T) {
	f := newFixture(t)
	const own, other, none, admin = "web01.example.com", "db01.example.com", "", "admin.example.com"
	facts := factsJSON(own, nil)
	for _, tt := range []struct {
		as, method, path string
		body             string
		status           int
	}{
		{own, "GET", "/puppet/v3/node/web01.example.com?environment=production", "", 200},
		{other, "GET", "/puppet/v3/node/web01.example.com?environment=production", "", 403},
		{none, "GET", "/puppet/v3/node/web01.example.com?environment=production", "", 403},
		{admin, "GET", "/puppet/v3/node/web01.example.com?environment=production", "", 403},
		{own, "POST", "/puppet/v3/catalog/web01.example.com?environment=production", catalogForm(own, "production", facts), 200},
		{other, "POST", "/puppet/v3/catalog/web01.example.com?environment=production", catalogForm(own, "production", facts), 403},
		{none, "POST", "/puppet/v3/catalog/web01.example.com?environment=production", catalogForm(own, "production", facts), 403},
		{other, "GET", "/puppet/v3/catalog/web01.example.com?environment=production", "", 403},
		{own, "PUT", "/puppet/v3/report/web01.example.com?environment=production", `{}`, 200},
		{other, "PUT", "/puppet/v3/report/web01.example.com?environment=production", `{}`, 403},
		{none, "PUT", "/puppet/v3/report/web01.example.com?environment=production", `{}`, 403},
		{other, "PUT", "/puppet/v3/facts/web01.example.com?environment=production", facts, 403},
		{own, "DELETE", "/puppet/v3/catalog/web01.example.com?environment=production", "", 404}, // puppetserver routes before it authorizes: no route is 404
		{own, "GET", "/puppet/v3/environments", "", 200},
		{none, "GET", "/puppet/v3/environments", "", 403},
		{none, "GET", "/status/v1/simple", "", 200},
		{own, "GET", "/puppet/v3/catalog/web01.example.com/x?environment=production", "", 403},
		{own, "GET", "/puppet/v3/catalog/%2e%2e/etc?environment=production", "", 403},
		{own, "GET", "/nothing/here", "", 404},
		{own, "DELETE", "/puppet-admin-api/v1/environment-cache", "", 403},
		{none, "GET", "/puppet-ca/v1/certificate/ca", "", 404}, // allowed, but no CA plugged in
	} {
		var body *strings.Reader
		if tt.body != "" {
			body = strings.NewReader(tt.body)
		}
		ct := ""
		if tt.method == "POST" {
			ct = "application/x-www-form-urlencoded"
		}
		var resp response
		if body != nil {
			resp = f.do(tt.as, tt.method, tt.path, body, ct)
		} else {
			resp = f.do(tt.as, tt.method, tt.path, nil, ct)
		}
		if resp.status != tt.status {
			t.Errorf("%q %s %s: status %d, want %d: %s", tt.as, tt.method, tt.path, resp.status, tt.status, resp.body)
			continue
		}
		if tt.status == 403 {
			want := "Forbidden request: "
			if !strings.HasPrefix(resp.body, want) || !strings.Contains(resp.body, "(method :"+strings.ToLower(tt.method)+"). Please see the server logs for details.") {
				t.Errorf("%s %s: 403 body %q", tt.method, tt.path, resp.body)
			}
		}
	}
}

// TestBadInput: malformed requests get a clear 4xx, nothing is written
// outside the server's directories, and the server keeps serving.
func TestBadInput(t *testing.T) {
	f := newFixture(t)
	const own = "web01.example.com"
	form := func(mutate func(v map[string]string)) string {
		v := map[string]string{"facts_format": "application/json", "facts": factsJSON(own, nil), "environment": "production"}
		mutate(v)
		q := url.Values{}
		for k, x := range v {
			if k == "facts" {
				x = url.QueryEscape(x)
			}
			q.Set(k, x)
		}
		return q.Encode()
	}
	full := catalogForm(own, "production", factsJSON(own, nil))
	truncated := "facts_format=application%2Fjson&environment=production" + full[strings.Index(full, "&facts="):][:40]
	huge := "facts_format=application%2Fjson&environment=production&facts=" + strings.Repeat("a", 2<<20)
	for _, tt := range []struct {
		name, path, body string
		status           int
		message          string
	}{
		{"invalid facts JSON", "/puppet/v3/catalog/" + own + "?environment=production", form(func(v map[string]string) { v["facts"] = `{"name": "web01.example.com", "values": {` }), 400, "Bad Request: Could not intern from json"},
		{"deeply nested facts", "/puppet/v3/catalog/" + own + "?environment=production", form(func(v map[string]string) {
			v["facts"] = `{"name":"web01.example.com","values":{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
		}), 400, "Bad Request: Could not intern from json"},
		{"facts for another node", "/puppet/v3/catalog/" + own + "?environment=production", form(func(v map[string]string) { v["facts"] = factsJSON("db01.example.com", nil) }), 400, `Bad Request: Catalog for "web01.example.com" was requested with fact definition for the wrong node ("db01.example.com").`},
		{"unknown facts format", "/puppet/v3/catalog/" + own + "?environment=production", form(func(v map[string]string) { v["facts_format"] = "yaml" }), 400, "Bad Request: Unsupported facts format"},
		{"truncated form", "/puppet/v3/catalog/" + own + "?environment=production", truncated, 400, "Bad Request: Could not intern from json"},
		{"bad percent escape", "/puppet/v3/catalog/" + own + "?environment=production", "facts=%zz&environment=production", 400, "Bad Request: could not read the request"},
		{"huge body", "/puppet/v3/catalog/" + own + "?environment=production", huge, 413, "Request Entity Too Large"},
		{"no environment", "/puppet/v3/catalog/" + own, "", 400, "Bad Request: An environment parameter must be specified"},
		{"environment with a slash", "/puppet/v3/catalog/" + own + "?environment=..%2F..%2Fetc", "", 400, "Bad Request: The environment must be purely alphanumeric, not '../../etc'"},
		{"environment with shell characters", "/puppet/v3/catalog/" + own + "?environment=%24%28id%29", "", 400, "Bad Request: The environment must be purely alphanumeric, not '$(id)'"},
		{"unknown environment", "/puppet/v3/catalog/" + own + "?environment=nosuch", form(func(v map[string]string) { v["environment"] = "nosuch" }), 500, "Server Error: Failed when searching for node web01.example.com: Could not find a directory environment named 'nosuch' anywhere in the path: " + filepath.Join(f.dir, "code", "environments") + ". Does the directory exist?"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var resp response
			if tt.body == "" {
				resp = f.do(own, "GET", tt.path, nil, "")
			} else {
				resp = f.do(own, "POST", tt.path, strings.NewReader(tt.body), "application/x-www-form-urlencoded")
			}
			if resp.status != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.status, tt.status, resp.body)
			}
			msg, _ := resp.json(t)["message"].(string)
			if !strings.HasPrefix(msg, tt.message) {
				t.Errorf("message %q, want prefix %q", msg, tt.message)
			}
		})
	}
	// Certnames the node rule cannot match, or that are no safe file
	// names, never reach the disk.
	for _, name := range []string{"..", ".hidden", "a;id", "a%20b", "%24%28id%29"} {
		resp := f.do(own, "PUT", "/puppet/v3/report/"+name+"?environment=production", strings.NewReader("{}"), "application/json")
		if resp.status != 403 && resp.status != 400 {
			t.Errorf("report for %q: status %d", name, resp.status)
		}
	}
	// A certificate whose own name is no safe file name passes the
	// authorization rule ($1 is its name) and is stopped by validation.
	for _, cn := range []string{"..", ".ssh", "a;id", "$(id)"} {
		cert, _ := f.pki.issue(cn)
		f.clients[cn] = f.client(&cert)
		esc := url.PathEscape(cn)
		for _, req := range []struct{ method, path, body string }{
			{"PUT", "/puppet/v3/report/" + esc + "?environment=production", "{}"},
			{"PUT", "/puppet/v3/facts/" + esc + "?environment=production", factsJSON(cn, nil)},
			{"POST", "/puppet/v3/catalog/" + esc + "?environment=production", catalogForm(cn, "production", factsJSON(cn, nil))},
		} {
			resp := f.do(cn, req.method, req.path, strings.NewReader(req.body), "application/x-www-form-urlencoded")
			if resp.status != 400 && resp.status != 403 {
				t.Errorf("%s %s as %q: status %d: %s", req.method, req.path, cn, resp.status, resp.body)
			}
		}
	}
	// Only the server's own directories were written.
	var written []string
	_ = filepath.Walk(f.dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasPrefix(path, f.vardir+string(filepath.Separator)) && !strings.HasPrefix(path, filepath.Join(f.dir, "code")) {
			written = append(written, path)
		}
		return nil
	})
	for _, w := range written {
		switch filepath.Base(w) {
		case "cert.pem", "key.pem", "ca.pem", "enc.sh":
		default:
			t.Errorf("unexpected file %s", w)
		}
	}
	if resp := f.do("", "GET", "/status/v1/simple", nil, ""); resp.status != 200 {
		t.Errorf("server down after bad input: %d", resp.status)
	}
}

// TestCompileTimeout: a compile past the deadline fails alone.
func TestCompileTimeout(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.CompileTimeout = 300 * time.Millisecond })
	start := time.Now()
	resp := f.postCatalog("db01.example.com", "db01.example.com", "slow", factsJSON("db01.example.com", nil))
	if resp.status != 500 || !strings.Contains(resp.json(t)["message"].(string), "did not compile within 300ms") {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timeout took %v", d)
	}
	if resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil)); resp.status != 200 {
		t.Errorf("next compile: %d %s", resp.status, resp.body)
	}
}

// TestCompileLimit: past the compile slots and the queue, 503 with
// Retry-After.
func TestCompileLimit(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	f := newFixture(t, func(c *Config) {
		c.MaxCompiles, c.MaxQueued, c.MaxRetryDelay = 1, -1, 5*time.Second
	})
	f.srv.compileFn = func(ctx context.Context, env *compiler.Environment, req *compiler.Request) (*compiler.Result, error) {
		started <- struct{}{}
		<-release
		return compiler.Compile(ctx, env, req)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var first response
	go func() {
		defer wg.Done()
		first = f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil))
	}()
	<-started
	resp := f.postCatalog("db01.example.com", "db01.example.com", "production", factsJSON("db01.example.com", nil))
	close(release)
	wg.Wait()
	if resp.status != 503 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	// Refused before its facts were decoded: they were not stored (as
	// puppetserver refuses a request past its queue before handling it).
	f.srv.factsOut.flush()
	if _, err := os.Stat(filepath.Join(f.vardir, "yaml", "facts", "db01.example.com.yaml")); err == nil {
		t.Error("the refused request's facts were stored")
	}
	ra, err := strconv.Atoi(resp.header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 5 {
		t.Errorf("Retry-After %q", resp.header.Get("Retry-After"))
	}
	if first.status != 200 {
		t.Errorf("first compile: %d %s", first.status, first.body)
	}
}

// TestCompilePanic: a panicking compile answers 500; the server stays up.
func TestCompilePanic(t *testing.T) {
	f := newFixture(t)
	f.srv.compileFn = func(context.Context, *compiler.Environment, *compiler.Request) (*compiler.Result, error) {
		panic("kaboom")
	}
	resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil))
	if resp.status != 500 || !strings.Contains(resp.body, "kaboom") {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	f.srv.compileFn = compiler.Compile
	if resp := f.postCatalog("web01.example.com", "web01.example.com", "production", factsJSON("web01.example.com", nil)); resp.status != 200 {
		t.Errorf("after the panic: %d %s", resp.status, resp.body)
	}
	// The limiter slot was given back.
	if n := len(f.srv.limit.slots); n != 0 {
		t.Errorf("%d slots held", n)
	}
}

// TestAccessLog: one line per request.
func TestAccessLog(t *testing.T) {
	f := newFixture(t)
	f.do("", "GET", "/status/v1/simple", nil, "")
	f.do("web01.example.com", "GET", "/puppet/v3/environments", nil, "")
	n := strings.Count(f.logs.String(), "msg=request ")
	if n != 2 {
		t.Errorf("%d access log lines:\n%s", n, f.logs.String())
	}
	if !strings.Contains(f.logs.String(), "certname=web01.example.com") {
		t.Errorf("access log lacks the certname:\n%s", f.logs.String())
	}
}

// TestServeShutdown: Serve returns once its context is cancelled.
func TestServeShutdown(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(ctx, l) }()
	c := f.clients[""]
	var resp *http.Response
	for i := 0; i < 50; i++ {
		resp, err = c.Get("https://" + l.Addr().String() + "/status/v1/simple")
		if err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.TLS == nil || resp.TLS.Version < 0x0303 {
		t.Errorf("TLS %v", resp.TLS)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// TestHandshakeTimeout: a connection that never completes its TLS
// handshake is closed after HandshakeTimeout, not before; the default is
// the agent's 2 minutes (30 s cut off a herd of agents queued for the CPU).
func TestHandshakeTimeout(t *testing.T) {
	if got := newFixture(t).srv.cfg.HandshakeTimeout; got != 2*time.Minute {
		t.Errorf("default handshake timeout %v, want 2m", got)
	}
	f := newFixture(t, func(c *Config) { c.HandshakeTimeout = time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(ctx, l) }()
	defer func() { cancel(); <-done }()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if err := c.SetReadDeadline(start.Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = c.Read(make([]byte, 1))
	if err == nil {
		t.Fatal("the server wrote to a connection that sent nothing")
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the server kept a silent connection open for 10 s")
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("closed after %v, before the 1 s handshake timeout", d)
	}
}

func TestFileServing(t *testing.T) {
	f := newFixture(t)
	const as = "db01.example.com"
	mod := filepath.Join(f.dir, "code", "environments", "production", "modules")
	var metas []fileMetadata
	resp := f.do(as, "GET", "/puppet/v3/file_metadatas/plugins?recurse=true&max_files=-1&ignore=.svn&ignore=CVS&ignore=.git&ignore=.hg&links=follow&checksum_type=sha256&source_permissions=ignore&environment=production", nil, "")
	if resp.status != 200 {
		t.Fatalf("status %d: %s", resp.status, resp.body)
	}
	if err := json.Unmarshal([]byte(resp.body), &metas); err != nil {
		t.Fatal(err)
	}
	got := map[string]fileMetadata{}
	for _, m := range metas {
		got[*m.RelativePath] = m
	}
	want := map[string]string{
		".": filepath.Join(mod, "hello", "lib"), "facter": filepath.Join(mod, "hello", "lib"),
		"facter/hello.rb": filepath.Join(mod, "hello", "lib"), "facter/other.rb": filepath.Join(mod, "other", "lib"),
		"puppet": filepath.Join(mod, "hello", "lib"), "puppet/x": filepath.Join(mod, "hello", "lib"), "puppet/x/y.rb": filepath.Join(mod, "hello", "lib"),
	}
	if len(got) != len(want) || *metas[0].RelativePath != "." {
		t.Errorf("entries %v", metas)
	}
	for rel, root := range want {
		if got[rel].Path != root {
			t.Errorf("%s: path %q, want %q", rel, got[rel].Path, root)
		}
	}
	if c := got["facter/hello.rb"].Checksum; c.Type != "sha256" || c.Value == nil || *c.Value != "{sha256}"+sha256Hex("Facter.add(:hello) { setcode { 'hi' } }\n") {
		t.Errorf("checksum %v", c)
	}
	if got["facter"].Type != "directory" || got["facter/hello.rb"].Type != "file" || got["facter/hello.rb"].Mode != 0o644 { // source_permissions=ignore: puppetserver says 0644
		t.Errorf("types/modes %+v %+v", got["facter"], got["facter/hello.rb"])
	}

	resp = f.do(as, "GET", "/puppet/v3/file_metadata/modules/hello/greeting.txt?links=manage&checksum_type=md5&source_permissions=ignore&environment=production", nil, "")
	if resp.status != 200 || !strings.Contains(resp.body, `"value":"{md5}6f5902ac237024bdd0c176cb93063dc4"`) || !strings.Contains(resp.body, `"relative_path":null`) {
		t.Errorf("file_metadata %d %s", resp.status, resp.body)
	}
	resp = f.do(as, "GET", "/puppet/v3/file_content/modules/hello/greeting.txt?environment=production", nil, "")
	if resp.status != 200 || resp.body != "hello world\n" || resp.header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("file_content %d %q %v", resp.status, resp.body, resp.header)
	}
	resp = f.do(as, "GET", "/puppet/v3/file_content/plugins/facter/hello.rb?environment=production", nil, "")
	if resp.status != 200 || !strings.HasPrefix(resp.body, "Facter.add") {
		t.Errorf("plugin content %d %q", resp.status, resp.body)
	}
	// An environment without plugins still answers the agent's probe.
	resp = f.do(as, "GET", "/puppet/v3/file_metadatas/pluginfacts?recurse=true&environment=other", nil, "")
	if resp.status != 200 || !strings.HasPrefix(resp.body, `[{"path":`) {
		t.Errorf("empty pluginfacts %d %s", resp.status, resp.body)
	}
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/puppet/v3/file_metadatas/plugins?environment=nosuch", 404},
		// The empty tree stands in for a search (file_metadatas) alone:
		// puppetserver 7.9.5 answers 404 to a file_metadata of a
		// pluginfacts mount no module fills (scripts/site-migration-e2e).
		{"/puppet/v3/file_metadata/pluginfacts?environment=other", 404},
		{"/puppet/v3/file_metadata/plugins?environment=other", 404},
		{"/puppet/v3/file_content/modules/hello/../../../../../../etc/passwd?environment=production", 400},
		{"/puppet/v3/file_content/modules/hello/%2e%2e/%2e%2e/manifests/site.pp?environment=production", 400},
		{"/puppet/v3/file_content/modules/hello/nosuch?environment=production", 404},
		{"/puppet/v3/file_content/modules/nosuch/x?environment=production", 404},
		{"/puppet/v3/file_content/modules/hello?environment=production", 404},
	} {
		resp := f.do(as, "GET", tt.path, nil, "")
		if resp.status != tt.status {
			t.Errorf("%s: %d %s", tt.path, resp.status, resp.body)
		}
	}
	if resp := f.do("", "GET", "/puppet/v3/file_content/modules/hello/greeting.txt?environment=production", nil, ""); resp.status != 403 {
		t.Errorf("without a certificate: %d", resp.status)
	}
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// BenchmarkCatalogPost is an agent's catalog request over TLS, end to end
// (a small manifest: the server's own overhead dominates), with the
// fixture's external node classifier (a shell script run per request) and
// with the plain node terminus.
func BenchmarkCatalogPost(b *testing.B) {
	for _, enc := range []bool{true, false} {
		name := "plain"
		if enc {
			name = "enc"
		}
		b.Run(name, func(b *testing.B) {
			f := newFixture(b)
			if !enc {
				f.srv.site.Load().Resolver().Classifier.ENC = ""
			}
			facts := factsJSON("web01.example.com", map[string]any{"os": "Debian"})
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if resp := f.postCatalog("web01.example.com", "web01.example.com", "production", facts); resp.status != 200 {
						b.Errorf("status %d", resp.status)
					}
				}
			})
		})
	}
}

// TestCatalogGzip: a client that accepts gzip gets the catalog gzipped.
func TestCatalogGzip(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		accept string
		gzip   bool
	}{
		{"gzip;q=1.0,deflate;q=0.6,identity;q=0.3", true},
		{"identity", false},
		{"gzip;q=0", false},
	} {
		req, _ := http.NewRequest("POST", f.ts.URL+"/puppet/v3/catalog/web01.example.com?environment=production",
			strings.NewReader(catalogForm("web01.example.com", "production", factsJSON("web01.example.com", nil))))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Encoding", tt.accept)
		resp, err := f.clients["web01.example.com"].Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = resp.Body
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			body = zr
		}
		data, err := io.ReadAll(body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%d %v", resp.StatusCode, err)
		}
		if got := resp.Header.Get("Content-Encoding") == "gzip"; got != tt.gzip {
			t.Errorf("Accept-Encoding %q: gzipped %v", tt.accept, got)
		}
		if !contains(resourceTitles(t, string(data), "Notify"), "env production") {
			t.Errorf("Accept-Encoding %q: catalog %s", tt.accept, data)
		}
	}
}

// TestRecursiveFileMetadatas: file_metadatas honours the agent's query
// parameters with Puppet's meanings (max_files 0 and -1 are no limit) and
// serves fileserver.conf's mounts; the expected entries are
// puppetserver 7.9.5's answers for the same tree.
func TestRecursiveFileMetadatas(t *testing.T) {
	f := newFixture(t)
	const as = "db01.example.com"
	tree := filepath.Join(f.dir, "code", "environments", "production", "modules", "hello", "files", "dir")
	mnt := filepath.Join(f.dir, "mnt")
	for name, text := range map[string]string{
		"a.txt": "a\n", "skip.bak": "x\n", ".git/HEAD": "g\n", "sub/b.txt": "b\n", "sub/deeper/c.txt": "c\n",
	} {
		for _, root := range []string{tree, mnt} {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink("a.txt", filepath.Join(tree, "link.txt")); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(f.dir, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "fileserver.conf"), []byte("# site files\n[site]\n    path "+mnt+"\n    allow *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Reload(f.srv.settings.Load()); err != nil {
		t.Fatal(err)
	}
	all := ". .git .git/HEAD a.txt link.txt skip.bak sub sub/b.txt sub/deeper sub/deeper/c.txt"
	for _, tt := range []struct {
		name, query string
		status      int
		want        string // relative paths, or a piece of the error
	}{
		{"max_files 0 is no limit", "recurse=true&max_files=0", 200, all},
		{"max_files -1 is no limit", "recurse=true&max_files=-1", 200, all},
		{"max_files at the count", "recurse=true&max_files=9", 200, all},
		{"max_files below the count", "recurse=true&max_files=3", 500, "contains 9 entries, which exceeds the limit of 3 specified by the max_files parameter"},
		{"recurselimit", "recurse=true&recurselimit=1", 200, ". .git a.txt link.txt skip.bak sub"},
		{"ignore", "recurse=true&ignore=.git&ignore=*.bak", 200, ". a.txt link.txt sub sub/b.txt sub/deeper sub/deeper/c.txt"},
		{"no recurse", "recurse=false", 200, "."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := f.do(as, "GET", "/puppet/v3/file_metadatas/modules/hello/dir?environment=production&links=manage&checksum_type=sha256&source_permissions=ignore&"+tt.query, nil, "")
			if resp.status != tt.status {
				t.Fatalf("status %d: %s", resp.status, resp.body)
			}
			if tt.status != 200 {
				if !strings.Contains(resp.body, tt.want) {
					t.Errorf("body %s, want %q", resp.body, tt.want)
				}
				return
			}
			var metas []fileMetadata
			if err := json.Unmarshal([]byte(resp.body), &metas); err != nil {
				t.Fatal(err)
			}
			var rels []string
			for _, m := range metas {
				rels = append(rels, *m.RelativePath)
			}
			if got := strings.Join(rels, " "); got != tt.want {
				t.Errorf("entries %q, want %q", got, tt.want)
			}
		})
	}
	resp := f.do(as, "GET", "/puppet/v3/file_metadatas/modules/hello/dir?environment=production&recurse=true&links=manage", nil, "")
	if !strings.Contains(resp.body, `"relative_path":"link.txt","links":"manage"`) || !strings.Contains(resp.body, `"type":"link","destination":"a.txt"`) {
		t.Errorf("links=manage: %s", resp.body)
	}
	resp = f.do(as, "GET", "/puppet/v3/file_metadatas/site?environment=production&recurse=true&ignore=.git", nil, "")
	if resp.status != 200 || !strings.Contains(resp.body, `"relative_path":"sub/deeper/c.txt"`) || !strings.Contains(resp.body, `"path":"`+mnt+`"`) {
		t.Errorf("custom mount: %d %s", resp.status, resp.body)
	}
	resp = f.do(as, "GET", "/puppet/v3/file_content/site/sub/b.txt?environment=production", nil, "")
	if resp.status != 200 || resp.body != "b\n" {
		t.Errorf("custom mount content: %d %q", resp.status, resp.body)
	}
}

// TestPprof: the runtime profiles are off unless Config.Pprof, saying so;
// on, only admins get them.
func TestPprof(t *testing.T) {
	off := newFixture(t)
	if r := off.do("admin.example.com", "GET", "/debug/pprof/heap", nil, ""); r.status != 404 || !strings.Contains(r.body, "profiling is off: start marionette serve with --pprof") {
		t.Errorf("off: %d %s", r.status, r.body)
	}
	on := newFixture(t, func(c *Config) { c.Pprof = true })
	if r := on.do("admin.example.com", "GET", "/debug/pprof/heap?debug=1", nil, ""); r.status != 200 || !strings.Contains(r.body, "heap profile") {
		t.Errorf("admin: %d %.200s", r.status, r.body)
	}
	if r := on.do("admin.example.com", "GET", "/debug/pprof/", nil, ""); r.status != 200 || !strings.Contains(r.body, "goroutine") {
		t.Errorf("admin index: %d %.200s", r.status, r.body)
	}
	for _, as := range []string{"web01.example.com", ""} {
		if r := on.do(as, "GET", "/debug/pprof/heap", nil, ""); r.status != 403 {
			t.Errorf("%q: %d %s", as, r.status, r.body)
		}
	}
}
