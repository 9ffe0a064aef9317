package eyaml

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
)

// Object identifiers of the PKCS7 structures and algorithms eyaml uses
// (RFC 2315, RFC 3565), plus the older ciphers OpenSSL may have written.
var (
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidEnvelopedData = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 3}
	oidRSAEncryption = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidAES128CBC     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
	oidDESEDE3CBC    = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
)

// contentInfo is PKCS7's outer ContentInfo.
type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	// Content is the [0] EXPLICIT element, kept whole.
	Content asn1.RawValue
}

type envelopedData struct {
	Version              int
	RecipientInfos       []recipientInfo `asn1:"set"`
	EncryptedContentInfo encryptedContentInfo
}

type recipientInfo struct {
	Version                int
	IssuerAndSerialNumber  issuerAndSerial
	KeyEncryptionAlgorithm pkix.AlgorithmIdentifier
	EncryptedKey           []byte
}

type issuerAndSerial struct {
	Issuer       asn1.RawValue
	SerialNumber *big.Int
}

type encryptedContentInfo struct {
	ContentType                asn1.ObjectIdentifier
	ContentEncryptionAlgorithm pkix.AlgorithmIdentifier
	// EncryptedContent is [0] IMPLICIT OCTET STRING: primitive from
	// OpenSSL, but BER writers may split it into a constructed string.
	EncryptedContent asn1.RawValue `asn1:"optional"`
}

// ErrBadDecrypt is OpenSSL's "bad decrypt", the error for data encrypted
// with another key pair: Puppet reports it in these words.
var ErrBadDecrypt = errors.New("bad decrypt")

// parseError is a malformed PKCS7 structure, worded as Ruby's
// OpenSSL::PKCS7.new words it ("Could not parse the PKCS7: ...").
func parseError(detail string) error {
	return fmt.Errorf("Could not parse the PKCS7: %s", detail)
}

// DecryptPKCS7 decrypts DER PKCS7 enveloped data with the key pair, as
// OpenSSL::PKCS7#decrypt(key, cert): the recipient is the one the
// certificate's issuer and serial number name.
func DecryptPKCS7(der []byte, kp *KeyPair) ([]byte, error) {
	var ci contentInfo
	rest, err := asn1.Unmarshal(der, &ci)
	if err != nil || len(rest) > 0 {
		// OpenSSL falls back to PEM when DER fails, hence its wording.
		return nil, parseError("no start line")
	}
	if !ci.ContentType.Equal(oidEnvelopedData) {
		return nil, fmt.Errorf("wrong content type")
	}
	var ed envelopedData
	if _, err := asn1.Unmarshal(ci.Content.Bytes, &ed); err != nil {
		return nil, parseError("no start line")
	}
	var ri *recipientInfo
	for i := range ed.RecipientInfos {
		r := &ed.RecipientInfos[i]
		if bytes.Equal(r.IssuerAndSerialNumber.Issuer.FullBytes, kp.Certificate.RawIssuer) &&
			r.IssuerAndSerialNumber.SerialNumber.Cmp(kp.Certificate.SerialNumber) == 0 {
			ri = r
			break
		}
	}
	if ri == nil {
		return nil, errors.New("no recipient matches certificate")
	}
	if !ri.KeyEncryptionAlgorithm.Algorithm.Equal(oidRSAEncryption) {
		return nil, fmt.Errorf("unsupported key encryption algorithm %s", ri.KeyEncryptionAlgorithm.Algorithm)
	}
	eci := ed.EncryptedContentInfo
	block, keySize, err := contentCipher(eci.ContentEncryptionAlgorithm.Algorithm)
	if err != nil {
		return nil, err
	}
	// A wrong private key is only noticed when the content does not decrypt:
	// OpenSSL hides RSA padding failures the same way.
	key, err := rsa.DecryptPKCS1v15(nil, kp.PrivateKey, ri.EncryptedKey)
	if err != nil || len(key) != keySize {
		return nil, ErrBadDecrypt
	}
	var iv []byte
	if _, err := asn1.Unmarshal(eci.ContentEncryptionAlgorithm.Parameters.FullBytes, &iv); err != nil {
		return nil, parseError("missing cipher IV")
	}
	content, err := octets(eci.EncryptedContent)
	if err != nil {
		return nil, err
	}
	c, err := block(key)
	if err != nil || len(iv) != c.BlockSize() {
		return nil, ErrBadDecrypt
	}
	if len(content) == 0 || len(content)%c.BlockSize() != 0 {
		return nil, ErrBadDecrypt
	}
	plain := make([]byte, len(content))
	cipher.NewCBCDecrypter(c, iv).CryptBlocks(plain, content)
	return unpad(plain, c.BlockSize())
}

// octets is the encrypted content: a primitive [0] string, or a
// constructed one of OCTET STRING pieces.
func octets(rv asn1.RawValue) ([]byte, error) {
	if !rv.IsCompound {
		return rv.Bytes, nil
	}
	var out []byte
	rest := rv.Bytes
	for len(rest) > 0 {
		var piece []byte
		var err error
		if rest, err = asn1.Unmarshal(rest, &piece); err != nil {
			return nil, parseError("bad encrypted content")
		}
		out = append(out, piece...)
	}
	return out, nil
}

// contentCipher returns the block cipher constructor and key size of a
// content encryption algorithm.
func contentCipher(oid asn1.ObjectIdentifier) (func([]byte) (cipher.Block, error), int, error) {
	switch {
	case oid.Equal(oidAES256CBC):
		return aes.NewCipher, 32, nil
	case oid.Equal(oidAES192CBC):
		return aes.NewCipher, 24, nil
	case oid.Equal(oidAES128CBC):
		return aes.NewCipher, 16, nil
	case oid.Equal(oidDESEDE3CBC):
		return des.NewTripleDESCipher, 24, nil
	}
	return nil, 0, fmt.Errorf("unsupported content encryption algorithm %s", oid)
}

// unpad removes PKCS#7 padding; bad padding is a wrong key.
func unpad(b []byte, blockSize int) ([]byte, error) {
	n := int(b[len(b)-1])
	if n == 0 || n > blockSize || n > len(b) {
		return nil, ErrBadDecrypt
	}
	for _, c := range b[len(b)-n:] {
		if int(c) != n {
			return nil, ErrBadDecrypt
		}
	}
	return b[:len(b)-n], nil
}

// EncryptPKCS7 encrypts plaintext for the certificate's RSA key as
// OpenSSL::PKCS7.encrypt([cert], plaintext, AES-256-CBC, BINARY) does,
// returning DER.
func EncryptPKCS7(plaintext []byte, cert *x509.Certificate) ([]byte, error) {
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("the certificate's key is not an RSA key")
	}
	key := make([]byte, 32)
	iv := make([]byte, aes.BlockSize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if _, err := rand.Read(iv); err != nil {
		return nil, err
	}
	encKey, err := rsa.EncryptPKCS1v15(rand.Reader, pub, key)
	if err != nil {
		return nil, err
	}
	n := aes.BlockSize - len(plaintext)%aes.BlockSize
	padded := append(bytes.Clone(plaintext), bytes.Repeat([]byte{byte(n)}, n)...)
	c, _ := aes.NewCipher(key)
	cipher.NewCBCEncrypter(c, iv).CryptBlocks(padded, padded)
	ivDER, err := asn1.Marshal(iv)
	if err != nil {
		return nil, err
	}
	ed := envelopedData{
		RecipientInfos: []recipientInfo{{
			IssuerAndSerialNumber:  issuerAndSerial{Issuer: asn1.RawValue{FullBytes: cert.RawIssuer}, SerialNumber: cert.SerialNumber},
			KeyEncryptionAlgorithm: pkix.AlgorithmIdentifier{Algorithm: oidRSAEncryption, Parameters: asn1.NullRawValue},
			EncryptedKey:           encKey,
		}},
		EncryptedContentInfo: encryptedContentInfo{
			ContentType:                oidData,
			ContentEncryptionAlgorithm: pkix.AlgorithmIdentifier{Algorithm: oidAES256CBC, Parameters: asn1.RawValue{FullBytes: ivDER}},
			EncryptedContent:           asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, Bytes: padded},
		},
	}
	edDER, err := asn1.Marshal(ed)
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(contentInfo{
		ContentType: oidEnvelopedData,
		Content:     asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: edDER},
	})
}
