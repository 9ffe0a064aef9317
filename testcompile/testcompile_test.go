package testcompile

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// demoModulePath holds the demo module whose rspec-puppet suite the
// end-to-end test runs.
var demoModulePath = []string{mustAbs(filepath.Join("..", "testdata", "rspec"))}

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return abs
}

const redHatFacts = `{"os":{"family":"RedHat"},"networking":{"ip":"192.0.2.10","fqdn":"n1.example.com"}}`

// catalogResource is a resource of a returned catalog, as far as the tests
// look at it.
type catalogResource struct {
	Type       string         `json:"type"`
	Title      string         `json:"title"`
	Exported   bool           `json:"exported"`
	Parameters map[string]any `json:"parameters"`
}

func resources(t *testing.T, cat json.RawMessage) map[string]catalogResource {
	t.Helper()
	var c struct {
		Resources []catalogResource `json:"resources"`
	}
	if err := json.Unmarshal(cat, &c); err != nil {
		t.Fatalf("catalog: %v", err)
	}
	out := make(map[string]catalogResource, len(c.Resources))
	for _, r := range c.Resources {
		out[r.Type+"["+r.Title+"]"] = r
	}
	return out
}

func TestHandle(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		// want: resources that must be in the catalog, with the
		// parameter values given ("" checks presence only).
		want map[string]map[string]any
		// absent: resources that must not be.
		absent []string
		// result is a call's expected JSON result.
		result string
		// errContains and errDetail describe the expected error.
		errContains, errDetail, errClass string
		errLine                          int
	}{
		{
			name: "class with Hiera data",
			req:  Request{Node: "n1.example.com", Code: "include demo", Facts: json.RawMessage(redHatFacts)},
			want: map[string]map[string]any{
				"Package[demo]":        {"ensure": "installed"},
				"File[/etc/demo.conf]": {"content": "port = 8080\n", "require": "Package[demo]"},
				"Service[demo]":        {"ensure": "running"},
				"Class[Demo]":          {"port": float64(8080)},
				"Class[Settings]":      nil,
				"Stage[main]":          nil,
				"Class[main]":          nil,
			},
			absent: []string{"Notify[not declared]", "Demo::Line[not there]", "File[/etc/demo/peers/n1.example.com]"},
		},
		{
			name: "Hiera data by fact",
			req:  Request{Node: "n1.example.com", Code: "include demo", Facts: json.RawMessage(`{"os":{"family":"Debian"},"networking":{}}`)},
			want: map[string]map[string]any{"Package[demo-debian]": nil},
		},
		{
			name: "trusted extensions",
			req: Request{Node: "n1.example.com", Code: "include demo", Facts: json.RawMessage(redHatFacts),
				Trusted: &Trusted{Extensions: json.RawMessage(`{"pp_role":"web"}`)}},
			want: map[string]map[string]any{"File[/etc/demo.conf]": {"content": "port = 8080\nrole = web\n"}},
		},
		{
			name: "trusted external data and certname",
			req: Request{Node: "n1.example.com", Code: `notify { "${trusted['certname']} ${trusted['hostname']} ${trusted['domain']} ${trusted['external']['x']}": }`,
				Trusted: &Trusted{External: json.RawMessage(`{"x":"ext"}`)}},
			want: map[string]map[string]any{"Notify[n1.example.com n1 example.com ext]": nil},
		},
		{
			// rspec-puppet's type alias specs compile a node named after
			// the alias; Puppet does not check it there.
			name: "node named like a type alias",
			req:  Request{Node: "stdlib::filemode", Code: `notify { "${trusted['certname']}": }`},
			want: map[string]map[string]any{"Notify[stdlib::filemode]": nil},
		},
		{
			name: "node parameters win over facts",
			req:  Request{Node: "n1", Code: `notify { "${site} ${facts['site']}": }`, Facts: json.RawMessage(`{"site":"fact"}`), NodeParams: json.RawMessage(`{"site":"param"}`)},
			want: map[string]map[string]any{"Notify[param fact]": nil},
		},
		{
			name: "define with a title",
			req:  Request{Node: "n1", Code: "demo::line { 'banner': path => '/etc/issue', line => 'hi' }"},
			want: map[string]map[string]any{"File[/etc/issue.d/banner]": {"content": "hi\n"}, "Demo::Line[banner]": {"path": "/etc/issue"}},
		},
		{
			name: "classes defined by the code",
			req:  Request{Node: "n1", Code: "class local { notify { 'local': } }\ninclude local"},
			want: map[string]map[string]any{"Notify[local]": nil, "Class[Local]": nil},
		},
		{
			name: "exported resources kept",
			req:  Request{Node: "n1.example.com", Code: "include demo", Facts: json.RawMessage(redHatFacts), KeepExported: true},
			want: map[string]map[string]any{"File[/etc/demo/peers/n1.example.com]": {"content": "192.0.2.10"}},
		},
		{
			name:        "parameter type mismatch",
			req:         Request{Node: "n1", Code: "class { 'demo': port => 0 }", Facts: json.RawMessage(redHatFacts)},
			errContains: "Class[Demo]: parameter 'port' expects an Integer[1, 65535] value, got Integer[0, 0]",
		},
		{
			name:        "fail() with its place",
			req:         Request{Node: "n1", Code: "\n\nfail('boom')"},
			errContains: "Evaluation Error: Error while evaluating a Function Call, boom (line: 3, column: 1) on node n1",
			errDetail:   "boom",
			errLine:     3,
		},
		{
			name:        "syntax error",
			req:         Request{Node: "n1", Code: "notify { 'x' "},
			errContains: "Could not parse for environment production: Syntax error",
		},
		{
			name:   "function call",
			req:    Request{Op: "call", Node: "n1", Function: "demo::double", Args: []json.RawMessage{json.RawMessage("21")}},
			result: "42",
		},
		{
			name:   "core function call",
			req:    Request{Op: "call", Node: "n1", Function: "join", Args: []json.RawMessage{json.RawMessage(`["a","b"]`), json.RawMessage(`"-"`)}},
			result: `"a-b"`,
		},
		{
			name:      "function call error",
			req:       Request{Op: "call", Node: "n1", Function: "demo::double", Args: []json.RawMessage{json.RawMessage(`"x"`)}},
			errDetail: "'demo::double' parameter 'n' expects a Numeric value, got String",
		},
		{
			name:      "a Ruby function's exception class",
			req:       Request{Op: "call", Node: "n1", Function: "demo_halve", Args: []json.RawMessage{json.RawMessage(`"x"`)}},
			errDetail: "demo_halve(): expects an Integer, got String",
			errClass:  "TypeError",
		},
		{
			name:      "a Ruby function's ArgumentError",
			req:       Request{Op: "call", Node: "n1", Function: "demo_halve"},
			errDetail: "demo_halve(): Wrong number of arguments given (0 for 1)",
			errClass:  "ArgumentError",
		},
		{
			name:      "a Ruby function's ParseError",
			req:       Request{Op: "call", Node: "n1", Function: "demo_halve", Args: []json.RawMessage{json.RawMessage(`3`)}},
			errDetail: "demo_halve(): odd number",
			errClass:  "Puppet::ParseError",
		},
		{
			name: "earlier calls' resources in the catalog",
			req: Request{Node: "n1", Code: "notify { 'pre': }", Calls: []Call{
				{Function: "create_resources", Args: []json.RawMessage{json.RawMessage(`"notify"`), json.RawMessage(`{"from-call":{"message":"m"}}`)}},
				{Function: "create_resources", Args: []json.RawMessage{json.RawMessage(`"notify"`), json.RawMessage(`{"second":{}}`)}},
			}},
			want: map[string]map[string]any{"Notify[pre]": nil, "Notify[from-call]": {"message": "m"}, "Notify[second]": nil},
		},
		{
			name: "a call after earlier calls",
			req: Request{Op: "call", Node: "n1", Function: "create_resources", Args: []json.RawMessage{json.RawMessage(`"notify"`), json.RawMessage(`{"from-call":{}}`)}, Calls: []Call{
				{Function: "create_resources", Args: []json.RawMessage{json.RawMessage(`"notify"`), json.RawMessage(`{"from-call":{}}`)}},
			}},
			errContains: "Duplicate declaration: Notify[from-call] is already declared",
			errClass:    "Puppet::Resource::Catalog::DuplicateResourceError",
		},
		{
			name:      "a duplicate declaration by a call",
			req:       Request{Op: "call", Node: "n1", Code: "notify { 'dup': }", Function: "create_resources", Args: []json.RawMessage{json.RawMessage(`"notify"`), json.RawMessage(`{"dup":{}}`)}},
			errDetail: "Duplicate declaration: Notify[dup] is already declared at (line: 1); cannot redeclare",
			errClass:  "Puppet::Resource::Catalog::DuplicateResourceError",
		},
		{
			name:        "an earlier call of no function name",
			req:         Request{Node: "n1", Calls: []Call{{Function: "notify { 'x': }"}}},
			errContains: "is no function name",
		},
		{
			name:        "call of no function name",
			req:         Request{Op: "call", Node: "n1", Function: "notify { 'x': }"},
			errContains: "is no function name",
		},
		{
			name:        "unknown op",
			req:         Request{Op: "frobnicate"},
			errContains: `unknown op "frobnicate"`,
		},
	}
	svc := New(t.TempDir())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.ModulePath = demoModulePath
			resp := svc.Handle(context.Background(), &req)
			if tt.errContains != "" || tt.errDetail != "" {
				if resp.OK || resp.Error == nil {
					t.Fatalf("want an error, got ok")
				}
				if !strings.Contains(resp.Error.Message, tt.errContains) {
					t.Errorf("error %q, want it to contain %q", resp.Error.Message, tt.errContains)
				}
				if tt.errDetail != "" && resp.Error.Detail != tt.errDetail {
					t.Errorf("detail %q, want %q", resp.Error.Detail, tt.errDetail)
				}
				if resp.Error.Class != tt.errClass {
					t.Errorf("class %q, want %q", resp.Error.Class, tt.errClass)
				}
				if tt.errLine != 0 && resp.Error.Line != tt.errLine {
					t.Errorf("line %d, want %d", resp.Error.Line, tt.errLine)
				}
				return
			}
			if !resp.OK {
				t.Fatalf("error: %+v", resp.Error)
			}
			if tt.result != "" {
				if string(resp.Result) != tt.result {
					t.Errorf("result %s, want %s", resp.Result, tt.result)
				}
				return
			}
			got := resources(t, resp.Catalog)
			for ref, params := range tt.want {
				r, ok := got[ref]
				if !ok {
					t.Errorf("no %s in the catalog", ref)
					continue
				}
				for k, v := range params {
					if r.Parameters[k] != v {
						t.Errorf("%s %s = %#v, want %#v", ref, k, r.Parameters[k], v)
					}
				}
			}
			for _, ref := range tt.absent {
				if _, ok := got[ref]; ok {
					t.Errorf("%s is in the catalog", ref)
				}
			}
			if tt.req.KeepExported {
				for ref := range tt.want {
					if !got[ref].Exported {
						t.Errorf("%s is not marked exported", ref)
					}
				}
			}
		})
	}
}

// TestServe checks the line protocol: one response per request line, in
// order, ids echoed, a bad line answered rather than ending the stream.
func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"id":1,"op":"ping"}`,
		`not json`,
		``,
		`{"id":"b","node":"n1","code":"notify { 'x': }"}`,
	}, "\n")
	var out bytes.Buffer
	if err := New(t.TempDir()).Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []struct {
		id string
		ok bool
	}{{"1", true}, {"", false}, {`"b"`, true}}
	if len(lines) != len(want) {
		t.Fatalf("%d responses, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		var resp Response
		if err := json.Unmarshal([]byte(lines[i]), &resp); err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if string(resp.ID) != w.id || resp.OK != w.ok {
			t.Errorf("response %d: id %s ok %v, want id %s ok %v", i, resp.ID, resp.OK, w.id, w.ok)
		}
	}
}

// TestHandleRichData checks that a catalog is returned as rich data, as
// Puppet's compile leaves it in memory for rspec-puppet: a Deferred value
// is a Deferred (which the adapter then resolves as rspec-puppet does),
// not the string `puppet catalog compile` writes.
func TestHandleRichData(t *testing.T) {
	svc := New(t.TempDir())
	resp := svc.Handle(context.Background(), &Request{Node: "n1", ModulePath: demoModulePath,
		Code: "notify { 'later': message => Deferred('demo::triple', [14]) }"})
	if !resp.OK {
		t.Fatalf("error: %+v", resp.Error)
	}
	var c struct {
		Resources []struct {
			Title      string                     `json:"title"`
			Parameters map[string]json.RawMessage `json:"parameters"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(resp.Catalog, &c); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Resources {
		if r.Title != "later" {
			continue
		}
		var d struct {
			Type string `json:"__ptype"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(r.Parameters["message"], &d); err != nil || d.Type != "Deferred" || d.Name != "demo::triple" {
			t.Errorf("message = %s, want a rich data Deferred of demo::triple", r.Parameters["message"])
		}
		return
	}
	t.Errorf("no Notify[later] in %s", resp.Catalog)
}
