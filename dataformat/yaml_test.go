package dataformat

import (
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// The expectations below were checked against Puppet 7.23's loader
// (Puppet::Util::Yaml.safe_load with Psych 4 / Ruby 3.1).
func TestFromYAMLScalars(t *testing.T) {
	tests := []struct {
		yaml string
		want value.Value
	}{
		{"yes", value.True},
		{"Yes", value.True},
		{"ON", value.True},
		{"true", value.True},
		{"no", value.False},
		{"Off", value.False},
		{"y", value.String("y")},
		{"n", value.String("n")},
		{"~", value.Undef},
		{"null", value.Undef},
		{"NULL", value.Undef},
		{"", value.Undef},
		{"'yes'", value.String("yes")},
		{`"1"`, value.String("1")},
		{"017", value.Integer(15)},
		{"0o17", value.String("0o17")},
		{"0x1f", value.Integer(31)},
		{"-0b11", value.Integer(-3)},
		{"1:30", value.Integer(5400)},
		{"1,000", value.Integer(1000)},
		{"1_000", value.Integer(1000)},
		{"1.5", value.Float(1.5)},
		{"1e3", value.String("1e3")},
		{"1.0e+3", value.Float(1000)},
		{".5", value.Float(0.5)},
		{"-.inf", value.Float(math.Inf(-1))},
		{"!!str 12", value.String("12")},
		{"!!int '12'", value.Integer(12)},
		{"hello world", value.String("hello world")},
		{"12abc", value.String("12abc")},
	}
	for _, tc := range tests {
		t.Run(tc.yaml, func(t *testing.T) {
			got, err := FromYAML([]byte(tc.yaml), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if !value.Identical(got, tc.want) || value.IsUndef(got) != value.IsUndef(tc.want) {
				t.Errorf("FromYAML(%q) = %#v, want %#v", tc.yaml, got, tc.want)
			}
		})
	}
}

func TestFromYAMLStructures(t *testing.T) {
	got, err := FromYAML([]byte("b: 1\na: [x, {c: ~}]\n1: int key\nyes: bool key\nbase: &b {k: 1, j: 2}\nmerged:\n  <<: *b\n  j: 3\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := value.NewHash(
		value.String("b"), value.Integer(1),
		value.String("a"), value.Array{value.String("x"), value.NewHash(value.String("c"), value.Undef)},
		value.Integer(1), value.String("int key"),
		value.True, value.String("bool key"),
		value.String("base"), value.NewHash(value.String("k"), value.Integer(1), value.String("j"), value.Integer(2)),
		value.String("merged"), value.NewHash(value.String("k"), value.Integer(1), value.String("j"), value.Integer(3)),
	)
	if !value.Identical(got, want) {
		t.Errorf("got %s\nwant %s", value.ToString(got), value.ToString(want))
	}
	// Key order is file order.
	h := got.(*value.Hash)
	if k, _ := h.At(0); k != value.String("b") {
		t.Errorf("first key %v, want b", k)
	}
}

func TestFromYAMLErrors(t *testing.T) {
	tests := []struct {
		yaml string
		want string
	}{
		{"a: [1\n", "(bad.yaml): did not find expected ',' or ']'"},
		{"a: 1\nb: 2001-12-14\n", "(bad.yaml): Tried to load unspecified class: Date at line 2"},
		{"t: 2001-12-14 21:59:43.10 -5\n", "Tried to load unspecified class: Time"},
		{"s: :sym\n", "Tried to load unspecified class: Symbol"},
		{"x: !ruby/object:Foo {}\n", "(bad.yaml): Tried to load unspecified class: Foo at line 1"},
		// Psych's safe loader names the class, not the tag.
		{"--- !ruby/object:Puppet::Node::Facts\nname: x\n", "Tried to load unspecified class: Puppet::Node::Facts at line 1"},
		{"a: !ruby/sym x\n", "Tried to load unspecified class: Symbol at line 1"},
		{"a: !ruby/regexp /x/\n", "Tried to load unspecified class: Regexp at line 1"},
		{"a: !ruby/range 1..2\n", "Tried to load unspecified class: Range at line 1"},
		{"a: !ruby/array:Foo [1]\n", "Tried to load unspecified class: Foo at line 1"},
		{"a: !ruby/object {}\n", "Tried to load unspecified class: Object at line 1"},
		{"a: !ruby/class String\n", "Tried to load unspecified class: String at line 1"},
		{"a: !!set {x: 1}\n", "Tried to load unspecified class: Psych::Set at line 1"},
		{"a: !!timestamp 2020-01-01\n", "Tried to load unspecified class: Date at line 1"},
		{"a: &a [*a]\n", "recursive alias"},
	}
	for _, tc := range tests {
		t.Run(tc.yaml, func(t *testing.T) {
			_, err := FromYAML([]byte(tc.yaml), "bad.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// Tags Psych does not know are ignored; `!!binary` is decoded.
func TestFromYAMLTags(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"a: !foo {b: 1}\n", "{'a' => {'b' => 1}}"},
		{"a: !foo [1]\n", "{'a' => [1]}"},
		{"a: !foo 1\n", "{'a' => 1}"},
		{"a: !foo yes\n", "{'a' => true}"},
		{"a: !foo '1'\n", "{'a' => '1'}"},
		{"a: !!set [1]\n", "{'a' => [1]}"},
		{"a: !!binary aGVsbG8=\n", "{'a' => 'hello'}"},
		{"a: !<tag:yaml.org,2002:int> 3\n", "{'a' => 3}"},
	}
	for _, tc := range tests {
		got, err := FromYAML([]byte(tc.yaml), "t.yaml")
		if err != nil || value.Literal(got) != tc.want {
			t.Errorf("FromYAML(%q) = %v, %v; want %s", tc.yaml, got, err, tc.want)
		}
	}
}

func TestFromYAMLSymbolKeys(t *testing.T) {
	got, err := FromYAML([]byte(":a: 1\n:'b c': 2\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := value.NewHash(value.String("a"), value.Integer(1), value.String("b c"), value.Integer(2))
	if !value.Identical(got, want) {
		t.Errorf("got %s, want %s", value.ToString(got), value.ToString(want))
	}
}

// TestPlainScalarsMatchPsych reads plain scalars with FromYAML and with
// Ruby's Psych (YAML.safe_load, as Puppet's loader calls it) and requires
// the same type and value, or an error from both. It covers the shortcuts
// plain takes before its regular expressions.
func TestPlainScalarsMatchPsych(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		corpus.Absent(t, errors.New("ruby is not on PATH (apt-get install puppet-agent installs it)"))
	}
	scalars := []string{
		"y", "Y", "yes", "YES", "yEs", "yess", "t", "true", "True", "TRUE", "truee", "o", "on", "On", "ON", "one",
		"n", "no", "No", "nO", "non", "null", "Null", "NULL", "nulls", "f", "false", "False", "falsey", "off", "Off",
		"offset", "a", "abc", "abcdef", "hello world", "mod01-value-0", "Yesterday", "nothing", "x:y", "a_b",
		"0", "-0", "+0", "1", "-1", "+1", "10", "007", "08", "0x1F", "0b101", "123456789012345678", "1234567890123456789",
		"-123456789012345678", "1_000", "1,000", "1:30", "-1:30", "1.5", "-1.5", "1.", ".5", "1e3", "1.0e+3", "1.0e3",
		".inf", "-.Inf", ".NaN", "2024-01-02", "12:30:45", "1.2.3", "v1", "~", ":sym", "_x", "Ünïcode", "ja",
	}
	var script strings.Builder
	script.WriteString("require 'yaml'\n")
	for _, s := range scalars {
		fmt.Fprintf(&script, "begin; v = YAML.safe_load(%q); print v.class, ':', (v.is_a?(Float) ? v.to_s : v.to_s); rescue => e; print 'error'; end; print \"\\x00\"\n", "--- "+s)
	}
	out, err := exec.Command(ruby, "-e", script.String()).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	want := strings.Split(string(out), "\x00")
	for i, s := range scalars {
		v, err := FromYAML([]byte("--- "+s), "t.yaml")
		got := "error"
		if err == nil {
			switch v := v.(type) {
			case value.String:
				got = "String:" + string(v)
			case value.Integer:
				got = fmt.Sprintf("Integer:%d", v)
			case value.Float:
				got = "Float:" + value.FormatFloat(float64(v))
			case value.Boolean:
				got = fmt.Sprintf("%sClass:%v", map[bool]string{true: "True", false: "False"}[bool(v)], bool(v))
			default:
				if value.IsUndef(v) {
					got = "NilClass:"
				} else {
					got = fmt.Sprintf("%T", v)
				}
			}
		}
		if got != want[i] {
			t.Errorf("%q: FromYAML gives %s, Psych %s", s, got, want[i])
		}
	}
}
