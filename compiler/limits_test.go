package compiler

import (
	"context"
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
