package value

import (
	"testing"
	"time"
)

// Expected forms are real Puppet 7.23's.
func TestRichDataStrings(t *testing.T) {
	ts := time.Date(2020, 1, 1, 10, 11, 12, 250000000, time.UTC)
	tests := []struct {
		v    Value
		want string
	}{
		{&Timestamp{T: ts}, "2020-01-01T10:11:12.250000000 UTC"},
		{&Timespan{D: time.Hour}, "0-01:00:00.0"},
		{&Timespan{D: 1500 * time.Millisecond}, "0-00:00:01.5"},
		{&Timespan{D: 123 * time.Millisecond}, "0-00:00:00.123"},
		{&Timespan{D: -90061 * time.Second}, "-1-01:01:01.0"},
		{&Timespan{D: -time.Hour}, "-0-01:00:00.0"},
		// Puppet's %-N: 0.005006007 s prints as .5006007.
		{&Timespan{D: 93784*time.Second + 5006007}, "1-02:03:04.5006007"},
		{&Binary{Data: []byte("hello")}, "aGVsbG8="},
		{&Deferred{Name: "x"}, "Deferred({'name' => 'x'})"},
		{&Deferred{Name: "mysql::password", Args: Array{String("x"), Integer(1)}}, "Deferred({'name' => 'mysql::password', 'arguments' => ['x', 1]})"},
		{Array{&Deferred{Name: "y"}, &Binary{Data: []byte("hi")}}, "[Deferred({'name' => 'y'}), aGk=]"},
	}
	for _, tt := range tests {
		if got := ToString(tt.v); got != tt.want {
			t.Errorf("ToString(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestRichDataEqualAndInstance(t *testing.T) {
	a := &Timestamp{T: time.Unix(0, 0)}
	b := &Timestamp{T: time.Unix(0, 0).In(time.FixedZone("x", 3600))}
	if !Equal(a, b) || Equal(a, &Timestamp{T: time.Unix(1, 0)}) {
		t.Error("Timestamp equality")
	}
	if !Equal(&Binary{Data: []byte("a")}, &Binary{Data: []byte("a")}) || Equal(&Binary{Data: []byte("a")}, String("YQ==")) {
		t.Error("Binary equality")
	}
	for _, c := range []struct {
		t Type
		v Value
	}{{TimestampType, a}, {TimespanType, &Timespan{}}, {BinaryType, &Binary{}}, {DeferredType, &Deferred{Name: "f"}}, {ScalarType, a}, {RichDataType, &Deferred{Name: "f"}}} {
		if !IsInstance(c.t, c.v) {
			t.Errorf("%s should accept %s", TypeString(c.t), ToString(c.v))
		}
	}
	if IsInstance(DataType, &Binary{}) || IsInstance(TimestampType, String("2020-01-01")) {
		t.Error("Data or Timestamp accepts what it should not")
	}
}

// Messages are real Puppet 7.23's, for a class parameter of the type given
// the value.
func TestDescribeMismatchReducesTypes(t *testing.T) {
	str := func(s string) Value { return String(s) }
	tests := []struct {
		t    Type
		v    Value
		want string
	}{
		{&ArrayType{Elem: StringAny, Max: MaxInt}, str("x"), "expects an Array value, got String"},
		{&StringType{Min: 1, Max: MaxInt}, Integer(5), "expects a String value, got Integer"},
		{&IntegerType{Min: 1, Max: 5}, Integer(7), "expects an Integer[1, 5] value, got Integer[7, 7]"},
		{&HashType{Key: StringAny, Value: IntegerAny, Max: MaxInt}, str("x"), "expects a Hash value, got String"},
		{&SensitiveType{Type: StringAny}, str("x"), "expects a Sensitive[String] value, got String"},
		{&ArrayType{Elem: StringAny, Min: 2, Max: MaxInt}, Array{str("a")}, "expects size to be at least 2, got 1"},
		{NewEnum([]string{"a", "b"}, false), Integer(5), "expects a match for Enum['a', 'b'], got Integer"},
		{&NotUndefType{Type: StringAny}, Integer(5), "expects a String value, got Integer"},
		{&IntegerType{Min: 1, Max: MaxInt}, Float(1.5), "expects an Integer value, got Float"},
		{TimestampType, str("x"), "expects a Timestamp value, got String"},
	}
	for _, tt := range tests {
		if got := DescribeMismatch(tt.t, tt.v); got != tt.want {
			t.Errorf("DescribeMismatch(%s, %s) = %q, want %q", TypeString(tt.t), Literal(tt.v), got, tt.want)
		}
	}
}
