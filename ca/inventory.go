package ca

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"
)

var (
	bigZero = big.NewInt(0)
	bigOne  = big.NewInt(1)
)

// formatSerial writes a serial as puppetserver does in the serial file:
// uppercase hex, zero-padded to at least 4 digits.
func formatSerial(n *big.Int) string {
	return fmt.Sprintf("%04X", n)
}

// parseSerial reads a hex serial (the serial file, an inventory column with
// or without 0x). The Ruby CA CLI writes lowercase without padding, so both
// cases are read.
func parseSerial(s string) (*big.Int, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	n, ok := new(big.Int).SetString(s, 16)
	if !ok || n.Sign() < 0 {
		return nil, fmt.Errorf("invalid serial number %q", s)
	}
	return n, nil
}

func writeSerial(path string, n *big.Int) error {
	return atomicWrite(path, []byte(formatSerial(n)), publicPerm)
}

// nextSerialLocked returns the serial in the serial file and writes back the
// next one. c.mu must be held.
func (c *CA) nextSerialLocked() (*big.Int, error) {
	b, err := os.ReadFile(c.path(SerialFile))
	if err != nil {
		return nil, err
	}
	n, err := parseSerial(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.path(SerialFile), err)
	}
	if n.Sign() <= 0 {
		return nil, fmt.Errorf("%s: serial number must be positive", c.path(SerialFile))
	}
	if err := writeSerial(c.path(SerialFile), new(big.Int).Add(n, bigOne)); err != nil {
		return nil, err
	}
	return n, nil
}

// inventoryTime formats a time as the inventory does (Joda
// "YYY-MM-dd'T'HH:mm:ssz" in UTC, Ruby "%Y-%m-%dT%H:%M:%S%Z"):
// 2024-01-01T00:00:00UTC.
func inventoryTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05") + "UTC"
}

func parseInventoryTime(s string) (time.Time, error) {
	return time.Parse("2006-01-02T15:04:05", strings.TrimSuffix(s, "UTC"))
}

// inventoryLine is one line of inventory.txt:
// "0x<%04X serial> <notBefore> <notAfter> /<subject>".
func inventoryLine(cert *x509.Certificate) string {
	return fmt.Sprintf("0x%s %s %s /%s\n", formatSerial(cert.SerialNumber),
		inventoryTime(cert.NotBefore), inventoryTime(cert.NotAfter), subjectString(cert))
}

// subjectString is the subject as puppetserver writes it after the "/": a
// CN-only subject is "CN=name".
func subjectString(cert *x509.Certificate) string {
	return cert.Subject.String()
}

// appendInventoryLocked adds cert to inventory.txt. The file is rewritten
// atomically (as puppetserver does) rather than appended to. c.mu must be
// held.
func (c *CA) appendInventoryLocked(cert *x509.Certificate) error {
	old, err := os.ReadFile(c.path(InventoryFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var buf bytes.Buffer
	buf.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		buf.WriteByte('\n')
	}
	buf.WriteString(inventoryLine(cert))
	return atomicWrite(c.path(InventoryFile), buf.Bytes(), publicPerm)
}

// inventorySerials returns the serials of the unexpired certificates of
// subject "CN=name" in the inventory, as puppetserver looks them up when
// revoking. Malformed lines are skipped.
func (c *CA) inventorySerials(name string, now time.Time) ([]*big.Int, error) {
	b, err := os.ReadFile(c.path(InventoryFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	want := "/CN=" + name
	var out []*big.Int
	for _, line := range strings.Split(string(b), "\n") {
		// The subject may contain spaces ("CN=Puppet CA: host"), so only
		// the first three fields are split off.
		f := strings.SplitN(strings.TrimRight(line, "\r"), " ", 4)
		if len(f) != 4 || f[3] != want {
			continue
		}
		notAfter, err := parseInventoryTime(f[2])
		if err != nil || !now.Before(notAfter) {
			continue
		}
		n, err := parseSerial(f[0])
		if err != nil {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}
