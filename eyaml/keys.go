package eyaml

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The eyaml tool's default key files, relative to its working directory
// (`eyaml createkeys` writes them). Puppet's eyaml_lookup_key has no
// defaults: a hierarchy level must name both files in its options.
const (
	DefaultPrivateKey = "./keys/private_key.pkcs7.pem"
	DefaultPublicKey  = "./keys/public_key.pkcs7.pem"
)

// KeyPair is the PKCS7 encryptor's keys: the RSA private key and the
// self-signed certificate that holds its public key.
type KeyPair struct {
	PrivateKey  *rsa.PrivateKey
	Certificate *x509.Certificate
}

// ReadFile reads a key file; a missing file is worded as Ruby's File.read
// words it, which is what Puppet reports.
func ReadFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("No such file or directory @ rb_sysopen - %s", path)
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("Permission denied @ rb_sysopen - %s", path)
		case errors.As(err, &pe):
			return nil, fmt.Errorf("%s - %s", pe.Err, path)
		}
		return nil, err
	}
	return data, nil
}

// ParsePrivateKey parses a PEM RSA private key (PKCS#1 or PKCS#8).
func ParsePrivateKey(pemData []byte) (*rsa.PrivateKey, error) {
	for rest := pemData; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		switch b.Type {
		case "RSA PRIVATE KEY":
			return x509.ParsePKCS1PrivateKey(b.Bytes)
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
			if err != nil {
				return nil, err
			}
			if rk, ok := k.(*rsa.PrivateKey); ok {
				return rk, nil
			}
			return nil, errors.New("Neither PUB key nor PRIV key")
		}
	}
	// Ruby's OpenSSL::PKey::RSA.new wording.
	return nil, errors.New("Neither PUB key nor PRIV key")
}

// ParseCertificate parses a PEM certificate (the "public key" file).
func ParseCertificate(pemData []byte) (*x509.Certificate, error) {
	for rest := pemData; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type == "CERTIFICATE" {
			return x509.ParseCertificate(b.Bytes)
		}
	}
	// Ruby's OpenSSL::X509::Certificate.new wording.
	return nil, errors.New("PEM_read_bio_X509: no start line")
}

// LoadKeyPair reads the private key and certificate files, in the order
// and with the words of hiera-eyaml's PKCS7 decrypt.
func LoadKeyPair(privatePath, publicPath string) (*KeyPair, error) {
	return KeyOptions{PrivateKey: privatePath, PublicKey: publicPath}.Load()
}

// KeyOptions are the PKCS7 encryptor's key options: pkcs7_private_key and
// pkcs7_public_key (files), pkcs7_private_key_env_var and
// pkcs7_public_key_env_var (environment variables holding the PEM, used
// when set, as the gem does).
type KeyOptions struct {
	PrivateKey, PublicKey             string
	PrivateKeyEnvVar, PublicKeyEnvVar string
	// LookupEnv reads the environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// Load reads the key pair, in the order and with the words of
// hiera-eyaml's PKCS7 decrypt.
func (o KeyOptions) Load() (*KeyPair, error) {
	if o.PublicKey == "" && o.PublicKeyEnvVar == "" {
		return nil, errors.New("pkcs7_public_key is not defined")
	}
	if o.PrivateKey == "" && o.PrivateKeyEnvVar == "" {
		return nil, errors.New("pkcs7_private_key is not defined")
	}
	privPEM, err := o.pem(o.PrivateKey, o.PrivateKeyEnvVar)
	if err != nil {
		return nil, err
	}
	key, err := ParsePrivateKey(privPEM)
	if err != nil {
		return nil, err
	}
	pubPEM, err := o.pem(o.PublicKey, o.PublicKeyEnvVar)
	if err != nil {
		return nil, err
	}
	cert, err := ParseCertificate(pubPEM)
	if err != nil {
		return nil, err
	}
	return &KeyPair{PrivateKey: key, Certificate: cert}, nil
}

// pem is a key's PEM: from its environment variable when that is set,
// else from its file.
func (o KeyOptions) pem(path, envVar string) ([]byte, error) {
	if envVar != "" {
		lookup := o.LookupEnv
		if lookup == nil {
			lookup = os.LookupEnv
		}
		if v, ok := lookup(envVar); ok {
			return []byte(v), nil
		}
	}
	if path == "" {
		// Ruby's File.read(nil).
		return nil, errors.New("no implicit conversion of nil into String")
	}
	return ReadFile(path)
}

// UsesFilesOnly reports whether the keys come from files alone, which a
// cache may key by path.
func (o KeyOptions) UsesFilesOnly() bool { return o.PrivateKeyEnvVar == "" && o.PublicKeyEnvVar == "" }
