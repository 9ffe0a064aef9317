// Package unixcrypt is crypt(3) as glibc's libxcrypt computes it on
// Debian, for the schemes Puppet code reaches through Ruby's String#crypt
// and stdlib's pw_hash: traditional DES (a two-character salt), MD5
// ($1$), SHA-256 ($5$, rounds= included) and SHA-512 ($6$). Other
// schemes (bcrypt, yescrypt) are reported as unsupported rather than
// computed differently.
package unixcrypt

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"strconv"
	"strings"
)

// cryptAlphabet is crypt's base-64 alphabet.
const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Hash is crypt(3) of key with setting (the salt and scheme); ok is false
// for a setting libxcrypt rejects, supported false for a scheme this
// package does not compute.
func Hash(key, setting string) (out string, ok, supported bool) {
	switch {
	case strings.HasPrefix(setting, "$1$"):
		salt, ok := cryptSalt(setting[3:], 8)
		if !ok {
			return "", ok, salt != "?"
		}
		return md5Crypt(key, salt), true, true
	case strings.HasPrefix(setting, "$5$"), strings.HasPrefix(setting, "$6$"):
		return shaCrypt(key, setting)
	case strings.HasPrefix(setting, "$"), strings.HasPrefix(setting, "_"):
		// bcrypt, yescrypt and libxcrypt's other schemes.
		return "", false, false
	}
	if strings.IndexByte(cryptAlphabet, setting[0]) < 0 || strings.IndexByte(cryptAlphabet, setting[1]) < 0 {
		return "", false, true
	}
	return desCrypt(key, setting[:2]), true, true
}

// cryptSalt takes the salt of an MD5 or SHA setting: up to max characters,
// ending at a $. ok is false for a salt libxcrypt rejects (":" or a
// newline); a salt with characters whose handling is not known here
// gives "?" and not ok.
func cryptSalt(s string, max int) (string, bool) {
	if i := strings.IndexByte(s, '$'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':' || c == '\n':
			return "", false
		case strings.IndexByte(cryptAlphabet, c) < 0 && c != '=':
			return "?", false
		}
	}
	return s, true
}

// to64 appends n characters of v, six bits each, least significant first.
func to64(b *strings.Builder, v uint32, n int) {
	for ; n > 0; n-- {
		b.WriteByte(cryptAlphabet[v&0x3f])
		v >>= 6
	}
}

// md5Crypt is the FreeBSD MD5-based crypt ($1$).
func md5Crypt(key, salt string) string {
	alt := md5.Sum([]byte(key + salt + key))
	h := md5.New()
	h.Write([]byte(key + "$1$" + salt))
	for i := len(key); i > 0; i -= 16 {
		h.Write(alt[:min(16, i)])
	}
	for i := len(key); i > 0; i >>= 1 {
		if i&1 != 0 {
			h.Write([]byte{0})
		} else {
			h.Write([]byte(key[:1]))
		}
	}
	final := h.Sum(nil)
	for i := 0; i < 1000; i++ {
		h := md5.New()
		if i&1 != 0 {
			h.Write([]byte(key))
		} else {
			h.Write(final)
		}
		if i%3 != 0 {
			h.Write([]byte(salt))
		}
		if i%7 != 0 {
			h.Write([]byte(key))
		}
		if i&1 != 0 {
			h.Write(final)
		} else {
			h.Write([]byte(key))
		}
		final = h.Sum(nil)
	}
	var b strings.Builder
	b.WriteString("$1$" + salt + "$")
	for _, g := range [][3]int{{0, 6, 12}, {1, 7, 13}, {2, 8, 14}, {3, 9, 15}, {4, 10, 5}} {
		to64(&b, uint32(final[g[0]])<<16|uint32(final[g[1]])<<8|uint32(final[g[2]]), 4)
	}
	to64(&b, uint32(final[11]), 2)
	return b.String()
}

// shaCrypt is Drepper's SHA-256 ($5$) and SHA-512 ($6$) crypt.
func shaCrypt(key, setting string) (string, bool, bool) {
	prefix, newHash, size := "$5$", sha256.New, 32
	if setting[1] == '6' {
		prefix, newHash, size = "$6$", sha512.New, 64
	}
	rest := setting[3:]
	rounds, explicit := 5000, false
	if r, ok := strings.CutPrefix(rest, "rounds="); ok {
		digits, after, found := strings.Cut(r, "$")
		n, err := strconv.Atoi(digits)
		if !found || err != nil || digits == "" || digits[0] < '1' || digits[0] > '9' || n < 1000 || n > 999999999 {
			return "", false, true
		}
		rounds, explicit, rest = n, true, after
	}
	salt, ok := cryptSalt(rest, 16)
	if !ok {
		return "", false, salt != "?"
	}
	sum := func(parts ...[]byte) []byte {
		h := newHash()
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum(nil)
	}
	k, s := []byte(key), []byte(salt)
	bsum := sum(k, s, k)
	h := newHash()
	h.Write(k)
	h.Write(s)
	i := len(k)
	for ; i > size; i -= size {
		h.Write(bsum)
	}
	h.Write(bsum[:i])
	for i := len(k); i > 0; i >>= 1 {
		if i&1 != 0 {
			h.Write(bsum)
		} else {
			h.Write(k)
		}
	}
	a := h.Sum(nil)
	p := repeatHash(newHash, k, len(k), len(k), size)
	s2 := repeatHash(newHash, s, 16+int(a[0]), len(s), size)
	c := a
	for r := 0; r < rounds; r++ {
		h := newHash()
		if r&1 != 0 {
			h.Write(p)
		} else {
			h.Write(c)
		}
		if r%3 != 0 {
			h.Write(s2)
		}
		if r%7 != 0 {
			h.Write(p)
		}
		if r&1 != 0 {
			h.Write(c)
		} else {
			h.Write(p)
		}
		c = h.Sum(nil)
	}
	var b strings.Builder
	b.WriteString(prefix)
	if explicit {
		b.WriteString("rounds=" + strconv.Itoa(rounds) + "$")
	}
	b.WriteString(salt + "$")
	if size == 32 {
		for i := 0; i < 10; i++ {
			// Bytes i, i+10, i+20 in a rotating order.
			x, y, z := i, (i+10)%30, (i+20)%30
			switch i % 3 {
			case 1:
				x, y, z = z, x, y
			case 2:
				x, y, z = y, z, x
			}
			to64(&b, uint32(c[x])<<16|uint32(c[y])<<8|uint32(c[z]), 4)
		}
		to64(&b, uint32(c[31])<<8|uint32(c[30]), 3)
	} else {
		for i := 0; i < 21; i++ {
			x, y, z := i, i+21, i+42
			switch i % 3 {
			case 1:
				x, y, z = y, z, x
			case 2:
				x, y, z = z, x, y
			}
			to64(&b, uint32(c[x])<<16|uint32(c[y])<<8|uint32(c[z]), 4)
		}
		to64(&b, uint32(c[63]), 2)
	}
	return b.String(), true, true
}

// repeatHash hashes in repeated times and returns the first n bytes of
// the digest repeated (the P and S sequences of SHA-crypt).
func repeatHash(newHash func() hash.Hash, in []byte, times, n, size int) []byte {
	h := newHash()
	for i := 0; i < times; i++ {
		h.Write(in)
	}
	d := h.Sum(nil)
	out := make([]byte, 0, n)
	for len(out)+size <= n {
		out = append(out, d...)
	}
	return append(out, d[:n-len(out)]...)
}
