package fleet

import (
	"html/template"
	"io"
	"strings"
)

// htmlLine is one line of a change's text, with the CSS class that
// colours it.
type htmlLine struct {
	Class, Text string
}

// htmlEntry is a change as the page shows it.
type htmlEntry struct {
	Kind, Name string
	Lines      []htmlLine
	Nodes      []string
}

// htmlNode is a node as the page shows it.
type htmlNode struct {
	Name, Status string
	NewFailure   bool
	// Label says when it fails (NodeDiff.failureLabel).
	Label string
	// Nodes are the nodes that fail the same way (the first is Name).
	Nodes   []string
	Errors  []DiffError
	Entries []htmlEntry
}

// htmlLines splits a change's text into coloured lines, by what starts
// each line after its indent (as catalogdiff.Colorize does on a terminal).
func htmlLines(text string) []htmlLine {
	var out []htmlLine
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		t := strings.TrimLeft(l, " ")
		class := ""
		switch {
		case strings.HasPrefix(t, "+ "):
			class = "add"
		case strings.HasPrefix(t, "- "):
			class = "del"
		case strings.HasPrefix(t, "~ "):
			class = "chg"
		case strings.HasPrefix(t, "@@"):
			class = "hunk"
		}
		out = append(out, htmlLine{Class: class, Text: l})
	}
	return out
}

// WriteHTML writes the report as one self-contained page (styles and
// script inline, nothing fetched): the summary, the nodes that fail
// (those the new code breaks first), each distinct change once with its
// nodes, every node's own changes, and a filter box that narrows all of
// them to what contains the words typed (node names, resources,
// parameters, text). The filter also reads #filter=WORDS from the
// address, so a filtered view can be linked.
func (rep *DiffReport) WriteHTML(w io.Writer) error {
	page := struct {
		From, To string
		Counts   DiffCounts
		Failed   []htmlNode
		Groups   []htmlEntry
		Nodes    []htmlNode
		Same     []string
	}{From: rep.From, To: rep.To, Counts: rep.Counts()}
	for _, g := range rep.FailureGroups() {
		page.Failed = append(page.Failed, htmlNode{Name: g.Nodes[0], Status: "failed", NewFailure: g.NewFailure, Label: g.Label, Errors: g.Errors, Nodes: g.Nodes})
	}
	for _, g := range rep.Groups() {
		page.Groups = append(page.Groups, htmlEntry{Kind: g.Kind, Name: g.Name, Lines: htmlLines(g.Text), Nodes: g.Nodes})
	}
	for i := range rep.Nodes {
		r := &rep.Nodes[i]
		switch r.Status() {
		case "changed":
			n := htmlNode{Name: r.Node, Status: "changed"}
			for _, e := range r.Diff.Entries() {
				n.Entries = append(n.Entries, htmlEntry{Kind: e.Kind, Name: e.Name, Lines: htmlLines(e.Text)})
			}
			page.Nodes = append(page.Nodes, n)
		case "unchanged":
			page.Same = append(page.Same, r.Node)
		}
	}
	t, err := template.New("report").Funcs(template.FuncMap{
		"join": func(list []string) string { return strings.Join(list, " ") },
		// Long node lists show their first htmlListedNodes, the rest
		// behind a click.
		"head":   func(list []string) []string { return list[:htmlListedNodes] },
		"tail":   func(list []string) []string { return list[htmlListedNodes:] },
		"rest":   func(list []string) int { return len(list) - htmlListedNodes },
		"plural": func(label string) string { return strings.Replace(label, "fails", "fail", 1) },
	}).Parse(reportTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, page)
}

// htmlListedNodes is how many nodes of a group the page lists before
// "and N more" (the template's 24 must agree).
const htmlListedNodes = 24

// reportTemplate is the page of WriteHTML. Every filterable block has
// class "item"; the filter searches its text (a collapsed node's too) and
// its data-key.
const reportTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>marionette diff: {{.From}} → {{.To}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 72em; padding: 1em 2em; color: #1b1f24; background: #fff; }
h1 { font-size: 1.4em; margin: .2em 0; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #d0d7de; }
.summary span { display: inline-block; margin-right: 1.2em; }
.summary b { font-size: 1.3em; }
#filter { width: 100%; box-sizing: border-box; font-size: 1.05em; padding: .4em .6em; margin: .8em 0 .2em; border: 1px solid #8c959f; border-radius: 4px; }
#shown { color: #57606a; font-size: .9em; }
details { border: 1px solid #d0d7de; border-radius: 4px; margin: .5em 0; }
summary { cursor: pointer; padding: .35em .6em; background: #f6f8fa; }
.count { float: right; color: #57606a; }
.kind { display: inline-block; min-width: 6.5em; font-size: .8em; text-transform: uppercase; color: #57606a; }
pre { margin: 0; padding: .5em .8em; overflow-x: auto; font: 12.5px/1.45 ui-monospace, monospace; }
.add { color: #116329; background: #e6ffec; }
.del { color: #82071e; background: #ffebe9; }
.chg { color: #7d4e00; }
.hunk { color: #0550ae; }
.nodes { padding: .3em .8em .6em; color: #57606a; font-size: .9em; }
.fail { border-color: #cf222e; }
.fail summary { background: #ffebe9; }
.newfail summary::before { content: "NEW "; color: #cf222e; font-weight: bold; }
.same { color: #57606a; }
.wrap { white-space: pre-wrap; }
.more summary { background: none; padding: 0; display: inline; color: #0550ae; }
.more { border: none; display: inline; margin: 0; }
[hidden] { display: none !important; }
</style>
</head>
<body>
<h1>What the change does to every node</h1>
<div>{{.From}} → {{.To}}</div>
<p class="summary" id="summary">
<span><b>{{.Counts.Nodes}}</b> nodes</span>
<span><b>{{.Counts.Changed}}</b> changed</span>
<span><b>{{.Counts.Unchanged}}</b> unchanged</span>
<span><b>{{.Counts.Failed}}</b> failed</span>
<span><b>{{len .Groups}}</b> distinct changes</span>
</p>
<input id="filter" type="search" placeholder="Filter: node, resource, parameter, text (all words must match)" autocomplete="off">
<div id="shown"></div>
{{if .Failed}}<h2>Nodes that fail to compile</h2>
{{range .Failed}}<details class="item fail{{if .NewFailure}} newfail{{end}}" open data-key="{{.Name}}">
<summary>{{if gt (len .Nodes) 1}}{{len .Nodes}} nodes {{plural .Label}}{{else}}{{.Name}} {{.Label}}{{end}}</summary>
<pre class="wrap">{{range .Errors}}{{if ne .Side "both"}}{{.Side}} {{.Environment}}: {{end}}{{.Error}}
{{end}}</pre>
{{if gt (len .Nodes) 1}}{{template "nodes" .Nodes}}{{end}}
</details>
{{end}}{{end}}
<h2>Changes, grouped across nodes</h2>
{{range .Groups}}<details class="item group" open data-key="{{.Kind}}">
<summary><span class="kind">{{.Kind}}</span> {{.Name}} <span class="count">{{len .Nodes}} node{{if ne (len .Nodes) 1}}s{{end}}</span></summary>
<pre>{{range .Lines}}<span class="{{.Class}}">{{.Text}}</span>
{{end}}</pre>
{{template "nodes" .Nodes}}
</details>
{{else}}<p class="same">No node's catalog changes.</p>
{{end}}
<h2>Nodes</h2>
{{range .Nodes}}<details class="item node" data-key="{{.Name}}">
<summary>{{.Name}} <span class="count">{{len .Entries}} change{{if ne (len .Entries) 1}}s{{end}}</span></summary>
{{range .Entries}}<pre>{{range .Lines}}<span class="{{.Class}}">{{.Text}}</span>
{{end}}</pre>{{end}}
</details>
{{end}}{{if .Same}}<p class="item same" data-key="unchanged">Unchanged: {{join .Same}}</p>{{end}}
<script>
(function () {
  var box = document.getElementById("filter");
  var shown = document.getElementById("shown");
  var items = Array.prototype.slice.call(document.querySelectorAll(".item"));
  var texts = items.map(function (el) { return ((el.dataset.key || "") + " " + el.textContent).toLowerCase(); });
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var n = 0;
    items.forEach(function (el, i) {
      var hit = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      el.hidden = !hit;
      if (hit) { n++; }
    });
    shown.textContent = words.length ? n + " of " + items.length + " shown" : "";
    document.body.dataset.shown = String(n);
  }
  box.addEventListener("input", function () {
    apply();
    history.replaceState(null, "", box.value ? "#filter=" + encodeURIComponent(box.value) : location.pathname);
  });
  var m = /^#filter=(.*)$/.exec(location.hash);
  if (m) { box.value = decodeURIComponent(m[1]); }
  apply();
})();
</script>
</body>
</html>
{{define "nodes"}}<div class="nodes">{{if gt (len .) 24}}{{join (head .)}} <details class="more"><summary>and {{rest .}} more</summary>{{join (tail .)}}</details>{{else}}{{join .}}{{end}}</div>{{end}}
`
