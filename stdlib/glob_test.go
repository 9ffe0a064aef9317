package stdlib

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestGlob checks Dir.glob's rules on a small tree: braces, "**" at any
// depth, hidden names, sorting, a trailing slash and the root.
func TestGlob(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.conf", "b.conf", ".hidden.conf", "x.txt", "d/c.conf", "d/e/f.conf", "d/.h/g.conf"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		pattern value.Value
		want    []string
	}{
		{value.String(root + "/*.conf"), []string{"a.conf", "b.conf"}},
		{value.String(root + "/.*.conf"), []string{".hidden.conf"}},
		{value.String(root + "/{x.txt,b.conf,nope}"), []string{"x.txt", "b.conf"}},
		{value.String(root + "/**/*.conf"), []string{"a.conf", "b.conf", "d/c.conf", "d/e/f.conf"}},
		{value.String(root + "/d/**"), []string{"d/c.conf", "d/e"}},
		{value.String(root + "/d/"), []string{"d/"}},
		{value.String(root + "/?.txt"), []string{"x.txt"}},
		{value.Array{value.String(root + "/x*"), value.String(root + "/a*")}, []string{"x.txt", "a.conf"}},
		{value.String(root + "/none/*"), nil},
		{value.String(root + "/[a"), nil},
	} {
		got, err := glob(nil, []value.Value{tt.pattern})
		if err != nil {
			t.Fatal(err)
		}
		var want value.Array = value.Array{}
		for _, w := range tt.want {
			want = append(want, value.String(root+"/"+w))
		}
		if !slices.Equal(got.(value.Array), want) {
			t.Errorf("glob(%v) = %v, want %v", tt.pattern, got, want)
		}
	}
	if got, _ := glob(nil, []value.Value{value.String("/")}); !slices.Equal(got.(value.Array), value.Array{value.String("/")}) {
		t.Errorf("glob('/') = %v", got)
	}
	if _, err := glob(nil, []value.Value{value.Integer(1)}); err == nil || err.Error() != "glob(): Requires either array or string to work" {
		t.Errorf("glob(1): %v", err)
	}
}
