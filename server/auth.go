package server

import (
	"encoding/asn1"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/value"
)

// identity is who sent a request: the verified client certificate's
// subject CN and Puppet extensions, or nobody.
type identity struct {
	authenticated bool
	certname      string
	// extensions by Puppet's short name where Puppet has one, else by
	// dotted OID, in certificate order.
	extNames  []string
	extValues []string
	extOIDs   []string
}

// extensionByOID is the value of the extension of dotted OID oid.
func (id *identity) extensionByOID(oid string) (string, bool) {
	for i, o := range id.extOIDs {
		if o == oid {
			return id.extValues[i], true
		}
	}
	return "", false
}

func (id *identity) extension(name string) (string, bool) {
	for i, n := range id.extNames {
		if n == name {
			return id.extValues[i], true
		}
	}
	return "", false
}

// trustedExtensions is $trusted['extensions'].
func (id *identity) trustedExtensions() *value.Hash {
	if len(id.extNames) == 0 {
		return nil
	}
	kv := make([]value.Value, 0, 2*len(id.extNames))
	for i, n := range id.extNames {
		// Puppet 7 knows pp_cli_auth by OID only.
		if n == "pp_cli_auth" {
			n = oidCLIAuth
		}
		kv = append(kv, value.String(n), value.String(id.extValues[i]))
	}
	return value.NewHash(kv...)
}

// requestIdentity reads the client certificate of r. The TLS layer has
// verified any certificate it lets through (VerifyClientCertIfGiven).
func requestIdentity(r *http.Request) *identity {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || len(r.TLS.VerifiedChains) == 0 {
		return &identity{}
	}
	c := r.TLS.PeerCertificates[0]
	id := &identity{authenticated: true, certname: ca.FirstCommonName(c.Subject)}
	for _, e := range c.Extensions {
		name, ok := puppetExtension(e.Id)
		if !ok {
			continue
		}
		id.extNames = append(id.extNames, name)
		id.extOIDs = append(id.extOIDs, e.Id.String())
		id.extValues = append(id.extValues, extensionValue(e.Value))
	}
	return id
}

// Puppet's certificate extension arcs: registered (ppRegCertExt), private
// (ppPrivCertExt) and authorization (ppAuthCertExt) extensions become
// $trusted['extensions'].
const (
	arcRegCertExt  = "1.3.6.1.4.1.34380.1.1."
	arcPrivCertExt = "1.3.6.1.4.1.34380.1.2."
	arcAuthCertExt = "1.3.6.1.4.1.34380.1.3."
	oidCLIAuth     = arcAuthCertExt + "39"
)

// puppetExtension names a Puppet extension OID; ok is false for an OID
// outside Puppet's arcs.
func puppetExtension(oid asn1.ObjectIdentifier) (string, bool) {
	s := oid.String()
	switch {
	case strings.HasPrefix(s, arcRegCertExt):
		// Puppet's short names of ppRegCertExt.N, index N-1.
		names := [...]string{
			"pp_uuid", "pp_instance_id", "pp_image_name", "pp_preshared_key",
			"pp_cost_center", "pp_product", "pp_project", "pp_application",
			"pp_service", "pp_employee", "pp_created_by", "pp_environment",
			"pp_role", "pp_software_version", "pp_department", "pp_cluster",
			"pp_provisioner", "pp_region", "pp_datacenter", "pp_zone",
			"pp_network", "pp_securitypolicy", "pp_cloudplatform", "pp_apptier",
			"pp_hostname", "pp_owner",
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(s, arcRegCertExt)); err == nil && n >= 1 && n <= len(names) {
			return names[n-1], true
		}
		return s, true
	case strings.HasPrefix(s, arcPrivCertExt):
		return s, true
	case strings.HasPrefix(s, arcAuthCertExt):
		switch s {
		case arcAuthCertExt + "1":
			return "pp_authorization", true
		case arcAuthCertExt + "13":
			return "pp_auth_role", true
		case oidCLIAuth:
			return "pp_cli_auth", true
		}
		return s, true
	}
	return "", false
}

// extensionValue decodes an extension's DER string value; a value that is
// no ASN.1 string is taken as raw bytes, as Puppet does for old
// certificates.
func extensionValue(der []byte) string {
	var raw asn1.RawValue
	if rest, err := asn1.Unmarshal(der, &raw); err == nil && len(rest) == 0 && raw.Class == asn1.ClassUniversal && !raw.IsCompound {
		if utf8.Valid(raw.Bytes) {
			return string(raw.Bytes)
		}
	}
	return strings.ToValidUTF8(string(der), "\uFFFD")
}

// allow is who a rule lets through.
type allow int

const (
	allowNobody          allow = iota
	allowUnauthenticated       // anyone, certificate or not
	allowAnyCert               // any verified certificate ("*")
	allowCapture               // the certificate named by the path ("$1")
	allowAdmin                 // pp_cli_auth=true or Config.AdminCertnames
)

// rule is one rule of puppetserver's auth.conf: built in (the default
// rules) or read from an auth.conf (custom).
type rule struct {
	name    string
	prefix  string // path match: the path starts with prefix
	capture string // regex ^capture([^/]+)$ match when prefix is ""
	methods string // space-separated lower-case methods; "" any
	allow   allow

	// An auth.conf rule: a regex path match (when prefix is ""), query
	// parameters that must each have one of their values, and its
	// principals.
	custom      bool
	sortOrder   int
	re          *regexp.Regexp
	query       url.Values
	allowUnauth bool
	allows      []principal
	denies      []principal
}

// defaultRules are puppetserver's default auth.conf rules, first match
// wins; the last denies everything.
func defaultRules() []rule {
	return []rule{
		{name: "puppetlabs v3 catalog from agents", capture: "/puppet/v3/catalog/", methods: "get post", allow: allowCapture},
		{name: "puppetlabs v4 catalog for services", prefix: "/puppet/v4/catalog", methods: "post", allow: allowAdmin},
		{name: "puppetlabs certificate", prefix: "/puppet-ca/v1/certificate/", methods: "get", allow: allowUnauthenticated},
		{name: "puppetlabs crl", prefix: "/puppet-ca/v1/certificate_revocation_list/ca", methods: "get", allow: allowUnauthenticated},
		{name: "puppetlabs csr", prefix: "/puppet-ca/v1/certificate_request", methods: "get put", allow: allowUnauthenticated},
		{name: "puppetlabs cert status", prefix: "/puppet-ca/v1/certificate_status", methods: "get put delete", allow: allowAdmin},
		{name: "puppetlabs cert statuses", prefix: "/puppet-ca/v1/certificate_statuses", methods: "get", allow: allowAdmin},
		{name: "puppetlabs CA cert and CRL expirations", prefix: "/puppet-ca/v1/expirations", methods: "get", allow: allowAnyCert},
		{name: "puppetlabs status simple", prefix: "/status/v1/simple", methods: "get", allow: allowUnauthenticated},
		{name: "puppetlabs status service", prefix: "/status/v1/services", methods: "get", allow: allowUnauthenticated},
		{name: "puppetlabs environments", prefix: "/puppet/v3/environments", methods: "get", allow: allowAnyCert},
		{name: "puppetlabs file content", prefix: "/puppet/v3/file_content", methods: "get post", allow: allowAnyCert},
		{name: "puppetlabs file metadata", prefix: "/puppet/v3/file_metadata", methods: "get post", allow: allowAnyCert},
		{name: "puppetlabs environment classes", prefix: "/puppet/v3/environment_classes", methods: "get", allow: allowAnyCert},
		{name: "puppetlabs environment modules", prefix: "/puppet/v3/environment_modules", methods: "get", allow: allowAnyCert},
		{name: "puppetlabs node", capture: "/puppet/v3/node/", methods: "get", allow: allowCapture},
		{name: "puppetlabs report", capture: "/puppet/v3/report/", methods: "put", allow: allowCapture},
		{name: "puppetlabs facts", capture: "/puppet/v3/facts/", methods: "put", allow: allowCapture},
		marionetteRules()[0], marionetteRules()[1], adminRule(),
		{name: "puppetlabs deny all", prefix: "/", allow: allowNobody},
	}
}

// marionetteRules are rules of marionette's own endpoints, which come
// before an auth.conf's rules too.
func marionetteRules() []rule {
	return []rule{
		// Prometheus metrics, open like the status API (counts and
		// timings, no node names).
		{name: "marionette metrics", prefix: "/metrics", methods: "get", allow: allowUnauthenticated},
		{name: "marionette pprof", prefix: pprofPrefix, methods: "get post", allow: allowAdmin},
	}
}

// adminRule authorizes puppetserver's admin API without an auth.conf. With
// one, its rules decide, as puppetserver's do when puppetserver.conf has
// no puppet-admin section (a site's auth.conf without an admin rule denies
// the admin API even to the server's own certificate).
func adminRule() rule {
	return rule{name: "puppet admin environment cache", prefix: "/puppet-admin-api/v1/environment-cache", methods: "delete", allow: allowAdmin}
}

// authRules are the rules of the auth.conf at path, after marionette's
// own; "" is puppetserver's default rules.
func authRules(path string) ([]rule, error) {
	if path == "" {
		return defaultRules(), nil
	}
	custom, err := ReadAuthConf(path)
	if err != nil {
		return nil, err
	}
	return append(marionetteRules(), custom...), nil
}

// match reports whether the rule applies to the request, and a regex
// rule's groups (the whole match first).
func (ru *rule) match(method, path string, query url.Values) ([]string, bool) {
	if ru.methods != "" && !containsWord(ru.methods, strings.ToLower(method)) {
		return nil, false
	}
	for k, want := range ru.query {
		found := false
		for _, v := range query[k] {
			if containsString(want, v) {
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	switch {
	case ru.prefix != "":
		return nil, strings.HasPrefix(path, ru.prefix)
	case ru.re != nil:
		groups := ru.re.FindStringSubmatch(path)
		return groups, groups != nil
	}
	name, ok := strings.CutPrefix(path, ru.capture)
	if !ok || name == "" || strings.Contains(name, "/") {
		return nil, false
	}
	return []string{path, name}, true
}

// allows reports whether an auth.conf rule lets id through: deny wins
// over allow; only allow-unauthenticated lets a request without a
// certificate through.
func (ru *rule) allowsCustom(id *identity, groups []string) bool {
	if ru.allowUnauth {
		return true
	}
	if !id.authenticated {
		return false
	}
	for i := range ru.denies {
		if ru.denies[i].matches(id, groups) {
			return false
		}
	}
	for i := range ru.allows {
		if ru.allows[i].matches(id, groups) {
			return true
		}
	}
	return false
}

func containsWord(list, w string) bool {
	for _, x := range strings.Fields(list) {
		if x == w {
			return true
		}
	}
	return false
}

// authorize applies the rules to a request; it returns the rule that
// denied it, or nil when it is allowed.
func (s *Server) authorize(method, path string, query url.Values, id *identity) *rule {
	rules := *s.rules.Load()
	for i := range rules {
		ru := &rules[i]
		groups, ok := ru.match(method, path, query)
		if !ok {
			continue
		}
		if ru.custom {
			if ru.allowsCustom(id, groups) {
				return nil
			}
			return ru
		}
		captured := ""
		if len(groups) > 1 {
			captured = groups[1]
		}
		switch ru.allow {
		case allowUnauthenticated:
			return nil
		case allowAnyCert:
			if id.authenticated {
				return nil
			}
		case allowCapture:
			if id.authenticated && id.certname == captured {
				return nil
			}
		case allowAdmin:
			if id.authenticated {
				if v, _ := id.extension("pp_cli_auth"); v == "true" || s.admins[id.certname] {
					return nil
				}
			}
		}
		return ru
	}
	return &rule{name: "no rule matches"}
}

// forbidden answers a denied request as puppetserver's authorization
// layer does: 403, text, the path and method (Clojure's keyword form).
func (s *Server) forbidden(w http.ResponseWriter, r *http.Request, id *identity, ru *rule) {
	who := r.RemoteAddr
	if id.authenticated {
		who = id.certname + "(" + r.RemoteAddr + ")"
	}
	s.log.Warn("forbidden request", "from", who, "path", r.URL.Path, "method", r.Method, "authenticated", id.authenticated, "rule", ru.name)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte("Forbidden request: " + r.URL.Path + " (method :" + strings.ToLower(r.Method) + "). Please see the server logs for details."))
}
