package catalogdiff

import (
	"fmt"
	"regexp"
	"strings"
)

// IgnoreRule leaves resources, or some of their parameters, out of a
// comparison. Each part is a pattern ("" matches anything): * matches
// any run of characters, ? one character; types match without regard to
// case. A rule without Param leaves out whole resources; with Param, only
// the parameters (or attributes: tags, file, line, ...) it matches.
type IgnoreRule struct {
	Type, Title, Param string

	typeRE, titleRE, paramRE *regexp.Regexp
}

// ParseIgnoreRule reads the --ignore syntax: Type[Title], Type[Title]::param,
// Type, or ::param (any resource), each part a pattern.
func ParseIgnoreRule(s string) (IgnoreRule, error) {
	var r IgnoreRule
	rest := s
	// Type names hold "::" too: a parameter follows the title's "]" or
	// stands alone.
	if p, ok := strings.CutPrefix(s, "::"); ok {
		r.Param, rest = p, ""
	} else if i := strings.LastIndex(s, "]::"); i >= 0 {
		r.Param, rest = s[i+3:], s[:i+1]
	}
	if strings.HasSuffix(s, "::") {
		return r, fmt.Errorf("ignore rule %q: empty parameter after ::", s)
	}
	if open := strings.IndexByte(rest, '['); open >= 0 {
		if !strings.HasSuffix(rest, "]") {
			return r, fmt.Errorf("ignore rule %q: want Type[Title], Type[Title]::param, Type or ::param", s)
		}
		r.Type, r.Title = rest[:open], rest[open+1:len(rest)-1]
	} else {
		r.Type = rest
	}
	if r.Type == "" && r.Title == "" && r.Param == "" {
		return r, fmt.Errorf("ignore rule %q matches everything", s)
	}
	return r.compiled(), nil
}

// NewIgnoreRule is the rule of three patterns ("" matches anything).
func NewIgnoreRule(typ, title, param string) IgnoreRule {
	return IgnoreRule{Type: typ, Title: title, Param: param}.compiled()
}

// compiled is the rule with its patterns compiled: rules are matched only
// through their compiled patterns, so build them with NewIgnoreRule or
// ParseIgnoreRule.
func (r IgnoreRule) compiled() IgnoreRule {
	r.typeRE = globRE(r.Type, true)
	r.titleRE = globRE(r.Title, false)
	r.paramRE = globRE(r.Param, false)
	return r
}

// globRE compiles a pattern of * and ?; nil for "" (anything).
func globRE(p string, foldCase bool) *regexp.Regexp {
	if p == "" {
		return nil
	}
	var b strings.Builder
	if foldCase {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	for _, part := range strings.SplitAfter(p, "") {
		switch part {
		case "*":
			b.WriteString("(?s:.*)")
		case "?":
			b.WriteString("(?s:.)")
		default:
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func matches(re *regexp.Regexp, s string) bool { return re == nil || re.MatchString(s) }

// matchesResource reports whether the rule's type and title match ref.
func (r *IgnoreRule) matchesResource(ref Ref) bool {
	return matches(r.typeRE, ref.Type) && matches(r.titleRE, ref.Title)
}

// ignoresResource reports whether a rule leaves out the whole resource.
func (o *Options) ignoresResource(ref Ref) bool {
	for i := range o.Ignore {
		r := &o.Ignore[i]
		if r.Param == "" && r.matchesResource(ref) {
			return true
		}
	}
	return false
}

// ignoresParam reports whether a rule leaves out parameter or attribute
// name of the resource.
func (o *Options) ignoresParam(ref Ref, name string) bool {
	for i := range o.Ignore {
		r := &o.Ignore[i]
		if r.Param != "" && r.matchesResource(ref) {
			if matches(r.paramRE, name) {
				return true
			}
		}
	}
	return false
}

// keepEdges leaves out the edges to or from a resource a rule leaves out.
func (o *Options) keepEdges(edges []Edge) []Edge {
	if len(o.Ignore) == 0 {
		return edges
	}
	out := edges[:0]
	for _, e := range edges {
		src, srcOK := parseRef(e.Source)
		dst, dstOK := parseRef(e.Target)
		if srcOK && o.ignoresResource(src) || dstOK && o.ignoresResource(dst) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// parseRef reads Type[Title].
func parseRef(s string) (Ref, bool) {
	open := strings.IndexByte(s, '[')
	if open <= 0 || !strings.HasSuffix(s, "]") {
		return Ref{}, false
	}
	return Ref{Type: s[:open], Title: s[open+1 : len(s)-1]}, true
}
