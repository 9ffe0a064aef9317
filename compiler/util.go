package compiler

import (
	"crypto/rand"
	"fmt"
	"strconv"
	"unicode"
)

func itoa(n int) string { return strconv.Itoa(n) }

func isUnicodeAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isQualifiedName(name string) bool {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == ':' && name[i+1] == ':' {
			return true
		}
	}
	return false
}

// newUUID returns a random version-4 UUID for catalog_uuid.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
