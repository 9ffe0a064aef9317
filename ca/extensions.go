package ca

import (
	"crypto"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"net"
	"strings"
	"unicode/utf8"
)

// Object identifiers of the extensions puppetserver writes and checks.
var (
	oidNetscapeComment   = asn1.ObjectIdentifier{2, 16, 840, 1, 113730, 1, 13}
	oidSubjectKeyID      = asn1.ObjectIdentifier{2, 5, 29, 14}
	oidKeyUsage          = asn1.ObjectIdentifier{2, 5, 29, 15}
	oidSubjectAltName    = asn1.ObjectIdentifier{2, 5, 29, 17}
	oidBasicConstraints  = asn1.ObjectIdentifier{2, 5, 29, 19}
	oidCRLReason         = asn1.ObjectIdentifier{2, 5, 29, 21}
	oidAuthorityKeyID    = asn1.ObjectIdentifier{2, 5, 29, 35}
	oidExtKeyUsage       = asn1.ObjectIdentifier{2, 5, 29, 37}
	oidServerAuth        = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 1}
	oidClientAuth        = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 2}
	oidPuppetRegCertExt  = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 1}
	oidPuppetPrivCertExt = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 2}
	oidPuppetAuthCertExt = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 3}
	// OIDCLIAuth is pp_cli_auth, which the CA admin API requires of a
	// client; puppetserver gives it to the server's own certificate only.
	OIDCLIAuth = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 34380, 1, 3, 39}
)

// authShortNames are the short names puppetserver reports for the
// authorization extensions it knows.
func authShortName(oid string) string {
	switch oid {
	case "1.3.6.1.4.1.34380.1.3.1":
		return "pp_authorization"
	case "1.3.6.1.4.1.34380.1.3.13":
		return "pp_auth_role"
	case "1.3.6.1.4.1.34380.1.3.39":
		return "pp_cli_auth"
	}
	return oid
}

// subtreeOf reports whether oid lies strictly under arc.
func subtreeOf(arc, oid asn1.ObjectIdentifier) bool {
	return len(oid) > len(arc) && oid[:len(arc)].Equal(arc)
}

// allowedCSRExtension is puppetserver's list of extensions an agent may
// request: subject alternative names and the Puppet arcs, except pp_cli_auth.
func allowedCSRExtension(oid asn1.ObjectIdentifier) bool {
	switch {
	case oid.Equal(oidSubjectAltName):
		return true
	case subtreeOf(oidPuppetAuthCertExt, oid):
		return !oid.Equal(OIDCLIAuth)
	}
	return subtreeOf(oidPuppetRegCertExt, oid) || subtreeOf(oidPuppetPrivCertExt, oid)
}

func mustMarshal(v any) []byte {
	b, err := asn1.Marshal(v)
	if err != nil {
		// Only fixed, well-formed values are marshalled through here.
		panic(err)
	}
	return b
}

func ext(oid asn1.ObjectIdentifier, critical bool, value []byte) pkix.Extension {
	return pkix.Extension{Id: oid, Critical: critical, Value: value}
}

func netscapeCommentExt() pkix.Extension {
	return ext(oidNetscapeComment, false, mustMarshal(asn1.RawValue{Tag: asn1.TagIA5String, Bytes: []byte(NetscapeComment)}))
}

// keyID is the RFC 5280 method-1 key identifier (SHA-1 of the public key
// bits) that BouncyCastle and OpenSSL compute.
func keyID(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if _, err := asn1.Unmarshal(der, &spki); err != nil {
		return nil, err
	}
	sum := sha1.Sum(spki.PublicKey.Bytes)
	return sum[:], nil
}

func subjectKeyIDExt(id []byte) pkix.Extension {
	return ext(oidSubjectKeyID, false, mustMarshal(id))
}

func authorityKeyIDExt(id []byte) pkix.Extension {
	return ext(oidAuthorityKeyID, false, mustMarshal(struct {
		ID []byte `asn1:"optional,tag:0"`
	}{id}))
}

func basicConstraintsExt(isCA bool) pkix.Extension {
	if isCA {
		return ext(oidBasicConstraints, true, mustMarshal(struct{ CA bool }{true}))
	}
	// CA:FALSE is the DER default, so the sequence is empty.
	return ext(oidBasicConstraints, true, mustMarshal(struct{}{}))
}

// keyUsageExt encodes the KeyUsage bits (bit 0 = digitalSignature) with
// DER's trailing-zero trimming.
func keyUsageExt(bits ...int) pkix.Extension {
	maxBit := 0
	for _, b := range bits {
		maxBit = max(maxBit, b)
	}
	bs := asn1.BitString{Bytes: make([]byte, maxBit/8+1), BitLength: maxBit + 1}
	for _, b := range bits {
		bs.Bytes[b/8] |= 0x80 >> (b % 8)
	}
	return ext(oidKeyUsage, true, mustMarshal(bs))
}

func extKeyUsageExt() pkix.Extension {
	return ext(oidExtKeyUsage, true, mustMarshal([]asn1.ObjectIdentifier{oidServerAuth, oidClientAuth}))
}

func utf8StringExt(oid asn1.ObjectIdentifier, s string) pkix.Extension {
	return ext(oid, false, mustMarshal(asn1.RawValue{Tag: asn1.TagUTF8String, Bytes: []byte(s)}))
}

// General name tags of a SubjectAltName.
const (
	sanDNS = 2
	sanIP  = 7
)

// sanExt encodes DNS and IP names as a SubjectAltName.
func sanExt(dns []string, ips []net.IP) pkix.Extension {
	var names []asn1.RawValue
	for _, d := range dns {
		names = append(names, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: sanDNS, Bytes: []byte(d)})
	}
	for _, ip := range ips {
		if v4 := ip.To4(); v4 != nil {
			ip = v4
		}
		names = append(names, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: sanIP, Bytes: ip})
	}
	return ext(oidSubjectAltName, false, mustMarshal(names))
}

// ensureCNInSAN returns the CSR's SAN extension with DNS:cn appended when it
// is not there (puppetserver's ensure-cn-as-san); other general names are
// kept as they are.
func ensureCNInSAN(san pkix.Extension, cn string) (pkix.Extension, error) {
	var names []asn1.RawValue
	rest, err := asn1.Unmarshal(san.Value, &names)
	if err != nil {
		return san, err
	}
	if len(rest) > 0 {
		return san, asn1.SyntaxError{Msg: "trailing data in subjectAltName"}
	}
	for _, n := range names {
		if n.Class == asn1.ClassContextSpecific && n.Tag == sanDNS && string(n.Bytes) == cn {
			return san, nil
		}
	}
	names = append(names, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: sanDNS, Bytes: []byte(cn)})
	v, err := asn1.Marshal(names)
	if err != nil {
		return san, err
	}
	return pkix.Extension{Id: oidSubjectAltName, Critical: san.Critical, Value: v}, nil
}

// extensionString decodes an extension value the way Puppet shows pp_*
// extensions: the content of an ASN.1 string, or the raw bytes when the value
// is not a string.
func extensionString(value []byte) string {
	var rv asn1.RawValue
	if rest, err := asn1.Unmarshal(value, &rv); err == nil && len(rest) == 0 && rv.Class == asn1.ClassUniversal {
		switch rv.Tag {
		case asn1.TagUTF8String, asn1.TagPrintableString, asn1.TagIA5String, asn1.TagT61String,
			asn1.TagNumericString, 28 /* UniversalString */, 30 /* BMPString */ :
			if utf8.Valid(rv.Bytes) {
				return string(rv.Bytes)
			}
		}
	}
	return strings.ToValidUTF8(string(value), "\uFFFD")
}

// altNames lists SANs as puppetserver's certificate_status does: "IP:" names
// first, then "DNS:" names.
func altNames(dns []string, ips []net.IP) (dnsOnly, all []string) {
	dnsOnly = []string{}
	all = []string{}
	for _, ip := range ips {
		all = append(all, "IP:"+ip.String())
	}
	for _, d := range dns {
		dnsOnly = append(dnsOnly, "DNS:"+d)
		all = append(all, "DNS:"+d)
	}
	return dnsOnly, all
}

// authorizationExtensions maps the pp_auth_* extensions (by short name when
// puppetserver has one) to their values.
func authorizationExtensions(exts []pkix.Extension) map[string]string {
	out := map[string]string{}
	for _, e := range exts {
		if subtreeOf(oidPuppetAuthCertExt, e.Id) {
			out[authShortName(e.Id.String())] = extensionString(e.Value)
		}
	}
	return out
}
