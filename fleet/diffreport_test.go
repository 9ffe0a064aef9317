package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/internal/corpus"
)

// testCatalog is a catalog of the given resources (type, title, one
// parameter's name and value).
func testCatalog(res ...[4]string) *catalogdiff.Catalog {
	c := &catalogdiff.Catalog{Resources: map[catalogdiff.Ref]*catalogdiff.Resource{}, Edges: map[catalogdiff.Edge]bool{}, Classes: map[string]bool{}}
	for _, r := range res {
		ref := catalogdiff.Ref{Type: r[0], Title: r[1]}
		c.Resources[ref] = &catalogdiff.Resource{Ref: ref, Params: map[string]any{r[2]: r[3]}}
	}
	return c
}

// testReport is a run over 5 nodes: web01 and web02 get the same change,
// db01 another one and the web change, db02 fails only with the new code,
// old01 failed already.
func testReport() *DiffReport {
	motdOld := [4]string{"File", "/etc/motd", "content", "hello\nworld\n"}
	motdNew := [4]string{"File", "/etc/motd", "content", "hello\n<b>there</b>\n"}
	pg := [4]string{"Package", "postgresql", "ensure", "installed"}
	web := catalogdiff.Compare(testCatalog(motdOld), testCatalog(motdNew), catalogdiff.Options{})
	db := catalogdiff.Compare(testCatalog(motdOld), testCatalog(motdNew, pg), catalogdiff.Options{})
	same := catalogdiff.Compare(testCatalog(pg), testCatalog(pg), catalogdiff.Options{})
	return &DiffReport{From: "origin/main", To: "HEAD", Nodes: []NodeDiff{
		{Node: "db01.example.com", Diff: db},
		{Node: "db02.example.com", SideErr: [2]error{nil, errors.New("Could not find class ::nosuch")}},
		{Node: "lb01.example.com", Diff: same},
		{Node: "old01.example.com", SideErr: [2]error{errors.New("broken before"), errors.New("broken after")}},
		{Node: "web01.example.com", Diff: web},
		{Node: "web02.example.com", Diff: web},
	}}
}

func TestGroups(t *testing.T) {
	var got []string
	for _, g := range testReport().Groups() {
		got = append(got, g.Kind+" "+g.Name+": "+strings.Join(g.Nodes, ","))
	}
	want := []string{
		"changed File[/etc/motd]: db01.example.com,web01.example.com,web02.example.com",
		"added Package[postgresql]: db01.example.com",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("groups\n%q\nwant\n%q", got, want)
	}
}

func TestDiffReportText(t *testing.T) {
	var buf bytes.Buffer
	if err := testReport().WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	want := `!!! db02.example.com fails only with the new code:
    to HEAD: Could not find class ::nosuch
!!! old01.example.com fails with both:
    from origin/main: broken before
    to HEAD: broken after

=== 3 nodes: db01.example.com, web01.example.com, web02.example.com
~ File[/etc/motd]
    content:
        @@ -1,2 +1,2 @@
          hello
        - world
        + <b>there</b>

=== 1 node: db01.example.com
+ Package[postgresql]
    + ensure: "installed"

6 nodes (origin/main → HEAD): 3 changed, 1 unchanged, 2 failed
`
	if buf.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestDiffReportJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := testReport().WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NewFailures []string `json:"new_failures"`
		Groups      []struct {
			Kind, Name string
			Count      int
			Nodes      []string
		}
		Nodes []struct {
			Node       string
			NewFailure bool `json:"new_failure"`
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.NewFailures) != 1 || doc.NewFailures[0] != "db02.example.com" {
		t.Errorf("new failures %v", doc.NewFailures)
	}
	if len(doc.Groups) != 2 || doc.Groups[0].Count != 3 || doc.Groups[0].Name != "File[/etc/motd]" || len(doc.Groups[1].Nodes) != 1 {
		t.Errorf("groups %+v", doc.Groups)
	}
}

// writeTestHTML writes the test report's page into dir.
func writeTestHTML(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := testReport().WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return page
}

func TestDiffReportHTML(t *testing.T) {
	page := writeTestHTML(t, t.TempDir())
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	// Self-contained: nothing is fetched.
	for _, external := range []string{"http://", "https://", "<link", " src=", "@import"} {
		if strings.Contains(html, external) {
			t.Errorf("the page refers to something outside it (%q)", external)
		}
	}
	for _, s := range []string{
		"<b>6</b> nodes", "<b>2</b> distinct changes",
		"db02.example.com fails only with the new code", "old01.example.com fails with both",
		`<span class="del">        - world</span>`,
		`<span class="add">        &#43; &lt;b&gt;there&lt;/b&gt;</span>`, // escaped
		`id="filter"`, "Unchanged: lb01.example.com",
	} {
		if !strings.Contains(html, s) {
			t.Errorf("page lacks %q", s)
		}
	}
}

// TestDiffReportInChromium opens the page in Debian's chromium, headless:
// it renders, and the filter box (set through #filter=) hides what does
// not match. The screenshot is kept with the test's artifacts
// (go test -artifacts -outputdir DIR).
func TestDiffReportInChromium(t *testing.T) {
	chromium, err := corpus.Chromium()
	if err != nil {
		corpus.Absent(t, err)
	}
	dir := t.ArtifactDir()
	page := writeTestHTML(t, dir)
	browse := func(extra ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + t.TempDir()}, extra...)
		cmd := exec.CommandContext(ctx, chromium, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
		}
		return string(out)
	}
	hiddenRE := regexp.MustCompile(`<(?:details|p) class="item[^"]*"[^>]*>`)
	visible := func(dom string) (shown []string) {
		for _, tag := range hiddenRE.FindAllString(dom, -1) {
			if strings.Contains(tag, " hidden") {
				continue
			}
			m := regexp.MustCompile(`data-key="([^"]*)"`).FindStringSubmatch(tag)
			if m != nil {
				shown = append(shown, m[1])
			}
		}
		return shown
	}
	tests := []struct {
		name, fragment string
		want           []string // the first word of each visible item
	}{
		{"no filter", "", []string{"db02.example.com", "old01.example.com", "changed", "added", "db01.example.com", "web01.example.com", "web02.example.com", "unchanged"}},
		{"a node", "#filter=web02", []string{"changed", "web02.example.com"}},
		{"two words, any case", "#filter=POSTGRESQL%20db01", []string{"added", "db01.example.com"}},
		{"an error message", "#filter=nosuch", []string{"db02.example.com"}},
		{"nothing", "#filter=zzz", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dom := browse("--dump-dom", "file://"+page+tt.fragment)
			if !strings.Contains(dom, "What the change does to every node") {
				t.Fatalf("the page did not render:\n%.2000s", dom)
			}
			got := visible(dom)
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("visible items %q, want %q", got, tt.want)
			}
		})
	}
	shot := filepath.Join(dir, "report.png")
	browse("--screenshot="+shot, "--window-size=1200,1400", "--hide-scrollbars", "file://"+page+"#filter=motd")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// A rendered page is not one colour.
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	colours := 0
	for y := b.Min.Y; y < b.Max.Y && colours < 3; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if img.At(x, y) != first {
				colours++
				break
			}
		}
	}
	if colours < 3 {
		t.Errorf("the screenshot %s is blank", shot)
	}
	t.Logf("screenshot: %s", shot)
}

func TestFailureGroups(t *testing.T) {
	fails := func(node string) NodeDiff {
		return NodeDiff{Node: node, SideErr: [2]error{nil, errors.New("Could not find class ::nosuch for " + node)}}
	}
	rep := &DiffReport{From: "a", To: "b", Nodes: []NodeDiff{
		{Node: "old01", SideErr: [2]error{errors.New("broken"), nil}},
		fails("db01"), fails("db02"),
		{Node: "db03", SideErr: [2]error{nil, errors.New("another error")}},
		fails("db04"),
	}}
	var got []string
	for _, g := range rep.FailureGroups() {
		got = append(got, g.Label+": "+strings.Join(g.Nodes, ",")+": "+g.Errors[0].Error)
	}
	want := []string{
		"fails only with the new code: db01,db02,db04: Could not find class ::nosuch for db01",
		"fails only with the new code: db03: another error",
		"fails only with the old code: old01: broken",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("failure groups\n%q\nwant\n%q", got, want)
	}
}
