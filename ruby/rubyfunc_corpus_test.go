package ruby

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestRubyFunctionCorpus loads every Ruby function shipped by the installed
// Puppet modules (outside stdlib) and reports how many load.
func TestRubyFunctionCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{
		"/usr/share/puppet/modules/*/lib/puppet/functions",
		"/usr/share/puppet/modules/*/lib/puppet/parser/functions",
	} {
		dirs, _ := filepath.Glob(pat)
		for _, d := range dirs {
			if strings.Contains(d, "/stdlib/") {
				continue
			}
			_ = filepath.Walk(d+"/", func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && strings.HasSuffix(p, ".rb") {
					files = append(files, p)
				}
				return nil
			})
		}
	}
	if len(files) == 0 {
		t.Skip("no Puppet modules installed")
	}
	sort.Strings(files)
	loaded := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		fn, err := LoadRubyFunction(f, src)
		if err != nil {
			t.Logf("FAIL %v", err)
			continue
		}
		loaded++
		t.Logf("ok   %s (%d.x %s)", fn.Name, fn.API, fn.Type)
	}
	t.Logf("%d of %d function files load", loaded, len(files))
}
