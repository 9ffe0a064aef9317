package ruby

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strings"
)

// osslDigest is an OpenSSL::Digest: a named hash algorithm.
type osslDigest struct{ name string }

// osslHMAC is an OpenSSL::HMAC being fed data.
type osslHMAC struct {
	key    string
	digest string
	data   strings.Builder
}

// newHash gives the Go hash of an OpenSSL digest name, or nil.
func digestHash(name string) func() hash.Hash {
	switch strings.ToUpper(strings.ReplaceAll(name, "-", "")) {
	case "MD5":
		return md5.New
	case "SHA1":
		return sha1.New
	case "SHA256":
		return sha256.New
	case "SHA384":
		return sha512.New384
	case "SHA512":
		return sha512.New
	}
	return nil
}

// digestArg reads a digest argument: an OpenSSL::Digest or its name.
func (in *interp) digestArg(line int, v any) (string, func() hash.Hash, error) {
	var name string
	switch d := v.(type) {
	case *osslDigest:
		name = d.name
	case *rstr:
		name = d.s
	default:
		return "", nil, in.errorf(line, "TypeError", "wrong argument type %s (expected OpenSSL/Digest)", className(v))
	}
	h := digestHash(name)
	if h == nil {
		return "", nil, in.unsupported(line, "OpenSSL digest %s", name)
	}
	return name, h, nil
}

// cryptoClassMethod implements Base64's functions and the OpenSSL classes
// Ruby functions use to hash passwords (postgresql's SCRAM-SHA-256).
func (in *interp) cryptoClassMethod(line int, class, name string, args []any) (any, bool, error) {
	str := func(i int) (string, bool) {
		if i < len(args) {
			if s, ok := args[i].(*rstr); ok {
				return s.s, true
			}
		}
		return "", false
	}
	switch class + "." + name {
	case "Base64.strict_encode64", "Base64.encode64", "Base64.urlsafe_encode64":
		s, ok := str(0)
		if !ok || len(args) != 1 {
			return nil, false, nil
		}
		switch name {
		case "strict_encode64":
			return newStr(base64.StdEncoding.EncodeToString([]byte(s))), true, nil
		case "urlsafe_encode64":
			return newStr(base64.URLEncoding.EncodeToString([]byte(s))), true, nil
		}
		return newStr(base64Lines(s)), true, nil
	case "Base64.strict_decode64":
		s, ok := str(0)
		if !ok || len(args) != 1 {
			return nil, false, nil
		}
		d, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, true, in.errorf(line, "ArgumentError", "invalid base64")
		}
		return newStr(string(d)), true, nil
	case "OpenSSL::X509::Certificate.new", "OpenSSL::PKey::RSA.new":
		s, ok := str(0)
		if !ok || len(args) != 1 {
			return nil, false, nil
		}
		var v any
		var err error
		if class == "OpenSSL::PKey::RSA" {
			v, err = in.newRSAKey(line, s)
		} else {
			v, err = in.newX509Cert(line, s)
		}
		return v, true, err
	case "OpenSSL::Digest.new":
		s, ok := str(0)
		if !ok || len(args) != 1 {
			return nil, false, nil
		}
		if digestHash(s) == nil {
			return nil, true, in.unsupported(line, "OpenSSL digest %s", s)
		}
		return &osslDigest{name: s}, true, nil
	case "OpenSSL::HMAC.new":
		key, ok := str(0)
		if !ok || len(args) != 2 {
			return nil, false, nil
		}
		d, _, err := in.digestArg(line, args[1])
		if err != nil {
			return nil, true, err
		}
		return &osslHMAC{key: key, digest: d}, true, nil
	case "OpenSSL::HMAC.digest", "OpenSSL::HMAC.hexdigest":
		key, ok1 := str(1)
		data, ok2 := str(2)
		if !ok1 || !ok2 || len(args) != 3 {
			return nil, false, nil
		}
		_, h, err := in.digestArg(line, args[0])
		if err != nil {
			return nil, true, err
		}
		return hmacResult(h, key, data, name == "hexdigest"), true, nil
	case "OpenSSL::KDF.pbkdf2_hmac":
		pass, ok := str(0)
		var opts *rhash
		if len(args) == 2 {
			opts, _ = args[1].(*rhash)
		}
		if !ok || opts == nil {
			return nil, false, nil
		}
		salt, _ := opts.get(symbol("salt"))
		iter, _ := opts.get(symbol("iterations"))
		length, _ := opts.get(symbol("length"))
		hv, _ := opts.get(symbol("hash"))
		s, okS := salt.(*rstr)
		n, okI := iter.(int64)
		l, okL := length.(int64)
		if !okS || !okI || !okL || n < 1 || l < 1 || n > 10_000_000 || l > 1<<16 {
			return nil, true, in.unsupported(line, "OpenSSL::KDF.pbkdf2_hmac arguments")
		}
		_, h, err := in.digestArg(line, hv)
		if err != nil {
			return nil, true, err
		}
		key, err := pbkdf2.Key(h, pass, []byte(s.s), int(n), int(l))
		if err != nil {
			return nil, true, in.errorf(line, "OpenSSL::KDF::KDFError", "PKCS5_PBKDF2_HMAC: %v", err)
		}
		return newStr(string(key)), true, nil
	}
	return nil, false, nil
}

// base64Lines is Base64.encode64 (and pack('m')): lines of 60 characters,
// each ending with a newline.
func base64Lines(s string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60] + "\n")
		enc = enc[60:]
	}
	if enc != "" {
		b.WriteString(enc + "\n")
	}
	return b.String()
}

// hmacResult computes an HMAC, raw or in hex.
func hmacResult(h func() hash.Hash, key, data string, hexOut bool) *rstr {
	m := hmac.New(h, []byte(key))
	m.Write([]byte(data))
	sum := m.Sum(nil)
	if hexOut {
		return newStr(hex.EncodeToString(sum))
	}
	return newStr(string(sum))
}

// digestMethods are OpenSSL::Digest's methods, by name.
func digestMethods() methodTable[*osslDigest] {
	t := methodTable[*osslDigest]{}
	t.def("digest hexdigest", func(in *interp, line int, d *osslDigest, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		s, ok := args[0].(*rstr)
		if !ok {
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[0]))
		}
		h := digestHash(d.name)()
		h.Write([]byte(s.s))
		if name == "hexdigest" {
			return newStr(hex.EncodeToString(h.Sum(nil))), true, nil
		}
		return newStr(string(h.Sum(nil))), true, nil
	})
	t.def("name", func(in *interp, line int, d *osslDigest, name string, args []any, blk *blockVal) (any, bool, error) {
		return newStr(strings.ToUpper(d.name)), true, nil
	})
	return t
}

// hmacMethods are OpenSSL::HMAC's methods, by name.
func hmacMethods() methodTable[*osslHMAC] {
	t := methodTable[*osslHMAC]{}
	t.def("<< update", func(in *interp, line int, m *osslHMAC, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		s, ok := args[0].(*rstr)
		if !ok {
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[0]))
		}
		if m.data.Len()+len(s.s) > in.maxString {
			return nil, true, in.stringTooLarge(line)
		}
		m.data.WriteString(s.s)
		return m, true, nil
	})
	t.def("digest hexdigest", func(in *interp, line int, m *osslHMAC, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 0 {
			return nil, false, nil
		}
		return hmacResult(digestHash(m.digest), m.key, m.data.String(), name == "hexdigest"), true, nil
	})
	return t
}
