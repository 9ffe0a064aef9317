package compiler

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
)

// renderAll is a compile's diagnostics as the command line prints them.
func renderAll(t *testing.T, l diag.List, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, d := range l {
		if err := diag.Render(&b, d, ""); err != nil {
			t.Fatal(err)
		}
	}
	return strings.ReplaceAll(b.String(), dir+"/", "")
}

// TestModuleFileWarningsBelongToTheCompile: warnings of files autoloaded
// mid-compile (legacy constructs, a key given twice) are in the compile's
// own diagnostics, in the order Puppet logs them (when the file loads,
// between the messages of the code around), and every compile that uses
// the file reports them, whichever compile parsed it. They used to go to a
// list shared by the environment, after the command line had printed it.
func TestModuleFileWarningsBelongToTheCompile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                          "$x = {'z' => 1, 'z' => 2}\nnotice('site')\ninclude m\n",
		"modules/m/manifests/init.pp":      "class m {\n  $h = {'a' => 1, 'a' => 2}\n  notice('in m')\n  include m2\n}\n",
		"modules/m2/manifests/init.pp":     "class m2 {\n  $h = {'b' => 1, 'b' => 2}\n  include plan\n}\n",
		"modules/plan/manifests/init.pp":   "class plan {\n  notice('plan')\n}\n",
		"modules/unused/manifests/init.pp": "class unused { $h = {'c' => 1, 'c' => 2} }\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"Warning: The key 'z' is declared more than once (file: site.pp, line: 1)",
		"Notice: site",
		"Warning: The key 'a' is declared more than once (file: modules/m/manifests/init.pp, line: 2)",
		"Notice: in m",
		"Warning: The key 'b' is declared more than once (file: modules/m2/manifests/init.pp, line: 2)",
		"Warning: Use of future reserved word: 'plan' (file: modules/plan/manifests/init.pp, line: 1, column: 1)",
		"Notice: plan",
	}, "\n") + "\n"
	keyColumn := regexp.MustCompile(`(more than once \(file: [^,]*, line: \d+), column: \d+\)`)
	// Several rounds and concurrent compiles: the first loads the module
	// files, the others find them loaded and must report the same.
	for round := 0; round < 2; round++ {
		var wg sync.WaitGroup
		got := make([]string, 4)
		for i := range got {
			wg.Go(func() {
				res, err := Compile(context.Background(), env, &Request{Node: "n1.example.com"})
				if err != nil {
					t.Error(err)
					return
				}
				for _, d := range res.Diagnostics {
					if d.Severity == diag.Warning && !d.Range.IsValid() {
						t.Errorf("warning without a range: %v", d)
					}
				}
				// Puppet places a repeated key at its "=>"; the
				// validator's column is not this test's concern.
				got[i] = keyColumn.ReplaceAllString(renderAll(t, res.Diagnostics, dir), "$1)")
			})
		}
		wg.Wait()
		for i, g := range got {
			if g != want {
				t.Errorf("round %d compile %d: diagnostics\n%s\nwant\n%s", round, i, g, want)
			}
		}
	}
}

// TestHieraWarningsAreCompileWarnings: Hiera's warnings are in the compile's
// diagnostics, of Warning severity, naming the file they are about.
func TestHieraWarningsAreCompileWarnings(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":          "notify { lookup('k', undef, undef, 'dflt'): }\n",
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "- not\n- a hash\n",
	})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"),
		Hiera: environment.HieraOptions{GlobalConfig: filepath.Join(dir, "hiera.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(context.Background(), env, &Request{Node: "n1.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Warning: data/common.yaml: file does not contain a valid yaml hash\n"
	if got := renderAll(t, res.Diagnostics, dir); got != want {
		t.Errorf("diagnostics\n%s\nwant\n%s", got, want)
	}
}
