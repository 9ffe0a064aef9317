package ruby

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
	"github.com/marionette-dev/marionette/stdlib"
)

// TestSurveySiteFunctions loads every Ruby function file of the site
// repositories (lib/puppet/functions/**/*.rb and
// lib/puppet/parser/functions/*.rb of each module a site carries, its own
// and vendored ones) and reports, per site, which load in the subset, which
// stdlib ones marionette implements in Go, and why the others fail; run
// with -v for the table. Whether a file agrees with Puppet is the business
// of the sites conformance cases that reach it, so every row is "not
// sampled" here.
func TestSurveySiteFunctions(t *testing.T) {
	root := corpus.Sites().Require(t)
	sites, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
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
			rows = append(rows, surveyFile(t, mod, rel, p))
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
			t.Logf("%-14s %-22s %-60s %-6s %s%s", site.Name(), filepath.Base(r.module), r.file, r.status, r.at, r.reason)
			count[r.status]++
			if r.status == "fails" {
				reasons[r.reason]++
			}
		}
		t.Logf("%s: files %d: loads %d, native %d, fails %d", site.Name(), len(rows), count["loads"], count["native"], count["fails"])
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
