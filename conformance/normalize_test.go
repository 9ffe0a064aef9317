package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// The golden files in testdata/normalize were written by the oracle's own
// normalize script (`normalize --base /srv/case [--loose]`) from raw
// catalogs of real Puppet plus one hand-made catalog full of edge cases.
// Our port must reproduce them byte for byte.
const goldenBase = "/srv/case"

func TestNormalizeMatchesOracleScript(t *testing.T) {
	raws, err := filepath.Glob("testdata/normalize/*.raw.json")
	if err != nil || len(raws) == 0 {
		t.Fatalf("no golden raw catalogs: %v", err)
	}
	for _, raw := range raws {
		name := strings.TrimSuffix(filepath.Base(raw), ".raw.json")
		for _, loose := range []bool{false, true} {
			want := filepath.Join("testdata/normalize", name+".want.json")
			if loose {
				want = filepath.Join("testdata/normalize", name+".loose.want.json")
			}
			if !exists(want) {
				continue
			}
			t.Run(filepath.Base(want), func(t *testing.T) {
				input, err := os.ReadFile(raw)
				if err != nil {
					t.Fatal(err)
				}
				wantBytes, err := os.ReadFile(want)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Normalize(input, []string{goldenBase}, loose)
				if err != nil {
					t.Fatal(err)
				}
				if gotBytes := EncodePython(got); !bytes.Equal(gotBytes, wantBytes) {
					t.Errorf("normalized %s differs from the oracle script's output\n got: %s\nwant: %s", raw, gotBytes, wantBytes)
				}
			})
		}
	}
}

// TestGoldensMatchLiveScript guards the goldens themselves: when the oracle's
// normalize script is around, it must still produce them.
func TestGoldensMatchLiveScript(t *testing.T) {
	script, err := corpus.Oracle().Path("normalize")
	if err == nil && !exists(script) {
		err = fmt.Errorf("%s has no normalize script", filepath.Dir(script))
	}
	if err != nil {
		corpus.Absent(t, err)
	}
	raws, _ := filepath.Glob("testdata/normalize/*.raw.json")
	for _, raw := range raws {
		want := strings.TrimSuffix(raw, ".raw.json") + ".want.json"
		input, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(script, "--base", goldenBase)
		cmd.Stdin = bytes.NewReader(input)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		golden, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, golden) {
			t.Errorf("%s is stale: the normalize script now writes\n%s", want, out)
		}
	}
}

func TestNormalizeRejectsMalformedCatalogs(t *testing.T) {
	tests := []struct {
		name, input, wantErr string
	}{
		{"no JSON", "Error: something broke", "no JSON object"},
		{"truncated", `{"resources": [`, "not valid JSON"},
		{"resources not a list", `{"resources": {"a": 1}}`, "resources is not a list"},
		{"resource not an object", `{"resources": ["File[x]"]}`, "resources[0] is not an object"},
		{"tags not strings", `{"resources": [{"type": "File", "title": "x", "tags": [1]}]}`, "non-string"},
		{"edge not an object", `{"edges": [["a", "b"]]}`, "edges[0] is not an object"},
		{"edge with object source", `{"edges": [{"source": {}, "target": "b"}]}`, "must be strings"},
		{"classes not a list", `{"classes": "main"}`, "classes is not a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Normalize([]byte(tt.input), nil, false)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Normalize(%s) error = %v, want one containing %q", tt.input, err, tt.wantErr)
			}
		})
	}
}

func TestNormalizeRelativePaths(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	tests := []struct {
		file, want string
	}{
		{filepath.Join(dir, "site.pp"), "site.pp"},
		{filepath.Join(dir, "modules/a/manifests/init.pp"), "modules/a/manifests/init.pp"},
		{dir + "other/site.pp", dir + "other/site.pp"}, // a sibling sharing the prefix is not inside
		{"/elsewhere/site.pp", "/elsewhere/site.pp"},
	}
	for _, tt := range tests {
		raw := `{"resources": [{"type": "Notify", "title": "x", "file": "` + tt.file + `", "line": 1}]}`
		// The case directory may be given through a symlink: both spellings count.
		got, err := Normalize([]byte(raw), []string{link}, false)
		if err != nil {
			t.Fatal(err)
		}
		file := got["resources"].([]any)[0].(map[string]any)["file"]
		if file != tt.want {
			t.Errorf("file %q normalized to %q, want %q", tt.file, file, tt.want)
		}
	}
}
