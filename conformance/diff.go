package conformance

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// DiffCatalogs compares two normalized catalogs and describes every
// difference in terms of the catalog: missing and extra resources, differing
// parameters (expected and actual values), tags, file/line, edges and
// classes. An empty result means the catalogs are equal.
func DiffCatalogs(want, got map[string]any) []string {
	var out []string
	for _, key := range []string{"name", "environment"} {
		w, wok := want[key]
		g, gok := got[key]
		if wok != gok || !equalValues(w, g) {
			out = append(out, fmt.Sprintf("catalog %s: expected %s, got %s", key, showOptional(w, wok), showOptional(g, gok)))
		}
	}
	out = append(out, diffResources(asList(want["resources"]), asList(got["resources"]))...)
	out = append(out, diffPairs("edge", edgeStrings(want["edges"]), edgeStrings(got["edges"]))...)
	wantClasses, wantHas := want["classes"]
	gotClasses, gotHas := got["classes"]
	switch {
	case wantHas && !gotHas:
		out = append(out, "catalog has no classes list")
	case !wantHas && gotHas:
		out = append(out, "catalog has a classes list Puppet does not have")
	default:
		out = append(out, diffPairs("class", scalarStrings(wantClasses), scalarStrings(gotClasses))...)
	}
	return out
}

func diffResources(want, got []any) []string {
	wantByRef, wantOrder := indexResources(want)
	gotByRef, gotOrder := indexResources(got)
	var out []string
	for _, ref := range wantOrder {
		w := wantByRef[ref]
		g, ok := gotByRef[ref]
		if !ok {
			out = append(out, fmt.Sprintf("missing resource %s%s", ref, location(w)))
			continue
		}
		out = append(out, diffResource(ref, w, g)...)
	}
	for _, ref := range gotOrder {
		if _, ok := wantByRef[ref]; !ok {
			g := gotByRef[ref]
			out = append(out, fmt.Sprintf("extra resource %s%s%s", ref, location(g), paramSummary(g)))
		}
	}
	return out
}

// indexResources keys resources by their reference Type[title]; a repeated
// reference (never valid in a catalog) gets a #n suffix so it still shows.
func indexResources(list []any) (map[string]map[string]any, []string) {
	byRef := map[string]map[string]any{}
	var order []string
	for _, item := range list {
		r, ok := item.(map[string]any)
		if !ok {
			continue
		}
		ref := fmt.Sprintf("%s[%s]", pyStr(r["type"]), pyStr(r["title"]))
		for n := 2; byRef[ref] != nil; n++ {
			ref = fmt.Sprintf("%s[%s]#%d", pyStr(r["type"]), pyStr(r["title"]), n)
		}
		byRef[ref] = r
		order = append(order, ref)
	}
	return byRef, order
}

func diffResource(ref string, want, got map[string]any) []string {
	var out []string
	if !equalValues(want["exported"], got["exported"]) {
		out = append(out, fmt.Sprintf("%s: exported: expected %s, got %s", ref, show(want["exported"]), show(got["exported"])))
	}
	out = append(out, diffParameters(ref, want["parameters"], got["parameters"])...)
	missingTags, extraTags := setDifference(scalarStrings(want["tags"]), scalarStrings(got["tags"]))
	if len(missingTags) > 0 || len(extraTags) > 0 {
		var parts []string
		if len(missingTags) > 0 {
			parts = append(parts, "missing "+strings.Join(missingTags, ", "))
		}
		if len(extraTags) > 0 {
			parts = append(parts, "extra "+strings.Join(extraTags, ", "))
		}
		out = append(out, fmt.Sprintf("%s: tags: %s", ref, strings.Join(parts, "; ")))
	}
	wf, wfok := want["file"]
	gf, gfok := got["file"]
	wl, wlok := want["line"]
	gl, glok := got["line"]
	if wfok != gfok || wlok != glok || !equalValues(wf, gf) || !equalValues(wl, gl) {
		out = append(out, fmt.Sprintf("%s: declared at %s, Puppet says %s", ref, fileLine(got), fileLine(want)))
	}
	return out
}

func diffParameters(ref string, want, got any) []string {
	wantParams, wok := want.(map[string]any)
	gotParams, gok := got.(map[string]any)
	if !wok || !gok {
		if !equalValues(want, got) {
			return []string{fmt.Sprintf("%s: parameters: expected %s, got %s", ref, show(want), show(got))}
		}
		return nil
	}
	var out []string
	for _, name := range sortedKeys(wantParams) {
		g, ok := gotParams[name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: parameter %s missing (expected %s)", ref, name, show(wantParams[name])))
		case !equalValues(wantParams[name], g):
			out = append(out, fmt.Sprintf("%s: parameter %s: expected %s, got %s", ref, name, show(wantParams[name]), show(g)))
		}
	}
	for _, name := range sortedKeys(gotParams) {
		if _, ok := wantParams[name]; !ok {
			out = append(out, fmt.Sprintf("%s: unexpected parameter %s = %s", ref, name, show(gotParams[name])))
		}
	}
	return out
}

// diffPairs reports the members of want missing from got, then the extras.
func diffPairs(what string, want, got []string) []string {
	missing, extra := setDifference(want, got)
	var out []string
	for _, m := range missing {
		out = append(out, fmt.Sprintf("missing %s %s", what, m))
	}
	for _, e := range extra {
		out = append(out, fmt.Sprintf("extra %s %s", what, e))
	}
	return out
}

func setDifference(want, got []string) (missing, extra []string) {
	gotSet := map[string]bool{}
	for _, g := range got {
		gotSet[g] = true
	}
	wantSet := map[string]bool{}
	for _, w := range want {
		wantSet[w] = true
		if !gotSet[w] {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !wantSet[g] {
			extra = append(extra, g)
		}
	}
	return missing, extra
}

func edgeStrings(v any) []string {
	var out []string
	for _, item := range asList(v) {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			out = append(out, show(item))
			continue
		}
		out = append(out, pyStr(pair[0])+" -> "+pyStr(pair[1]))
	}
	return out
}

func scalarStrings(v any) []string {
	var out []string
	for _, item := range asList(v) {
		out = append(out, pyStr(item))
	}
	return out
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func location(r map[string]any) string {
	if _, ok := r["file"]; !ok {
		if _, ok := r["line"]; !ok {
			return ""
		}
	}
	return " at " + fileLine(r)
}

func fileLine(r map[string]any) string {
	f, fok := r["file"]
	l, lok := r["line"]
	if !fok && !lok {
		return "(no file/line)"
	}
	file, line := "?", "?"
	if fok {
		file = pyStr(f)
	}
	if lok {
		line = pyStr(l)
	}
	return file + ":" + line
}

func paramSummary(r map[string]any) string {
	params, ok := r["parameters"].(map[string]any)
	if !ok || len(params) == 0 {
		return ""
	}
	return " with parameters " + show(params)
}

func show(v any) string {
	return compactJSON(v)
}

func showOptional(v any, present bool) string {
	if !present {
		return "(absent)"
	}
	return show(v)
}

// equalValues compares decoded JSON values. Numbers are equal when they have
// the same kind (integer or float literal, as Puppet's Integer and Float)
// and the same value, whatever their spelling.
func equalValues(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		return ok && equalNumbers(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValues(xv, yv) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	return false
}

func equalNumbers(a, b json.Number) bool {
	aFloat, bFloat := isFloatLiteral(a), isFloatLiteral(b)
	if aFloat != bFloat {
		return false
	}
	if !aFloat {
		x, xok := new(big.Int).SetString(a.String(), 10)
		y, yok := new(big.Int).SetString(b.String(), 10)
		return xok && yok && x.Cmp(y) == 0
	}
	x, xerr := a.Float64()
	y, yerr := b.Float64()
	return xerr == nil && yerr == nil && x == y
}

func isFloatLiteral(n json.Number) bool {
	return strings.ContainsAny(n.String(), ".eE")
}
