package catalog

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// escapeByByte is the escaping rule written plainly, one character at a
// time: the reference for the word-at-a-time encoder.
func escapeByByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString("\ufffd")
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// TestEscapedEveryByteEveryLength: each byte value at each position of
// strings of every length up to 20 (the tails and short strings the
// overlapping words look at) is escaped as the plain rule escapes it.
func TestEscapedEveryByteEveryLength(t *testing.T) {
	for n := 1; n <= 20; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				s := []byte(strings.Repeat("abcdefghijklmnopqrstu", 1)[:n])
				s[pos] = byte(c)
				var e encoder
				e.escaped(string(s))
				if got, want := string(e.buf), escapeByByte(string(s)); got != want {
					t.Fatalf("length %d, byte %#x at %d: got %q, want %q", n, c, pos, got, want)
				}
			}
		}
	}
}

// TestEscapedEveryByteEveryLane: each byte value, at each position of the
// first and second eight-byte word and in the tail, is escaped as the
// plain rule escapes it.
func TestEscapedEveryByteEveryLane(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 19; pos++ {
			s := []byte(strings.Repeat("abcdefgh", 2) + "xyz")
			s[pos] = byte(c)
			var e encoder
			e.escaped(string(s))
			if got, want := string(e.buf), escapeByByte(string(s)); got != want {
				t.Fatalf("byte %#x at %d: got %q, want %q", c, pos, got, want)
			}
		}
	}
}

// TestEscapedRandom: random strings mixing ASCII, control characters,
// quotes, multi-byte UTF-8 and invalid bytes.
func TestEscapedRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "Z", " ", "\"", "\\", "\n", "\x01", "\x1f", "\x7f", "é", "€", "😀", "\xff", "\xe2\x82", "/", "<"}
	for n := 0; n < 5000; n++ {
		var b strings.Builder
		for k := rng.Intn(40); k >= 0; k-- {
			if rng.Intn(3) == 0 {
				b.WriteString(pieces[rng.Intn(len(pieces))])
			} else {
				b.WriteString(strings.Repeat("p", rng.Intn(12)))
			}
		}
		s := b.String()
		var e encoder
		e.escaped(s)
		if got, want := string(e.buf), escapeByByte(s); got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	}
}
