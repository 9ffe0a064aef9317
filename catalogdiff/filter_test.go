package catalogdiff

import (
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

func TestParseIgnoreRule(t *testing.T) {
	tests := []struct {
		in                string
		typ, title, param string
		wantErr           bool
	}{
		{in: "File[/etc/motd]", typ: "File", title: "/etc/motd"},
		{in: "File[/etc/*]::mode", typ: "File", title: "/etc/*", param: "mode"},
		{in: "Concat::Fragment[a::b]", typ: "Concat::Fragment", title: "a::b"},
		{in: "Concat::Fragment", typ: "Concat::Fragment"},
		{in: "::tag", param: "tag"},
		{in: "File[x", wantErr: true},
		{in: "File[x]::", wantErr: true},
		{in: "[]", wantErr: true},
	}
	for _, tt := range tests {
		r, err := ParseIgnoreRule(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseIgnoreRule(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && (r.Type != tt.typ || r.Title != tt.title || r.Param != tt.param) {
			t.Errorf("ParseIgnoreRule(%q) = %q %q %q, want %q %q %q", tt.in, r.Type, r.Title, r.Param, tt.typ, tt.title, tt.param)
		}
	}
}

func TestCompareIgnoreRules(t *testing.T) {
	a := build(t, 1, nil)
	b := build(t, 2, func(c *catalog.Catalog) {
		c.Resources[1].Params = []catalog.Param{{Name: "ensure", Value: value.String("running")}, {Name: "enable", Value: value.True}}
		remove(c, "Package", "old")
		c.Add(&catalog.Resource{Type: "File", Title: "/etc/new.conf", Kind: catalog.KindNative})
	})
	rule := func(s string) IgnoreRule {
		r, err := ParseIgnoreRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name   string
		ignore []IgnoreRule
		want   string // the summary line
		lacks  string
	}{
		{"nothing ignored", nil, "1 added, 1 removed, 1 changed", ""},
		{"a type, any case", []IgnoreRule{rule("package")}, "1 added, 0 removed, 1 changed", "Package[old]"},
		{"a title pattern", []IgnoreRule{NewIgnoreRule("", "/etc/*", "")}, "0 added, 1 removed, 1 changed", "new.conf"},
		{"one parameter", []IgnoreRule{rule("Service[nginx]::enable")}, "1 added, 1 removed, 1 changed", "enable"},
		{"every parameter that changed", []IgnoreRule{rule("::e*")}, "1 added, 1 removed, 0 changed", "Service"},
		{"a parameter of another resource", []IgnoreRule{rule("Service[apache]::enable")}, "1 added, 1 removed, 1 changed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := diffText(t, a, b, Options{IgnoreFileLine: true, Ignore: tt.ignore})
			if !strings.Contains(got, tt.want+"\n") {
				t.Errorf("report:\n%s\nwant summary %q", got, tt.want)
			}
			if tt.lacks != "" && strings.Contains(got, tt.lacks) {
				t.Errorf("report has %q:\n%s", tt.lacks, got)
			}
		})
	}
}

func TestColorize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"+ File[x]\n", "\x1b[32m+ File[x]\x1b[0m\n"},
		{"    - mode: 1\n", "\x1b[31m    - mode: 1\x1b[0m\n"},
		{"~ File[x]\n    mode: 1 → 2\n", "\x1b[33m~ File[x]\x1b[0m\n    mode: 1 → 2\n"},
		{"        @@ -1,2 +1,2 @@\n", "\x1b[36m        @@ -1,2 +1,2 @@\x1b[0m\n"},
		{"=== 2 nodes: a, b\n\n", "\x1b[1m=== 2 nodes: a, b\x1b[0m\n\n"},
	}
	for _, tt := range tests {
		if got := Colorize(tt.in); got != tt.want {
			t.Errorf("Colorize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEntries(t *testing.T) {
	a := build(t, 1, nil)
	b := build(t, 2, func(c *catalog.Catalog) {
		remove(c, "Package", "old")
		c.Add(&catalog.Resource{Type: "File", Title: "/etc/new.conf", Kind: catalog.KindNative,
			Params: []catalog.Param{{Name: "content", Value: value.String("a\nb\n")}}})
		c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "File", Title: "/etc/new.conf"})
		// An edge to a resource both have is a change of its own.
		c.AddEdge(catalog.Ref{Type: "Class", Title: "Settings"}, catalog.Ref{Type: "Package", Title: "other"})
	})
	_, res := diffText(t, a, b, Options{IgnoreFileLine: true})
	var got []string
	for _, e := range res.Entries() {
		got = append(got, e.Kind+" "+e.Name+": "+e.Text)
	}
	want := []string{
		"added File[/etc/new.conf]: + File[/etc/new.conf]\n    + content:\n        + a\n        + b\n",
		"removed Package[old]: - Package[old]\n    - ensure: \"installed\"\n",
		"edge added Class[Settings] → Package[other]: + edge Class[Settings] → Package[other]\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("entries:\n%q\nwant:\n%q", got, want)
	}
}
