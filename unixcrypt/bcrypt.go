package unixcrypt

import (
	"encoding/base64"
	"strconv"
	"strings"

	"golang.org/x/crypto/blowfish"
)

// bcrypt ($2a$, $2b$, $2x$, $2y$) as libxcrypt computes it: Provos and
// Mazières' eksblowfish, 2^cost rounds of the expensive key schedule over
// the password (with its NUL, at most 72 bytes) and the 16-byte salt, then
// "OrpheanBeholderScryDoubt" encrypted 64 times. Blowfish itself comes from
// golang.org/x/crypto/blowfish, whose ExpandKey and NewSaltedCipher exist
// for this (its bcrypt package takes no given salt, which crypt(3) does).

// bcryptAlphabet is bcrypt's base-64 alphabet (not crypt's order).
const bcryptAlphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

var bcryptEncoding = base64.NewEncoding(bcryptAlphabet).WithPadding(base64.NoPadding)

// IsBcrypt reports whether setting names one of bcrypt's schemes.
func IsBcrypt(setting string) bool {
	return len(setting) >= 4 && setting[0] == '$' && setting[1] == '2' && strings.IndexByte("abxy", setting[2]) >= 0 && setting[3] == '$'
}

// Bcrypt is crypt(3) of key with a bcrypt setting ("$2b$05$" and 22
// characters of salt; anything after them is ignored, as by libxcrypt).
// ok is false for a setting libxcrypt rejects (crypt's "*0"); supported
// is false for what is not computed here: a key with bytes past ASCII
// under $2a$ or $2x$, whose results depend on the sign-extension bug
// those schemes keep or guard against. poll, when not nil, is called
// between rounds and stops the hash with its error (a cost of 31 is
// 2^31 rounds).
func Bcrypt(key, setting string, poll func() error) (out string, ok, supported bool, err error) {
	if !IsBcrypt(setting) || len(setting) < 7+22 || setting[6] != '$' {
		return "", false, true, nil
	}
	variant := setting[2]
	cost, err := strconv.Atoi(setting[4:6])
	if err != nil || setting[4] < '0' || setting[4] > '9' || cost < 4 || cost > 31 {
		return "", false, true, nil
	}
	encodedSalt := setting[7 : 7+22]
	for i := 0; i < len(encodedSalt); i++ {
		if strings.IndexByte(bcryptAlphabet, encodedSalt[i]) < 0 {
			return "", false, true, nil
		}
	}
	if variant == 'a' || variant == 'x' {
		for i := 0; i < len(key); i++ {
			if key[i] >= 0x80 {
				return "", false, false, nil
			}
		}
	}
	salt, decodeErr := bcryptEncoding.DecodeString(encodedSalt)
	if decodeErr != nil || len(salt) != 16 {
		return "", false, true, nil
	}
	k := append([]byte(key), 0)
	if len(k) > 72 {
		k = k[:72]
	}
	c, cipherErr := blowfish.NewSaltedCipher(k, salt)
	if cipherErr != nil {
		return "", false, true, nil
	}
	rounds := uint64(1) << uint(cost)
	for i := uint64(0); i < rounds; i++ {
		if poll != nil && i%256 == 0 {
			if err := poll(); err != nil {
				return "", false, true, err
			}
		}
		blowfish.ExpandKey(k, c)
		blowfish.ExpandKey(salt, c)
	}
	text := []byte("OrpheanBeholderScryDoubt")
	for i := 0; i < len(text); i += 8 {
		for j := 0; j < 64; j++ {
			c.Encrypt(text[i:i+8], text[i:i+8])
		}
	}
	// The salt as its 16 bytes encode (the 22nd character keeps two
	// bits), and 23 of the 24 bytes of the ciphertext.
	return setting[:7] + bcryptEncoding.EncodeToString(salt) + bcryptEncoding.EncodeToString(text[:23]), true, true, nil
}
