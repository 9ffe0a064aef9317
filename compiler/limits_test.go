package compiler

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
)

// Request.Limits bound the catalog's size, the Hiera data and the
// templates; each error names the limit and the flag that raises it.
func TestRequestLimits(t *testing.T) {
	tests := []struct {
		name    string
		site    string
		files   map[string]string
		limits  Limits
		wantErr string // "" means the compile succeeds
	}{
		{"resources within the limit", "notify { ['a', 'b']: }", nil, Limits{MaxResources: 10}, ""},
		{"resources past the limit", "notify { ['a', 'b', 'c', 'd']: }", nil, Limits{MaxResources: 5},
			"The catalog has more than MaxResources (5) resources (a limit of marionette; --max-resources raises it)"},
		{"defined types count", "define d { notify { $title: } } d { ['a', 'b', 'c']: }", nil, Limits{MaxResources: 6},
			"more than MaxResources (6) resources"},
		{"template within the default", "notify { inline_template('<%= \"x\" * 1000 %>'): }", nil, Limits{}, ""},
		{"template past a lowered size", "notify { inline_template('<%= \"x\" * 1000 %>'): }", nil, Limits{MaxTemplateSize: 100},
			"larger than MaxStringSize (100): a limit of marionette (--max-template-size raises it)"},
		{"Hiera data within the default", "notify { lookup('k'): }", map[string]string{"data/common.yaml": "k: [a, b, c]\n"}, Limits{}, ""},
		{"Hiera data past a lowered node count", "notify { lookup('k'): }", map[string]string{"data/common.yaml": "k: [a, b, c]\n"}, Limits{MaxYAMLNodes: 2},
			"more than MaxYAMLNodes (2) values"},
	}
	shared := "$a0 = [1]\n"
	for i := 1; i <= 30; i++ {
		shared += fmt.Sprintf("$a%d = [$a%d, $a%d, $a%d]\n", i, i-1, i-1, i-1)
	}
	tests = append(tests, []struct {
		name    string
		site    string
		files   map[string]string
		limits  Limits
		wantErr string
	}{
		{"shared values in the catalog", shared + "notify { 'x': message => $a30 }", nil, Limits{},
			"The catalog: a value expands to more than MaxValueSize (256 MiB"},
		{"shared values within a raised limit", shared + "notify { 'x': message => $a8 }", nil, Limits{MaxValueSize: 1 << 20}, ""},
		{"shared values past a lowered limit", shared + "notify { 'x': message => $a8 }", nil, Limits{MaxValueSize: 1 << 10},
			"more than MaxValueSize (1 KiB"},
		{"shared values interpolated", shared + "notify { \"${a30}\": }", nil, Limits{}, "String interpolation: a value expands"},
		{"shared values converted", shared + "notify { String($a30): }", nil, Limits{}, "String conversion: a value expands"},
		{"shared values flattened", shared + "notify { 'x': message => flatten($a30).length }", nil, Limits{}, "function flatten: a value expands"},
		{"shared values compared", shared + strings.ReplaceAll(shared, "$a", "$b") + "if $a30 == $b30 and $a30 in [$b30] { notify { 'x': } }", nil, Limits{}, ""},
		{"shared values in EPP", shared + "notify { inline_epp('<%= $a30 %>'): }", nil, Limits{}, "EPP output: a value expands"},
		{"shared values in ERB", shared + "notify { inline_template('<%= @a30.inspect %>'): }", nil, Limits{}, "Ruby conversion: a value expands"},
		{"shared Ruby arrays inspected", "notify { inline_template('<% a = [1]; 30.times { a = [a, a, a] } %><%= a.inspect %>'): }", nil, Limits{MaxTemplateSize: 1 << 20},
			"larger than MaxStringSize (1048576)"},
		{"deep values in the catalog", "notify { 'x': message => 20000.reduce([]) |$m, $i| { [$m] } }", nil, Limits{},
			"a value is nested more than MaxValueDepth (10000) deep"},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"manifests/site.pp": tt.site,
				"hiera.yaml":        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
			}
			for k, v := range tt.files {
				files[k] = v
			}
			writeTree(t, dir, files)
			env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "manifests"), Hiera: environment.HieraOptions{EnvironmentDir: dir}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Compile(context.Background(), env, &Request{Node: "n.example.com", Limits: tt.limits})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
