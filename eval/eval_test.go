package eval

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// testHost implements just enough of Host for language-level tests: an
// `each`-like function to exercise lambdas, and `fail`.
type testHost struct{}

func (testHost) CallFunction(ev *Evaluator, sc *Scope, c *Call) (value.Value, error) {
	switch c.Name {
	case "map":
		var out value.Array
		for _, e := range c.Args[0].(value.Array) {
			v, err := ev.CallLambda(c.Lambda, []value.Value{e})
			if err == ErrBreak {
				break
			}
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "new":
		// Enough of new() to see a parameterized type called as a function.
		if t, ok := c.Args[0].(value.Type); ok && len(c.Args) == 2 {
			return value.String(value.TypeString(t) + "(" + value.ToString(c.Args[1]) + ")"), nil
		}
		return nil, fmt.Errorf("bad new() call")
	case "fn":
		// A Puppet-language-like function: its body's return() is unwrapped.
		return ReturnValue(ev.CallLambda(c.Lambda, c.Args))
	}
	return nil, fmt.Errorf("Unknown function: '%s'", c.Name)
}

func (testHost) QualifiedVariable(sc *Scope, name string, at syntax.Node) (value.Value, error) {
	return value.String("qualified:" + name), nil
}

func (testHost) ResolveType(sc *Scope, name string, at syntax.Node) (value.Type, error) {
	return &value.ResourceType{Type: value.CapitalizeName(name)}, nil
}

func (testHost) Statement(ev *Evaluator, sc *Scope, x syntax.Expr) (value.Value, error) {
	return nil, fmt.Errorf("statement not supported in tests")
}

func evalSource(t *testing.T, src string) (value.Value, error) {
	t.Helper()
	prog, err := syntax.ParseFile("test.pp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	top := NewScope(TopScope, "", nil, prog.File)
	top.Set("top", value.String("T"))
	ev := &Evaluator{Host: testHost{}}
	return ev.Statements(prog.Body, top)
}

// The expected values are what Puppet 7.23 computes for the same code
// (checked with the oracle); Literal() shows them in Puppet's notation.
func TestEvalValues(t *testing.T) {
	tests := []struct{ src, want string }{
		{`1 + 2 * 3`, `7`},
		{`-7 / 2`, `-4`},
		{`-7 % 3`, `2`},
		{`7 % -3`, `-2`},
		{`'3' + 4`, `7`},
		{`'3.5' * 2`, `7.0`},
		{`1 + 2.0`, `3.0`},
		{`10 / 4.0`, `2.5`},
		{`1 << 3`, `8`},
		{`[1, 2] + [3]`, `[1, 2, 3]`},
		{`[1, 2] + 3`, `[1, 2, 3]`},
		{`[1, 2, 3, 2] - [2]`, `[1, 3]`},
		{`{a => 1, b => 2} - ['a']`, `{'b' => 2}`},
		{`{a => 1} + {b => 2}`, `{'a' => 1, 'b' => 2}`},
		{`[1] << 2`, `[1, 2]`},
		{`'Abc' in 'xxabcxx'`, `true`},
		{`'a' in ['A']`, `true`},
		{`/b/ in ['abc']`, `true`},
		{`String in [1, 'x']`, `true`},
		{`'a' in {'a' => 1}`, `true`},
		{`'abc' < 'ABD'`, `true`},
		{`'abc' == 'ABC'`, `true`},
		{`'abc'[1]`, `'b'`},
		{`'abc'[1, 5]`, `'bc'`},
		{`'abc'[-1]`, `'c'`},
		{`[1, 2, 3][-2, 2]`, `[2, 3]`},
		{`[1, 2, 3][5]`, `undef`},
		{`{a => 1, b => 2}['a', 'b']`, `[1, 2]`},
		{`$x = 3 $y = $x * 2 $y`, `6`},
		{`[$a, $b] = [1, 2] "${a}-${b}"`, `'1-2'`},
		{`"${top}/$::top/${[1, 'a']}"`, `'T/T/[1, a]'`},
		{`if 'abc' =~ /^a(b)/ { $1 } else { 'no' }`, `'b'`},
		{`if 'abc' =~ /^a(b)/ { $m = $0 } $m`, `'ab'`},
		{`case 'foo' { 'bar', 'FOO': { 'yes' } default: { 'no' } }`, `'yes'`},
		{`case 'x9' { /x(\d)/: { $1 } }`, `'9'`},
		{`case 3 { String: { 's' } Integer[1, 5]: { 'i' } }`, `'i'`},
		{`case 7 { default: { 'd' } 7: { 'seven' } }`, `'seven'`},
		{`'b' ? { 'a' => 1, default => 2 }`, `2`},
		{`unless false { 'u' }`, `'u'`},
		{`!undef and true`, `true`},
		{`Integer[1, 2]`, `Integer[1, 2]`},
		{`File['/x']`, `File['/x']`},
		{`Resource['file', '/a', '/b']`, `[File['/a'], File['/b']]`},
		{`Class['Foo::Bar']`, `Class[foo::bar]`},
		{`map([1, 2, 3]) |$x| { if $x == 2 { next(20) } $x * 10 }`, `[10, 20, 30]`},
		{`map([1, 2, 3]) |$x| { if $x == 2 { break() } $x }`, `[1]`},
		{`fn(5) |$n| { if $n > 3 { return('big') } 'small' }`, `'big'`},
		{`$a::b`, `'qualified:a::b'`},
		{`[*[1, 2], 3]`, `[1, 2, 3]`},
		{`Integer[0, 5]('3')`, `'Integer[0, 5](3)'`}, // new(Integer[0, 5], '3')
	}
	for _, tt := range tests {
		v, err := evalSource(t, tt.src)
		if err != nil {
			t.Errorf("%s: unexpected error %v", tt.src, err)
			continue
		}
		if got := value.Literal(v); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`$x = 1 $x = 2`, `Cannot reassign variable '$x' (file: test.pp, line: 1, column: 11)`}, // checked with the oracle
		{`$1 = 2`, `Illegal attempt to assign to 'a Match Variable'`},
		{`'a' ? { 'b' => 1 }`, `No matching entry for selector parameter with value 'a'`},
		{`1 / 0`, `Division by 0`},
		{`[] < 1`, `is not possible`},
		{`nosuch(1)`, `Unknown function: 'nosuch'`},
		{`undef[1]`, `Operator '[]' is not applicable to an Undef Value.`},
	}
	for _, tt := range tests {
		_, err := evalSource(t, tt.src)
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.src, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q, want it to contain %q", tt.src, err, tt.want)
		}
	}
}

func TestScopeKinds(t *testing.T) {
	top := NewScope(TopScope, "", nil, nil)
	top.Set("x", value.String("top"))
	node := NewScope(NodeScope, "", top, nil)
	node.Set("x", value.String("node"))
	class := NewScope(ClassScope, "c", node, nil)
	if v, _ := class.Lookup("x"); v != value.String("node") {
		t.Errorf("class sees %v, want the node's variable", v)
	}
	m := class.NewMatchScope([]value.Value{value.String("all"), value.String("g1")})
	if !m.Set("y", value.Integer(1)) {
		t.Fatal("assignment in a match scope failed")
	}
	if _, ok := class.GetLocal("y"); !ok {
		t.Errorf("assignment in a match scope must land in the enclosing class scope")
	}
	if v := m.Capture(1); v != value.String("g1") {
		t.Errorf("$1 = %v", v)
	}
	lambda := NewScope(LocalScope, "", m, nil)
	if v := lambda.Capture(1); v != value.String("g1") {
		t.Errorf("a lambda sees the captures of its branch, got %v", v)
	}
	// A class scope's parent is its enclosing node or top scope, never the
	// branch that declared it, so branch captures do not reach it; the
	// captures of a regex node name do.
	inner := NewScope(ClassScope, "d", node, nil)
	if v := inner.Capture(1); !value.IsUndef(v) {
		t.Errorf("captures must not leak into a class scope, got %v", v)
	}
	node.SetCaptures([]value.Value{value.String("www42"), value.String("42")})
	if v := inner.Capture(1); v != value.String("42") {
		t.Errorf("a class declared in a regex node sees the node's captures, got %v", v)
	}
}

// TestArithmeticErrors: Puppet 7.23's messages and positions for arithmetic
// that fails (each checked with the oracle, as `$x = EXPR`): a value that is
// no number is reported at its operand, division by zero at the divisor, an
// operator that does not apply at the left operand, overflow at the operator.
func TestArithmeticErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{`1 + true`, `The value 'true' cannot be converted to Numeric. (file: test.pp, line: 1, column: 10)`},
		{`'a' + 1`, `The value 'a' cannot be converted to Numeric. (file: test.pp, line: 1, column: 6)`},
		{`1 + [1]`, `The value '[1]' cannot be converted to Numeric. (file: test.pp, line: 1, column: 10)`},
		{`1 + undef`, `The value '' cannot be converted to Numeric. (file: test.pp, line: 1, column: 10)`},
		{`{b=>2} * 3`, `The value '{"b"=>2}' cannot be converted to Numeric. (file: test.pp, line: 1, column: 6)`},
		{`2 * /re/`, `The value '(?-mix:re)' cannot be converted to Numeric. (file: test.pp, line: 1, column: 10)`},
		{`-true`, `The value 'true' cannot be converted to Numeric. (file: test.pp, line: 1, column: 6)`},
		{`1 / 0`, `Division by 0 (file: test.pp, line: 1, column: 10)`},
		{`1 % 0`, `Division by 0 (file: test.pp, line: 1, column: 10)`},
		{`1.0 / 0`, `The result of the / expression is Infinity (file: test.pp, line: 1, column: 6)`},
		{`1.5 % 2`, `Operator '%' is not applicable to a Float. (file: test.pp, line: 1, column: 6)`},
		{`1 % 1.5`, `Operator '%' is not applicable to an Integer when right side is a Float. (file: test.pp, line: 1, column: 6)`},
		{`{a=>1} << 2`, `Operator '<<' is not applicable to a Hash. (file: test.pp, line: 1, column: 6)`},
		{`{a=>1} + 3`, `Error while evaluating a '+' expression, Can only append Array or Hash to a Hash (file: test.pp, line: 1, column: 13)`},
		{`{a=>1} + [1,2,3]`, `Error while evaluating a '+' expression, odd number of arguments for Hash`},
		{`{a=>1} + [[1,2,3]]`, `Error while evaluating a '+' expression, invalid number of elements (3 for 1..2)`},
		{`9223372036854775807 + 1`, `A '+' expression resulted in a value outside of Puppet Integer max range, got '+0x8000000000000000' (file: test.pp, line: 1, column: 26)`},
		{`-9223372036854775807 - 10`, `A '-' expression resulted in a value outside of Puppet Integer min range, got '-0x8000000000000009'`},
		{`1 << 70`, `A '<<' expression resulted in a value outside of Puppet Integer max range, got '+0x400000000000000000' (file: test.pp, line: 1, column: 8)`},
	}
	for _, tt := range tests {
		_, err := evalSource(t, "$x = "+tt.expr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.expr, err, tt.want)
		}
	}
	for expr, want := range map[string]string{`{a=>1} + [[1,2],[3]]`: `{'a' => 1, 1 => 2, 3 => undef}`, `{a=>1} + [[1,2],3]`: `{'a' => 1, [1, 2] => 3}`, `-1 >> 70`: `-1`} {
		v, err := evalSource(t, "$x = "+expr)
		if err != nil || value.Literal(v) != want {
			t.Errorf("%s = %v (%v), want %s", expr, v, err, want)
		}
	}
}

// TestRegexpCompiledOnce: a pattern evaluated again in the same compile
// (a literal in a loop, the same string matched with =~) is the regexp
// compiled the first time, and matches as before.
func TestRegexpCompiledOnce(t *testing.T) {
	v, err := evalSource(t, `map([1, 2]) |$x| { /^a(b)?$/ } + map(['ab', 'ac']) |$s| { $s =~ '^a(b)?$' }`)
	if err != nil {
		t.Fatal(err)
	}
	a := v.(value.Array)
	if len(a) != 4 {
		t.Fatalf("got %s", value.Literal(v))
	}
	r0, ok0 := a[0].(*value.Regexp)
	r1, ok1 := a[1].(*value.Regexp)
	if !ok0 || !ok1 || r0 != r1 || r0.Source != "^a(b)?$" {
		t.Errorf("regexp literal compiled twice: %#v %#v", a[0], a[1])
	}
	if a[2] != value.Boolean(true) || a[3] != value.Boolean(false) {
		t.Errorf("matches = %s, %s; want true, false", value.Literal(a[2]), value.Literal(a[3]))
	}
	ev := &Evaluator{}
	if _, err := ev.regexp("a("); err == nil {
		t.Error("bad pattern compiled")
	}
	if _, err := ev.regexp("a("); err == nil {
		t.Error("bad pattern cached as good")
	}
}

// A parameter type written with literals only is evaluated once per
// evaluation and reused; one that reads variables is evaluated at every
// call (an inner lambda's Integer[$p[0]] differs between outer calls).
func TestParamTypeCache(t *testing.T) {
	if v, err := evalSource(t, `map([1, 2]) |Integer[1, 5] $x| { $x * 10 }`); err != nil || value.Literal(v) != `[10, 20]` {
		t.Errorf("constant type: got %v, %v", v, err)
	}
	if _, err := evalSource(t, `map([1, 9]) |Integer[1, 5] $x| { $x }`); err == nil || !strings.Contains(err.Error(), "expects an Integer[1, 5] value") {
		t.Errorf("constant type, second call: got %v, want a mismatch", err)
	}
	if v, err := evalSource(t, `map([[1, 1], [2, 3]]) |$p| { map([$p[1]]) |Integer[$p[0]] $x| { $x } }`); err != nil || value.Literal(v) != `[[1], [3]]` {
		t.Errorf("variable type: got %v, %v", v, err)
	}
	if _, err := evalSource(t, `map([[1, 1], [5, 3]]) |$p| { map([$p[1]]) |Integer[$p[0]] $x| { $x } }`); err == nil || !strings.Contains(err.Error(), "expects an Integer[5] value") {
		t.Errorf("variable type, second outer call: got %v, want a mismatch against Integer[5]", err)
	}

	prog, err := syntax.ParseFile("test.pp", []byte(`map([1]) |Hash[String, Integer] $h, Integer[$top] $i| { 1 }`))
	if err != nil {
		t.Fatal(err)
	}
	lambda := prog.Body[0].(*syntax.CallExpr).Lambda
	ev := &Evaluator{Host: testHost{}}
	sc := NewScope(TopScope, "", nil, prog.File)
	sc.Set("top", value.Integer(2))
	a, err1 := ev.ParamType(lambda.Params[0], sc)
	b, err2 := ev.ParamType(lambda.Params[0], sc)
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("Hash[String, Integer]: not reused (%v, %v, same %v)", err1, err2, a == b)
	}
	if _, ok := ev.paramTypes[lambda.Params[1]]; ok {
		t.Errorf("Integer[$top] kept")
	}
	if _, err := ev.ParamType(lambda.Params[1], sc); err != nil {
		t.Fatal(err)
	}
	if _, ok := ev.paramTypes[lambda.Params[1]]; ok {
		t.Errorf("Integer[$top] kept")
	}
}

// intArith, the int64 fast path of + - *, agrees with big.Int on every
// pair of boundary values: the same result when it fits, no result (the
// big.Int path and its overflow error) when it does not.
func TestIntArithMatchesBig(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, 255, 256, -256, 3037000499, 3037000500, -3037000500,
		1 << 31, -(1 << 31), 1 << 32, 1<<62 - 1, 1 << 62, -(1 << 62), math.MaxInt64, math.MaxInt64 - 1,
		math.MinInt64, math.MinInt64 + 1}
	ops := []struct {
		op syntax.Token
		f  func(z, x, y *big.Int) *big.Int
	}{{syntax.ADD, (*big.Int).Add}, {syntax.SUB, (*big.Int).Sub}, {syntax.MUL, (*big.Int).Mul}}
	for _, o := range ops {
		for _, a := range vals {
			for _, b := range vals {
				want := o.f(new(big.Int), big.NewInt(a), big.NewInt(b))
				got, ok := intArith(o.op, a, b)
				if ok != want.IsInt64() || ok && got != want.Int64() {
					t.Errorf("%d %s %d: got %d, %v; want %s", a, o.op, b, got, ok, want)
				}
			}
		}
	}
}

// A bare word is its string, boxed once per evaluation and reused.
func TestBareWordBoxedOnce(t *testing.T) {
	if v, err := evalSource(t, `map([1, 2]) |$x| { [present, $x] }`); err != nil || value.Literal(v) != `[['present', 1], ['present', 2]]` {
		t.Errorf("got %v, %v", v, err)
	}
	x := &syntax.QualifiedName{Name: "directory"}
	ev := &Evaluator{Host: testHost{}}
	a, b := ev.bareWord(x), ev.bareWord(x)
	if a != value.Value(value.String("directory")) || len(ev.words) != 1 {
		t.Errorf("got %v, %d kept", a, len(ev.words))
	}
	if v, ok := ev.words[x]; !ok || v != b {
		t.Errorf("not reused")
	}
}
