package ruby

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// uriObj is what Ruby's URI(s) and URI.parse(s) give for a hierarchical
// URI (scheme://authority/path?query#fragment, or a relative reference):
// its parts as RFC 3986 splits them. Forms the subset does not model
// (opaque URIs such as mailto:, file URIs) are unsupported, so that such a
// function runs in the Ruby helper.
type uriObj struct {
	class                  string // URI::HTTP, URI::HTTPS, URI::FTP, URI::Generic, ...
	scheme, userinfo, host any    // *rstr or nil
	port                   any    // int64 or nil
	path                   string // "" when none
	query, fragment        any    // *rstr or nil
	// text is to_s, "" where the subset does not know it (FTP, whose
	// path Ruby rewrites).
	text string
}

// uriSplit is RFC 3986's regular expression for the parts of a URI
// reference (appendix B).
var uriSplit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$`)
})

var uriScheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`) })

// uriClasses are the URI classes Ruby registers by scheme, with their
// default ports; other schemes are URI::Generic without one.
var uriClasses = map[string]struct {
	class string
	port  int64
}{
	"http": {"URI::HTTP", 80}, "https": {"URI::HTTPS", 443}, "ftp": {"URI::FTP", 21},
	"ldap": {"URI::LDAP", 389}, "ldaps": {"URI::LDAPS", 636}, "ws": {"URI::WS", 80}, "wss": {"URI::WSS", 443},
}

// uriChars tells whether s holds only characters a URI may hold
// (unreserved, reserved and %XX escapes).
func uriChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// parseURI is URI(s) and URI.parse(s).
func (in *interp) parseURI(line int, args []any) (any, error) {
	if len(args) != 1 {
		return nil, in.unsupported(line, "URI.parse with %d arguments", len(args))
	}
	s, ok := args[0].(*rstr)
	if !ok {
		return nil, in.unsupported(line, "URI.parse of %s", className(args[0]))
	}
	if !uriChars(s.s) {
		return nil, in.errorf(line, "URI::InvalidURIError", "bad URI(is not URI?): %s", quoteString(s.s))
	}
	m := uriSplit().FindStringSubmatchIndex(s.s)
	if m == nil {
		return nil, in.unsupported(line, "URI.parse of %s", quoteString(s.s))
	}
	part := func(i int) (string, bool) {
		if m[2*i] < 0 {
			return "", false
		}
		return s.s[m[2*i]:m[2*i+1]], true
	}
	u := &uriObj{class: "URI::Generic"}
	var defaultPort any
	scheme, hasScheme := part(1)
	authority, hasAuthority := part(2)
	u.path, _ = part(3)
	if hasScheme {
		if !uriScheme().MatchString(scheme) || !hasAuthority && !strings.HasPrefix(u.path, "/") {
			// An opaque URI (mailto:a@b) or what Ruby may refuse.
			return nil, in.unsupported(line, "URI.parse of %s", quoteString(s.s))
		}
		scheme = strings.ToLower(scheme)
		if scheme == "file" {
			return nil, in.unsupported(line, "URI.parse of a file URI")
		}
		u.scheme = newStr(scheme)
		if c, ok := uriClasses[scheme]; ok {
			u.class = c.class
			u.port, defaultPort = c.port, c.port
		}
	}
	if strings.ContainsAny(u.path, "[]") {
		return nil, in.unsupported(line, "URI.parse of %s", quoteString(s.s))
	}
	if hasAuthority {
		if ui, rest, ok := strings.Cut(authority, "@"); ok {
			u.userinfo = newStr(ui)
			authority = rest
		}
		host, port := authority, ""
		if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.HasSuffix(authority, "]") {
			host, port = authority[:i], authority[i+1:]
		}
		if strings.ContainsAny(host, "@") || strings.ContainsAny(host, "[]") && !(strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]")) {
			return nil, in.unsupported(line, "URI.parse of %s", quoteString(s.s))
		}
		if port != "" {
			n, err := strconv.ParseInt(port, 10, 64)
			if err != nil || n < 0 {
				return nil, in.unsupported(line, "URI.parse of %s", quoteString(s.s))
			}
			u.port = n
		}
		if host != "" || hasScheme {
			u.host = newStr(host)
		}
	}
	if q, ok := part(4); ok {
		u.query = newStr(q)
	}
	if f, ok := part(5); ok {
		u.fragment = newStr(f)
	}
	if u.class != "URI::FTP" {
		var b strings.Builder
		if hasScheme {
			b.WriteString(scheme + ":")
		}
		if hasAuthority {
			b.WriteString("//")
			if ui, ok := u.userinfo.(*rstr); ok {
				b.WriteString(ui.s + "@")
			}
			if h, ok := u.host.(*rstr); ok {
				b.WriteString(h.s)
			}
			if u.port != nil && u.port != defaultPort {
				b.WriteString(":" + strconv.FormatInt(u.port.(int64), 10))
			}
		}
		b.WriteString(u.path)
		if q, ok := u.query.(*rstr); ok {
			b.WriteString("?" + q.s)
		}
		if f, ok := u.fragment.(*rstr); ok {
			b.WriteString("#" + f.s)
		}
		u.text = b.String()
	}
	return u, nil
}

// uriMethod implements the readers of a URI.
func (in *interp) uriMethod(line int, u *uriObj, name string, args []any) (any, bool, error) {
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "scheme":
		return u.scheme, true, nil
	case "host":
		return u.host, true, nil
	case "hostname":
		h, ok := u.host.(*rstr)
		if !ok {
			return nil, true, nil
		}
		return newStr(strings.TrimSuffix(strings.TrimPrefix(h.s, "["), "]")), true, nil
	case "port":
		return u.port, true, nil
	case "path":
		if u.class == "URI::FTP" {
			return nil, true, in.unsupported(line, "the path of an FTP URI")
		}
		return newStr(u.path), true, nil
	case "to_s":
		s, err := in.uriText(line, u)
		if err != nil {
			return nil, true, err
		}
		return newStr(s), true, nil
	case "query":
		return u.query, true, nil
	case "fragment":
		return u.fragment, true, nil
	case "userinfo":
		return u.userinfo, true, nil
	case "user", "password":
		ui, ok := u.userinfo.(*rstr)
		if !ok {
			return nil, true, nil
		}
		user, pass, hasPass := strings.Cut(ui.s, ":")
		if name == "user" {
			return newStr(user), true, nil
		}
		if !hasPass {
			return nil, true, nil
		}
		return newStr(pass), true, nil
	case "opaque":
		return nil, true, nil
	case "absolute?", "absolute":
		return u.scheme != nil, true, nil
	case "relative?":
		return u.scheme == nil, true, nil
	}
	return nil, false, nil
}

// uriText is a URI's to_s.
func (in *interp) uriText(line int, u *uriObj) (string, error) {
	if u.text == "" && u.class == "URI::FTP" {
		return "", in.unsupported(line, "to_s of an FTP URI")
	}
	return u.text, nil
}
