package ruby

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/dataformat"
)

// TestX509KeyPair runs testdata/functions/x509_pair.rb on certificates
// and keys (testdata/x509, made with openssl) and compares with the
// results real Ruby gave, which TestX509KeyPairOracle checks.
func TestX509KeyPair(t *testing.T) {
	for _, c := range x509Cases(t) {
		f := loadTestFunction(t, "x509_pair.rb")
		args, err := dataformat.FromJSON([]byte(c.args), "args")
		if err != nil {
			t.Fatal(err)
		}
		got, err := callForJSON(f, args)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestX509KeyPairOracle(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("ruby is not installed")
	}
	for _, c := range x509Cases(t) {
		cmd := exec.Command("ruby", "run-function.rb", "x509_pair.rb", c.args)
		cmd.Dir = filepath.Join("testdata", "functions")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ruby %s: %v", c.name, err)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("ruby %s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

type x509Case struct{ name, args, want string }

func x509Cases(t *testing.T) []x509Case {
	t.Helper()
	pem := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "x509", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	args := func(cert, key string) string {
		b, _ := json.Marshal([]string{cert, key})
		return string(b)
	}
	cert := pem("cert.pem")
	ok := func(private, verified string) string {
		return `{"result":["OpenSSL::X509::Certificate","OpenSSL::PKey::RSA",` + private + `,true,` + verified + `]}`
	}
	return []x509Case{
		{"pkcs8 key", args(cert, pem("key.pem")), ok("true", "true")},
		{"pkcs1 key", args(cert, pem("key-pkcs1.pem")), ok("true", "true")},
		{"public key", args(cert, pem("pub.pem")), ok("false", "true")},
		{"another key", args(cert, pem("other-key.pem")), ok("true", "false")},
		{"text before the certificate", args("junk\n"+cert, pem("key.pem")), ok("true", "true")},
		{"EC certificate", args(pem("ec-cert.pem"), pem("key.pem")), `{"error":"wrong public key type","class":"OpenSSL::X509::CertificateError"}`},
		{"EC key", args(cert, pem("ec-key.pem")), `{"error":"Not a valid RSA key: incorrect pkey type: id-ecPublicKey","class":"Puppet::ParseError"}`},
		{"certificate as key", args(cert, cert), `{"error":"Not a valid RSA key: Neither PUB key nor PRIV key: unsupported","class":"Puppet::ParseError"}`},
		{"key as certificate", args(pem("key.pem"), pem("key.pem")), `{"error":"Not a valid x509 certificate: PEM_read_bio_X509: no start line","class":"Puppet::ParseError"}`},
		{"garbage", args("garbage", "garbage"), `{"error":"Not a valid x509 certificate: PEM_read_bio_X509: no start line","class":"Puppet::ParseError"}`},
		{"corrupt certificate", args(strings.Replace(cert, "M", "x", 1), pem("key.pem")), `{"error":"Not a valid x509 certificate: PEM_read_bio_X509: ASN1 lib","class":"Puppet::ParseError"}`},
	}
}
