package ruby

import (
	"strings"

	"github.com/marionette-dev/marionette/unixcrypt"
)

// String#crypt as Ruby on Debian computes it with libxcrypt, for the
// schemes openldap::password and similar functions use: traditional DES
// (a two-character salt), MD5 ($1$), SHA-256 ($5$) and SHA-512 ($6$). A
// salt libxcrypt rejects gives its failure token "*0" ("*1" when the salt
// itself starts with "*0"); other schemes (bcrypt, yescrypt) are
// unsupported rather than computed differently.

// strCrypt implements String#crypt(salt).
func (in *interp) strCrypt(line int, s *rstr, args []any) (any, bool, error) {
	if len(args) != 1 {
		return nil, false, nil
	}
	salt, err := in.strArg(line, args, 0)
	if err != nil {
		return nil, true, err
	}
	if strings.IndexByte(s.s, 0) >= 0 || strings.IndexByte(salt, 0) >= 0 {
		return nil, true, in.errorf(line, "ArgumentError", "string contains null byte")
	}
	if len(salt) < 2 {
		return nil, true, in.errorf(line, "ArgumentError", "salt too short (need >=2 bytes)")
	}
	out, ok, supported := unixcrypt.Hash(s.s, salt)
	if !supported {
		return nil, true, in.unsupported(line, "String#crypt with the salt %s", inspect(newStr(salt)))
	}
	if !ok {
		out = "*0"
		if strings.HasPrefix(salt, "*0") {
			out = "*1"
		}
	}
	return newStr(out), true, nil
}
