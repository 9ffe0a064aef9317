package site

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestFacts: the one facts reader, for each source a command or the
// server names.
func TestFacts(t *testing.T) {
	dir := t.TempDir()
	vardir := filepath.Join(dir, "var")
	writeFiles(t, dir, map[string]string{
		"n1.yaml":                   "os: linux\n",
		"n1.json":                   `{"name": "n1", "values": {"os": "bsd"}}`,
		"bad.yaml":                  "- a list\n",
		"var/yaml/facts/n1.yaml":    CachedFactsTag + `{"name":"n1","values":{"os":"cached"}}` + "\n",
		"var/yaml/facts/other.yaml": CachedFactsTag + `{"name":"n1","values":{"os":"wrong node"}}` + "\n",
	})
	st, err := Open(Options{Overrides: Overrides{Vardir: vardir, Manifest: filepath.Join(dir, "n1.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		src      FactsSource
		node     string
		wantOS   string // "" wants no facts
		wantErr  string
		inputErr bool
	}{
		{"not given: the server's cache", FactsFlag(""), "n1", "cached", "", false},
		{"not given, none cached", FactsFlag(""), "n2", "", "No facts available for target node: n2 (give --facts FILE, or --facts none to use no facts", true},
		{"none", FactsFlag("none"), "n1", "", "", false},
		{"yaml file", FactsFlag(filepath.Join(dir, "n1.yaml")), "n1", "linux", "", false},
		{"Puppet's facts object", FactsFlag(filepath.Join(dir, "n1.json")), "n1", "bsd", "", false},
		{"missing file", FactsFlag(filepath.Join(dir, "nope.yaml")), "n1", "", "no such file or directory", true},
		{"no hash", FactsFlag(filepath.Join(dir, "bad.yaml")), "n1", "", "must hold a hash of facts", true},
		{"no file is no facts", FactsSource{Kind: FactsFile}, "n1", "", "", false},
		{"server cache", FactsSource{Kind: FactsCache}, "n1", "cached", "", false},
		{"server cache without the node", FactsSource{Kind: FactsCache}, "n2", "", "", false},
		{"server cache of another node", FactsSource{Kind: FactsCache}, "other", "", "", false},
		{"puppetdb without one", FactsFlag("puppetdb"), "n1", "", "--facts puppetdb needs a PuppetDB", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts, err := st.Facts(context.Background(), tt.src, tt.node)
			if tt.wantErr != "" {
				var ie *InputError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &ie) != tt.inputErr {
					t.Fatalf("error %v, want %q (input error: %v)", err, tt.wantErr, tt.inputErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if v, ok := facts.GetString("os"); ok {
				got = string(v.(value.String))
			}
			if got != tt.wantOS || tt.wantOS == "" && facts.Len() != 0 {
				t.Errorf("os = %q (%d facts), want %q", got, facts.Len(), tt.wantOS)
			}
		})
	}
}

// TestDecodeFacts: the facts object of a request, in Puppet's words when
// it does not decode.
func TestDecodeFacts(t *testing.T) {
	tests := []struct {
		name, data, want, wantErr string
	}{
		{"facts", `{"name": "n1", "values": {"a": 1}}`, `{"name":"n1","values":{"a":1}}`, ""},
		{"no values", `{"name": "n1"}`, `{"name":"n1"}`, ""},
		{"wrong node", `{"name": "n2", "values": {}}`, "", `Catalog for "n1" was requested with fact definition for the wrong node ("n2").`},
		{"not json", `{`, "", "Could not intern from json: "},
		{"values no hash", `{"name": "n1", "values": [1]}`, "", "the facts' values are no hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, compact, err := DecodeFacts([]byte(tt.data), "n1")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(compact) != tt.want {
				t.Errorf("got %s, %v; want %s", compact, err, tt.want)
			}
		})
	}
}

// TestHasEnvironment: directory environments, or the one environment of
// --manifest.
func TestHasEnvironment(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "envs", "production", "manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"site.pp": ""})
	dirs, err := Open(Options{Overrides: Overrides{EnvironmentPath: filepath.Join(dir, "envs")}})
	if err != nil {
		t.Fatal(err)
	}
	one, err := Open(Options{Overrides: Overrides{Manifest: filepath.Join(dir, "site.pp"), Environment: "qa"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		site *Site
		name string
		want bool
	}{
		{dirs, "production", true},
		{dirs, "qa", false},
		{dirs, "..", false},
		{one, "qa", true},
		{one, "production", false},
	} {
		if got := tt.site.HasEnvironment(tt.name); got != tt.want {
			t.Errorf("HasEnvironment(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDecodeFactsMaxFacts: facts of MaxFacts values decode, nested values
// counted; one more is refused with an error naming the limit, whether
// the values are top-level facts or nested in one, and in pretty JSON
// (the thorough decoder) as in compact.
func TestDecodeFactsMaxFacts(t *testing.T) {
	flat := func(n int, indent bool) []byte {
		var b strings.Builder
		b.WriteString(`{"name":"n1","values":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent {
				b.WriteString("\n  ")
			}
			fmt.Fprintf(&b, `"f%d":1`, i)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	nested := func(n int) []byte {
		// One fact holding an array of n-1 values: n values in all.
		return []byte(`{"name":"n1","values":{"big":[` + strings.TrimSuffix(strings.Repeat("1,", n-1), ",") + `]}}`)
	}
	for _, tt := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"at the limit", flat(MaxFacts, false), true},
		{"one more", flat(MaxFacts+1, false), false},
		{"one more, pretty", flat(MaxFacts+1, true), false},
		{"nested at the limit", nested(MaxFacts), true},
		{"nested one more", nested(MaxFacts + 1), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecodeFacts(tt.data, "n1")
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), "MaxFacts (100000)") {
				t.Fatalf("error %v, want an InputError naming MaxFacts", err)
			}
		})
	}
}
