package ruby

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/stdlib"
)

// forgeModules finds the Forge modules the survey reads: ../shared beside
// the repository, else /work/shared.
func forgeModules(t *testing.T) string {
	t.Helper()
	for _, d := range []string{filepath.Join("..", "..", "shared", "forge", "modules"), "/work/shared/forge/modules"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	t.Skip("no Forge modules (../shared/forge/modules beside the repository)")
	return ""
}

// surveyRow is one Ruby function file of the survey.
type surveyRow struct {
	module, file string
	status       string // "loads", "native" or "fails"
	reason       string // why it fails, without file and line
	at           string // the line of the failure, when known
}

// surveyDetail strips what varies between files from a load error (file,
// line, names), leaving the construct that failed.
var surveyDetail = regexp.MustCompile(`^(unsupported Ruby in function |function )?[^:]*\.rb(:\d+)?: ?`)

// surveyLine finds the line number in a load error.
var surveyLine = regexp.MustCompile(`\.rb:(\d+)`)

// functionName is the Puppet name a function file defines by its path.
func functionName(rel string) string {
	rel = strings.TrimSuffix(rel, ".rb")
	if r, ok := strings.CutPrefix(rel, "lib/puppet/parser/functions/"); ok {
		return r
	}
	r, _ := strings.CutPrefix(rel, "lib/puppet/functions/")
	return strings.ReplaceAll(r, "/", "::")
}

// TestSurveyForgeFunctions loads every Ruby function file (the 4.x
// lib/puppet/functions/**/*.rb and the 3.x lib/puppet/parser/functions/*.rb)
// of the Forge modules and tells which load (parse and define) in the
// subset this package implements, which stdlib functions package stdlib
// implements natively in Go instead, and why the others fail. It fails
// only on an internal error (a panic caught by LoadRubyFunction); run it
// with -v for the table and the totals.
func TestSurveyForgeFunctions(t *testing.T) {
	root := forgeModules(t)
	mods, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var rows []surveyRow
	for _, m := range mods {
		dir := filepath.Join(root, m.Name())
		var native map[string]bool
		if m.Name() == "stdlib" {
			native = map[string]bool{}
			for name := range stdlib.FunctionsFor(moduleVersion(dir)) {
				native[name] = true
			}
		}
		var files []string
		_ = filepath.WalkDir(filepath.Join(dir, "lib", "puppet", "functions"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") {
				files = append(files, p)
			}
			return nil
		})
		legacy, _ := filepath.Glob(filepath.Join(dir, "lib", "puppet", "parser", "functions", "*.rb"))
		files = append(files, legacy...)
		sort.Strings(files)
		for _, p := range files {
			rel, _ := filepath.Rel(dir, p)
			row := surveyRow{module: m.Name(), file: rel}
			src, err := os.ReadFile(p)
			switch {
			case err != nil:
				row.status, row.reason = "fails", err.Error()
			case native[functionName(rel)]:
				row.status = "native"
			default:
				if _, err := LoadRubyFunction(rel, src); err != nil {
					msg := err.Error()
					if strings.Contains(msg, "internal error") {
						t.Errorf("%s/%s: %v", m.Name(), rel, err)
					}
					row.status, row.reason = "fails", surveyReason(msg)
					if m := surveyLine.FindStringSubmatch(msg); m != nil {
						row.at = "line " + m[1] + ": "
					}
				} else {
					row.status = "loads"
				}
			}
			rows = append(rows, row)
		}
	}
	count := map[string]int{}
	reasons := map[string]int{}
	for _, r := range rows {
		t.Logf("%-22s %-60s %-6s %s%s", r.module, r.file, r.status, r.at, r.reason)
		count[r.status]++
		if r.status == "fails" {
			reasons[r.reason]++
		}
	}
	t.Logf("files %d: loads %d, native %d, fails %d", len(rows), count["loads"], count["native"], count["fails"])
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

// surveyReason gives the construct a load error reports, without file and line.
func surveyReason(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	msg = surveyDetail.ReplaceAllString(msg, "")
	if len(msg) > 90 {
		msg = msg[:90] + "..."
	}
	return msg
}

// moduleVersion reads the version of the module in dir from its
// metadata.json, or "" when it cannot.
func moduleVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		return ""
	}
	var md struct{ Version string }
	if json.Unmarshal(b, &md) != nil {
		return ""
	}
	return md.Version
}
