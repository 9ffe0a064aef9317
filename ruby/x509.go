package ruby

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
)

// x509Cert is an OpenSSL::X509::Certificate, and rsaKey an
// OpenSSL::PKey::RSA: enough of them for stdlib's
// validate_x509_rsa_key_pair, which checks that a key signed a
// certificate.
type x509Cert struct{ cert *x509.Certificate }

type rsaKey struct {
	pub  *rsa.PublicKey
	priv bool
}

// newX509Cert is OpenSSL::X509::Certificate.new(text): DER, or the first
// CERTIFICATE block of PEM text (other text around it is skipped, as
// OpenSSL does). The errors are OpenSSL 3's.
func (in *interp) newX509Cert(line int, s string) (any, error) {
	if c, err := x509.ParseCertificate([]byte(s)); err == nil {
		return &x509Cert{c}, nil
	}
	for rest := []byte(s); ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		switch block.Type {
		case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE":
			c, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return nil, in.errorf(line, "OpenSSL::X509::CertificateError", "PEM_read_bio_X509: ASN1 lib")
			}
			return &x509Cert{c}, nil
		}
	}
	if strings.Contains(s, "-----BEGIN CERTIFICATE-----") {
		return nil, in.errorf(line, "OpenSSL::X509::CertificateError", "PEM_read_bio_X509: ASN1 lib")
	}
	return nil, in.errorf(line, "OpenSSL::X509::CertificateError", "PEM_read_bio_X509: no start line")
}

// newRSAKey is OpenSSL::PKey::RSA.new(text): a private or public key, DER
// or PEM (PKCS#1 or PKCS#8/PKIX). Encrypted keys, for which OpenSSL would
// ask for a passphrase, are unsupported.
func (in *interp) newRSAKey(line int, s string) (any, error) {
	notRSA := func() error {
		return in.errorf(line, "OpenSSL::PKey::RSAError", "incorrect pkey type: id-ecPublicKey")
	}
	parse := func(typ string, der []byte) (any, bool, error) {
		switch typ {
		case "RSA PRIVATE KEY", "":
			if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
				return &rsaKey{pub: &k.PublicKey, priv: true}, true, nil
			}
		}
		switch typ {
		case "PRIVATE KEY", "":
			if k, err := x509.ParsePKCS8PrivateKey(der); err == nil {
				if k, ok := k.(*rsa.PrivateKey); ok {
					return &rsaKey{pub: &k.PublicKey, priv: true}, true, nil
				}
				return nil, true, notRSA()
			}
		}
		switch typ {
		case "PUBLIC KEY", "":
			if k, err := x509.ParsePKIXPublicKey(der); err == nil {
				if k, ok := k.(*rsa.PublicKey); ok {
					return &rsaKey{pub: k}, true, nil
				}
				return nil, true, notRSA()
			}
		}
		switch typ {
		case "RSA PUBLIC KEY", "":
			if k, err := x509.ParsePKCS1PublicKey(der); err == nil {
				return &rsaKey{pub: k}, true, nil
			}
		}
		if typ == "EC PRIVATE KEY" {
			if _, err := x509.ParseECPrivateKey(der); err == nil {
				return nil, true, notRSA()
			}
		}
		return nil, false, nil
	}
	if k, ok, err := parse("", []byte(s)); ok {
		return k, err
	}
	for rest := []byte(s); ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "" {
			return nil, in.unsupported(line, "an encrypted RSA key")
		}
		if k, ok, err := parse(block.Type, block.Bytes); ok {
			return k, err
		}
	}
	return nil, in.errorf(line, "OpenSSL::PKey::RSAError", "Neither PUB key nor PRIV key: unsupported")
}

// x509Method is a method of OpenSSL::X509::Certificate: verify(key) tells
// whether the key's private half signed the certificate.
func (in *interp) x509Method(line int, c *x509Cert, name string, args []any) (any, bool, error) {
	if name != "verify" || len(args) != 1 {
		return nil, false, nil
	}
	k, ok := args[0].(*rsaKey)
	if !ok {
		return nil, true, in.errorf(line, "TypeError", "wrong argument type %s (expected OpenSSL/EVP_PKEY)", className(args[0]))
	}
	switch c.cert.SignatureAlgorithm {
	case x509.MD5WithRSA, x509.SHA1WithRSA, x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA,
		x509.SHA256WithRSAPSS, x509.SHA384WithRSAPSS, x509.SHA512WithRSAPSS:
	default:
		return nil, true, in.errorf(line, "OpenSSL::X509::CertificateError", "wrong public key type")
	}
	signer := &x509.Certificate{PublicKey: k.pub}
	return signer.CheckSignature(c.cert.SignatureAlgorithm, c.cert.RawTBSCertificate, c.cert.Signature) == nil, true, nil
}

// rsaKeyMethod is a method of OpenSSL::PKey::RSA.
func (in *interp) rsaKeyMethod(line int, k *rsaKey, name string, args []any) (any, bool, error) {
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "private?":
		return k.priv, true, nil
	case "public?":
		return true, true, nil
	}
	return nil, false, nil
}
