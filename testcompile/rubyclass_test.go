package testcompile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSourceClass(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m/lib/puppet/parser/functions/f3.rb", `module Puppet::Parser::Functions
  newfunction(:f3, type: :rvalue, arity: 1) do |args|
    raise(ArgumentError, 'f3(): first argument must be a string') unless args[0].is_a?(String)
    raise TypeError, "f3(): got a #{args[0].class}, it's \"odd\"" if args[0] == 'x'
    raise(Puppet::ParseError, _('f3(): %{what} is empty') % { what: 'it' }) if args[0].empty?
    raise ArgumentError, 'f3(): ambiguous'
    raise TypeError, 'f3(): ambiguous'
    raise(RuntimeError, 'f3(): prefix ' + args[0])
  end
end
`)
	write("m/lib/puppet/functions/m/f4.rb", `Puppet::Functions.create_function(:'m::f4') do
  def f4(x)
    raise IndexError, "m::f4: #{x} out of range"
  end
end
`)
	mp := []string{dir}
	tests := []struct{ function, detail, want string }{
		{"f3", "f3(): first argument must be a string", "ArgumentError"},
		{"f3", `f3(): got a Integer, it's "odd"`, "TypeError"},
		{"f3", "f3(): it is empty", "Puppet::ParseError"},
		{"f3", "f3(): prefix abc", "RuntimeError"},
		{"f3", "f3(): ambiguous", ""},
		{"f3", "f3(): Wrong number of arguments given (2 for 1)", "ArgumentError"},
		{"f3", "f3(): something else", ""},
		{"f3", "undefined method `squeeze' for 1:Integer", "NoMethodError"},
		{"f3", "no implicit conversion of Hash into String", "TypeError"},
		{"f3", "invalid base64", "ArgumentError"},
		{"f3", "wrong number of arguments (given 0, expected 1+)", "ArgumentError"},
		{"m::f4", "m::f4: 7 out of range", "IndexError"},
		{"::m::f4", "m::f4: 7 out of range", "IndexError"},
		{"m::f4", "m::f4(): Wrong number of arguments given (2 for 1)", ""},
		{"nosuch", "nosuch(): first argument must be a string", ""},
		{"m::nosuch", "x", ""},
		{"../etc", "x", ""},
	}
	var sc sourceClasses
	for _, tt := range tests {
		if got := sc.class(mp, tt.function, tt.detail); got != tt.want {
			t.Errorf("%s: %q: class %q, want %q", tt.function, tt.detail, got, tt.want)
		}
	}
}
