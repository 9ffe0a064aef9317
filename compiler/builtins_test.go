package compiler

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
)

// TestCompilerFunctionsInTable: the compiler's functions are entries of the
// environment's function table, called through the one path of table
// functions; a wrong argument count gets Puppet 7.23's message ("got none",
// not "got 0"; 3.x functions' own wording).
func TestCompilerFunctionsInTable(t *testing.T) {
	for _, tt := range []struct {
		src     string
		wantErr string
		want    string // a resource the catalog must hold
	}{
		{src: "epp()", wantErr: "Error while evaluating a Function Call, 'epp' expects between 1 and 2 arguments, got none"},
		{src: "inline_epp('a', {}, 3)", wantErr: "'inline_epp' expects between 1 and 2 arguments, got 3"},
		{src: "create_resources('file')", wantErr: "create_resources(): Wrong number of arguments given (1 for minimum 2)"},
		{src: "create_resources('file', {}, {}, 1)", wantErr: "create_resources(): wrong number of arguments (4; must be 2 or 3)"},
		{src: "create_resources('file', 1)", wantErr: "create_resources(): second argument must be a hash"},
		{src: "create_resources('file', {}, 1)", wantErr: "create_resources(): third argument, if provided, must be a hash"},
		{src: "epp(1)", wantErr: "'epp' parameter 'path' expects a String value, got Integer"},
		{src: "inline_epp(1)", wantErr: "'inline_epp' parameter 'template' expects a String value, got Integer"},
		{src: "inline_epp('x', 1)", wantErr: "'inline_epp' parameter 'parameters' expects a Hash value, got Integer"},
		{src: "inline_epp('x', undef)", wantErr: "'inline_epp' parameter 'parameters' expects a Hash value, got Undef"},
		{src: "notify { inline_epp('<%= 1 %>', {}): }", want: "Notify[1]"},
		{src: "realize()", wantErr: "realize(): Wrong number of arguments given (0 for minimum 1)"},
		{src: "tag()", wantErr: "tag(): Wrong number of arguments given (0 for minimum 1)"},
		{src: "include()", wantErr: "'include' expects at least 1 argument, got none"},
		{src: "hiera_array('a', 1, 2, 3)", wantErr: "'hiera_array' expects between 1 and 3 arguments, got 4"},
		{src: "lookup()", wantErr: "'lookup' expects between 1 and 4 arguments, got none"},
		{src: "hiera_include()", wantErr: "'hiera_include' expects between 1 and 3 arguments, got none"},
		{src: "template()", wantErr: "template(): Wrong number of arguments given (0 for minimum 1)"},
		{src: "inline_template()", wantErr: "inline_template(): Wrong number of arguments given (0 for minimum 1)"},
		{src: "defined()", wantErr: "'defined' expects at least 1 argument, got none"},
		{src: "class a {}\ninclude a\nif defined('include') and defined(Class[a]) { notify { 'ok': } }", want: "Notify[ok]"},
		{src: "notify { inline_template('<%= 1 + 1 %>'): }", want: "Notify[2]"},
		{src: "create_resources('notify', { 'made' => {} })", want: "Notify[made]"},
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"site.pp": tt.src + "\n"})
		env, err := environment.Load(environment.Config{Manifest: filepath.Join(dir, "site.pp")})
		if err != nil {
			t.Fatal(err)
		}
		cat, err := compileCatalog(env, &Request{Node: "n1"})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: error = %v, want one containing %q", tt.src, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if !containsString(titlesIn(cat.Resources), tt.want) {
			t.Errorf("%q: catalog %v has no %q", tt.src, titlesIn(cat.Resources), tt.want)
		}
	}
}
