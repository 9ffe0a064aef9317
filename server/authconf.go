package server

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/hocon"
	"github.com/marionette-dev/marionette/value"
)

// puppetserver's auth.conf (trapperkeeper-authorization, version 1): the
// "authorization" section's rules, each a match-request (a path prefix or
// a regex, methods, query parameters) and who it allows or denies. The
// rules apply in sort-order, then name; the first that matches decides,
// and a request no rule matches is denied.

// principal is one entry of a rule's allow or deny list.
type principal struct {
	// name is a certname, "*" (any certificate), or a "*.domain" glob;
	// $N are the match's regex groups.
	name string
	// re matches the certname ("/regex/").
	re *regexp.Regexp
	// extensions must all be on the certificate, each with one of its
	// values (a Puppet short name or a dotted OID).
	extensions map[string][]string
}

// matches reports whether the authenticated id is the principal; groups
// are the path regex's submatches.
func (p *principal) matches(id *identity, groups []string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(id.certname)
	case p.extensions != nil:
		for name, want := range p.extensions {
			got, ok := id.extension(name)
			if !ok {
				got, ok = id.extensionByOID(name)
			}
			if !ok || !containsString(want, got) {
				return false
			}
		}
		return true
	}
	name := expandGroups(p.name, groups)
	switch {
	case name == "*":
		return true
	case strings.HasPrefix(name, "*."):
		return strings.HasSuffix(strings.ToLower(id.certname), strings.ToLower(name[1:]))
	}
	return strings.EqualFold(name, id.certname)
}

// expandGroups replaces $1..$9 by the regex groups.
func expandGroups(s string, groups []string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && s[i+1] >= '1' && s[i+1] <= '9' {
			if n := int(s[i+1] - '0'); n < len(groups) {
				b.WriteString(groups[n])
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// AuthConfPaths are where puppetserver's auth.conf is looked for, first
// found wins, for a Puppet confdir: the puppetserver packages' conf.d
// beside it (/etc/puppetlabs/puppetserver for /etc/puppetlabs/puppet) and
// inside it (Debian's /etc/puppet/puppetserver).
func AuthConfPaths(confdir string) []string {
	return []string{
		filepath.Join(filepath.Dir(confdir), "puppetserver", "conf.d", "auth.conf"),
		filepath.Join(confdir, "puppetserver", "conf.d", "auth.conf"),
	}
}

// ReadAuthConf reads puppetserver's auth.conf at path into rules, sorted
// as they apply. Its errors name the file, and the line of a syntax error.
func ReadAuthConf(path string) ([]rule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseAuthConf(path, string(data))
}

func parseAuthConf(file, text string) ([]rule, error) {
	doc, err := hocon.Parse(text)
	if err != nil {
		var he *hocon.Error
		if errors.As(err, &he) {
			return nil, fmt.Errorf("%s:%d: %s", file, he.Line, he.Msg)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", file, fmt.Sprintf(format, args...))
	}
	root, _ := doc.(*value.Hash)
	authz, ok := hashGet(root, "authorization").(*value.Hash)
	if !ok {
		return nil, fail("no authorization section")
	}
	for i := 0; i < authz.Len(); i++ {
		k, v := authz.At(i)
		switch value.ToString(k) {
		case "version":
			if n, ok := v.(value.Integer); !ok || n != 1 {
				return nil, fail("authorization.version %s: only version 1 is supported", value.ToString(v))
			}
		case "rules":
		case "allow-header-cert-info":
			if b, ok := v.(value.Boolean); ok && bool(b) {
				return nil, fail("authorization.allow-header-cert-info = true is not supported: terminate TLS at marionette serve")
			}
		default:
			return nil, fail("authorization.%s is not supported", value.ToString(k))
		}
	}
	list, ok := hashGet(authz, "rules").(value.Array)
	if !ok {
		return nil, fail("authorization.rules must be an array of rules")
	}
	rules := make([]rule, 0, len(list))
	for i, rv := range list {
		h, ok := rv.(*value.Hash)
		if !ok {
			return nil, fail("rule %d is not an object", i+1)
		}
		ru, err := parseAuthRule(h)
		if err != nil {
			name := ru.name
			if name == "" {
				name = "#" + strconv.Itoa(i+1)
			}
			return nil, fail("rule %s: %v", name, err)
		}
		rules = append(rules, ru)
	}
	sort.SliceStable(rules, func(i, j int) bool {
		if rules[i].sortOrder != rules[j].sortOrder {
			return rules[i].sortOrder < rules[j].sortOrder
		}
		return rules[i].name < rules[j].name
	})
	return rules, nil
}

func hashGet(h *value.Hash, key string) value.Value {
	if h == nil {
		return nil
	}
	v, _ := h.GetString(key)
	return v
}

// stringList reads a string or an array of strings.
func stringList(v value.Value) ([]string, bool) {
	switch v := v.(type) {
	case value.String:
		return []string{string(v)}, true
	case value.Array:
		out := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(value.String)
			if !ok {
				return nil, false
			}
			out = append(out, string(s))
		}
		return out, true
	}
	return nil, false
}

func parseAuthRule(h *value.Hash) (rule, error) {
	ru := rule{custom: true, sortOrder: 500}
	if n, ok := hashGet(h, "name").(value.String); ok {
		ru.name = string(n)
	} else {
		return ru, errors.New("name is required")
	}
	for i := 0; i < h.Len(); i++ {
		k, _ := h.At(i)
		switch value.ToString(k) {
		case "name", "match-request", "allow", "deny", "allow-unauthenticated", "sort-order":
		default:
			return ru, fmt.Errorf("%s is not supported", value.ToString(k))
		}
	}
	if v := hashGet(h, "sort-order"); v != nil {
		n, ok := v.(value.Integer)
		if !ok || n < 1 || n > 999 {
			return ru, fmt.Errorf("sort-order must be a number from 1 to 999, not %s", value.ToString(v))
		}
		ru.sortOrder = int(n)
	}
	mr, ok := hashGet(h, "match-request").(*value.Hash)
	if !ok {
		return ru, errors.New("match-request is required")
	}
	path, ok := hashGet(mr, "path").(value.String)
	if !ok || path == "" {
		return ru, errors.New("match-request.path is required")
	}
	switch t := hashGet(mr, "type"); {
	case t == nil || value.ToString(t) == "path":
		ru.prefix = string(path)
	case value.ToString(t) == "regex":
		re, err := regexp.Compile(string(path))
		if err != nil {
			return ru, fmt.Errorf("match-request.path %q: %v", path, err)
		}
		ru.re = re
	default:
		return ru, fmt.Errorf("match-request.type %q: want path or regex", value.ToString(t))
	}
	if m := hashGet(mr, "method"); m != nil {
		methods, ok := stringList(m)
		if !ok {
			return ru, errors.New("match-request.method must be a method or a list of methods")
		}
		for _, m := range methods {
			switch m = strings.ToLower(m); m {
			case "get", "post", "put", "delete", "head":
				ru.methods += m + " "
			default:
				return ru, fmt.Errorf("match-request.method %q is no HTTP method", m)
			}
		}
	}
	if q := hashGet(mr, "query-params"); q != nil {
		qh, ok := q.(*value.Hash)
		if !ok {
			return ru, errors.New("match-request.query-params must be an object")
		}
		ru.query = url.Values{}
		for i := 0; i < qh.Len(); i++ {
			k, v := qh.At(i)
			vals, ok := stringList(v)
			if !ok {
				return ru, fmt.Errorf("match-request.query-params.%s must be a string or a list of strings", value.ToString(k))
			}
			ru.query[value.ToString(k)] = vals
		}
	}
	for i := 0; i < mr.Len(); i++ {
		k, _ := mr.At(i)
		switch value.ToString(k) {
		case "path", "type", "method", "query-params":
		default:
			return ru, fmt.Errorf("match-request.%s is not supported", value.ToString(k))
		}
	}
	if u := hashGet(h, "allow-unauthenticated"); u != nil {
		b, ok := u.(value.Boolean)
		if !ok {
			return ru, errors.New("allow-unauthenticated must be true or false")
		}
		ru.allowUnauth = bool(b)
	}
	var err error
	if ru.allows, err = principals(hashGet(h, "allow")); err != nil {
		return ru, fmt.Errorf("allow: %v", err)
	}
	if ru.denies, err = principals(hashGet(h, "deny")); err != nil {
		return ru, fmt.Errorf("deny: %v", err)
	}
	switch {
	case ru.allowUnauth && (ru.allows != nil || ru.denies != nil):
		return ru, errors.New("allow-unauthenticated cannot be combined with allow or deny")
	case !ru.allowUnauth && ru.allows == nil && ru.denies == nil:
		return ru, errors.New("allow, deny or allow-unauthenticated is required")
	}
	return ru, nil
}

// principals reads an allow or deny value: one entry or a list, each a
// name, a /regex/, or an object of certname or extensions.
func principals(v value.Value) ([]principal, error) {
	if v == nil {
		return nil, nil
	}
	entries, ok := v.(value.Array)
	if !ok {
		entries = value.Array{v}
	}
	out := []principal{}
	for _, e := range entries {
		switch e := e.(type) {
		case value.String:
			s := string(e)
			if len(s) >= 2 && strings.HasPrefix(s, "/") && strings.HasSuffix(s, "/") {
				re, err := regexp.Compile(s[1 : len(s)-1])
				if err != nil {
					return nil, fmt.Errorf("%s: %v", s, err)
				}
				out = append(out, principal{re: re})
				continue
			}
			if s == "" {
				return nil, errors.New("an empty name")
			}
			out = append(out, principal{name: s})
		case *value.Hash:
			for i := 0; i < e.Len(); i++ {
				k, v := e.At(i)
				switch value.ToString(k) {
				case "certname":
					s, ok := v.(value.String)
					if !ok {
						return nil, errors.New("certname must be a string")
					}
					out = append(out, principal{name: string(s)})
				case "extensions":
					xh, ok := v.(*value.Hash)
					if !ok || xh.Len() == 0 {
						return nil, errors.New("extensions must be an object of extension names and values")
					}
					p := principal{extensions: map[string][]string{}}
					for j := 0; j < xh.Len(); j++ {
						xk, xv := xh.At(j)
						vals, ok := stringList(xv)
						if !ok {
							return nil, fmt.Errorf("extensions.%s must be a string or a list of strings", value.ToString(xk))
						}
						p.extensions[value.ToString(xk)] = vals
					}
					out = append(out, p)
				default:
					return nil, fmt.Errorf("%s is not supported (certname, extensions)", value.ToString(k))
				}
			}
		default:
			return nil, fmt.Errorf("%s: want a name or an object", value.ToString(e))
		}
	}
	return out, nil
}
