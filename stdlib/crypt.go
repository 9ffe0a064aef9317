package stdlib

import (
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"regexp"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// pw_hash is crypt(3) with an explicit salt, so its result is fixed for a
// given password and salt. The MD5 ($1$) and SHA-2 ($5$, $6$) schemes are
// implemented after their published specifications; bcrypt is not.

func addCrypt(t functions.Table) {
	t["pw_hash"] = legacy(pwHash)
	t["str2saltedpbkdf2"] = legacy(str2saltedPBKDF2)
}

var cryptSalt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A[a-zA-Z0-9./]+\z`) })

func pwHash(c *functions.Ctx, args []value.Value) (value.Value, error) {
	// Puppet's own arity check (pw_hash declares arity 3) answers first.
	if err := functions.Arity3("pw_hash", args, 3, false); err != nil {
		return nil, err
	}
	for i, a := range args {
		if s, ok := a.(*value.Sensitive); ok {
			args[i] = s.Value
		}
	}
	password, isString := args[0].(value.String)
	if !isString && !value.IsUndef(args[0]) {
		return nil, errorf("pw_hash(): first argument must be a string")
	}
	kind, ok := args[1].(value.String)
	if !ok {
		return nil, errorf("pw_hash(): second argument must be a string")
	}
	prefixes := map[string]string{"md5": "1", "sha-256": "5", "sha-512": "6", "bcrypt": "2b", "bcrypt-a": "2a", "bcrypt-x": "2x", "bcrypt-y": "2y"}
	prefix, known := prefixes[strings.ToLower(string(kind))]
	if !known {
		return nil, errorf("pw_hash(): %s is not a valid hash type", kind)
	}
	salt, ok := args[2].(value.String)
	if !ok {
		return nil, errorf("pw_hash(): third argument must be a string")
	}
	if salt == "" {
		return nil, errorf("pw_hash(): third argument must not be empty")
	}
	if strings.HasPrefix(prefix, "2") {
		return nil, errorf("pw_hash(): bcrypt hashes are not supported")
	}
	if !cryptSalt().MatchString(string(salt)) {
		return nil, errorf("pw_hash(): characters in salt must be in the set [a-zA-Z0-9./]")
	}
	if password == "" {
		return value.Undef, nil
	}
	switch prefix {
	case "1":
		return value.String(md5Crypt([]byte(password), string(salt))), nil
	case "5":
		return value.String(shaCrypt(sha256.New, "5", sha256Order, []byte(password), string(salt))), nil
	}
	return value.String(shaCrypt(sha512.New, "6", sha512Order, []byte(password), string(salt))), nil
}

const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// cryptEncode writes n characters for the 24 bits b2 b1 b0, low bits first.
func cryptEncode(out *strings.Builder, b2, b1, b0 byte, n int) {
	w := uint(b2)<<16 | uint(b1)<<8 | uint(b0)
	for range n {
		out.WriteByte(cryptAlphabet[w&0x3f])
		w >>= 6
	}
}

// The byte triples each scheme encodes, in order; a final partial group
// is handled by the callers' tables too (-1 stands for a zero byte).
var (
	sha512Order = [][3]int{
		{0, 21, 42}, {22, 43, 1}, {44, 2, 23}, {3, 24, 45}, {25, 46, 4}, {47, 5, 26}, {6, 27, 48},
		{28, 49, 7}, {50, 8, 29}, {9, 30, 51}, {31, 52, 10}, {53, 11, 32}, {12, 33, 54}, {34, 55, 13},
		{56, 14, 35}, {15, 36, 57}, {37, 58, 16}, {59, 17, 38}, {18, 39, 60}, {40, 61, 19}, {62, 20, 41},
		{-1, -1, 63},
	}
	sha256Order = [][3]int{
		{0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14}, {15, 25, 5}, {6, 16, 26},
		{27, 7, 17}, {18, 28, 8}, {9, 19, 29}, {-1, 31, 30},
	}
	md5Order = [][3]int{{0, 6, 12}, {1, 7, 13}, {2, 8, 14}, {3, 9, 15}, {4, 10, 5}, {-1, -1, 11}}
)

// encodeDigest encodes a digest in the scheme's byte order: full groups
// give 4 characters, the last group as many as its bits need.
func encodeDigest(out *strings.Builder, sum []byte, order [][3]int) {
	at := func(i int) byte {
		if i < 0 {
			return 0
		}
		return sum[i]
	}
	for i, g := range order {
		n := 4
		if i == len(order)-1 {
			switch {
			case g[0] < 0 && g[1] < 0:
				n = 2
			case g[0] < 0:
				n = 3
			}
		}
		cryptEncode(out, at(g[0]), at(g[1]), at(g[2]), n)
	}
}

// shaCrypt is the SHA-256/SHA-512 crypt scheme with the default 5000
// rounds.
func shaCrypt(newHash func() hash.Hash, id string, order [][3]int, password []byte, salt string) string {
	if len(salt) > 16 {
		salt = salt[:16]
	}
	s := []byte(salt)
	sum := func(parts ...[]byte) []byte {
		h := newHash()
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum(nil)
	}
	size := newHash().Size()
	b := sum(password, s, password)
	h := newHash()
	h.Write(password)
	h.Write(s)
	for n := len(password); n > 0; n -= size {
		h.Write(b[:min(n, size)])
	}
	for n := len(password); n > 0; n >>= 1 {
		if n&1 != 0 {
			h.Write(b)
		} else {
			h.Write(password)
		}
	}
	a := h.Sum(nil)
	// P and S: digests of the repeated password and salt, stretched to
	// their lengths.
	h = newHash()
	for range len(password) {
		h.Write(password)
	}
	p := stretch(h.Sum(nil), len(password))
	h = newHash()
	for range 16 + int(a[0]) {
		h.Write(s)
	}
	ss := stretch(h.Sum(nil), len(s))
	cur := a
	for i := range 5000 {
		h = newHash()
		if i&1 != 0 {
			h.Write(p)
		} else {
			h.Write(cur)
		}
		if i%3 != 0 {
			h.Write(ss)
		}
		if i%7 != 0 {
			h.Write(p)
		}
		if i&1 != 0 {
			h.Write(cur)
		} else {
			h.Write(p)
		}
		cur = h.Sum(nil)
	}
	var out strings.Builder
	out.WriteString("$" + id + "$" + salt + "$")
	encodeDigest(&out, cur, order)
	return out.String()
}

// stretch repeats digest to n bytes.
func stretch(digest []byte, n int) []byte {
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, digest[:min(len(digest), n-len(out))]...)
	}
	return out
}

// md5Crypt is the FreeBSD MD5 crypt scheme ($1$).
func md5Crypt(password []byte, salt string) string {
	if len(salt) > 8 {
		salt = salt[:8]
	}
	s := []byte(salt)
	alt := md5.Sum(append(append(append([]byte{}, password...), s...), password...))
	h := md5.New()
	h.Write(password)
	h.Write([]byte("$1$"))
	h.Write(s)
	for n := len(password); n > 0; n -= 16 {
		h.Write(alt[:min(n, 16)])
	}
	for n := len(password); n > 0; n >>= 1 {
		if n&1 != 0 {
			h.Write([]byte{0})
		} else {
			h.Write(password[:1])
		}
	}
	final := h.Sum(nil)
	for i := range 1000 {
		h = md5.New()
		if i&1 != 0 {
			h.Write(password)
		} else {
			h.Write(final)
		}
		if i%3 != 0 {
			h.Write(s)
		}
		if i%7 != 0 {
			h.Write(password)
		}
		if i&1 != 0 {
			h.Write(final)
		} else {
			h.Write(password)
		}
		final = h.Sum(nil)
	}
	var out strings.Builder
	out.WriteString("$1$" + salt + "$")
	encodeDigest(&out, final, md5Order)
	return out.String()
}

// str2saltedpbkdf2 derives a 128-byte PBKDF2-HMAC-SHA512 key, as macOS
// user resources want it.
func str2saltedPBKDF2(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 3, 3, "str2saltedpbkdf2(): wrong number of arguments (%d for 3)"); err != nil {
		return nil, err
	}
	unwrapped := make([]value.Value, 3)
	for i, a := range args {
		unwrapped[i] = a
		if s, ok := a.(*value.Sensitive); ok {
			unwrapped[i] = s.Value
		}
	}
	password, ok := unwrapped[0].(value.String)
	if !ok {
		return nil, errorf("str2saltedpbkdf2(): first argument must be a string")
	}
	salt, ok := unwrapped[1].(value.String)
	if !ok {
		return nil, errorf("str2saltedpbkdf2(): second argument must be a string")
	}
	if len(salt) < 8 {
		return nil, errorf("str2saltedpbkdf2(): second argument must be at least 8 bytes long")
	}
	iterations, ok := unwrapped[2].(value.Integer)
	if !ok {
		return nil, errorf("str2saltedpbkdf2(): third argument must be an integer")
	}
	if iterations <= 40000 || iterations >= 70000 {
		return nil, errorf("str2saltedpbkdf2(): third argument must be between 40,000 and 70,000")
	}
	key, err := pbkdf2.Key(sha512.New, string(password), []byte(salt), int(iterations), 128)
	if err != nil {
		return nil, err
	}
	return value.NewHash(
		value.String("password_hex"), value.String(hex.EncodeToString(key)),
		value.String("salt_hex"), value.String(hex.EncodeToString([]byte(salt))),
		value.String("iterations"), iterations,
	), nil
}
