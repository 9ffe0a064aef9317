package fleet

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFromFactsDir(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		want    []string // node name=facts file
		wantErr string
	}{
		{"yaml and json", map[string]string{
			"web01.example.com.yaml": "{}", "db01.example.com.json": "{}", "x.yml": "{}",
			"README.md": "", ".hidden.yaml": "", "sub/other.yaml": "",
		}, []string{"db01.example.com=db01.example.com.json", "web01.example.com=web01.example.com.yaml", "x=x.yml"}, ""},
		{"empty", map[string]string{}, nil, ""},
		{"duplicate", map[string]string{"a.yaml": "", "a.json": ""}, nil, "two facts files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			nodes, err := FromFactsDir(dir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range nodes {
				got = append(got, n.Name+"="+strings.TrimPrefix(n.FactsPath, dir+string(filepath.Separator)))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := FromFactsDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing directory: no error")
	}
}

func TestFromNodesFile(t *testing.T) {
	facts := map[string]string{"facts/a.example.com.yaml": "{}", "facts/b.example.com.json": "{}"}
	tests := []struct {
		name     string
		list     string
		factsDir bool
		want     []string
		wantErr  string
	}{
		{"names and comments", "# fleet\na.example.com\n\n  b.example.com  # db\na.example.com\n", false,
			[]string{"a.example.com=", "b.example.com="}, ""},
		{"facts looked up", "b.example.com\na.example.com\n", true,
			[]string{"b.example.com=facts/b.example.com.json", "a.example.com=facts/a.example.com.yaml"}, ""},
		{"missing facts", "a.example.com\nc.example.com\n", true, nil, "nodes:2: no facts file for node c.example.com"},
		{"two names a line", "a b\n", false, nil, "invalid node name"},
		{"path in name", "../etc/passwd\n", false, nil, "invalid node name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, facts)
			writeFiles(t, dir, map[string]string{"nodes": tt.list})
			factsDir := ""
			if tt.factsDir {
				factsDir = filepath.Join(dir, "facts")
			}
			nodes, err := FromNodesFile(filepath.Join(dir, "nodes"), factsDir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range nodes {
				got = append(got, n.Name+"="+strings.TrimPrefix(n.FactsPath, dir+string(filepath.Separator)))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
