package ruby

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/stdlib"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// forgeModules is the Forge modules the survey reads, or the test is
// skipped (failed in CI).
func forgeModules(t *testing.T) string {
	t.Helper()
	return filepath.Join(corpus.Forge().Require(t), "modules")
}

// surveyRow is one Ruby function file of the survey.
type surveyRow struct {
	module, file string
	status       string // "loads", "native" or "fails"
	reason       string // why it fails, without file and line
	at           string // the line of the failure, when known
	agreement    string // "agrees", "differs" or "not sampled"
	noHelper     bool   // it agrees in a case that runs without the Ruby helper
	copyOf       string // "forge copy": the agreement is that of an identical Forge file
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
// implements natively in Go instead, and why the others fail; and whether
// marionette agrees with Puppet on each file's sample calls, the cases of
// testdata/conformance/functions/ (see surveySamples). It fails on an
// internal error (a panic caught by LoadRubyFunction) and when a case names
// a function file the corpus lacks; run it with -v for the table and the
// totals.
func TestSurveyForgeFunctions(t *testing.T) {
	root := forgeModules(t)
	samples, err := surveySamples(filepath.Join("..", "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
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
			row.agreement = "not sampled"
			if s, ok := samples[m.Name()+"/"+filepath.ToSlash(rel)]; ok {
				row.agreement = s.agreement()
				row.noHelper = s.subset > 0
				s.found = true
			}
			rows = append(rows, row)
		}
	}
	for _, name := range sortedKeys(samples) {
		if strings.HasPrefix(name, sitesSamplePrefix) {
			continue // TestSurveySiteFunctions' business
		}
		if !samples[name].found {
			t.Errorf("%s names the function file %s, which the Forge modules lack", samples[name].cases[0], name)
		}
	}
	count := map[string]int{}
	reasons := map[string]int{}
	for _, r := range rows {
		t.Logf("%-22s %-60s %-6s %-11s %s%s", r.module, r.file, r.status, r.agreement, r.at, r.reason)
		count[r.status]++
		if r.status == "fails" {
			reasons[r.reason]++
		}
	}
	t.Logf("files %d: loads %d, native %d, fails %d", len(rows), count["loads"], count["native"], count["fails"])
	for _, line := range surveyTable(rows) {
		t.Log(line)
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

// surveySample is what the conformance cases say about one function file.
type surveySample struct {
	cases   []string // the IDs of the cases naming it in function_files
	pending int      // how many of them are pending
	found   bool     // the survey met the file in the corpus
	// subset counts the cases naming it that are not pending and run
	// with the Ruby subset alone (no ruby_helper: the conformance test
	// compiles them with ruby_functions=subset).
	subset int
}

// agreement is "agrees" when a case naming the file is not pending (the
// conformance test then guarantees marionette matches Puppet on it), else
// "differs".
func (s *surveySample) agreement() string {
	if s.pending < len(s.cases) {
		return "agrees"
	}
	return "differs"
}

// surveySamples reads the cases below root's functions/ area and the
// pending list beside them, keyed by function file
// (<module>/<path in the module>). The conformance package cannot be
// imported here (it depends on this package), so this reads the two
// formats directly: function_files of case.yaml, and pending.txt's first
// field, a case ID or a glob of them.
func surveySamples(root string) (map[string]*surveySample, error) {
	pending, err := surveyPending(filepath.Join(root, "pending.txt"))
	if err != nil {
		return nil, err
	}
	out := map[string]*surveySample{}
	dir := filepath.Join(root, "functions")
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() && d.Name() == "modules" {
			return fs.SkipDir
		}
		if d.IsDir() || d.Name() != "case.yaml" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var c struct {
			FunctionFiles []string `yaml:"function_files"`
			RubyHelper    string   `yaml:"ruby_helper"`
		}
		if err := yaml.Unmarshal(b, &c); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		id := filepath.ToSlash(rel)
		if len(c.FunctionFiles) == 0 {
			return fmt.Errorf("%s: a case of the functions area names no function_files", id)
		}
		isPending := surveyIsPending(pending, id)
		for _, f := range c.FunctionFiles {
			s := out[f]
			if s == nil {
				s = &surveySample{}
				out[f] = s
			}
			s.cases = append(s.cases, id)
			if isPending {
				s.pending++
			} else if c.RubyHelper == "" {
				s.subset++
			}
		}
		return nil
	})
	return out, err
}

// surveyPending reads the patterns (case IDs or globs) of a pending.txt.
func surveyPending(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	var patterns []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		patterns = append(patterns, strings.Fields(line)[0])
	}
	return patterns, sc.Err()
}

// surveyIsPending tells whether a pattern of pending.txt matches the case ID.
func surveyIsPending(patterns []string, id string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, id); ok || p == id {
			return true
		}
	}
	return false
}

// surveyTable counts the rows by load status (and all together) and, for
// each, by agreement with Puppet, as the lines of a text table.
func surveyTable(rows []surveyRow) []string {
	kinds := []struct{ label, status string }{
		{"files", ""},
		{"load in subset", "loads"},
		{"native in Go", "native"},
		{"fail to load (escape hatch)", "fails"},
	}
	lines := []string{fmt.Sprintf("%-28s %6s %7s %9s %8s %12s", "", "total", "agrees", "no helper", "differs", "not sampled")}
	for _, k := range kinds {
		n := map[string]int{}
		for _, r := range rows {
			if k.status == "" || r.status == k.status {
				n[""]++
				n[r.agreement]++
				if r.noHelper {
					n["no helper"]++
				}
			}
		}
		lines = append(lines, fmt.Sprintf("%-28s %6d %7d %9d %8d %12d", k.label, n[""], n["agrees"], n["no helper"], n["differs"], n["not sampled"]))
	}
	return lines
}

// sortedKeys returns the keys of m in order, for reports that do not vary.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestSurveySamples checks how the survey reads cases and pending.txt: a
// file some passing case names agrees, a file only pending cases name
// differs, and a pending glob counts like an exact line.
func TestSurveySamples(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pending.txt", "# comment\nfunctions/m-b #11 # cause\nfunctions/m-c* #11\n")
	write("functions/m-a/case.yaml", "node: n\nfunction_files: [m/lib/a.rb]\n")
	write("functions/m-b/case.yaml", "node: n\nfunction_files: [m/lib/b.rb, m/lib/a.rb]\n")
	write("functions/m-c-error/case.yaml", "node: n\nfunction_files: [m/lib/c.rb]\n")
	write("functions/m-e/case.yaml", "node: n\nfunction_files: [m/lib/e.rb]\nruby_helper: runs a command\n")
	got, err := surveySamples(root)
	if err != nil {
		t.Fatal(err)
	}
	// A file agrees without the helper when a passing case naming it has
	// no ruby_helper.
	for f, w := range map[string]int{"m/lib/a.rb": 1, "m/lib/b.rb": 0, "m/lib/e.rb": 0} {
		if s := got[f]; s == nil || s.subset != w {
			t.Errorf("%s: got %+v, want %d subset cases", f, s, w)
		}
	}
	want := map[string]string{"m/lib/a.rb": "agrees", "m/lib/b.rb": "differs", "m/lib/c.rb": "differs", "m/lib/e.rb": "agrees"}
	if len(got) != len(want) {
		t.Fatalf("got %d files, want %d: %v", len(got), len(want), sortedKeys(got))
	}
	for f, w := range want {
		if s := got[f]; s == nil || s.agreement() != w {
			t.Errorf("%s: got %+v, want %s", f, s, w)
		}
	}
	write("functions/m-d/case.yaml", "node: n\n")
	if _, err := surveySamples(root); err == nil || !strings.Contains(err.Error(), "names no function_files") {
		t.Errorf("a functions case without function_files: got %v", err)
	}
}
