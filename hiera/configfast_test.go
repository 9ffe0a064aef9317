package hiera

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestParseConfigFastAgreesWithYAMLv3: every hiera.yaml of the conformance
// cases and of the forge modules (when present) parses to the same Config
// (or the same error) through dataformat.ParseYAMLTree, which takes the fast
// YAML reader for most of them (see dataformat's TestFastYAMLCorpus), as
// through yaml.v3.
func TestParseConfigFastAgreesWithYAMLv3(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"../testdata/conformance/*/*/hiera.yaml",
		"../testdata/conformance/*/*/*/hiera.yaml",
		"../testdata/conformance/*/*/modules/*/hiera.yaml",
		"../testdata/conformance/forge/apache-default/modules/*/hiera.yaml",
	} {
		m, _ := filepath.Glob(pattern)
		for _, f := range m {
			// Every forge case links the same modules: read them once.
			if !strings.Contains(f, "/forge/") || strings.Contains(f, "/forge/apache-default/") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("only %d hiera.yaml files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		v3Err := yaml.Unmarshal(data, &doc)
		for _, layer := range []Layer{GlobalLayer, EnvironmentLayer, ModuleLayer} {
			got, gotErr := ParseConfig(f, data, layer)
			if v3Err != nil {
				if gotErr == nil {
					t.Errorf("%s: parsed, yaml.v3 says %v", f, v3Err)
				}
				continue
			}
			want, wantErr := parseConfigDoc(f, &doc, layer)
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
				t.Errorf("%s, %s: error %v, through yaml.v3 %v", f, layer, gotErr, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s:\n got %+v\nwant %+v", f, layer, got, want)
			}
		}
	}
	t.Logf("%d hiera.yaml files", len(files))
}
