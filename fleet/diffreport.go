package fleet

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/catalogdiff"
)

// ChangeGroup is one change and the nodes it happens on: the same entry
// (the same resource changed the same way) on 312 nodes is one group.
type ChangeGroup struct {
	catalogdiff.Entry
	Nodes []string
}

// Groups gathers the changed nodes' differences into groups of equal
// changes, the groups on the most nodes first (then by kind order and
// name), each group's nodes sorted.
func (rep *DiffReport) Groups() []ChangeGroup {
	index := map[string]int{}
	var groups []ChangeGroup
	for i := range rep.Nodes {
		r := &rep.Nodes[i]
		if r.Status() != "changed" {
			continue
		}
		for _, e := range r.Diff.Entries() {
			key := e.Kind + "\x00" + e.Text
			g, ok := index[key]
			if !ok {
				g = len(groups)
				index[key] = g
				groups = append(groups, ChangeGroup{Entry: e})
			}
			groups[g].Nodes = append(groups[g].Nodes, r.Node)
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := &groups[i], &groups[j]
		if len(a.Nodes) != len(b.Nodes) {
			return len(a.Nodes) > len(b.Nodes)
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Text < b.Text
	})
	for i := range groups {
		sort.Strings(groups[i].Nodes)
	}
	return groups
}

// NewFailure reports whether the node compiled with the old code and fails
// with the new: what a change breaks, listed first.
func (r *NodeDiff) NewFailure() bool {
	return r.Err == nil && r.SideErr[0] == nil && r.SideErr[1] != nil
}

// failureLabel says when a failed node fails.
func (r *NodeDiff) failureLabel() string {
	switch {
	case r.NewFailure():
		return "fails only with the new code"
	case r.Err == nil && r.SideErr[0] != nil && r.SideErr[1] == nil:
		return "fails only with the old code"
	case r.Err == nil:
		return "fails with both"
	}
	return "fails"
}

// failedNodes lists the failed nodes, those the new code breaks first,
// each part by name.
func (rep *DiffReport) failedNodes() []*NodeDiff {
	var out []*NodeDiff
	for pass := range 2 {
		for i := range rep.Nodes {
			r := &rep.Nodes[i]
			if r.Status() == "failed" && r.NewFailure() == (pass == 0) {
				out = append(out, r)
			}
		}
	}
	return out
}

// FailureGroup is the nodes that fail the same way: the same sides, with
// the same messages once the node's name is left out of them.
type FailureGroup struct {
	// Label says when they fail ("fails only with the new code", ...).
	Label      string
	NewFailure bool
	// Errors are the first node's.
	Errors []DiffError
	Nodes  []string
}

// FailureGroups gathers the failed nodes into groups, those the new code
// breaks first, then the largest.
func (rep *DiffReport) FailureGroups() []FailureGroup {
	index := map[string]int{}
	var groups []FailureGroup
	for _, r := range rep.failedNodes() {
		errs := rep.nodeErrors(r)
		key := r.failureLabel()
		for _, e := range errs {
			key += "\x00" + e.Side + "\x00" + strings.ReplaceAll(e.Error, r.Node, "\x01")
		}
		g, ok := index[key]
		if !ok {
			g = len(groups)
			index[key] = g
			groups = append(groups, FailureGroup{Label: r.failureLabel(), NewFailure: r.NewFailure(), Errors: errs})
		}
		groups[g].Nodes = append(groups[g].Nodes, r.Node)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := &groups[i], &groups[j]
		if a.NewFailure != b.NewFailure {
			return a.NewFailure
		}
		return len(a.Nodes) > len(b.Nodes)
	})
	return groups
}

// maxListedNodes is how many node names a text report prints for a group.
const maxListedNodes = 10

// listNodes names up to maxListedNodes nodes, "and N more" after them.
func listNodes(nodes []string) string {
	if len(nodes) <= maxListedNodes {
		return strings.Join(nodes, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(nodes[:maxListedNodes], ", "), len(nodes)-maxListedNodes)
}

// WriteText prints the failures (nodes that fail the same way once), the
// nodes the new code breaks first, then
// each distinct change once with the number of nodes it happens on and
// their names, then the summary line. A run of one node prints that
// node's differences as `marionette diff` prints two catalogs'.
func (rep *DiffReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	failures := rep.FailureGroups()
	for _, g := range failures {
		if len(g.Nodes) == 1 {
			fmt.Fprintf(bw, "!!! %s %s:\n", g.Nodes[0], g.Label)
		} else {
			fmt.Fprintf(bw, "!!! %d nodes %s: %s\n", len(g.Nodes), strings.Replace(g.Label, "fails", "fail", 1), listNodes(g.Nodes))
		}
		for _, e := range g.Errors {
			where := ""
			if e.Side != "both" {
				where = fmt.Sprintf("%s %s: ", e.Side, e.Environment)
			}
			fmt.Fprintf(bw, "    %s%s\n", where, e.Error)
		}
	}
	if len(failures) > 0 {
		fmt.Fprintln(bw)
	}
	if len(rep.Nodes) == 1 && rep.Nodes[0].Status() == "changed" {
		r := &rep.Nodes[0]
		fmt.Fprintf(bw, "=== %s ===\n", r.Node)
		if err := r.Diff.WriteText(bw); err != nil {
			return err
		}
		fmt.Fprintln(bw)
	} else {
		for _, g := range rep.Groups() {
			n := len(g.Nodes)
			plural := "s"
			if n == 1 {
				plural = ""
			}
			fmt.Fprintf(bw, "=== %d node%s: %s\n", n, plural, listNodes(g.Nodes))
			bw.WriteString(g.Text)
			fmt.Fprintln(bw)
		}
	}
	c := rep.Counts()
	fmt.Fprintf(bw, "%d nodes (%s → %s): %s\n", c.Nodes, rep.From, rep.To, c)
	return bw.Flush()
}

// WriteJSON prints one indented JSON document: the two sides, the counts,
// the failed nodes (new failures first), the groups of equal changes, and
// every node with its status and, when it changed, its differences in the
// form `marionette diff --json` prints (or, when it failed, its errors).
func (rep *DiffReport) WriteJSON(w io.Writer) error {
	type diffJSON struct {
		Summary catalogdiff.Summary `json:"summary"`
		*catalogdiff.Result
	}
	type nodeJSON struct {
		Node       string      `json:"node"`
		Status     string      `json:"status"`
		NewFailure bool        `json:"new_failure,omitempty"`
		Errors     []DiffError `json:"errors,omitempty"`
		Diff       *diffJSON   `json:"diff,omitempty"`
	}
	type failureJSON struct {
		Label      string      `json:"label"`
		NewFailure bool        `json:"new_failure"`
		Errors     []DiffError `json:"errors"`
		Count      int         `json:"count"`
		Nodes      []string    `json:"nodes"`
	}
	type groupJSON struct {
		catalogdiff.Entry
		Count int      `json:"count"`
		Nodes []string `json:"nodes"`
	}
	doc := struct {
		From        string        `json:"from"`
		To          string        `json:"to"`
		Summary     DiffCounts    `json:"summary"`
		NewFailures []string      `json:"new_failures"`
		Failures    []failureJSON `json:"failure_groups"`
		Groups      []groupJSON   `json:"groups"`
		Nodes       []nodeJSON    `json:"nodes"`
	}{From: rep.From, To: rep.To, Summary: rep.Counts(), NewFailures: []string{}, Failures: []failureJSON{}, Groups: []groupJSON{}, Nodes: []nodeJSON{}}
	for _, r := range rep.failedNodes() {
		if r.NewFailure() {
			doc.NewFailures = append(doc.NewFailures, r.Node)
		}
	}
	for _, g := range rep.FailureGroups() {
		doc.Failures = append(doc.Failures, failureJSON{Label: g.Label, NewFailure: g.NewFailure, Errors: g.Errors, Count: len(g.Nodes), Nodes: g.Nodes})
	}
	for _, g := range rep.Groups() {
		doc.Groups = append(doc.Groups, groupJSON{Entry: g.Entry, Count: len(g.Nodes), Nodes: g.Nodes})
	}
	for i := range rep.Nodes {
		r := &rep.Nodes[i]
		n := nodeJSON{Node: r.Node, Status: r.Status(), Errors: rep.nodeErrors(r)}
		n.NewFailure = n.Status == "failed" && r.NewFailure()
		if n.Status == "changed" {
			n.Diff = &diffJSON{r.Diff.Summary(), r.Diff}
		}
		doc.Nodes = append(doc.Nodes, n)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
