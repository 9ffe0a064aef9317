package rubyhost

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestHostTemplate: a template renders with Ruby's ERB in Puppet's
// TemplateWrapper, its instance variables the calling scope's variables
// (Callbacks.Variables), its scope's lookupvar, [], function_x and
// call_function answered from Go, trim mode '-'; an exception comes back
// as a RubyError with the backtrace's file and line, and the session
// lives on.
func TestHostTemplate(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	s := openSession(t, h)
	raise, err := filepath.Abs("testdata/templates/raise.erb")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src, file string
		want            string
		wantErr         string
		wantLine        string
	}{
		{name: "instance variable", src: "<%= Struct.new(:a).new(@greeting).a %>", want: "hello"},
		{name: "unknown variable is nil", src: "<%= @missing.inspect %>", want: "nil"},
		{name: "lookupvar and []", src: "<%= scope.lookupvar('greeting') %> <%= scope['::top_x'] %>", want: "hello 1"},
		{name: "function_x", src: "<%= scope.function_upcase(['a']) %>", want: "A"},
		{name: "call_function", src: "<%= scope.call_function('upcase', ['b']) %>", want: "B"},
		{name: "trim mode", src: "<%- if true -%>\nyes\n<%- end -%>\n", want: "yes\n"},
		{name: "function error", src: "<%= scope.call_function('nosuch', []) %>", wantErr: "Unknown function: 'nosuch'", wantLine: "?"},
		{name: "inline exception", src: "<%= nil.upcase %>", wantErr: "undefined method `upcase' for nil", wantLine: "1"},
		{name: "file exception", file: raise, wantErr: "undefined method `nomethod' for \"hello\":String", wantLine: "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeCompile{}
			out, err := s.Template(context.Background(), TemplateRequest{ModulePath: testModulePath(t), File: tt.file, Source: tt.src}, fc)
			if tt.wantErr == "" {
				if err != nil || out != tt.want {
					t.Fatalf("= %q, %v; want %q", out, err, tt.want)
				}
				return
			}
			var re *RubyError
			if !errors.As(err, &re) || !strings.Contains(re.Message, tt.wantErr) {
				t.Fatalf("error %#v, want %q", err, tt.wantErr)
			}
			if tt.wantLine != "?" && re.Line != tt.wantLine {
				t.Errorf("line %q, want %q", re.Line, tt.wantLine)
			}
			if tt.file != "" && re.File != tt.file {
				t.Errorf("file %q, want %q", re.File, tt.file)
			}
		})
	}
	// The session still serves functions after a template's exception.
	if v, err := sessionCall(t, s, &fakeCompile{}, "hatch::echo", value.String("x")); err != nil || v == nil {
		t.Errorf("after the templates: %v, %v", v, err)
	}
}

// listingCompile is a fakeCompile whose catalog lists its resources.
type listingCompile struct{ fakeCompile }

func (*listingCompile) Resources() []CatalogResource {
	return []CatalogResource{
		{Type: "File", Title: "/etc/motd", Params: value.NewHash(value.String("ensure"), value.String("file"))},
		{Type: "Package", Title: "vim", Params: value.NewHash()},
	}
}

// TestHostCatalogResources: catalog.resources lists the compile's
// resources as frozen Puppet::Resource copies, when the Callbacks can
// list them (ResourceLister); otherwise the function fails saying so.
func TestHostCatalogResources(t *testing.T) {
	needRuby(t)
	h := newTestHost(t, Options{})
	s := openSession(t, h)
	got, err := s.Call(context.Background(), Request{ModulePath: testModulePath(t), Name: "hatch::list_resources"}, &listingCompile{})
	want := value.Array{value.String("File[/etc/motd] ensure=file path=/etc/motd"), value.String("Package[vim]")}
	if err != nil || !sameValue(got, want) {
		t.Fatalf("= %v, %v; want %v", got, err, want)
	}
	_, err = s.Call(context.Background(), Request{ModulePath: testModulePath(t), Name: "hatch::list_resources"}, &fakeCompile{})
	if err == nil || !strings.Contains(err.Error(), "cannot list its resources") {
		t.Errorf("without ResourceLister: %v", err)
	}
}
