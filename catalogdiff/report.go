package catalogdiff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Summary counts the differences.
type Summary struct {
	Added          int `json:"added"`
	Removed        int `json:"removed"`
	Changed        int `json:"changed"`
	EdgesAdded     int `json:"edges_added"`
	EdgesRemoved   int `json:"edges_removed"`
	ClassesAdded   int `json:"classes_added"`
	ClassesRemoved int `json:"classes_removed"`
}

// Summary counts the result's differences.
func (r *Result) Summary() Summary {
	return Summary{
		Added: len(r.Added), Removed: len(r.Removed), Changed: len(r.Changed),
		EdgesAdded: len(r.EdgesAdded), EdgesRemoved: len(r.EdgesRemoved),
		ClassesAdded: len(r.ClassesAdded), ClassesRemoved: len(r.ClassesRemoved),
	}
}

// String is the one-line summary: resources, then edges and classes when
// they differ.
func (s Summary) String() string {
	out := fmt.Sprintf("%d added, %d removed, %d changed", s.Added, s.Removed, s.Changed)
	if s.EdgesAdded+s.EdgesRemoved > 0 {
		out += fmt.Sprintf("; edges: %d added, %d removed", s.EdgesAdded, s.EdgesRemoved)
	}
	if s.ClassesAdded+s.ClassesRemoved > 0 {
		out += fmt.Sprintf("; classes: %d added, %d removed", s.ClassesAdded, s.ClassesRemoved)
	}
	return out
}

// WriteJSON writes the result as one indented JSON object: a "summary" with
// the counts and the sorted lists of the Result.
func (r *Result) WriteJSON(w io.Writer) error {
	doc := struct {
		Summary Summary `json:"summary"`
		*Result
	}{r.Summary(), r}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteText writes the readable report: one line per added (+), removed (-)
// or changed (~) resource in (type, title) order, the changes of each changed
// resource indented below it, then edges, classes and the summary line.
func (r *Result) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	a, rm, ch := r.Added, r.Removed, r.Changed
	for len(a)+len(rm)+len(ch) > 0 {
		// Merge the three sorted lists.
		pick := -1
		var best Ref
		for i, ref := range []*Ref{first(a), first(rm), firstChange(ch)} {
			if ref != nil && (pick < 0 || ref.less(best)) {
				pick, best = i, *ref
			}
		}
		switch pick {
		case 0:
			fmt.Fprintf(bw, "+ %s\n", a[0].Ref)
			a = a[1:]
		case 1:
			fmt.Fprintf(bw, "- %s\n", rm[0].Ref)
			rm = rm[1:]
		case 2:
			writeChange(bw, ch[0])
			ch = ch[1:]
		}
	}
	if len(r.EdgesAdded)+len(r.EdgesRemoved) > 0 {
		fmt.Fprintln(bw, "\nEdges:")
		for _, e := range r.EdgesAdded {
			fmt.Fprintf(bw, "+ %s → %s\n", e.Source, e.Target)
		}
		for _, e := range r.EdgesRemoved {
			fmt.Fprintf(bw, "- %s → %s\n", e.Source, e.Target)
		}
	}
	if len(r.ClassesAdded)+len(r.ClassesRemoved) > 0 {
		fmt.Fprintln(bw, "\nClasses:")
		for _, c := range r.ClassesAdded {
			fmt.Fprintf(bw, "+ %s\n", c)
		}
		for _, c := range r.ClassesRemoved {
			fmt.Fprintf(bw, "- %s\n", c)
		}
	}
	if !r.Empty() {
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw, r.Summary())
	return bw.Flush()
}

func first(l []ResourceSummary) *Ref {
	if len(l) == 0 {
		return nil
	}
	return &l[0].Ref
}

func firstChange(l []ResourceChange) *Ref {
	if len(l) == 0 {
		return nil
	}
	return &l[0].Ref
}

const indent = "    "

func writeChange(w io.Writer, c ResourceChange) {
	fmt.Fprintf(w, "~ %s\n", c.Ref)
	for _, p := range c.Parameters {
		writeValueChange(w, p)
	}
	if len(c.TagsAdded)+len(c.TagsRemoved) > 0 {
		var parts []string
		for _, t := range c.TagsAdded {
			parts = append(parts, "+ "+t)
		}
		for _, t := range c.TagsRemoved {
			parts = append(parts, "- "+t)
		}
		fmt.Fprintf(w, "%stags: %s\n", indent, strings.Join(parts, ", "))
	}
	for _, a := range c.Attributes {
		writeValueChange(w, a)
	}
}

func writeValueChange(w io.Writer, c Change) {
	switch c.Op {
	case OpAdded:
		fmt.Fprintf(w, "%s+ %s: %s\n", indent, c.Name, c.New)
	case OpRemoved:
		fmt.Fprintf(w, "%s- %s: %s\n", indent, c.Name, c.Old)
	default:
		var olds, news string
		if isString(c.Old) && isString(c.New) &&
			json.Unmarshal(c.Old, &olds) == nil && json.Unmarshal(c.New, &news) == nil &&
			(strings.Contains(olds, "\n") || strings.Contains(news, "\n")) {
			fmt.Fprintf(w, "%s%s:\n", indent, c.Name)
			for _, l := range lineDiff(olds, news) {
				fmt.Fprintf(w, "%s%s%s\n", indent, indent, l)
			}
			return
		}
		fmt.Fprintf(w, "%s%s: %s → %s\n", indent, c.Name, c.Old, c.New)
	}
}

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// contextLines is how many unchanged lines are shown around changed ones.
const contextLines = 2

// maxLCSCells bounds the work of the line diff; past it, the changed middle
// is shown as all removed then all added.
const maxLCSCells = 4 << 20

// lineDiff returns a unified-diff-like rendering of two multi-line strings:
// lines prefixed "- ", "+ " or "  " (context), "…" where unchanged lines are
// left out.
func lineDiff(a, b string) []string {
	if strings.HasSuffix(a, "\n") && strings.HasSuffix(b, "\n") {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	type line struct {
		op   byte
		text string
	}
	var ops []line
	// Common prefix and suffix.
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	for _, t := range al[:p] {
		ops = append(ops, line{' ', t})
	}
	am, bm := al[p:len(al)-s], bl[p:len(bl)-s]
	if len(am)*len(bm) > maxLCSCells {
		for _, t := range am {
			ops = append(ops, line{'-', t})
		}
		for _, t := range bm {
			ops = append(ops, line{'+', t})
		}
	} else {
		// lcs[i][j] is the LCS length of am[i:] and bm[j:].
		lcs := make([][]int, len(am)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(bm)+1)
		}
		for i := len(am) - 1; i >= 0; i-- {
			for j := len(bm) - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(am) || j < len(bm) {
			switch {
			case i < len(am) && j < len(bm) && am[i] == bm[j]:
				ops = append(ops, line{' ', am[i]})
				i++
				j++
			case i < len(am) && (j == len(bm) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, line{'-', am[i]})
				i++
			default:
				ops = append(ops, line{'+', bm[j]})
				j++
			}
		}
	}
	for _, t := range al[len(al)-s:] {
		ops = append(ops, line{' ', t})
	}

	// Keep changed lines and their context.
	keep := make([]bool, len(ops))
	for i, o := range ops {
		if o.op == ' ' {
			continue
		}
		for k := max(0, i-contextLines); k <= min(len(ops)-1, i+contextLines); k++ {
			keep[k] = true
		}
	}
	var out []string
	skipped := false
	for i, o := range ops {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped {
			out = append(out, "…")
			skipped = false
		}
		out = append(out, string(o.op)+" "+o.text)
	}
	if skipped {
		out = append(out, "…")
	}
	return out
}
