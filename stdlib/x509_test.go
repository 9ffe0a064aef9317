package stdlib

import (
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestValidateX509RSAKeyPairErrors checks the messages for input that is
// not a certificate and key at all; the matching and mismatching pairs are
// the conformance cases functions/stdlib-validate-x509-rsa-key-pair*.
func TestValidateX509RSAKeyPairErrors(t *testing.T) {
	for _, tt := range []struct {
		args []value.Value
		want string
	}{
		{[]value.Value{value.String("x")}, "validate_x509_rsa_key_pair(): wrong number of arguments (1; must be 2)"},
		{[]value.Value{value.String("x"), value.Integer(1)}, "1 is not a string."},
		{[]value.Value{value.String("foo"), value.String("bar")}, "Not a valid x509 certificate: PEM_read_bio_X509: no start line"},
		{[]value.Value{value.String("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), value.String("bar")}, "Not a valid x509 certificate: PEM_read_bio_X509: no start line"},
	} {
		if _, err := validateX509RSAKeyPair(nil, tt.args); err == nil || err.Error() != tt.want {
			t.Errorf("validate_x509_rsa_key_pair(%v): got %v, want %q", tt.args, err, tt.want)
		}
	}
	if parseRSAKey("not a key") != nil {
		t.Error("parseRSAKey read a key from plain text")
	}
}
