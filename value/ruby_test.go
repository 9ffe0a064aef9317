package value

import "testing"

// The expectations are Ruby 3.1's inspect and to_s (the Ruby that runs
// Puppet 7 on Debian), recorded with `ruby -e 'p ...'`.
func TestRubyNotation(t *testing.T) {
	tests := []struct {
		v            Value
		inspect, toS string
	}{
		{String("\x01"), `"\u0001"`, "\x01"},
		{String("\x7f"), `"\u007F"`, "\x7f"},
		{String("\x1b\f\v\a\b\n\t\r"), `"\e\f\v\a\b\n\t\r"`, "\x1b\f\v\a\b\n\t\r"},
		{String(`#{x} #$y #@z #a`), `"\#{x} \#$y \#@z #a"`, `#{x} #$y #@z #a`},
		{String("a\xffb"), `"a\xFFb"`, "a\xffb"},
		{String("é\u200b\u00ad\ufeff\u0085\U000e0001\U0001F600"), "\"é\u200b\u00ad\ufeff\u0085\U000e0001\U0001F600\"", "é\u200b\u00ad\ufeff\u0085\U000e0001\U0001F600"},
		{String("\u2028\ufffe\u0378"), `"\u2028\uFFFE\u0378"`, "\u2028\ufffe\u0378"},
		{String(`say "hi" \o/`), `"say \"hi\" \\o/"`, `say "hi" \o/`},
		{Array{String("a"), Integer(1), Undef, Float(1.5)}, `["a", 1, nil, 1.5]`, `["a", 1, nil, 1.5]`},
		{NewHash(String("a"), Array{}, Integer(2), Boolean(true)), `{"a"=>[], 2=>true}`, `{"a"=>[], 2=>true}`},
		{Undef, "nil", ""},
		{Float(1e20), "1.0e+20", "1.0e+20"},
	}
	for _, tt := range tests {
		if got := RubyInspect(tt.v); got != tt.inspect {
			t.Errorf("RubyInspect(%#v) = %s, want %s", tt.v, got, tt.inspect)
		}
		if got := RubyString(tt.v); got != tt.toS {
			t.Errorf("RubyString(%#v) = %s, want %s", tt.v, got, tt.toS)
		}
	}
}

func TestRubyEqual(t *testing.T) {
	tests := []struct {
		a, b Value
		want bool
	}{
		{Integer(1), Float(1), true},
		{Float(2.5), Integer(2), false},
		{String("a"), String("A"), false},
		{String("a"), String("a"), true},
		{Array{Integer(1), String("x")}, Array{Float(1), String("x")}, true},
		{NewHash(String("k"), Integer(1)), NewHash(String("k"), Float(1)), true},
		{NewHash(String("k"), Integer(1)), NewHash(String("K"), Integer(1)), false},
		{Undef, Undef, true},
		{Integer(1), String("1"), false},
	}
	for _, tt := range tests {
		if got := RubyEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("RubyEqual(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
