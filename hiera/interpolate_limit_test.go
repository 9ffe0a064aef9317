package hiera

import (
	"fmt"
	"strings"
	"testing"
)

// Each %{lookup('k')} may double a string: thirty levels would build
// gigabytes. Interpolation stops at MaxInterpolationSize with an error.
func TestInterpolationSizeLimit(t *testing.T) {
	var data strings.Builder
	data.WriteString("k0: \"xxxxxxxxxxxxxxxx\"\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&data, "k%d: \"%%{lookup('k%d')}%%{lookup('k%d')}\"\n", i, i-1, i-1)
	}
	dir := writeTree(t, map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n",
		"data/common.yaml": data.String(),
	})
	tests := []struct {
		key     string
		wantErr string
	}{
		{"k4", ""},
		{"k30", "larger than MaxInterpolationSize (16 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			_, err := NewSession(Options{EnvironmentDir: dir}, mapScope{}).Lookup(Request{Keys: []string{tt.key}})
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
