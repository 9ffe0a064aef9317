package ca

import (
	"bytes"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"time"
)

// crlReasonKeyCompromise is the reason puppetserver gives every revocation.
const crlReasonKeyCompromise = 1

// readCRLs parses ca_crl.pem. It returns the index of this CA's CRL (the
// one whose authority key id is the CA's key id; puppetserver puts it first),
// all CRLs, and their PEM blocks so the others can be written back verbatim.
func (c *CA) readCRLs() (int, []*x509.RevocationList, [][]byte, error) {
	b, err := os.ReadFile(c.path(CRLFile))
	if err != nil {
		return 0, nil, nil, err
	}
	var crls []*x509.RevocationList
	var blocks [][]byte
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			break
		}
		if blk.Type != "X509 CRL" {
			continue
		}
		crl, err := x509.ParseRevocationList(blk.Bytes)
		if err != nil {
			return 0, nil, nil, fmt.Errorf("%s: %v", c.path(CRLFile), err)
		}
		crls = append(crls, crl)
		blocks = append(blocks, pem.EncodeToMemory(blk))
	}
	if len(crls) == 0 {
		return 0, nil, nil, fmt.Errorf("%s: no CRL found", c.path(CRLFile))
	}
	aki := c.authorityKeyID()
	for i, crl := range crls {
		if bytes.Equal(crl.AuthorityKeyId, aki) && crl.CheckSignatureFrom(c.cert) == nil {
			return i, crls, blocks, nil
		}
	}
	if crls[0].CheckSignatureFrom(c.cert) == nil {
		return 0, crls, blocks, nil
	}
	return 0, nil, nil, fmt.Errorf("%s: no CRL is signed by the CA certificate", c.path(CRLFile))
}

// revokedSerials is the set of serials (decimal strings) on the CA's CRL.
func (c *CA) revokedSerials() (map[string]bool, error) {
	i, crls, _, err := c.readCRLs()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range crls[i].RevokedCertificateEntries {
		out[e.SerialNumber.String()] = true
	}
	return out, nil
}

// createCRL signs a CRL with the given entries and number.
func (c *CA) createCRL(entries []x509.RevocationListEntry, number *big.Int, thisUpdate, nextUpdate time.Time) ([]byte, error) {
	tmpl := &x509.RevocationList{
		RevokedCertificateEntries: entries,
		Number:                    number,
		ThisUpdate:                thisUpdate,
		NextUpdate:                nextUpdate,
	}
	issuer := c.cert
	if len(issuer.SubjectKeyId) == 0 {
		// Go takes the CRL's authority key id from the issuer.
		cp := *issuer
		cp.SubjectKeyId = c.authorityKeyID()
		issuer = &cp
	}
	der, err := x509.CreateRevocationList(rand.Reader, tmpl, issuer, c.key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der}), nil
}

// Revoke revokes name's certificate: the serial of signed/<name>.pem and of
// every unexpired certificate of CN=name in the inventory, as puppetserver
// does. The certificate stays in signed/. Serials already revoked are left
// alone; ErrNotFound when name has no certificate at all.
func (c *CA) Revoke(name string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	defer c.lock()()
	serials, err := c.serialsOfLocked(name)
	if err != nil {
		return err
	}
	return c.revokeLocked(serials)
}

// serialsOfLocked finds name's certificate serials (inventory and signed/).
func (c *CA) serialsOfLocked(name string) ([]*big.Int, error) {
	serials, err := c.inventorySerials(name, c.opts().now())
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(c.signedPath(name))
	switch {
	case err == nil:
		certs, err := parseCerts(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.signedPath(name), err)
		}
		serials = append(serials, certs[0].SerialNumber)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case len(serials) == 0:
		return nil, fmt.Errorf("Could not find certificate for %s: %w", name, ErrNotFound)
	}
	return serials, nil
}

// RevokeSerials adds serials to the CRL (those not on it already).
func (c *CA) RevokeSerials(serials ...*big.Int) error {
	defer c.lock()()
	return c.revokeLocked(serials)
}

// revokeLocked writes a new CRL with serials added: CRL number incremented,
// this update a second ago, next update in 5 years, reason keyCompromise, as
// puppetserver does. Other CRLs of the file (an intermediate setup's root
// CRL) are kept. c.mu must be held.
func (c *CA) revokeLocked(serials []*big.Int) error {
	return c.writeCRLLocked(serials, false)
}

// writeCRLLocked re-signs the CA's CRL with serials added; it writes nothing
// when no serial is new, unless force. c.mu must be held.
func (c *CA) writeCRLLocked(serials []*big.Int, force bool) error {
	i, crls, blocks, err := c.readCRLs()
	if err != nil {
		return err
	}
	ours := crls[i]
	seen := map[string]bool{}
	var entries []x509.RevocationListEntry
	for _, e := range ours.RevokedCertificateEntries {
		seen[e.SerialNumber.String()] = true
		entries = append(entries, copyEntry(e))
	}
	now := c.opts().now()
	added := 0
	for _, s := range serials {
		if s == nil || seen[s.String()] {
			continue
		}
		seen[s.String()] = true
		entries = append(entries, x509.RevocationListEntry{
			SerialNumber:   s,
			RevocationTime: now,
			ReasonCode:     crlReasonKeyCompromise,
		})
		added++
	}
	if added == 0 && !force {
		return nil
	}
	number := bigZero
	if ours.Number != nil {
		number = ours.Number
	}
	crl, err := c.createCRL(entries, new(big.Int).Add(number, bigOne), now.Add(-time.Second), now.AddDate(5, 0, 0))
	if err != nil {
		return err
	}
	blocks[i] = crl
	return atomicWrite(c.path(CRLFile), bytes.Join(blocks, nil), publicPerm)
}

// crlRenewWindow is how close to its next update puppetserver re-signs the
// CRL at startup.
const crlRenewWindow = 30 * 24 * time.Hour

// RenewCRL re-signs the CA's CRL (same entries, next number, next update in
// 5 years) when it expires within 30 days, as puppetserver does at startup,
// and reports whether it did.
func (c *CA) RenewCRL() (bool, error) {
	defer c.lock()()
	i, crls, _, err := c.readCRLs()
	if err != nil {
		return false, err
	}
	if crls[i].NextUpdate.Sub(c.opts().now()) > crlRenewWindow {
		return false, nil
	}
	return true, c.writeCRLLocked(nil, true)
}

// copyEntry carries a parsed CRL entry into a new CRL unchanged.
func copyEntry(e x509.RevocationListEntry) x509.RevocationListEntry {
	out := x509.RevocationListEntry{
		SerialNumber:   e.SerialNumber,
		RevocationTime: e.RevocationTime,
		ReasonCode:     e.ReasonCode,
	}
	for _, x := range e.Extensions {
		if !x.Id.Equal(oidCRLReason) {
			out.ExtraExtensions = append(out.ExtraExtensions, x)
		}
	}
	return out
}

// Clean revokes name's certificate (when it has one) and deletes its
// certificate and pending request, as puppetserver ca clean does.
// ErrNotFound when there is nothing to clean.
func (c *CA) Clean(name string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	defer c.lock()()
	found := false
	if _, err := os.Stat(c.signedPath(name)); err == nil {
		found = true
		serials, err := c.serialsOfLocked(name)
		if err != nil {
			return err
		}
		if err := c.revokeLocked(serials); err != nil {
			return err
		}
		if err := os.Remove(c.signedPath(name)); err != nil {
			return err
		}
	}
	if err := os.Remove(c.requestPath(name)); err == nil {
		found = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := c.autosignDecided(name); err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("Could not find files to clean for %s: %w", name, ErrNotFound)
	}
	return nil
}

// IsRevoked reports whether serial is on the CA's CRL.
func (c *CA) IsRevoked(serial *big.Int) (bool, error) {
	r, err := c.revokedSerials()
	if err != nil {
		return false, err
	}
	return r[serial.String()], nil
}
