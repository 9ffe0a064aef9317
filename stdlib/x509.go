package stdlib

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

func addX509(t functions.Table) {
	t["validate_x509_rsa_key_pair"] = legacyStatement(validateX509RSAKeyPair)
}

// validateX509RSAKeyPair is the 3.x validate_x509_rsa_key_pair(cert, key):
// it fails unless cert is an X.509 certificate (PEM or DER), key an RSA
// key (private or public, PEM or DER) and the certificate's signature
// verifies with that key, as OpenSSL's Certificate#verify checks. Messages
// about unreadable input are OpenSSL's for text without a PEM block.
func validateX509RSAKeyPair(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) != 2 {
		return nil, errorf("validate_x509_rsa_key_pair(): wrong number of arguments (%d; must be 2)", len(args))
	}
	for _, a := range args {
		if _, ok := a.(value.String); !ok {
			return nil, errorf("%s is not a string.", value.RubyInspect(a))
		}
	}
	cert, err := x509.ParseCertificate(pemOrDER(string(args[0].(value.String)), "CERTIFICATE"))
	if err != nil {
		return nil, errorf("Not a valid x509 certificate: PEM_read_bio_X509: no start line")
	}
	key := parseRSAKey(string(args[1].(value.String)))
	if key == nil {
		return nil, errorf("Not a valid RSA key: Neither PUB key nor PRIV key: unsupported")
	}
	signer := &x509.Certificate{PublicKey: key}
	if signer.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature) != nil {
		return nil, errorf("Certificate signature does not match supplied key")
	}
	return value.Undef, nil
}

// pemOrDER returns the bytes of the first PEM block of the wanted type in
// s, else s itself (DER).
func pemOrDER(s, blockType string) []byte {
	rest := []byte(s)
	for {
		b, r := pem.Decode(rest)
		if b == nil {
			return []byte(s)
		}
		if b.Type == blockType {
			return b.Bytes
		}
		rest = r
	}
}

// parseRSAKey reads an RSA public key from a PEM or DER private key
// (PKCS #1 or #8) or public key (PKIX or PKCS #1); nil when it cannot.
func parseRSAKey(s string) *rsa.PublicKey {
	var ders [][]byte
	for rest := []byte(s); ; {
		b, r := pem.Decode(rest)
		if b == nil {
			break
		}
		ders = append(ders, b.Bytes)
		rest = r
	}
	ders = append(ders, []byte(s))
	for _, der := range ders {
		if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
			return &k.PublicKey
		}
		if k, err := x509.ParsePKCS8PrivateKey(der); err == nil {
			if rk, ok := k.(*rsa.PrivateKey); ok {
				return &rk.PublicKey
			}
		}
		if k, err := x509.ParsePKIXPublicKey(der); err == nil {
			if rk, ok := k.(*rsa.PublicKey); ok {
				return rk
			}
		}
		if k, err := x509.ParsePKCS1PublicKey(der); err == nil {
			return k
		}
	}
	return nil
}
