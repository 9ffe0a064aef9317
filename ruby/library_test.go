package ruby

import (
	"fmt"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// oneLib answers require 'mylib/util' with src.
type oneLib struct {
	funcScope
	src string
}

func (s oneLib) RubyFile(path string) (string, []byte, bool) {
	if path != "mylib/util" {
		return "", nil, false
	}
	return "/modules/mylib/lib/mylib/util.rb", []byte(s.src), true
}

// TestRequiredLibraryParsedOnce checks that a library file that every call
// of a function requires is parsed once for its source, as Ruby loads it
// once, and again when its source changes.
func TestRequiredLibraryParsedOnce(t *testing.T) {
	f, err := LoadRubyFunction("/modules/mylib/lib/puppet/functions/mylib/twice.rb", []byte(`require 'mylib/util'
Puppet::Functions.create_function(:'mylib::twice') do
  def twice(x)
    MyLib::Util.twice(x)
  end
end
`))
	if err != nil {
		t.Fatal(err)
	}
	lib := "module MyLib\n  module Util\n    def self.twice(x)\n      x * %d\n    end\n  end\nend\n"
	call := func(factor int, arg int64) value.Value {
		t.Helper()
		v, err := f.Call(oneLib{src: fmtLib(lib, factor)}, []value.Value{value.Integer(arg)})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := libraryParses.Load()
	for i := int64(1); i <= 3; i++ {
		if v := call(2, i); v != value.Integer(2*i) {
			t.Errorf("call %d: got %v, want %d", i, v, 2*i)
		}
	}
	if n := libraryParses.Load() - before; n != 1 {
		t.Errorf("three calls parsed the library %d times, want once", n)
	}
	// A changed library is parsed again, and what it says now runs.
	if v := call(3, 5); v != value.Integer(15) {
		t.Errorf("after the library changed: got %v, want 15", v)
	}
	if n := libraryParses.Load() - before; n != 2 {
		t.Errorf("the changed library: %d parses in all, want 2", n)
	}
}

func fmtLib(lib string, factor int) string {
	return fmt.Sprintf(lib, factor)
}
