package server

import (
	"crypto/x509"
	"encoding/pem"
	"net/http"
)

// expirationLayout is how puppetserver writes the dates of
// /puppet-ca/v1/expirations ("2041-11-23T17:20:44UTC").
const expirationLayout = "2006-01-02T15:04:05UTC"

// caExpirations is GET /puppet-ca/v1/expirations: when each certificate of
// the CA's chain expires and when each of its CRLs is next updated, keyed
// by common name (the CRL's issuer), as puppetserver 7 answers it. A chain
// imported from puppetserver holds the intermediate and the root.
func (s *Server) caExpirations(w http.ResponseWriter) error {
	certsPEM, err := s.cfg.CA.CACertificate()
	if err != nil {
		return serverError(err.Error())
	}
	crlPEM, err := s.cfg.CA.CRL()
	if err != nil {
		return serverError(err.Error())
	}
	caCerts := map[string]string{}
	for _, der := range pemBlocks(certsPEM, "CERTIFICATE") {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return serverError("the CA certificate: " + err.Error())
		}
		caCerts[commonName(c.Subject.CommonName, c.Subject.String())] = c.NotAfter.UTC().Format(expirationLayout)
	}
	crls := map[string]string{}
	for _, der := range pemBlocks(crlPEM, "X509 CRL") {
		l, err := x509.ParseRevocationList(der)
		if err != nil {
			return serverError("the CA's CRL: " + err.Error())
		}
		crls[commonName(l.Issuer.CommonName, l.Issuer.String())] = l.NextUpdate.UTC().Format(expirationLayout)
	}
	writeJSON(w, http.StatusOK, map[string]map[string]string{"ca-certs": caCerts, "crls": crls})
	return nil
}

// pemBlocks are the DER bodies of the PEM blocks of type typ in b.
func pemBlocks(b []byte, typ string) [][]byte {
	var out [][]byte
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			return out
		}
		if block.Type == typ {
			out = append(out, block.Bytes)
		}
	}
}

func commonName(cn, subject string) string {
	if cn != "" {
		return cn
	}
	return subject
}
