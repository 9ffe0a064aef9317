package compiler

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// nodeMatch is the node definition chosen for a node and the captures of
// its regex, if a regex matched.
type nodeMatch struct {
	node     *environment.NodeDef
	name     string // the class name Puppet gives the node definition
	captures []value.Value
}

// matchNode finds the node definition for a node, as Puppet does: for each
// candidate name (the certname only, unless strict hostname checking is off)
// an exact name (case-insensitive), else the first regex in definition
// order; finally `default`.
func matchNode(nodes []*environment.NodeDef, certname string, facts *value.Hash, strict bool) (*nodeMatch, error) {
	if len(nodes) == 0 {
		return nil, nil
	}
	names := []string{certname}
	if !strict {
		names = fuzzyNames(certname, facts)
	}
	for _, name := range names {
		lname := strings.ToLower(name)
		for _, n := range nodes {
			for _, x := range n.Def.Names {
				switch x := x.(type) {
				case *syntax.StringLit:
					if strings.ToLower(x.Value) == lname {
						return &nodeMatch{node: n, name: strings.ToLower(x.Value)}, nil
					}
				case *syntax.QualifiedName:
					if strings.ToLower(x.Name) == lname {
						return &nodeMatch{node: n, name: strings.ToLower(x.Name)}, nil
					}
				}
			}
		}
		for _, n := range nodes {
			for _, x := range n.Def.Names {
				rx, ok := x.(*syntax.RegexLit)
				if !ok {
					continue
				}
				re, err := value.NewRegexp(rx.Pattern)
				if err != nil {
					return nil, fmt.Errorf("invalid node regex /%s/: %v", rx.Pattern, err)
				}
				if m := re.FindStringSubmatch(name); m != nil {
					caps := make([]value.Value, len(m))
					for i, s := range m {
						caps[i] = value.String(s)
					}
					return &nodeMatch{node: n, name: regexNodeName(rx.Pattern), captures: caps}, nil
				}
			}
		}
	}
	for _, n := range nodes {
		for _, x := range n.Def.Names {
			if _, ok := x.(*syntax.DefaultLit); ok {
				return &nodeMatch{node: n, name: "default"}, nil
			}
			if s, ok := x.(*syntax.StringLit); ok && s.Value == "default" {
				return &nodeMatch{node: n, name: "default"}, nil
			}
		}
	}
	return nil, fmt.Errorf("Could not find node statement with name 'default' or '%s'", strings.Join(names, ", "))
}

var nonNodeNameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^-\w:.]`) })

// regexNodeName is the class name Puppet gives a regex node definition.
func regexNodeName(src string) string {
	n := nonNodeNameChars().ReplaceAllString(strings.ToLower(src), "")
	return "__node_regexp__" + strings.TrimLeft(n, ".")
}

// fuzzyNames is Puppet 6's candidate list when strict_hostname_checking is
// off: the certname, its dotted prefixes longest first, then those of the
// fqdn fact (or hostname.domain).
func fuzzyNames(certname string, facts *value.Hash) []string {
	var names []string
	add := func(s string) {
		for _, n := range names {
			if n == s {
				return
			}
		}
		names = append(names, s)
	}
	add(certname)
	for _, n := range dottedPrefixes(certname) {
		add(n)
	}
	fqdn := factString(facts, "fqdn")
	if fqdn == "" {
		h, d := factString(facts, "hostname"), factString(facts, "domain")
		if h != "" && d != "" {
			fqdn = h + "." + d
		}
	}
	if fqdn != "" {
		add(fqdn)
		for _, n := range dottedPrefixes(fqdn) {
			add(n)
		}
	}
	return names
}

func dottedPrefixes(name string) []string {
	var out []string
	for {
		i := strings.LastIndexByte(name, '.')
		if i <= 0 {
			return out
		}
		name = name[:i]
		out = append(out, name)
	}
}

func factString(facts *value.Hash, name string) string {
	if facts == nil {
		return ""
	}
	v, ok := facts.GetString(name)
	if !ok {
		return ""
	}
	s, _ := v.(value.String)
	return string(s)
}

// MatchNodeName returns the name of the node definition that would be used
// for node ("" when the main manifest has no node definitions).
func MatchNodeName(env *Environment, node string, facts *value.Hash, strict bool) (string, error) {
	m, err := matchNode(env.Nodes, node, facts, strict)
	if err != nil || m == nil {
		return "", err
	}
	return m.name, nil
}
