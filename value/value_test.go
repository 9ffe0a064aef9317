package value

import (
	"math/rand"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func mustRegexp(t *testing.T, s string) *Regexp {
	t.Helper()
	r, err := NewRegexp(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func param(t *testing.T, base Type, args ...Value) Type {
	t.Helper()
	pt, err := Parameterize(base, args)
	if err != nil {
		t.Fatalf("Parameterize(%s, %v): %v", TypeString(base), args, err)
	}
	return pt
}

// The expected strings are what Puppet 7.23 prints for the same types and values
// (checked with notice() on the oracle).
func TestTypeString(t *testing.T) {
	tests := []struct {
		got  Type
		want string
	}{
		{TypeOf(String("abc")), "String"},
		{TypeOf(Integer(3)), "Integer[3, 3]"},
		{TypeOf(Float(3.5)), "Float[3.5, 3.5]"},
		{TypeOf(Array{Integer(1), String("a")}), "Tuple[Integer[1, 1], String]"},
		{TypeOf(NewHash(String("a"), Integer(1))), "Struct[{'a' => Integer[1, 1]}]"},
		{TypeOf(mustRegexp(t, "x")), "Regexp[/x/]"},
		{TypeOf(Undef), "Undef"},
		{TypeOf(Default), "Default"},
		{TypeOf(True), "Boolean[true]"},
		{TypeOf(Array{}), "Array[0, 0]"},
		{TypeOf(EmptyHash), "Hash[0, 0]"},
		{TypeOf(IntegerAny), "Type[Integer]"},
		{TypeOf(&Sensitive{String("x")}), "Sensitive[String]"},
		{param(t, IntegerAny, Integer(1)), "Integer[1]"},
		{param(t, IntegerAny, Default, Integer(4)), "Integer[default, 4]"},
		{param(t, FloatAny, Float(1)), "Float[1.0]"},
		{param(t, StringAny, Integer(1)), "String[1]"},
		{ArrayAny, "Array"},
		{&ArrayType{Elem: UnitType, Min: 0, Max: MaxInt}, "Array[Unit]"}, // type([], 'generalized')
		{param(t, ArrayAny, StringAny, Integer(1)), "Array[String, 1]"},
		{param(t, HashAny, StringAny, IntegerAny, Integer(1), Integer(2)), "Hash[String, Integer, 1, 2]"},
		{param(t, OptionalAny, StringAny), "Optional[String]"},
		{param(t, OptionalAny, String("a")), "Optional['a']"},
		{param(t, EnumAny, String("a"), String("b")), "Enum['a', 'b']"},
		{param(t, PatternAny, mustRegexp(t, "a"), mustRegexp(t, "b")), "Pattern[/a/, /b/]"},
		{param(t, StructAny, NewHash(String("a"), IntegerAny, param(t, OptionalAny, String("b")), StringAny)),
			"Struct[{'a' => Integer, Optional['b'] => String}]"},
		{param(t, TupleAny, IntegerAny, StringAny, Integer(1), Integer(3)), "Tuple[Integer, String, 1, 3]"},
		{param(t, VariantAny, IntegerAny, StringAny), "Variant[Integer, String]"},
		{&ResourceType{Type: "File", Title: "/x"}, "File['/x']"},
		{param(t, ClassAny, String("foo")), "Class[foo]"},
		{param(t, TypeAny, IntegerAny), "Type[Integer]"},
		{param(t, NotUndefAny, StringAny), "NotUndef[String]"},
		{DataType, "Data"},
		{param(t, RegexpAny, mustRegexp(t, "a")), "Regexp[/a/]"},
		{param(t, BooleanAny, True), "Boolean[true]"},
	}
	for _, tt := range tests {
		if s := TypeString(tt.got); s != tt.want {
			t.Errorf("TypeString = %q, want %q", s, tt.want)
		}
	}
}

func TestToString(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Array{Integer(1), String("a"), Float(2), Undef, True, NewHash(String("a"), String("b"))}, "[1, a, 2.0, , true, {a => b}]"},
		{NewHash(String("a"), Array{Integer(1), String("x")}), "{a => [1, x]}"},
		{Float(1e20), "1.0e+20"},
		{Float(1.5e-7), "1.5e-07"},
		{Float(100.0 / 3), "33.333333333333336"},
		{Float(1e15), "1.0e+15"}, // Ruby's Float#to_s
		{Float(123456789012345), "123456789012345.0"},
		{Float(9999999999999998), "9.999999999999998e+15"},
		{Float(1e16), "1.0e+16"},
		{Float(0.0001), "0.0001"},
		{Float(-2.5), "-2.5"},
		{&Sensitive{String("x")}, "Sensitive [value redacted]"},
		{Default, "default"},
	}
	for _, tt := range tests {
		if s := ToString(tt.v); s != tt.want {
			t.Errorf("ToString(%#v) = %q, want %q", tt.v, s, tt.want)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b Value
		want bool
	}{
		{String("abc"), String("ABC"), true},
		{String("é"), String("É"), false}, // ASCII-only folding, like Ruby's casecmp
		{Integer(1), Float(1), true},
		{Array{String("a")}, Array{String("A")}, true},
		{NewHash(String("a"), Integer(1)), NewHash(String("a"), Integer(1)), true},
		{NewHash(String("a"), Integer(1)), NewHash(String("A"), Integer(1)), false}, // keys are exact
		{Undef, Undef, true},
		{Undef, String(""), false},
		{IntegerAny, IntegerAny, true},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%v, %v) = %v, want %v", Literal(tt.a), Literal(tt.b), got, tt.want)
		}
	}
}

func TestIsInstance(t *testing.T) {
	strOrInt := param(t, VariantAny, StringAny, IntegerAny)
	tests := []struct {
		t    Type
		v    Value
		want bool
	}{
		{param(t, IntegerAny, Integer(1), Integer(10)), Integer(10), true},
		{param(t, IntegerAny, Integer(1), Integer(10)), Integer(11), false},
		{IntegerAny, Float(1), false},
		{NumericType, Float(1), true},
		{param(t, StringAny, Integer(2)), String("é"), false}, // length counts characters
		{param(t, EnumAny, String("a"), String("b")), String("b"), true},
		{param(t, EnumAny, String("a"), String("b")), String("B"), false},
		{param(t, EnumAny, String("a"), True), String("A"), true},
		{param(t, PatternAny, mustRegexp(t, `^\d+$`)), String("12"), true},
		{param(t, PatternAny, mustRegexp(t, `^\d+$`)), String("1a"), false},
		{param(t, ArrayAny, StringAny), Array{String("a"), Integer(1)}, false},
		{param(t, HashAny, StringAny, strOrInt), NewHash(String("a"), Integer(1), String("b"), String("x")), true},
		{param(t, OptionalAny, StringAny), Undef, true},
		{param(t, NotUndefAny, StringAny), Undef, false},
		{param(t, TupleAny, StringAny, IntegerAny), Array{String("a"), Integer(1)}, true},
		{param(t, TupleAny, StringAny, IntegerAny), Array{String("a")}, false},
		{param(t, StructAny, NewHash(String("a"), IntegerAny, param(t, OptionalAny, String("b")), StringAny)), NewHash(String("a"), Integer(1)), true},
		{param(t, StructAny, NewHash(String("a"), IntegerAny)), NewHash(String("a"), Integer(1), String("c"), Integer(2)), false},
		{DataType, Array{NewHash(String("a"), Undef)}, true},
		{DataType, mustRegexp(t, "x"), false},
		{ScalarType, mustRegexp(t, "x"), true},
		{param(t, TypeAny, NumericType), IntegerAny, true},
		{param(t, TypeAny, IntegerAny), NumericType, false},
		{AnyType, Undef, true},
		{param(t, SensitiveAny, StringAny), &Sensitive{String("x")}, true},
		{IterableAny, Integer(3), true},
	}
	for _, tt := range tests {
		if got := IsInstance(tt.t, tt.v); got != tt.want {
			t.Errorf("IsInstance(%s, %s) = %v, want %v", TypeString(tt.t), Literal(tt.v), got, tt.want)
		}
	}
}

func TestIsAssignable(t *testing.T) {
	tests := []struct {
		t, u Type
		want bool
	}{
		{NumericType, IntegerAny, true},
		{IntegerAny, NumericType, false},
		{param(t, IntegerAny, Integer(0)), param(t, IntegerAny, Integer(1), Integer(5)), true},
		{param(t, IntegerAny, Integer(2)), param(t, IntegerAny, Integer(1), Integer(5)), false},
		{DataType, param(t, ArrayAny, StringAny), true},
		{DataType, param(t, HashAny, IntegerAny, StringAny), false},
		{RichDataType, param(t, HashAny, IntegerAny, StringAny), true},
		{param(t, OptionalAny, StringAny), UndefType, true},
		{StringAny, param(t, OptionalAny, StringAny), false},
		{param(t, ArrayAny, NumericType), param(t, TupleAny, IntegerAny, FloatAny), true},
		{ScalarType, param(t, EnumAny, String("a")), true},
		{StringAny, param(t, EnumAny, String("a")), true},
		{param(t, StringAny, Integer(2)), param(t, EnumAny, String("a")), false},
		{&ResourceType{Type: "File"}, &ResourceType{Type: "File", Title: "/x"}, true},
		{&ResourceType{Type: "File", Title: "/x"}, &ResourceType{Type: "File"}, false},
		{ResourceAny, &ResourceType{Type: "File"}, true},
		{CatalogEntry, &ClassType{Name: "x"}, true},
	}
	for _, tt := range tests {
		if got := IsAssignable(tt.t, tt.u); got != tt.want {
			t.Errorf("IsAssignable(%s, %s) = %v, want %v", TypeString(tt.t), TypeString(tt.u), got, tt.want)
		}
	}
}

func TestHashOrderAndIndex(t *testing.T) {
	b := NewHashBuilder(0)
	for i := 20; i > 0; i-- {
		b.Set(Integer(i), Integer(i*i))
	}
	b.Set(Integer(20), String("replaced"))
	h := b.Build()
	if h.Len() != 20 {
		t.Fatalf("Len = %d", h.Len())
	}
	if k, v := h.At(0); !Identical(k, Integer(20)) || !Identical(v, String("replaced")) {
		t.Errorf("first entry = %v => %v, want 20 => replaced (position kept)", k, v)
	}
	if v, ok := h.Get(Integer(7)); !ok || v != Integer(49) {
		t.Errorf("Get(7) = %v, %v", v, ok)
	}
	if _, ok := h.Get(Float(7)); ok {
		t.Errorf("Get(7.0) found an Integer key; Puppet keys are strict")
	}
	m := Merge(NewHash(String("a"), Integer(1), String("b"), Integer(2)), NewHash(String("a"), Integer(3)))
	if Literal(m) != "{'a' => 3, 'b' => 2}" {
		t.Errorf("Merge = %s", Literal(m))
	}
}

func TestRegexpRubyAnchors(t *testing.T) {
	r := mustRegexp(t, `^b$`)
	if !r.Go().MatchString("a\nb\nc") {
		t.Errorf("^ and $ must match at line boundaries as in Ruby")
	}
}

// Real modules validate with lookahead patterns RE2 cannot run; they fall
// back to the backtracking engine with the same results Ruby gives.
func TestRegexpLookaroundFallback(t *testing.T) {
	r := mustRegexp(t, `^(?!-)[a-z0-9-]+(?<!-)$`)
	if r.Go() != nil {
		t.Fatal("expected the fallback engine for lookaround")
	}
	for s, want := range map[string]bool{"web-01": true, "-web": false, "web-": false, "wéb": false} {
		if got := r.MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
	}
	r = mustRegexp(t, `(é)(\d+)(?=x)`)
	m := r.FindStringSubmatchIndex("aé12x")
	if len(m) != 6 || m[0] != 1 || m[1] != 5 || m[4] != 3 {
		t.Errorf("byte offsets = %v, want [1 5 1 3 3 5]", m)
	}
	if got := r.FindStringSubmatch("aé12x"); len(got) != 3 || got[1] != "é" || got[2] != "12" {
		t.Errorf("FindStringSubmatch = %q", got)
	}
}

// Expected texts are Puppet 7.23's, for the same parameter types and values.
func TestDescribeMismatch(t *testing.T) {
	tests := []struct {
		t    Type
		v    Value
		want string
	}{
		{param(t, OptionalAny, HashAny), String("x"), "expects a value of type Undef or Hash, got String"},
		{param(t, VariantAny, StringAny, ArrayAny, HashAny), Integer(1), "expects a value of type String, Array, or Hash, got Integer"},
		{IntegerAny, String("80"), "expects an Integer value, got String"},
		{param(t, IntegerAny, Integer(1), Integer(10)), Integer(11), "expects an Integer[1, 10] value, got Integer[11, 11]"},
		{param(t, EnumAny, String("low"), String("high")), String("medium"), "expects a match for Enum['high', 'low'], got 'medium'"},
		{param(t, ArrayAny, StringAny), Array{String("a"), Integer(1)}, "index 1 expects a String value, got Integer"},
		{param(t, StructAny, NewHash(String("size"), IntegerAny)), NewHash(String("size"), String("big")), "entry 'size' expects an Integer value, got String"},
	}
	for _, tt := range tests {
		if got := DescribeMismatch(tt.t, tt.v); got != tt.want {
			t.Errorf("DescribeMismatch(%s, %s) = %q, want %q", TypeString(tt.t), Literal(tt.v), got, tt.want)
		}
	}
}

func TestCapitalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"file": "File", "File": "File", "FILE": "File", "::file": "File", "": "",
		"mymod::thing": "Mymod::Thing", "Mymod::Thing": "Mymod::Thing", "Mymod::tHing": "Mymod::Thing",
		"::Mymod::Thing": "Mymod::Thing", "a1::_b": "A1::_b", "Élan": "Élan",
	} {
		if got := CapitalizeName(in); got != want {
			t.Errorf("CapitalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// NewRegexp compiles on first use but reports a bad expression at once,
// with the message regexp.Compile gives; matching from several goroutines
// compiles once.
func TestRegexpLazyCompile(t *testing.T) {
	for _, src := range []string{`a(b`, `[z-a]`, `a**`} {
		_, err := NewRegexp(src)
		_, want := regexp.Compile("(?m)" + src)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("NewRegexp(%q) error %v, want %v", src, err, want)
		}
	}
	r := mustRegexp(t, `^web(\d+)\Z`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.FindStringSubmatch("db\nweb12\n"); len(m) != 2 || m[1] != "12" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		}()
	}
	wg.Wait()
	if r.Go() == nil || r.MatchString("web1x") {
		t.Error("lazy regexp did not compile or matched wrongly")
	}
}

// TestPlainRE2 holds the shortcut that skips parsing to its promise: what
// it accepts, regexp.Compile compiles. The expressions are random ones over
// the metacharacters and real patterns of modules.
func TestPlainRE2(t *testing.T) {
	exprs := []string{
		`^[a-z0-9_-]+$`, `\A(?:\n?\z)`, `^(\d+)\.(\d+)(?:\.(\d+))?$`, `^/(?:[^/]+/)*[^/]*$`, `[0-9a-fA-F]`,
		`^(https?|ftp)://[a-z.]+(:\d+)?/?.*$`, `a|b|`, `()`, `(a*)*?`, `[a-c-e]`, `[\d\s.-]+`, `\.\*\+\?\(\)`,
	}
	alphabet := `ab09_-.^$|()?:*+\[]{}dwszbAZ!/ ` + "\t"
	rng := rand.New(rand.NewSource(1))
	for range 300000 {
		b := make([]byte, 1+rng.Intn(10))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		exprs = append(exprs, string(b))
	}
	accepted := 0
	for _, x := range exprs {
		expr := "(?m)" + x
		if !plainRE2(expr) {
			continue
		}
		accepted++
		if _, err := regexp.Compile(expr); err != nil {
			t.Errorf("plainRE2 accepts %q, which does not compile: %v", x, err)
		}
	}
	for _, x := range exprs[:12] {
		if !plainRE2("(?m)" + x) {
			t.Errorf("plainRE2 leaves the plain %q to the parser", x)
		}
	}
	if accepted < 1000 {
		t.Errorf("plainRE2 accepts only %d expressions", accepted)
	}
}

// TestStringsEqual: StringsEqual answers as Equal does for two Strings,
// without an allocation.
func TestStringsEqual(t *testing.T) {
	pairs := [][2]string{{"abc", "abc"}, {"ABC", "abc"}, {"abc", "abd"}, {"", ""}, {"a", ""}, {"Straße", "STRASSE"}, {"é", "É"}, {"web01", "WEB01"}}
	for _, p := range pairs {
		if got, want := StringsEqual(p[0], p[1]), Equal(String(p[0]), String(p[1])); got != want {
			t.Errorf("StringsEqual(%q, %q) = %v, Equal says %v", p[0], p[1], got, want)
		}
	}
	a, b := strings.Repeat("x", 40), strings.Repeat("X", 40)
	if n := testing.AllocsPerRun(100, func() { StringsEqual(a, b) }); n != 0 {
		t.Errorf("StringsEqual: %v allocations, want 0", n)
	}
}
