package ruby

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/stdlib"
)

// sitesSamplePrefix starts the function_files of the functions cases of
// the sites' files (functions/site-*): sites/<site>/<path in the site's
// repository>, where the Forge cases name <module>/<path in the module>.
const sitesSamplePrefix = "sites/"

// TestSurveySiteFunctions loads every Ruby function file of the site
// repositories (lib/puppet/functions/**/*.rb and
// lib/puppet/parser/functions/*.rb of each module a site carries, its own
// and vendored ones) and reports, per site, which load in the subset, which
// stdlib ones marionette implements in Go, and why the others fail; and
// whether marionette agrees with Puppet on each file's sample calls: the
// functions/site-* conformance cases naming it (sites/<site>/<path>), or,
// for a vendored copy byte for byte identical to a file of the Forge
// corpus, that file's functions cases ("forge copy"). Run with -v for the
// table; it fails when a case names a site file that does not exist.
func TestSurveySiteFunctions(t *testing.T) {
	root := corpus.Sites().Require(t)
	sites, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := surveySamples(filepath.Join("..", "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	forge := corpus.Forge()
	forgeDir, forgeErr := forge.Dir()
	reasons := map[string]int{}
	for _, site := range sites {
		if !site.IsDir() {
			continue
		}
		var rows []surveyRow
		dir := filepath.Join(root, site.Name())
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rb") {
				return nil
			}
			mod, rel, ok := siteFunctionFile(dir, p)
			if !ok {
				return nil
			}
			row := surveyFile(t, mod, rel, p)
			inSite, _ := filepath.Rel(dir, p)
			if sm, ok := samples[sitesSamplePrefix+site.Name()+"/"+filepath.ToSlash(inSite)]; ok {
				row.agreement = sm.agreement()
				row.noHelper = sm.subset > 0
				sm.found = true
			} else if forgeErr == nil {
				key := filepath.Base(mod) + "/" + filepath.ToSlash(rel)
				if sm, ok := samples[key]; ok && sameFile(p, filepath.Join(forgeDir, "modules", filepath.FromSlash(key))) {
					row.agreement = sm.agreement()
					row.noHelper = sm.subset > 0
					row.copyOf = "forge copy"
				}
			}
			rows = append(rows, row)
			return nil
		})
		sort.Slice(rows, func(i, j int) bool {
			if rows[i].module != rows[j].module {
				return rows[i].module < rows[j].module
			}
			return rows[i].file < rows[j].file
		})
		count := map[string]int{}
		for _, r := range rows {
			t.Logf("%-14s %-22s %-60s %-6s %-11s %-10s %s%s", site.Name(), filepath.Base(r.module), r.file, r.status, r.agreement, r.copyOf, r.at, r.reason)
			count[r.status]++
			if r.status == "fails" {
				reasons[r.reason]++
			}
		}
		t.Logf("%s: files %d: loads %d, native %d, fails %d", site.Name(), len(rows), count["loads"], count["native"], count["fails"])
		for _, line := range surveyTable(rows) {
			t.Logf("%s: %s", site.Name(), line)
		}
	}
	for _, name := range sortedKeys(samples) {
		if strings.HasPrefix(name, sitesSamplePrefix) && !samples[name].found {
			t.Errorf("%s names the function file %s, which the sites lack", samples[name].cases[0], name)
		}
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if reasons[keys[i]] != reasons[keys[j]] {
			return reasons[keys[i]] > reasons[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		t.Logf("%4d  %s", reasons[k], k)
	}
}

// siteFunctionFile tells whether p, below a site's directory, is a Ruby
// function file of a module, and returns the module's directory and the
// file's path in it.
func siteFunctionFile(siteDir, p string) (module, rel string, ok bool) {
	rel, err := filepath.Rel(siteDir, p)
	if err != nil {
		return "", "", false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i := 1; i+3 < len(parts); i++ {
		if parts[i] != "lib" || parts[i+1] != "puppet" {
			continue
		}
		inModule := strings.Join(parts[i:], "/")
		modDir := filepath.Join(siteDir, filepath.FromSlash(strings.Join(parts[:i], "/")))
		switch {
		case parts[i+2] == "functions":
			return modDir, inModule, true
		case parts[i+2] == "parser" && len(parts) == i+5 && parts[i+3] == "functions":
			return modDir, inModule, true
		}
		return "", "", false
	}
	return "", "", false
}

// surveyFile loads one function file of the module in modDir: "native" when
// it is a stdlib function marionette implements in Go for that stdlib's
// version, else "loads" or "fails" with the reason.
func surveyFile(t *testing.T, modDir, rel, p string) surveyRow {
	row := surveyRow{module: modDir, file: rel, agreement: "not sampled"}
	if filepath.Base(modDir) == "stdlib" {
		if _, native := stdlib.FunctionsFor(moduleVersion(modDir))[functionName(rel)]; native {
			row.status = "native"
			return row
		}
	}
	src, err := os.ReadFile(p)
	if err != nil {
		row.status, row.reason = "fails", err.Error()
		return row
	}
	if _, err := LoadRubyFunction(rel, src); err != nil {
		msg := err.Error()
		if strings.Contains(msg, "internal error") {
			t.Errorf("%s: %v", p, err)
		}
		row.status, row.reason = "fails", surveyReason(msg)
		if m := surveyLine.FindStringSubmatch(msg); m != nil {
			row.at = "line " + m[1] + ": "
		}
		return row
	}
	row.status = "loads"
	return row
}

// sameFile reports whether the files a and b hold the same bytes.
func sameFile(a, b string) bool {
	x, errA := os.ReadFile(a)
	y, errB := os.ReadFile(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
