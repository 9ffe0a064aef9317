package catalogdiff

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
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
			writeSummary(bw, '+', a[0])
			a = a[1:]
		case 1:
			writeSummary(bw, '-', rm[0])
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

// writeSummary prints an added (op '+') or removed ('-') resource and its
// parameters below it, by name; multi-line text one line at a time.
func writeSummary(w io.Writer, op byte, r ResourceSummary) {
	fmt.Fprintf(w, "%c %s\n", op, r.Ref)
	names := make([]string, 0, len(r.Parameters))
	for k := range r.Parameters {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := r.Parameters[k]
		if text, ok := v.(string); ok && strings.Contains(strings.TrimSuffix(text, "\n"), "\n") {
			fmt.Fprintf(w, "%s%c %s:\n", indent, op, k)
			for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				fmt.Fprintf(w, "%s%s%c %s\n", indent, indent, op, l)
			}
			continue
		}
		fmt.Fprintf(w, "%s%c %s: %s\n", indent, op, k, encode(v))
	}
}

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

// ANSI colours of Colorize.
const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// Colorize colours a text report for a terminal, line by line, by what
// starts the line after its indent: "+ " green, "- " red, "~ " yellow,
// "@@" (a text diff's hunk) cyan, "=== " (a node's or a change's header)
// bold.
func Colorize(report string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(report, "\n") {
		body := strings.TrimRight(line, "\n")
		trimmed := strings.TrimLeft(body, " ")
		color := ""
		switch {
		case strings.HasPrefix(trimmed, "+ "):
			color = ansiGreen
		case strings.HasPrefix(trimmed, "- "):
			color = ansiRed
		case strings.HasPrefix(trimmed, "~ "):
			color = ansiYellow
		case strings.HasPrefix(trimmed, "@@"):
			color = ansiCyan
		case strings.HasPrefix(body, "=== "), strings.HasPrefix(body, "!!! "):
			color = ansiBold
		}
		if color == "" || body == "" {
			b.WriteString(line)
			continue
		}
		b.WriteString(color)
		b.WriteString(body)
		b.WriteString(ansiReset)
		b.WriteString(line[len(body):])
	}
	return b.String()
}
