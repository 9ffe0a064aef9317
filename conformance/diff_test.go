package conformance

import (
	"reflect"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) map[string]any {
	t.Helper()
	v, err := decodeNormalized([]byte(s))
	if err != nil {
		t.Fatalf("bad test catalog %s: %v", s, err)
	}
	return v
}

func TestDiffCatalogs(t *testing.T) {
	base := `{"name": "n", "environment": "production", "classes": ["a", "settings"],
	  "edges": [["Class[A]", "Notify[x]"]],
	  "resources": [
	    {"type": "Class", "title": "A", "exported": false, "tags": ["a", "class"], "parameters": {}},
	    {"type": "Notify", "title": "x", "exported": false, "tags": ["a", "class", "notify"],
	     "parameters": {"message": "hi", "count": 1, "list": [1, 2]}, "file": "site.pp", "line": 3}]}`
	tests := []struct {
		name string
		got  string
		want []string
	}{
		{"equal", base, nil},
		{
			"parameter value and numeric kind",
			strings.Replace(strings.Replace(base, `"message": "hi"`, `"message": "ho"`, 1), `"count": 1,`, `"count": 1.0,`, 1),
			[]string{
				`Notify[x]: parameter count: expected 1, got 1.0`,
				`Notify[x]: parameter message: expected "hi", got "ho"`,
			},
		},
		{
			"same number spelled differently",
			strings.Replace(base, `"list": [1, 2]`, `"list": [1, 2E0]`, 1),
			[]string{`Notify[x]: parameter list: expected [1,2], got [1,2E0]`},
		},
		{
			"missing and extra parameter",
			strings.Replace(base, `"count": 1,`, `"loglevel": "debug",`, 1),
			[]string{
				`Notify[x]: parameter count missing (expected 1)`,
				`Notify[x]: unexpected parameter loglevel = "debug"`,
			},
		},
		{
			"tags",
			strings.Replace(base, `"tags": ["a", "class", "notify"]`, `"tags": ["class", "notify", "zz"]`, 1),
			[]string{`Notify[x]: tags: missing a; extra zz`},
		},
		{
			"file and line",
			strings.Replace(base, `"line": 3`, `"line": 4`, 1),
			[]string{`Notify[x]: declared at site.pp:4, Puppet says site.pp:3`},
		},
		{
			"missing and extra resource",
			strings.Replace(base, `"title": "x"`, `"title": "y"`, 1),
			[]string{
				`missing resource Notify[x] at site.pp:3`,
				`extra resource Notify[y] at site.pp:3 with parameters {"count":1,"list":[1,2],"message":"hi"}`,
			},
		},
		{
			"edges and classes",
			strings.Replace(strings.Replace(base, `["Class[A]", "Notify[x]"]`, `["Stage[main]", "Notify[x]"]`, 1), `"settings"]`, `"b"]`, 1),
			[]string{
				`missing edge Class[A] -> Notify[x]`,
				`extra edge Stage[main] -> Notify[x]`,
				`missing class settings`,
				`extra class b`,
			},
		},
		{
			"catalog name and environment",
			strings.Replace(strings.Replace(base, `"name": "n"`, `"name": "m"`, 1), `"environment": "production", `, ``, 1),
			[]string{
				`catalog name: expected "n", got "m"`,
				`catalog environment: expected "production", got (absent)`,
			},
		},
		{
			"exported",
			strings.Replace(base, `"title": "A", "exported": false`, `"title": "A", "exported": true`, 1),
			[]string{`Class[A]: exported: expected false, got true`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DiffCatalogs(mustDecode(t, base), mustDecode(t, tt.got))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DiffCatalogs:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestEqualValues(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"v": 1}`, `{"v": 1}`, true},
		{`{"v": 10}`, `{"v": 1e1}`, false}, // Integer versus Float
		{`{"v": 0.5}`, `{"v": 5e-1}`, true},
		{`{"v": 123456789012345678901234567890}`, `{"v": 123456789012345678901234567891}`, false},
		{`{"v": "1"}`, `{"v": 1}`, false},
		{`{"v": null}`, `{"v": false}`, false},
		{`{"v": {"a": [1, {"b": true}]}}`, `{"v": {"a": [1, {"b": true}]}}`, true},
		{`{"v": {"a": 1}}`, `{"v": {"a": 1, "b": 2}}`, false},
		{`{"v": [1, 2]}`, `{"v": [2, 1]}`, false},
	}
	for _, tt := range tests {
		a, b := mustDecode(t, tt.a)["v"], mustDecode(t, tt.b)["v"]
		if got := equalValues(a, b); got != tt.want {
			t.Errorf("equalValues(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
