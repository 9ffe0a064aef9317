package eyaml

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Hostile data must fail with an error, never panic: a value's ENC[...]
// blocks, and the PKCS7 inside them.
func FuzzDecryptString(f *testing.F) {
	kp := testKeys(f, "testdata/keys")
	secret, err := Encrypt("s3cret", kp)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{secret, "a ENC[PKCS7,MIIB] b", "ENC[GPG,x]", "ENC[", "ENC[PKCS7," + strings.Repeat("A", 400) + "]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = DecryptString(s, source(kp))
	})
}

func FuzzDecryptPKCS7(f *testing.F) {
	kp := testKeys(f, "testdata/keys")
	secret, err := Encrypt("s3cret", kp)
	if err != nil {
		f.Fatal(err)
	}
	der, _ := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(secret, "ENC[PKCS7,"), "]"))
	f.Add(der)
	f.Add(der[:len(der)/2])
	f.Fuzz(func(t *testing.T, der []byte) {
		_, _ = DecryptPKCS7(der, kp)
	})
}
