package functions

// The expected messages are what Puppet 7.23 logged or raised for the same
// code (fail's text after "Error while evaluating a Function Call, ").

import (
	"reflect"
	"testing"
)

func TestLogging(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`warning(1, [1,'a'], {a=>undef, 'b'=>'c'}, undef, 'x', 1.0, /re/, Integer[1,2], default, Sensitive('s'), [undef], true)`,
			[]string{`warning: 1 [1, a] {a => , b => c}  x 1.0 /re/ Integer[1, 2] default Sensitive [value redacted] [] true`}},
		{`warning()`, []string{`warning: `}},
		{`warning([])`, []string{`warning: []`}},
		{`notice('a') info('b') debug('c') err('d') alert('e') emerg('f') crit('g')`,
			[]string{`notice: a`, `info: b`, `debug: c`, `err: d`, `alert: e`, `emerg: f`, `crit: g`}},
	}
	for _, tt := range tests {
		_, logs, err := run(t, tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !reflect.DeepEqual(logs, tt.want) {
			t.Errorf("%s logged %q, want %q", tt.src, logs, tt.want)
		}
	}
}

func TestLoggingErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{`notice('a') |$x| { }`, `'notice' does not expect a block`},
		{`warning() |$x| { }`, `'warning' does not expect a block`},
		{`fail('boom', 2)`, `boom 2`},
		{`fail([1, 'a'], undef, {a => 'b', c => [undef, "q\"t"]}, 1.5, true)`, `[1, "a"]  {"a"=>"b", "c"=>[nil, "q\"t"]} 1.5 true`},
		{`fail(Integer[1,2], /re/, default, Sensitive('s'))`, `Integer[1, 2] /re/ default Sensitive [value redacted]`},
	})
}
