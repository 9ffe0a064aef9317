package unixcrypt

import (
	"crypto/des"
	"math/rand/v2"
	"testing"
)

// TestDESAgainstCryptoDES checks the DES of crypt (without salt) against
// the standard library's DES, which catches a wrong table entry.
func TestDESAgainstCryptoDES(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		var key [8]byte
		var in [8]byte
		for i := range key {
			key[i], in[i] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		c, err := des.NewCipher(key[:])
		if err != nil {
			t.Fatal(err)
		}
		var want [8]byte
		c.Encrypt(want[:], in[:])
		var blk desBlock
		for i := range blk {
			blk[i] = in[i/8] >> (7 - i%8) & 1
		}
		ks := desSubkeys(key)
		e := desE
		out := desEncrypt(blk, &ks, &e)
		var got [8]byte
		for i, b := range out {
			got[i/8] |= b << (7 - i%8)
		}
		if got != want {
			t.Fatalf("key %x block %x: got %x, want %x", key, in, got, want)
		}
	}
}
