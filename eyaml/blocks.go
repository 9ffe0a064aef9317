package eyaml

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
)

// blockPattern is an encrypted block as eyaml_lookup_key finds it in a
// value: ENC[scheme,base64] where the base64 may be wrapped over lines
// with spaces (a YAML folded block leaves them).
var blockPattern = regexp.MustCompile(`ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]`)

// markerPattern is how Puppet decides a string is encrypted at all: any
// ENC[...], even one blockPattern does not take (then it stays as written).
var markerPattern = regexp.MustCompile(`ENC\[.*?\]`)

// IsEncrypted reports whether a data string holds an ENC[...] block.
func IsEncrypted(s string) bool { return markerPattern.MatchString(s) }

// KeySource gives the key pair when the first block needs it, so that data
// without blocks never reads key files.
type KeySource func() (*KeyPair, error)

// DecryptString replaces every ENC[...] block of s with its plaintext and
// then drops one trailing line break, as eyaml_lookup_key does; a string
// without ENC[ is returned as it is. Only the PKCS7 scheme (the default)
// is supported.
func DecryptString(s string, keys KeySource) (string, error) {
	if !IsEncrypted(s) {
		return s, nil
	}
	matches := blockPattern.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(s[last:m[0]])
		last = m[1]
		scheme := "PKCS7"
		if m[2] >= 0 {
			scheme = strings.TrimSuffix(s[m[2]:m[3]], ",")
		}
		if !strings.EqualFold(scheme, "PKCS7") {
			return "", unsupportedScheme(scheme)
		}
		der, err := decodeBase64(s[m[4]:m[5]])
		if err != nil {
			return "", err
		}
		kp, err := keys()
		if err != nil {
			return "", err
		}
		plain, err := DecryptPKCS7(der, kp)
		if err != nil {
			return "", err
		}
		b.Write(plain)
	}
	b.WriteString(s[last:])
	return chomp(b.String()), nil
}

func unsupportedScheme(scheme string) error {
	if strings.EqualFold(scheme, "GPG") {
		return fmt.Errorf("the GPG encryptor (hiera-eyaml-gpg) is not supported by marionette: re-encrypt the value with the PKCS7 encryptor")
	}
	// The gem's words when no plugin provides the scheme.
	return fmt.Errorf("cannot load such file -- hiera/backend/eyaml/encryptors/%s", strings.ToLower(scheme))
}

// decodeBase64 decodes leniently as Ruby's Base64.decode64: whitespace
// is dropped and missing padding tolerated.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if i := strings.IndexByte(s, '='); i >= 0 {
		s = s[:i]
	}
	der, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		// A cut block (one character past a multiple of four) decodes to
		// bytes that are no PKCS7 structure either.
		return nil, parseError("no start line")
	}
	return der, nil
}

// chomp drops one trailing "\n", "\r\n" or "\r", as Ruby's String#chomp.
func chomp(s string) string {
	switch {
	case strings.HasSuffix(s, "\r\n"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "\n"), strings.HasSuffix(s, "\r"):
		return s[:len(s)-1]
	}
	return s
}

// Encrypt returns plaintext as an ENC[PKCS7,...] string block, as
// `eyaml encrypt -o string` prints it.
func Encrypt(plaintext string, kp *KeyPair) (string, error) {
	der, err := EncryptPKCS7([]byte(plaintext), kp.Certificate)
	if err != nil {
		return "", err
	}
	return "ENC[PKCS7," + base64.StdEncoding.EncodeToString(der) + "]", nil
}
