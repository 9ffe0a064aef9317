package server

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// siteAuthConf is a site's auth.conf: puppetserver's catalog rule with a
// tool certificate added, a regex rule with back-references, query
// parameters, globs, regexes, extensions and a deny, and the deny-all.
const siteAuthConf = `authorization: {
    version: 1
    rules: [
        {
            match-request: {
                path: "^/puppet/v3/(node|catalog)/(web|db)([0-9]+)[.]example[.]com$"
                type: regex
                method: [get, post]
                query-params: { environment: [production, staging] }
            }
            allow: ["$2$3.example.com", "/^admin[0-9]+$/", "*.ops.example.com", {extensions: {pp_role: "auditor"}}]
            deny: ["db9.example.com"]
            sort-order: 400
            name: "site custom"
        },
        {
            match-request: { path: "^/puppet/v3/catalog/([^/]+)$", type: regex, method: [get, post] }
            allow: ["$1", {certname: "foreman.example.com"}]
            sort-order: 500
            name: "puppetlabs v3 catalog from agents"
        },
        {
            match-request: { path: "/puppet-ca/v1/certificate/", type: path, method: get }
            allow-unauthenticated: true
            sort-order: 500
            name: "puppetlabs certificate"
        },
        {
            match-request: { path: "/puppet/v3/environment_classes", type: path }
            allow: {extensions: {"1.3.6.1.4.1.34380.1.3.39": "true"}}
            sort-order: 500
            name: "classes for the CLI"
        },
        {
            match-request: { path: "/", type: path }
            deny: "*"
            sort-order: 999
            name: "puppetlabs deny all"
        }
    ]
}
`

func TestAuthConfVerdicts(t *testing.T) {
	rules, err := parseAuthConf("auth.conf", siteAuthConf)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{}
	s.rules.Store(&rules)
	cert := func(name string, ext ...string) *identity {
		id := &identity{authenticated: true, certname: name}
		for i := 0; i+2 < len(ext)+1; i += 3 {
			id.extNames = append(id.extNames, ext[i])
			id.extOIDs = append(id.extOIDs, ext[i+1])
			id.extValues = append(id.extValues, ext[i+2])
		}
		return id
	}
	for _, tt := range []struct {
		name, method, path, query string
		id                        *identity
		allowed                   bool
		rule                      string // the rule that denies
	}{
		{"back-reference: own node", "GET", "/puppet/v3/node/web1.example.com", "environment=production", cert("web1.example.com"), true, ""},
		{"back-reference: another node", "GET", "/puppet/v3/node/web1.example.com", "environment=production", cert("web2.example.com"), false, "site custom"},
		{"regex principal", "POST", "/puppet/v3/catalog/web1.example.com", "environment=staging", cert("admin7"), true, ""},
		{"glob principal", "GET", "/puppet/v3/catalog/db2.example.com", "environment=production", cert("mon.ops.example.com"), true, ""},
		{"glob is no suffix of the bare domain", "GET", "/puppet/v3/catalog/db2.example.com", "environment=production", cert("ops.example.com"), false, "site custom"},
		{"extension principal", "GET", "/puppet/v3/catalog/db2.example.com", "environment=production", cert("x.example.org", "pp_role", "1.3.6.1.4.1.34380.1.1.13", "auditor"), true, ""},
		{"extension with another value", "GET", "/puppet/v3/catalog/db2.example.com", "environment=production", cert("x.example.org", "pp_role", "1.3.6.1.4.1.34380.1.1.13", "web"), false, "site custom"},
		{"deny wins over allow", "GET", "/puppet/v3/catalog/db9.example.com", "environment=production", cert("db9.example.com"), false, "site custom"},
		{"query-params not matched: next rule", "GET", "/puppet/v3/catalog/web1.example.com", "environment=dev", cert("foreman.example.com"), true, ""},
		{"method not matched: falls to deny all", "PUT", "/puppet/v3/node/web1.example.com", "environment=production", cert("web1.example.com"), false, "puppetlabs deny all"},
		{"no certificate", "GET", "/puppet/v3/catalog/web1.example.com", "environment=production", &identity{}, false, "site custom"},
		{"allow-unauthenticated", "GET", "/puppet-ca/v1/certificate/ca", "", &identity{}, true, ""},
		{"extension by OID", "GET", "/puppet/v3/environment_classes", "environment=production", cert("cli", "pp_cli_auth", "1.3.6.1.4.1.34380.1.3.39", "true"), true, ""},
		{"extension missing", "GET", "/puppet/v3/environment_classes", "environment=production", cert("web1.example.com"), false, "classes for the CLI"},
		{"deny all", "GET", "/puppet/v3/environments", "", cert("web1.example.com"), false, "puppetlabs deny all"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			ru := s.authorize(tt.method, tt.path, q, tt.id)
			if (ru == nil) != tt.allowed {
				t.Fatalf("allowed = %v (rule %v), want %v", ru == nil, ru, tt.allowed)
			}
			if ru != nil && ru.name != tt.rule {
				t.Errorf("denied by %q, want %q", ru.name, tt.rule)
			}
		})
	}
}

func TestAuthConfErrors(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"syntax error", "authorization: {\n  version: 1\n  rules: [\n    { name: \"x\" \n  ]\n}\n", "auth.conf:5: "},
		{"no authorization", "other: {}\n", "auth.conf: no authorization section"},
		{"version 2", "authorization: { version: 2, rules: [] }\n", "only version 1 is supported"},
		{"header cert info", "authorization: { version: 1, allow-header-cert-info: true, rules: [] }\n", "allow-header-cert-info = true is not supported"},
		{"no match-request", `authorization: { version: 1, rules: [ { name: "a", allow: "*" } ] }`, "rule a: match-request is required"},
		{"no name", `authorization: { version: 1, rules: [ { match-request: { path: "/" }, allow: "*" } ] }`, "rule #1: name is required"},
		{"bad regex", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "(", type: regex }, allow: "*" } ] }`, "rule r: match-request.path"},
		{"bad type", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/", type: glob }, allow: "*" } ] }`, "want path or regex"},
		{"unauthenticated and allow", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/" }, allow: "*", allow-unauthenticated: true } ] }`, "cannot be combined"},
		{"nobody", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/" } } ] }`, "allow, deny or allow-unauthenticated is required"},
		{"unknown key", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/" }, allow: "*", frobnicate: 1 } ] }`, "rule r: frobnicate is not supported"},
		{"bad sort-order", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/" }, allow: "*", sort-order: 0 } ] }`, "sort-order must be a number from 1 to 999"},
		{"bad method", `authorization: { version: 1, rules: [ { name: "r", match-request: { path: "/", method: fetch }, allow: "*" } ] }`, "is no HTTP method"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseAuthConf("auth.conf", tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAuthConfServer: a server with an auth.conf authorizes by it, and
// one whose auth.conf does not parse does not start, naming file and line.
func TestAuthConfServer(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "auth.conf")
	if err := os.WriteFile(path, []byte(siteAuthConf), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *Config) { c.AuthConf = path })
	if resp := f.do("db01.example.com", "GET", "/puppet/v3/node/web01.example.com?environment=production", nil, ""); resp.status != 403 {
		t.Errorf("another node's node: %d", resp.status)
	}
	if resp := f.do("web01.example.com", "GET", "/puppet/v3/node/web01.example.com?environment=production", nil, ""); resp.status != 200 {
		t.Errorf("own node by the regex rule: %d %.200s", resp.status, resp.body)
	}
	if resp := f.do("web01.example.com", "GET", "/puppet/v3/catalog/web01.example.com?environment=other", nil, ""); resp.status != 200 {
		t.Errorf("own catalog by the second rule: %d %.200s", resp.status, resp.body)
	}
	if resp := f.do("web01.example.com", "GET", "/puppet/v3/environments", nil, ""); resp.status != 403 {
		t.Errorf("environments, denied by this auth.conf: %d", resp.status)
	}
	if resp := f.do("", "GET", "/metrics", nil, ""); resp.status != 200 {
		t.Errorf("marionette's metrics rule comes first: %d", resp.status)
	}
	// puppetserver 7.9.5 denies the admin API to a pp_cli_auth certificate
	// by a site's auth.conf without an admin rule (scripts/site-migration-e2e).
	if resp := f.do("admin.example.com", "DELETE", "/puppet-admin-api/v1/environment-cache", nil, ""); resp.status != 403 {
		t.Errorf("the admin API, denied by this auth.conf: %d", resp.status)
	}
	if err := os.WriteFile(path, []byte("authorization: {\n  rules: [\n    {\n      name: \"x\"\n      allow: [\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := f.srv.cfg
	cfg.Site = nil
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), path+":") {
		t.Errorf("a broken auth.conf: %v, want an error naming %s and the line", err, path)
	}
}
