package ruby

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// The pbkdf2-ruby gem (0.2.2) defines a PBKDF2 class whose key derivation
// runs its HMAC rounds in Ruby, each round XORing two strings a byte at a
// time through a String#^ it adds: 50,000 rounds (icinga2's ticket ids)
// are a million block calls, seconds in this interpreter. A library file
// that is byte for byte a known copy of the gem is therefore not run: its
// require defines the class and the String#^ as the subset's own, the key
// derived by Go's crypto/pbkdf2, with the gem's checks and messages. Any
// other file (a changed copy) is run as Ruby, as before.

// pbkdf2Copies are the SHA-256 digests of the known copies of the gem's
// file, by size: icinga-icinga2's lib/puppet_x/icinga2/pbkdf2.rb.
var pbkdf2Copies = map[int]string{
	5375: "af7502824d5578653e914d8c88708d5c08e33232a6b4437e89b89b27c2486ea4",
}

// isPBKDF2Gem reports whether src is a known copy of the gem's file (a
// file of another size is not hashed).
func isPBKDF2Gem(src []byte) bool {
	want, ok := pbkdf2Copies[len(src)]
	if !ok {
		return false
	}
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:]) == want
}

// Bounds past which the subset leaves a derivation to real Ruby.
const (
	maxPBKDF2Iterations = 10_000_000
	maxPBKDF2KeyLength  = 1 << 16
)

// pbkdf2Obj is an instance of the gem's PBKDF2 class.
type pbkdf2Obj struct {
	password, salt *rstr
	iterations     int64
	keyLength      int64
	digest         *osslDigest
	value          *rstr // computed on first use
}

// digestSize is the output size in bytes of the named digest.
func digestSize(name string) int64 { return int64(digestHash(name)().Size()) }

// newPBKDF2 is PBKDF2.new(opts): each option through its writer, in the
// hash's order, as the gem's initialize does.
func (in *interp) newPBKDF2(line int, args []any, blk *blockVal) (any, bool, error) {
	if blk != nil || len(args) > 1 {
		return nil, true, in.unsupported(line, "PBKDF2.new with a block or more than an options hash")
	}
	p := &pbkdf2Obj{digest: &osslDigest{name: "sha256"}}
	if len(args) == 1 {
		opts, ok := args[0].(*rhash)
		if !ok {
			return nil, true, in.unsupported(line, "PBKDF2.new(%s)", className(args[0]))
		}
		for i, k := range opts.keys {
			name := toS(k)
			if err := in.pbkdf2Set(line, p, name, opts.vals[i]); err != nil {
				return nil, true, err
			}
		}
	}
	if p.keyLength == 0 {
		p.keyLength = digestSize(p.digest.name)
	}
	switch {
	case p.password == nil:
		return nil, true, in.errorf(line, "ArgumentError", "password not set")
	case p.salt == nil:
		return nil, true, in.errorf(line, "ArgumentError", "salt not set")
	case p.iterations == 0:
		return nil, true, in.errorf(line, "ArgumentError", "iterations not set")
	}
	return p, true, nil
}

// pbkdf2Set is one of the gem's attribute writers.
func (in *interp) pbkdf2Set(line int, p *pbkdf2Obj, name string, v any) error {
	integer := func() (int64, error) {
		n, ok := v.(int64)
		if !ok {
			return 0, in.unsupported(line, "PBKDF2 %s of %s", name, className(v))
		}
		return n, nil
	}
	p.value = nil
	switch name {
	case "password", "salt":
		s, ok := v.(*rstr)
		if !ok {
			return in.unsupported(line, "PBKDF2 %s of %s", name, className(v))
		}
		if name == "password" {
			p.password = s
		} else {
			p.salt = s
		}
	case "iterations":
		n, err := integer()
		if err != nil {
			return err
		}
		if n < 1 {
			return in.errorf(line, "ArgumentError", "iterations can't be less than 1")
		}
		if n > maxPBKDF2Iterations {
			return in.unsupported(line, "PBKDF2 of more than %d iterations", maxPBKDF2Iterations)
		}
		p.iterations = n
	case "key_length":
		n, err := integer()
		if err != nil {
			return err
		}
		if n < 1 {
			return in.errorf(line, "ArgumentError", "key too short")
		}
		if n > (1<<32-1)*digestSize(p.digest.name) {
			return in.errorf(line, "ArgumentError", "key too long")
		}
		if n > maxPBKDF2KeyLength {
			return in.unsupported(line, "PBKDF2 key of more than %d bytes", maxPBKDF2KeyLength)
		}
		p.keyLength = n
	case "hash_function":
		switch h := v.(type) {
		case *osslDigest:
			p.digest = h
		case *rstr, symbol:
			// A name, less the 'hmacWith' the gem strips (in place, from
			// a String).
			s := toS(h)
			if len(s) >= 8 && strings.EqualFold(s[:8], "hmacWith") {
				s = s[8:]
			}
			if r, ok := h.(*rstr); ok && r.s != s {
				if r.frozen {
					return in.frozenError(line, r)
				}
				r.s = s
			}
			if digestHash(s) == nil {
				return in.unsupported(line, "OpenSSL digest %s", s)
			}
			p.digest = &osslDigest{name: s}
		default:
			return in.errorf(line, "TypeError", "Unknown hash type: %s", className(v))
		}
	default:
		return in.errorf(line, "ArgumentError", "Argument '%s' is not allowed", name)
	}
	return nil
}

// pbkdf2Method calls a method of a PBKDF2 instance.
func (in *interp) pbkdf2Method(line int, p *pbkdf2Obj, name string, args []any) (any, bool, error) {
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "value", "bin_string", "hex_string":
		if p.value == nil {
			key, err := pbkdf2.Key(digestHash(p.digest.name), p.password.s, []byte(p.salt.s), int(p.iterations), int(p.keyLength))
			if err != nil {
				return nil, true, in.unsupported(line, "PBKDF2: %v", err)
			}
			p.value = newStr(string(key))
		}
		if name == "hex_string" {
			return newStr(hex.EncodeToString([]byte(p.value.s))), true, nil
		}
		return p.value, true, nil
	case "password":
		return p.password, true, nil
	case "salt":
		return p.salt, true, nil
	case "iterations":
		return p.iterations, true, nil
	case "key_length":
		return p.keyLength, true, nil
	case "hash_function":
		return p.digest, true, nil
	}
	return nil, false, nil
}

// pbkdf2Xor is the String#^ the gem adds: the bytes of two Strings of the
// same length XORed.
func (in *interp) pbkdf2Xor(line int, s *rstr, args []any) (any, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	o, ok := args[0].(*rstr)
	if !ok {
		return nil, true, in.errorf(line, "ArgumentError", "Can't bitwise-XOR a String with a non-String")
	}
	if utf8.RuneCountInString(s.s) != utf8.RuneCountInString(o.s) {
		return nil, true, in.errorf(line, "ArgumentError", "Can't bitwise-XOR strings of different length")
	}
	if len(s.s) != len(o.s) {
		return nil, true, in.unsupported(line, "String#^ of strings of the same length in characters but not in bytes")
	}
	b := make([]byte, len(s.s))
	for i := range b {
		b[i] = s.s[i] ^ o.s[i]
	}
	return newStr(string(b)), true, nil
}
