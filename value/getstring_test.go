package value

import (
	"fmt"
	"testing"
)

// TestGetStringAgreesWithGet: looking a string key up without boxing it
// finds what Get(String(k)) finds, in hashes small (scanned) and large
// (indexed), with keys of other types that print alike, and allocates
// nothing.
func TestGetStringAgreesWithGet(t *testing.T) {
	small := NewHash(String("a"), Integer(1), Integer(1), String("int key"), String("1"), String("string key"))
	var kv []Value
	for i := 0; i < 3*indexThreshold; i++ {
		kv = append(kv, String(fmt.Sprint("k", i)), Integer(i), Integer(i), String("int"))
	}
	kv = append(kv, String("1"), String("string one"))
	big := NewHash(kv...)
	for _, h := range []*Hash{small, big, EmptyHash, nil} {
		for _, k := range []string{"a", "1", "k0", "k7", "k23", "missing", ""} {
			got, gotOK := h.GetString(k)
			want, wantOK := h.Get(String(k))
			if gotOK != wantOK || gotOK && !Identical(got, want) {
				t.Errorf("GetString(%q) = %v, %v; Get = %v, %v", k, got, gotOK, want, wantOK)
			}
		}
	}
	key := "k5"
	if n := testing.AllocsPerRun(100, func() { small.GetString(key); big.GetString(key) }); n != 0 {
		t.Errorf("GetString allocates %v times a call", n)
	}
}

// TestCheckInstanceAllocatesNothing: a type check of plain values needs no
// heap (its record of a regexp timeout stays on the stack).
func TestCheckInstanceAllocatesNothing(t *testing.T) {
	types := []Type{
		&IntegerType{Min: 0, Max: 10},
		&StringType{Min: 0, Max: MaxInt},
		&OptionalType{Type: &IntegerType{Min: MinInt, Max: MaxInt}},
	}
	vals := []Value{Integer(3), String("x"), Undef}
	for _, ty := range types {
		for _, v := range vals {
			if n := testing.AllocsPerRun(50, func() { _, _ = CheckInstance(ty, v) }); n != 0 {
				t.Errorf("CheckInstance(%s, %v) allocates %v times", ty, v, n)
			}
		}
	}
}
