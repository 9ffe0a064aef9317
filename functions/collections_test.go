package functions

// Every expected value and error message in this file is what Puppet 7.23
// produced for the same code (the value shown with String($v, '%p'), the
// error after "Error while evaluating a Function Call, ").

import "testing"

func TestCollectionValues(t *testing.T) {
	checkValues(t, []valueCase{
		{`keys({a => 1, b => 2})`, `['a', 'b']`},
		{`values({a => 1, b => 2})`, `[1, 2]`},
		{`keys({})`, `[]`},
		{`flatten([1, [2, [3, [4]]]], 5)`, `[1, 2, 3, 4, 5]`},
		{`flatten()`, `[]`},
		{`flatten(undef)`, `[undef]`},
		{`empty([])`, `true`},
		{`empty({a => 1})`, `false`},
		{`empty('')`, `true`},
		{`empty('a')`, `false`},
		{`empty(0)`, `false`},
		{`empty(undef)`, `true`},
		{`empty(Sensitive(''))`, `true`},
		{`dig({a => {b => [1, 2]}}, a, b, 1)`, `2`},
		{`dig({a => 1}, b, c)`, `undef`},
		{`dig([1, [2, 3]], 1, -1)`, `3`},
		{`dig({a => 1}, undef)`, `undef`},
		{`dig(undef, a)`, `undef`},
		{`dig([1], 5)`, `undef`},
		{`get({a => {b => [1, {c => 'x'}]}}, 'a.b.1.c')`, `'x'`},
		{`get({a => 1}, 'b', 'dflt')`, `'dflt'`},
		{`get({a => 1}, '')`, `{'a' => 1}`},
		{`get(undef, 'a', 'd')`, `'d'`},
		{`get({'a.b' => 1}, '"a.b"')`, `1`},
		{`get({a => {'b.c' => 2}}, "a.'b.c'")`, `2`},
		{`get([1, 2], '1')`, `2`},
		{`get({a => 1}, 'a.b') |$e| { 'handled' }`, `'handled'`},
		{`sort([3, 1, 2])`, `[1, 2, 3]`},
		{`sort(['b', 'A', 'a', 'B'])`, `['A', 'B', 'a', 'b']`},
		{`sort('cba')`, `'abc'`},
		{`sort([1, 2.5, 0])`, `[0, 1, 2.5]`},
		{`sort([3, 1, 2]) |$a, $b| { $b - $a }`, `[3, 2, 1]`},
		{`sort(['aa', 'b', 'ccc']) |$a, $b| { compare($a.length, $b.length) }`, `['b', 'aa', 'ccc']`},
		{`sort([[2, 1], [1, 2], [1]])`, `[[1], [1, 2], [2, 1]]`},
		{`unique([1, 1, 2, 'a', 'A', 'a', 1.0])`, `[1, 2, 'a', 'A', 1.0]`},
		{`unique('aabbca')`, `'abc'`},
		{`unique({a => 1, b => 1, c => 2})`, `{['a', 'b'] => [1], ['c'] => [2]}`},
		{`unique(['a', 'B', 'A']) |$x| { $x.downcase }`, `['a', 'B']`},
		{`unique([[1], [1], [2]])`, `[[1], [2]]`},
		{`unique(Integer[1, 3])`, `[1, 2, 3]`},
		{`min(3, 1, 2)`, `1`},
		{`max(3, 1, 2)`, `3`},
		{`min('b', 'a', 'C')`, `'C'`},
		{`max('b', 'a', 'C')`, `'b'`},
		{`min([3, 1])`, `1`},
		{`max(['10', '9'])`, `'10'`},
		{`min('10', '9')`, `'9'`},
		{`max(1, 2.5)`, `2.5`},
		{`min(['a', 'bb']) |$a, $b| { compare($b.length, $a.length) }`, `'bb'`},
		{`max(1, 'a')`, `'a'`},
		{`min(1, 'a')`, `1`},
		{`max([1, 'a'])`, `'a'`},
		{`min(-1.5, -2)`, `-2`},
		{`compare(1, 2)`, `-1`},
		{`compare(2.0, 1)`, `1`},
		{`compare('a', 'B')`, `-1`},
		{`compare('a', 'B', false)`, `1`},
		{`compare('a', 'A')`, `0`},
		{`compare(1, 1)`, `0`},
		{`size(Integer[1,3].map |$x| { $x })`, `3`},
		{`abs(-5)`, `5`},
		{`abs(-5.5)`, `5.5`},
		{`abs('-12')`, `12`},
		{`abs('-1.5')`, `1.5`},
		{`ceiling(1.2)`, `2`},
		{`ceiling(-1.2)`, `-1`},
		{`ceiling(3)`, `3`},
		{`ceiling('2.5')`, `3`},
		{`floor(1.7)`, `1`},
		{`floor(-1.2)`, `-2`},
		{`floor('1e2')`, `100`},
		{`round(2.5)`, `3`},
		{`round(-2.5)`, `-3`},
		{`round(2.4)`, `2`},
		{`round(7)`, `7`},
		{`round(-0.4)`, `0`},
	})
}

func TestCollectionErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{`keys(1)`, `'keys' parameter 'hsh' expects a Hash value, got Integer`},
		{`values([])`, `'values' parameter 'hsh' expects a Hash value, got Array`},
		{`empty(true)`, "The function 'empty' was called with arguments it does not accept. It expects one of:\n  (Collection coll)\n    rejected: parameter 'coll' expects a Collection value, got Boolean\n  (Sensitive[String] str)\n    rejected: parameter 'str' expects a Sensitive[String] value, got Boolean\n  (String str)\n    rejected: parameter 'str' expects a String value, got Boolean\n  (Numeric num)\n    rejected: parameter 'num' expects a Numeric value, got Boolean\n  (Binary bin)\n    rejected: parameter 'bin' expects a Binary value, got Boolean\n  (Undef x)\n    rejected: parameter 'x' expects an Undef value, got Boolean"},
		{`dig(1, 'a')`, `'dig' parameter 'data' expects a value of type Undef or Collection, got Integer`},
		{`dig({a => 1}, a, b)`, `The given data does not contain a Collection at ["a"], got 'Integer[1, 1]'`},
		{`dig([1], 'x')`, `The given data requires an Integer index at ["x"], got 'String'`},
		{`dig({a => [1]}, a, x)`, `The given data requires an Integer index at ["a", "x"], got 'String'`},
		{`get({a => 1}, 'a.b')`, `The given data does not contain a Collection at ["a"], got 'Integer[1, 1]'`},
		{`get({a => 1}, 'a..b')`, `Syntax error in dotted-navigation string`},
		{`get([1], 'x')`, `The given data requires an Integer index at ["x"], got 'String'`},
		{`sort(1)`, "The function 'sort' was called with arguments it does not accept. It expects one of:\n  (String string_value, Callable[2, 2] block?)\n    rejected: parameter 'string_value' expects a String value, got Integer\n  (Array array_value, Callable[2, 2] block?)\n    rejected: parameter 'array_value' expects an Array value, got Integer"},
		{`sort([1, 'a'])`, `comparison of Integer with String failed`},
		{`sort([[1], 'a'])`, `comparison of Array with String failed`},
		{`sort([1, 2]) |$a| { }`, `'sort' block expects 2 arguments, got 1`},
		{`min()`, `min(): Wrong number of arguments need at least one`},
		{`max()`, `max(): Wrong number of arguments need at least one`},
		{`compare(1, 'a')`, `'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got Integer and String`},
		{`compare([1], [2])`, `'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got Array and Array`},
		{`compare(1, 2, true)`, `'compare' compare(): The third argument (ignore case) can only be used when comparing strings`},
		{`compare(1)`, `'compare' expects between 2 and 3 arguments, got 1`},
		{`abs()`, `'abs' expects 1 argument, got none`},
		{`abs('x')`, `abs(): Requires float or integer to work with - was given non decimal string`},
		{`abs(true)`, `'abs' parameter 'val' expects a value of type Numeric or String, got Boolean`},
		{`ceiling('x')`, `ceiling(): cannot convert given value to a floating point value.`},
		{`floor([1])`, `'floor' parameter 'val' expects a value of type Numeric or String, got Tuple`},
		{`round('1')`, `'round' parameter 'val' expects a Numeric value, got String`},
	})
}

func TestArityAndTypeErrors(t *testing.T) {
	checkErrors(t, []errorCase{
		{`join(['a'], [1])`, `'join' parameter 'delimiter' expects a String value, got Tuple`},
		{`split('a', ['x'])`, `'split' parameter 'pattern' expects a value of type String, Regexp, or Type[Regexp], got Tuple`},
		{`keys([1])`, `'keys' parameter 'hsh' expects a Hash value, got Tuple`},
		{`keys('a')`, `'keys' parameter 'hsh' expects a Hash value, got String`},
		{`versioncmp('a')`, `'versioncmp' expects between 2 and 3 arguments, got 1`},
		{`abs(1, 2)`, `'abs' expects 1 argument, got 2`},
		{`flatten() |$x| { }`, `'flatten' does not expect a block`},
		{`with()`, `'with' expects a block`},
		{`reduce()`, `'reduce' expects between 1 and 2 arguments, got none`},
		{`dig()`, `'dig' expects at least 1 argument, got none`},
		{`get()`, `'get' expects between 2 and 3 arguments, got none`},
		{`match('a')`, `'match' expects 2 arguments, got 1`},
		{`new()`, `'new' expects at least 1 argument, got none`},
		{`type(1, 2, 3)`, `'type' expects between 1 and 2 arguments, got 3`},
		{`sort([1], 2)`, `'sort' expects 1 argument, got 2`},
		{`unique()`, `'unique' expects 1 argument, got none`},
		{`step()`, `'step' expects 2 arguments, got none`},
		{`each()`, `'each' expects 1 argument, got none`},
		{`lest()`, `'lest' expects 1 argument, got none`},
		{`each({a => 1}) |$a, $b, $c, $d = 1| { }`, `'each' block expects between 1 and 2 arguments, got between 3 and 4`},
		{`max(1) |$a| { }`, "The function 'max' was called with arguments it does not accept. It expects one of:\n  (Numeric values*)\n    rejected: does not expect a block\n  (String values*)\n    rejected: does not expect a block\n  (Array[Numeric] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Array[String] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Array values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Any values*, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Any values*)\n    rejected: does not expect a block"},
		{`empty()`, `'empty' expects 1 argument, got none`},
		{`new(Integer, 1, 2, 3, 4)`, `'new' expects between 1 and 3 arguments, got 4`},
		{`group_by([1])`, `'group_by' expects a block`},
		{`partition(1) |$x| { }`, "The function 'partition' was called with arguments it does not accept. It expects one of:\n  (Collection collection, Callable[1, 1] block)\n    rejected: parameter 'collection' expects a Collection value, got Integer\n  (Array array, Callable[2, 2] block)\n    rejected: parameter 'array' expects an Array value, got Integer\n  (Collection collection, Callable[2, 2] block)\n    rejected: parameter 'collection' expects a Collection value, got Integer"},
		{`tree_each(1)`, `'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got Integer`},
		{`tree_each([1], {order => x})`, `'tree_each' parameter 'options' entry 'order' expects an undef value or a match for Enum['breadth_first', 'depth_first'], got 'x'`},
		{`convert_to(1)`, `'convert_to' expects at least 2 arguments, got 1`},
		{`assert_type(Integer)`, `'assert_type' expects 2 arguments, got 1`},
	})
}

func TestGetvar(t *testing.T) {
	checkValues(t, []valueCase{
		{`$x = {a => [1, {b => 2}]} getvar('x.a.1.b')`, `2`},
		{`$x = 5 getvar('x')`, `5`},
		{`getvar('nosuch', 'dflt')`, `'dflt'`},
		{`$x = {a => 1} getvar('x.b', 'dflt')`, `'dflt'`},
		{`getvar('::nosuch')`, `undef`},
		{`$x = {a => 1} getvar('x.a.b') |$e| { 'handled' }`, `'handled'`},
	})
	checkErrors(t, []errorCase{
		{`getvar('X')`, `'getvar' The given string does not start with a valid variable name`},
		{`getvar('x-y')`, `'getvar' The given string does not start with a valid variable name`},
		{`getvar(1)`, `'getvar' parameter 'get_string' expects a match for Pattern[/\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|\Z)/], got Integer`},
		{`$x = 1 getvar('x.a')`, `'dig' parameter 'data' expects a value of type Undef or Collection, got Integer`},
	})
}

// TestDigIssueCodes: the block of get (and dig) is given the issue code of
// the failure, taken from the error's code, not from its message. (Puppet
// gives an Error object; marionette a hash with its msg and issue_code.)
func TestDigIssueCodes(t *testing.T) {
	checkValues(t, []valueCase{
		{`get({a => 1}, 'a.b') |$e| { $e['issue_code'] }`, `'EXPECTED_COLLECTION'`},
		{`get({a => [1]}, 'a.x') |$e| { $e['issue_code'] }`, `'EXPECTED_INTEGER_INDEX'`},
	})
}
