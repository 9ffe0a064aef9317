package compiler

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
)

// TestErrorCodes: a failed compile's error is data: the code of the
// problem (through the evaluation errors around it), its arguments, a "did
// you mean" detail over the names the compile knows, and the range of the
// expression, while the message stays Puppet's.
func TestErrorCodes(t *testing.T) {
	modules := map[string]string{
		"modules/apache/manifests/init.pp":  "class apache {}\n",
		"modules/apache/manifests/vhost.pp": "define apache::vhost() {}\n",
	}
	for _, tc := range []struct {
		name, site string
		code       diag.Code
		args       diag.Args
		detail     string
		message    string
		// start and end are "line:column" of the range.
		start, end string
	}{
		{"unknown class", "include apahce\n", diag.UnknownClass, diag.Args{"name": "apahce"}, "did you mean 'apache'?",
			"Evaluation Error: Error while evaluating a Function Call, Could not find class ::apahce for n1", "1:1", "1:15"},
		{"unknown class, nothing close", "include zzzzzz\n", diag.UnknownClass, diag.Args{"name": "zzzzzz"}, "",
			"Evaluation Error: Error while evaluating a Function Call, Could not find class ::zzzzzz for n1", "1:1", "1:15"},
		{"unknown function", "$x = lenght([1])\n", diag.UnknownFunction, diag.Args{"name": "lenght"}, "did you mean 'length'?",
			"Evaluation Error: Unknown function: 'lenght'.", "1:6", "1:17"},
		{"unknown variable", "notice($nosuch)\n", diag.UnknownVariable, diag.Args{"name": "nosuch"}, "",
			"Evaluation Error: Unknown variable: 'nosuch'.", "1:8", "1:15"},
		{"division by zero", "$x = 1 +\n  2 / 0\n", diag.DivByZero, nil, "",
			"Evaluation Error: Division by 0", "2:7", "2:8"},
		{"unknown resource type", "apache::vhos { 'x': }\n", diag.UnknownResourceType, diag.Args{"type_name": "apache::vhos"}, "did you mean 'apache::vhost'?",
			"Evaluation Error: Error while evaluating a Resource Statement, Unknown resource type: 'apache::vhos'", "1:1", "1:22"},
		{"unknown resource type in a reference", "notice(Apache::Vhos['x'])\n", diag.UnknownResourceType, diag.Args{"type_name": "Apache::Vhos"}, "did you mean 'apache::vhost'?",
			"Evaluation Error: Resource type not found: Apache::Vhos", "1:8", "1:8"},
		{"attribute set twice", "notify { 'a':\n  message => 'x',\n  message => 'y',\n}\n", diag.DuplicateAttribute, diag.Args{"attribute": "message"}, "",
			"Evaluation Error: The attribute 'message' has already been set", "3:3", "3:17"},
		{"missing title", "notify { undef: }\n", diag.MissingTitle, nil, "",
			"Evaluation Error: Missing title. The title expression resulted in undef", "1:10", "1:15"},
		{"duplicate resource", "notify { 'a': }\nnotify { 'a': }\n", diag.DuplicateResource, nil, "",
			"Evaluation Error: Error while evaluating a Resource Statement, Duplicate declaration: Notify[a] is already declared at (file: DIR/site.pp, line: 1); cannot redeclare (file: DIR/site.pp, line: 2)", "2:1", "2:16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"site.pp": tc.site}
			for k, v := range modules {
				files[k] = v
			}
			writeTree(t, dir, files)
			env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Compile(context.Background(), env, &Request{Node: "n1", StrictVariables: true})
			if err == nil {
				t.Fatal("compiled")
			}
			d := diag.As(err)
			if d.Code != tc.code {
				t.Fatalf("code %q, want %q (%v)", d.Code, tc.code, err)
			}
			for name, want := range tc.args {
				if got := d.Arg(name); got != want {
					t.Errorf("argument %s = %v, want %v", name, got, want)
				}
			}
			if d.Detail != tc.detail {
				t.Errorf("detail %q, want %q", d.Detail, tc.detail)
			}
			if msg := strings.ReplaceAll(d.Message, dir, "DIR"); msg != tc.message {
				t.Errorf("message\n%s\nwant\n%s", msg, tc.message)
			}
			at := func(line, col int) string { return strconv.Itoa(line) + ":" + strconv.Itoa(col) }
			if got := at(d.Range.Start.Line, d.Range.Start.Column); got != tc.start {
				t.Errorf("range starts at %s, want %s", got, tc.start)
			}
			if got := at(d.Range.End.Line, d.Range.End.Column); got != tc.end {
				t.Errorf("range ends at %s, want %s", got, tc.end)
			}
		})
	}
}
