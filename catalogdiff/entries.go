package catalogdiff

import (
	"fmt"
	"strings"
)

// Entry is one difference of a Result on its own: a resource added,
// removed or changed, an edge or a class added or removed. Entries of
// different nodes with the same Text are the same change (fleet groups
// them).
type Entry struct {
	// Kind is "added", "removed", "changed", "edge added", "edge removed",
	// "class added" or "class removed".
	Kind string `json:"kind"`
	// Name is the resource (File[/etc/motd]), the edge (A → B) or the class.
	Name    string           `json:"name"`
	Added   *ResourceSummary `json:"added,omitempty"`
	Removed *ResourceSummary `json:"removed,omitempty"`
	Changed *ResourceChange  `json:"changed,omitempty"`
	// Text is what the text report prints for it, its lines ending in "\n".
	Text string `json:"-"`
}

// Entries lists the result's differences in the text report's order:
// resources by type and title, then edges, then classes.
func (r *Result) Entries() []Entry {
	var out []Entry
	var b strings.Builder
	text := func() string {
		s := b.String()
		b.Reset()
		return s
	}
	a, rm, ch := r.Added, r.Removed, r.Changed
	for len(a)+len(rm)+len(ch) > 0 {
		pick := -1
		var best Ref
		for i, ref := range []*Ref{first(a), first(rm), firstChange(ch)} {
			if ref != nil && (pick < 0 || ref.less(best)) {
				pick, best = i, *ref
			}
		}
		switch pick {
		case 0:
			writeSummary(&b, '+', a[0])
			out = append(out, Entry{Kind: "added", Name: a[0].Ref.String(), Added: &a[0], Text: text()})
			a = a[1:]
		case 1:
			writeSummary(&b, '-', rm[0])
			out = append(out, Entry{Kind: "removed", Name: rm[0].Ref.String(), Removed: &rm[0], Text: text()})
			rm = rm[1:]
		case 2:
			writeChange(&b, ch[0])
			out = append(out, Entry{Kind: "changed", Name: ch[0].Ref.String(), Changed: &ch[0], Text: text()})
			ch = ch[1:]
		}
	}
	// An added or removed resource brings its containment edge: the edge
	// says nothing more.
	addedRefs, removedRefs := map[string]bool{}, map[string]bool{}
	for _, x := range r.Added {
		addedRefs[x.Ref.String()] = true
	}
	for _, x := range r.Removed {
		removedRefs[x.Ref.String()] = true
	}
	for _, e := range r.EdgesAdded {
		if addedRefs[e.Target] {
			continue
		}
		name := fmt.Sprintf("%s → %s", e.Source, e.Target)
		out = append(out, Entry{Kind: "edge added", Name: name, Text: "+ edge " + name + "\n"})
	}
	for _, e := range r.EdgesRemoved {
		if removedRefs[e.Target] {
			continue
		}
		name := fmt.Sprintf("%s → %s", e.Source, e.Target)
		out = append(out, Entry{Kind: "edge removed", Name: name, Text: "- edge " + name + "\n"})
	}
	for _, c := range r.ClassesAdded {
		out = append(out, Entry{Kind: "class added", Name: c, Text: "+ class " + c + "\n"})
	}
	for _, c := range r.ClassesRemoved {
		out = append(out, Entry{Kind: "class removed", Name: c, Text: "- class " + c + "\n"})
	}
	return out
}
