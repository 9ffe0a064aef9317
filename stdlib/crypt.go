package stdlib

import (
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/unixcrypt"
	"github.com/marionette-dev/marionette/value"
)

// pw_hash is crypt(3) with an explicit salt, so its result is fixed for a
// given password and salt. The MD5 ($1$) and SHA-2 ($5$, $6$) schemes are
// implemented after their published specifications, bcrypt ($2a$, $2b$,
// $2x$, $2y$) over Blowfish (unixcrypt.Bcrypt).

func addCrypt(t functions.Table) {
	t["pw_hash"] = legacy(pwHash)
	t["str2saltedpbkdf2"] = legacy(str2saltedPBKDF2)
}

var cryptSalt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A[a-zA-Z0-9./]+\z`) })

// bcryptSalt is stdlib's test of a bcrypt salt: the cost, then 22
// characters, at the start of a line (Ruby's ^), anything after them.
var bcryptSalt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{22}`)
})

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
	bcrypt := strings.HasPrefix(prefix, "2")
	if bcrypt && !bcryptSalt().MatchString(string(salt)) {
		// The message shows stdlib's Ruby Regexp as Ruby prints it.
		return nil, errorf(`pw_hash(): characters in salt must match (?-mix:^(0[4-9]|[12][0-9]|3[01])\$[.\/A-Za-z0-9]{22})`)
	}
	if !bcrypt && !cryptSalt().MatchString(string(salt)) {
		return nil, errorf("pw_hash(): characters in salt must be in the set [a-zA-Z0-9./]")
	}
	if password == "" {
		return value.Undef, nil
	}
	if bcrypt {
		setting := "$" + prefix + "$" + string(salt)
		var poll func() error
		if c != nil && c.Eval != nil {
			poll = c.Eval.Poll
		}
		out, ok, supported, err := unixcrypt.Bcrypt(string(password), setting, poll)
		if err != nil {
			return nil, err
		}
		if !supported {
			return nil, errorf("pw_hash(): %s with bytes past ASCII in the password is not computed by marionette", setting[:4])
		}
		if !ok {
			return nil, errorf("pw_hash(): the salt %q is not one crypt(3) accepts", salt)
		}
		return value.String(out), nil
	}
	// Puppet calls Ruby's String#crypt with "$<id>$<salt>", the system's
	// crypt(3).
	out, ok, supported := unixcrypt.Hash(string(password), "$"+prefix+"$"+string(salt))
	if !ok || !supported {
		return nil, errorf("pw_hash(): the salt %q is not one crypt(3) accepts", salt)
	}
	return value.String(out), nil
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
