package rubytype

import (
	"fmt"
	"regexp"

	"github.com/marionette-dev/marionette/ruby"
)

// Types written with the Resource API (Puppet::ResourceApi.register_type)
// declare their schema as one hash literal: the type's name, its
// attributes with a behaviour each, and optional title patterns with
// named captures. This file reads that literal.

// resourceAPIType reads the register_type call at index i and returns the
// index after it.
func (sc *scanner) resourceAPIType(i int) int {
	c := sc.parseCall(i)
	args := sc.keywordArgs(c.argStart, c.argEnd)
	nameRange, ok := args["name"]
	if !ok || nameRange[1]-nameRange[0] != 1 {
		return c.next
	}
	nameTok := sc.toks[nameRange[0]]
	if (nameTok.Kind != ruby.String && nameTok.Kind != ruby.Symbol) || nameTok.Interpolated {
		return c.next
	}
	d := sc.typeDef(nameTok.Text, false)
	d.Extension = false
	attrs, ok := args["attributes"]
	if !ok || !sc.tok(attrs[0]).Is(ruby.Operator, "{") {
		sc.problem(d, nameTok, "register_type without a literal attributes hash")
		return c.next
	}
	for _, e := range sc.hashEntries(attrs[0]+1, sc.match[attrs[0]]) {
		name, opts := e.key, e.value
		behaviour := ""
		if b, ok := sc.keywordArgsOf(opts)["behaviour"]; ok && b[1]-b[0] == 1 && sc.toks[b[0]].Kind == ruby.Symbol {
			behaviour = sc.toks[b[0]].Text
		}
		switch {
		case name == "ensure":
			d.AddProperty(name)
		case behaviour == "namevar":
			d.AddParam(name, true)
		case behaviour == "parameter":
			d.AddParam(name, false)
		default: // properties, read_only and init_only ones included
			d.AddProperty(name)
		}
	}
	if tp, ok := args["title_patterns"]; ok {
		d.TitlePatterns, d.TitlePatternsUnknown = sc.resourceAPITitlePatterns(tp)
	}
	return c.next
}

// hashEntry is one key of a literal hash and the tokens of its value.
type hashEntry struct {
	key   string
	value [2]int
}

// keywordArgs maps the keys of the keyword arguments (or hash elements)
// in tokens [a, b) to their value ranges.
func (sc *scanner) keywordArgs(a, b int) map[string][2]int {
	out := map[string][2]int{}
	for _, e := range sc.hashEntries(a, b) {
		out[e.key] = e.value
	}
	return out
}

// keywordArgsOf is keywordArgs of a value that is a literal hash.
func (sc *scanner) keywordArgsOf(r [2]int) map[string][2]int {
	if !sc.tok(r[0]).Is(ruby.Operator, "{") || sc.match[r[0]] != r[1]-1 {
		return nil
	}
	return sc.keywordArgs(r[0]+1, r[1]-1)
}

func (sc *scanner) hashEntries(a, b int) []hashEntry {
	var out []hashEntry
	start := a
	flush := func(end int) {
		if end <= start {
			return
		}
		t := sc.toks[start]
		switch {
		case t.Kind == ruby.Label:
			out = append(out, hashEntry{t.Text, [2]int{start + 1, end}})
		case (t.Kind == ruby.Symbol || t.Kind == ruby.String) && sc.tok(start+1).Is(ruby.Operator, "=>"):
			out = append(out, hashEntry{t.Text, [2]int{start + 2, end}})
		}
	}
	for j := a; j < b; j++ {
		if sc.toks[j].Is(ruby.Operator, ",") {
			flush(j)
			start = j + 1
			continue
		}
		if m := sc.match[j]; m > 0 {
			j = m
		}
	}
	flush(b)
	return out
}

// resourceAPITitlePatterns reads [{ pattern: %r{...}, desc: ... }, ...]:
// each named capture sets the attribute of its name.
func (sc *scanner) resourceAPITitlePatterns(r [2]int) ([]TitlePattern, string) {
	if !sc.tok(r[0]).Is(ruby.Operator, "[") || sc.match[r[0]] != r[1]-1 {
		return nil, "title_patterns is not a literal array"
	}
	var pats []TitlePattern
	for _, entry := range sc.elements(r[0]) {
		p, ok := sc.keywordArgsOf(entry)["pattern"]
		if !ok || p[1]-p[0] != 1 || sc.toks[p[0]].Kind != ruby.Regexp || sc.toks[p[0]].Interpolated {
			return nil, "title pattern is not a regexp literal"
		}
		re := sc.toks[p[0]]
		goRe, err := rubyRegexpToGo(re.Text, re.Flags)
		if err != nil {
			return nil, err.Error()
		}
		compiled, err := regexp.Compile(goRe)
		if err != nil {
			return nil, fmt.Sprintf("title pattern %s: %v", re.Text, err)
		}
		var attrs []string
		for _, name := range compiled.SubexpNames()[1:] {
			attrs = append(attrs, name)
		}
		pats = append(pats, TitlePattern{Regexp: goRe, Attributes: attrs})
	}
	return pats, ""
}
