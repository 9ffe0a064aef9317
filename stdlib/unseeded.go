package stdlib

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"math/big"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// shuffle and str2saltedsha512 use Ruby's unseeded rand: any result is
// as right as Puppet's, so they draw from crypto/rand, which needs no
// state of ours.

func addUnseeded(t functions.Table) {
	t["shuffle"] = legacy(shuffle)
	t["str2saltedsha512"] = legacy(str2SaltedSHA512)
}

// randBelow is a uniform random integer in [0, n), n > 0.
func randBelow(n int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0 // crypto/rand does not fail on supported platforms
	}
	return int(v.Int64())
}

// shuffle is the 3.x shuffle(array_or_string): its elements (a string's
// characters) in random order.
func shuffle(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "shuffle(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	functions.NoteUntracked(c, "a random draw (shuffle)")
	switch v := args[0].(type) {
	case value.Array:
		out := append(value.Array{}, v...)
		for i := range out {
			j := i + randBelow(len(out)-i)
			out[i], out[j] = out[j], out[i]
		}
		return out, nil
	case value.String:
		chars := []rune(string(v))
		for i := range chars {
			j := i + randBelow(len(chars)-i)
			chars[i], chars[j] = chars[j], chars[i]
		}
		return value.String(string(chars)), nil
	}
	return nil, errorf("shuffle(): Requires either array or string to work with")
}

// str2SaltedSHA512 is the 3.x str2saltedsha512(password): a random 4-byte
// salt followed by SHA-512(salt + password), in hex (the form of OS X
// password hashes). Ruby packs the salt, rand(2**31 - 1), as a
// little-endian 32-bit integer.
func str2SaltedSHA512(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) != 1 {
		return nil, errorf("str2saltedsha512(): Wrong number of arguments passed (%d but we require 1)", len(args))
	}
	functions.NoteUntracked(c, "a random draw (str2saltedsha512)")
	password, ok := args[0].(value.String)
	if !ok {
		return nil, errorf("str2saltedsha512(): Requires a String argument, you passed: %s", value.RubyClass(args[0]))
	}
	salt := binary.LittleEndian.AppendUint32(nil, uint32(randBelow(1<<31-1)))
	sum := sha512.Sum512(append(append([]byte{}, salt...), password...))
	return value.String(hex.EncodeToString(salt) + hex.EncodeToString(sum[:])), nil
}
