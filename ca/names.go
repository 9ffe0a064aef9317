package ca

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/names"
)

// Error kinds of a refused request, as puppetserver names them; an HTTP
// server answers all of them with 400 and the message.
const (
	KindHostnameMismatch    = "hostname-mismatch"
	KindInvalidSubjectName  = "invalid-subject-name"
	KindDuplicateCert       = "duplicate-cert"
	KindInvalidSignature    = "invalid-signature"
	KindDisallowedExtension = "disallowed-extension"
	KindInvalidCSR          = "invalid-csr"
)

// RequestError is a CSR or certname refused by policy. Message is
// puppetserver's wording.
type RequestError struct {
	Kind    string
	Message string
}

func (e *RequestError) Error() string { return e.Message }

func reqErr(kind, format string, args ...any) *RequestError {
	return &RequestError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// ValidateName checks a certname as puppetserver checks a CSR subject: lower
// case, no wildcard, not ending in "-", and dot-separated labels of ASCII
// letters, digits, "-" and "_" that do not end in "-" (a label may start with
// "_" but not "-"). Such a name is also a safe file name: no "/", "..",
// spaces or shell characters.
func ValidateName(name string) error {
	if len(name) > names.MaxCertname {
		return reqErr(KindInvalidSubjectName, "Certificate names must be at most %d characters long.", names.MaxCertname)
	}
	if strings.ToLower(name) != name {
		return reqErr(KindInvalidSubjectName, "Certificate names must be lower case.")
	}
	if strings.Contains(name, "*") {
		return reqErr(KindInvalidSubjectName, "Subject contains a wildcard, which is not allowed: %s", name)
	}
	invalid := reqErr(KindInvalidSubjectName, "Subject hostname format is invalid")
	if strings.HasSuffix(name, "-") {
		return invalid
	}
	// puppetserver (Java's split) tolerates a trailing ".", which would make
	// "name." and "name" distinct certs of one host; refuse every empty
	// label.
	for i, label := range strings.Split(name, ".") {
		if label == "" || label[len(label)-1] == '-' {
			return invalid
		}
		if i == 0 && label[0] == '-' {
			return invalid
		}
		for j := 0; j < len(label); j++ {
			b := label[j]
			if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_') {
				return invalid
			}
		}
	}
	return nil
}

// validateSubject checks the CSR's CN against the name it was submitted
// under, then the name itself.
func validateSubject(name, cn string) error {
	if name != cn {
		return reqErr(KindHostnameMismatch, "Instance name \"%s\" does not match requested key \"%s\"", cn, name)
	}
	return ValidateName(name)
}

// oidCommonName is the X.520 commonName attribute.
var oidCommonName = asn1.ObjectIdentifier{2, 5, 4, 3}

// FirstCommonName is the first CN of a subject, the name Puppet knows a
// certificate or request by. Go's pkix.Name.CommonName keeps the last one,
// so a subject "CN=a,CN=b" would be b to Go and a to Puppet.
func FirstCommonName(n pkix.Name) string {
	for _, a := range n.Names {
		if a.Type.Equal(oidCommonName) {
			if s, ok := a.Value.(string); ok {
				return s
			}
		}
	}
	return n.CommonName
}
